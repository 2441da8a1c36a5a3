from decimal import Decimal

import pytest

from ledgerkit import CurrencyMismatchError, Money
from ledgerkit.money import total


def test_quantizes_to_minor_unit():
    assert Money("10.005", "eur").amount == Decimal("10.00")
    assert Money("10.015", "EUR").amount == Decimal("10.02")
    assert Money("1500.4", "JPY").amount == Decimal("1500")


def test_rejects_float():
    with pytest.raises(TypeError):
        Money(0.1, "EUR")


def test_str_and_repr():
    m = Money("1234.5", "USD")
    assert str(m) == "1,234.50 USD"
    assert repr(m) == "Money('1234.50', 'USD')"


class TestArithmetic:
    def test_add_and_sub(self):
        assert Money("1.10", "EUR") + Money("2.20", "EUR") == Money("3.30", "EUR")
        assert Money("1.10", "EUR") - Money("2.20", "EUR") == Money("-1.10", "EUR")

    def test_currency_mismatch(self):
        with pytest.raises(CurrencyMismatchError):
            Money(1, "EUR") + Money(1, "USD")

    def test_multiply(self):
        assert Money("2.50", "EUR") * 3 == Money("7.50", "EUR")
        assert 2 * Money("2.50", "EUR") == Money("5.00", "EUR")

    def test_total_of_nothing_is_zero(self):
        assert total([], "EUR") == Money.zero("EUR")


class TestAllocate:
    def test_even_split(self):
        assert Money("9.00", "EUR").allocate([1, 1, 1]) == [Money("3.00", "EUR")] * 3

    def test_weighted_split(self):
        assert Money("100", "EUR").allocate([3, 1]) == [Money("75", "EUR"), Money("25", "EUR")]

    def test_rejects_zero_ratios(self):
        with pytest.raises(ValueError):
            Money("1", "EUR").allocate([0, 0])

    def test_shares_add_up_to_the_amount(self):
        shares = Money("100.00", "EUR").allocate([1, 1, 1])
        assert sum(s.amount for s in shares) == Money("100.00", "EUR").amount

    def test_leftover_cents_go_to_the_first_shares(self):
        assert Money("100.00", "EUR").allocate([1, 1, 1]) == [
            Money("33.34", "EUR"),
            Money("33.33", "EUR"),
            Money("33.33", "EUR"),
        ]

    def test_negative_amounts(self):
        assert Money("-0.05", "EUR").allocate([1, 1]) == [Money("-0.03", "EUR"), Money("-0.02", "EUR")]

    def test_zero_decimal_currency(self):
        assert Money("10", "JPY").allocate([1, 2]) == [Money("3", "JPY"), Money("7", "JPY")]
