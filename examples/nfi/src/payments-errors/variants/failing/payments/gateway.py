"""A small client for a card-payment gateway."""

from payments.errors import CardDeclinedError, GatewayUnavailableError


class Gateway:
    """Charges cards through a transport callable."""

    def __init__(self, transport) -> None:
        """Use transport(request: dict) -> dict to talk to the gateway."""
        self.transport = transport
        self.attempts = 0

    def charge(self, card: str, cents: int) -> str:
        """Charge cents to card and return the transaction id."""
        self.attempts += 1
        try:
            reply = self.transport({"card": card, "amount": cents})
        except OSError as exc:
            raise GatewayUnavailableError("gateway unreachable") from exc
        if reply.get("status") == "declined":
            raise CardDeclinedError(reply.get("code", "unknown"))
        return reply["id"]

    def charge_many(self, orders: list) -> list:
        """Charge each (card, cents) order; stop at the first failure."""
        done = []
        for card, cents in orders:
            try:
                done.append(self.charge(card, cents))
            except CardDeclinedError:
                continue
        return done

    def try_charge(self, card: str, cents: int):
        """Charge and return the id, or None when the gateway is down."""
        try:
            return self.charge(card, cents)
        except GatewayUnavailableError:
            return None
