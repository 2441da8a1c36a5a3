"""Exact amounts of money in one currency."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from typing import Iterable, Union

Number = Union[int, str, Decimal]

# Minor units per currency (ISO 4217 exponent); two when not listed.
_EXPONENTS = {"JPY": 0, "KRW": 0, "BHD": 3, "KWD": 3}


class CurrencyMismatchError(ValueError):
    """Raised when an operation mixes two currencies."""


class Money:
    """An immutable amount in a currency, quantized to the currency's minor unit."""

    __slots__ = ("amount", "currency")

    def __init__(self, amount: Number, currency: str) -> None:
        if isinstance(amount, float):
            raise TypeError("use str or Decimal amounts, not float")
        currency = currency.upper()
        exp = Decimal(1).scaleb(-_EXPONENTS.get(currency, 2))
        object.__setattr__(self, "currency", currency)
        object.__setattr__(self, "amount", Decimal(amount).quantize(exp, rounding=ROUND_HALF_EVEN))

    def __setattr__(self, name, value):
        raise AttributeError("Money is immutable")

    @property
    def minor_unit(self) -> Decimal:
        """The smallest representable step, e.g. Decimal('0.01') for EUR."""
        return Decimal(1).scaleb(-_EXPONENTS.get(self.currency, 2))

    @classmethod
    def zero(cls, currency: str) -> "Money":
        return cls(0, currency)

    def _check(self, other: "Money") -> None:
        if not isinstance(other, Money):
            raise TypeError(f"expected Money, got {type(other).__name__}")
        if other.currency != self.currency:
            raise CurrencyMismatchError(f"{self.currency} != {other.currency}")

    def __add__(self, other: "Money") -> "Money":
        self._check(other)
        return Money(self.amount + other.amount, self.currency)

    def __sub__(self, other: "Money") -> "Money":
        self._check(other)
        return Money(self.amount - other.amount, self.currency)

    def __neg__(self) -> "Money":
        return Money(-self.amount, self.currency)

    def __mul__(self, factor: Number) -> "Money":
        if isinstance(factor, (Money, float)):
            raise TypeError("multiply Money by an int, str or Decimal")
        return Money(self.amount * Decimal(factor), self.currency)

    __rmul__ = __mul__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Money) and (self.amount, self.currency) == (other.amount, other.currency)

    def __lt__(self, other: "Money") -> bool:
        self._check(other)
        return self.amount < other.amount

    def __hash__(self) -> int:
        return hash((self.amount, self.currency))

    def __repr__(self) -> str:
        return f"Money('{self.amount}', '{self.currency}')"

    def __str__(self) -> str:
        return f"{self.amount:,} {self.currency}"

    def is_zero(self) -> bool:
        return self.amount == 0

    def allocate(self, ratios: Iterable[Number]) -> list["Money"]:
        """Split the amount by ratios, e.g. [1, 1, 1] for three equal shares.

        The shares always add up to the original amount.
        """
        ratios = [Decimal(r) for r in ratios]
        if not ratios or any(r < 0 for r in ratios) or sum(ratios) == 0:
            raise ValueError("ratios must be non-negative and not all zero")
        total = sum(ratios)
        unit = self.minor_unit
        shares = []
        for r in ratios:
            share = (self.amount * r / total).quantize(unit, rounding=ROUND_HALF_EVEN)
            shares.append(Money(share, self.currency))
        return shares


def total(items: Iterable[Money], currency: str) -> Money:
    """Sum of items; the zero amount of currency when items is empty."""
    result = Money.zero(currency)
    for m in items:
        result = result + m
    return result
