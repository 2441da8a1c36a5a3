"""ledgerkit: exact money arithmetic and a small double-entry ledger."""

from ledgerkit.ledger import Entry, Ledger, UnbalancedEntryError
from ledgerkit.money import CurrencyMismatchError, Money

__all__ = ["CurrencyMismatchError", "Entry", "Ledger", "Money", "UnbalancedEntryError"]
