import pytest

from pricing.discounts import apply_discounts, is_member

CART = [{"price": 2.0, "qty": 10}, {"price": 5.0, "qty": 1}, {"price": 1.0, "qty": 20, "clearance": True}]


@pytest.mark.parametrize("customer,coupons,want", [
    ({}, [], 43.0),
    ({"member": True}, [], 40.85),
    ({"member": True, "suspended": True}, [], 43.0),
    ({"country": "NL"}, ["SPRING"], 36.55),
    ({"country": "NL"}, ["VIP"], 43.0),
    ({"country": "BE", "member": True}, ["VIP", "SPRING"], 27.78),
    ({"country": "DE"}, ["SPRING", "VIP", "BOGUS"], 39.77),
])
def test_totals(customer, coupons, want):
    assert apply_discounts(CART, customer, list(coupons)) == want


def test_member():
    assert is_member({"member": 1}) is True
    assert is_member({}) is False


def test_repeated_calls_are_independent():
    assert apply_discounts(CART, {}) == apply_discounts(CART, {}) == 43.0
