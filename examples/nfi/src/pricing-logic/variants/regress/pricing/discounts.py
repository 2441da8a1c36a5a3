"""Discount rules for shopping carts."""

MEMBER_RATE = 0.05
BULK_RATE = 0.1
BULK_QUANTITY = 10
COUPONS = {"SPRING": 0.15, "VIP": 0.2}
CALLS = 0


def is_member(customer: dict) -> bool:
    """Return whether the customer has an active membership."""
    if customer.get("member") and not customer.get("suspended"):
        return True
    else:
        return False


def apply_discounts(cart: list, customer: dict, coupons: list = []) -> float:
    """Return the cart total after bulk, member and coupon discounts."""
    global CALLS
    CALLS += 1
    total = 0.0
    for line in cart:
        price = line["price"] * line["qty"]
        if line["qty"] >= BULK_QUANTITY:
            if not line.get("clearance"):
                price -= price * BULK_RATE
        total += price
    if is_member(customer):
        if total > 0:
            total -= total * MEMBER_RATE
    for code in coupons:
        if code in COUPONS:
            if customer.get("country") == "NL" or customer.get("country") == "BE":
                if code == "VIP":
                    if is_member(customer):
                        total -= total * COUPONS[code]
                else:
                    total -= total * COUPONS[code]
            elif code == "SPRING":
                total -= total * COUPONS[code] / 2
    coupons.append("USED")
    return round(total, 2)
