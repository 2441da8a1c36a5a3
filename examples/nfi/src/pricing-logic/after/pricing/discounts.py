"""Discount rules for shopping carts."""

MEMBER_RATE = 0.05
BULK_RATE = 0.1
BULK_QUANTITY = 10
COUPONS = {"SPRING": 0.15, "VIP": 0.2}
BENELUX = ("NL", "BE")


def is_member(customer: dict) -> bool:
    """Return whether the customer has an active membership."""
    return bool(customer.get("member") and not customer.get("suspended"))


def line_price(line: dict) -> float:
    """Return the price of one cart line after the bulk discount."""
    price = line["price"] * line["qty"]
    if line["qty"] >= BULK_QUANTITY and not line.get("clearance"):
        price -= price * BULK_RATE
    return price


def coupon_rate(code: str, customer: dict) -> float:
    """Return the discount rate a coupon gives this customer (0 when none)."""
    if code not in COUPONS:
        return 0.0
    if customer.get("country") not in BENELUX:
        return COUPONS[code] / 2 if code == "SPRING" else 0.0
    if code == "VIP" and not is_member(customer):
        return 0.0
    return COUPONS[code]


def apply_discounts(cart: list, customer: dict, coupons: tuple = ()) -> float:
    """Return the cart total after bulk, member and coupon discounts."""
    total = sum(line_price(line) for line in cart)
    if is_member(customer) and total > 0:
        total -= total * MEMBER_RATE
    for code in coupons:
        total -= total * coupon_rate(code, customer)
    return round(total, 2)
