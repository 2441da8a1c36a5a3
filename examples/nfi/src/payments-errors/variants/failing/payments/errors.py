"""Exceptions raised by the payments package."""


class PaymentError(Exception):
    """Base class of payment errors."""


class CardDeclinedError(PaymentError):
    """The issuer declined the card."""

    def __init__(self, code: str) -> None:
        """Remember the issuer's decline code."""
        super().__init__(f"card declined: {code}")
        self.code = code


class GatewayUnavailableError(PaymentError):
    """The payment gateway could not be reached."""
