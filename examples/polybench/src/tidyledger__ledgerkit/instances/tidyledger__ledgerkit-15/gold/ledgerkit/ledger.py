"""A double-entry ledger of dated, balanced entries."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from typing import Dict, Iterator, List, Optional, Tuple

from ledgerkit.money import Money, total


class UnbalancedEntryError(ValueError):
    """Raised when an entry's postings do not sum to zero."""


@dataclass(frozen=True)
class Entry:
    """One journal entry: a date, a memo, and postings (account, amount) summing to zero."""

    day: date
    memo: str
    postings: Tuple[Tuple[str, Money], ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if len(self.postings) < 2:
            raise UnbalancedEntryError(f"{self.memo}: an entry needs at least two postings")
        currencies = {m.currency for _, m in self.postings}
        if len(currencies) != 1:
            raise UnbalancedEntryError(f"{self.memo}: postings mix currencies {sorted(currencies)}")
        if not total((m for _, m in self.postings), currencies.pop()).is_zero():
            raise UnbalancedEntryError(f"{self.memo}: postings do not sum to zero")


class Ledger:
    """Entries in date order (entries of the same day keep insertion order)."""

    def __init__(self, currency: str) -> None:
        self.currency = currency.upper()
        self._entries: List[Entry] = []

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._entries)

    def post(self, day: date, memo: str, *postings: Tuple[str, Money]) -> Entry:
        """Record a balanced entry and return it."""
        entry = Entry(day, memo, tuple(postings))
        if entry.postings[0][1].currency != self.currency:
            raise UnbalancedEntryError(f"{memo}: ledger is in {self.currency}")
        i = len(self._entries)
        while i > 0 and self._entries[i - 1].day > day:
            i -= 1
        self._entries.insert(i, entry)
        return entry

    def transfer(self, day: date, memo: str, source: str, target: str, amount: Money) -> Entry:
        """Move amount from source to target."""
        return self.post(day, memo, (target, amount), (source, -amount))

    def accounts(self) -> List[str]:
        """Every account that has a posting, sorted."""
        return sorted({acct for e in self._entries for acct, _ in e.postings})

    def _until(self, as_of: Optional[date]) -> Iterator[Entry]:
        """Entries dated on or before as_of (all entries when as_of is None)."""
        for e in self._entries:
            if as_of is not None and e.day > as_of:
                break
            yield e

    def balance(self, account: str, as_of: Optional[date] = None) -> Money:
        """Sum of the account's postings, up to and including as_of when given."""
        return total(
            (m for e in self._until(as_of) for acct, m in e.postings if acct == account),
            self.currency,
        )

    def balances(self, as_of: Optional[date] = None) -> Dict[str, Money]:
        """Balance of every account, up to and including as_of when given."""
        out: Dict[str, Money] = defaultdict(lambda: Money.zero(self.currency))
        for e in self._until(as_of):
            for acct, m in e.postings:
                out[acct] = out[acct] + m
        return dict(out)

    def statement(self, account: str) -> List[Tuple[date, str, Money, Money]]:
        """(day, memo, amount, running balance) for each posting to account."""
        running = Money.zero(self.currency)
        rows = []
        for e in self._entries:
            for acct, m in e.postings:
                if acct == account:
                    running = running + m
                    rows.append((e.day, e.memo, m, running))
        return rows

    def find(self, memo: str) -> Optional[Entry]:
        """The first entry whose memo contains memo, case-insensitively."""
        needle = memo.lower()
        return next((e for e in self._entries if needle in e.memo.lower()), None)
