"""Methods with and without docstrings."""

from typing import overload, override


class Account:
    """A bank account."""

    def __init__(self, owner):
        self.owner = owner

    def deposit(self, amount):  # want "DOC-R03"
        self.balance += amount

    async def refresh(self):  # want "DOC-R03"
        return None

    def withdraw(self, amount):
        """Take money out."""
        self.balance -= amount

    def __call__(self):  # want "DOC-R03"
        return self.balance

    def __new__(cls, *args):  # want "DOC-R03"
        return super().__new__(cls)

    def __repr__(self):
        return "Account()"

    def _audit(self):
        return []

    @property
    def owner_name(self):  # want "DOC-R03"
        return self.owner

    @owner_name.setter
    def owner_name(self, value):
        self.owner = value

    @overload
    def get(self, key: int) -> int: ...

    @override
    def keys(self):
        return []

    if True:
        def conditional(self):  # want "DOC-R03"
            return 1


class _Private:
    def method(self):
        return 1
