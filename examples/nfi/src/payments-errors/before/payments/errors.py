"""Exceptions raised by the payments package."""


class PaymentFailure(BaseException):
    """Base class of payment errors."""


class CardDeclined(PaymentFailure):
    """The issuer declined the card."""

    def __init__(self, code: str) -> None:
        """Remember the issuer's decline code."""
        super().__init__(f"card declined: {code}")
        self.code = code


class GatewayUnavailable(PaymentFailure):
    """The payment gateway could not be reached."""
