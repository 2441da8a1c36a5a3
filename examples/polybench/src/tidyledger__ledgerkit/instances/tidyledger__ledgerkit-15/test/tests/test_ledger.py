from datetime import date

import pytest

from ledgerkit import Ledger, Money, UnbalancedEntryError


def eur(x):
    return Money(x, "EUR")


@pytest.fixture
def ledger():
    book = Ledger("EUR")
    book.transfer(date(2024, 1, 31), "January salary", "income:salary", "assets:bank", eur("3000"))
    book.transfer(date(2024, 2, 1), "Rent February", "assets:bank", "expenses:rent", eur("1200"))
    book.transfer(date(2024, 1, 5), "Groceries", "assets:bank", "expenses:food", eur("84.20"))
    return book


def test_entries_are_kept_in_date_order(ledger):
    assert [e.memo for e in ledger] == ["Groceries", "January salary", "Rent February"]


def test_balances(ledger):
    assert ledger.balance("assets:bank") == eur("1715.80")
    assert ledger.balances()["expenses:rent"] == eur("1200")


def test_unbalanced_entry_is_rejected(ledger):
    with pytest.raises(UnbalancedEntryError):
        ledger.post(date(2024, 2, 2), "bad", ("a", eur("1")), ("b", eur("-2")))


def test_statement_running_balance(ledger):
    rows = ledger.statement("assets:bank")
    assert [r[3] for r in rows] == [eur("-84.20"), eur("2915.80"), eur("1715.80")]


def test_find(ledger):
    assert ledger.find("rent").memo == "Rent February"
    assert ledger.find("holiday") is None


def test_balance_as_of_a_date(ledger):
    assert ledger.balance("assets:bank", as_of=date(2024, 1, 31)) == eur("2915.80")
    assert ledger.balance("assets:bank", as_of=date(2023, 12, 31)) == eur("0")


def test_balances_as_of_a_date(ledger):
    balances = ledger.balances(as_of=date(2024, 1, 5))
    assert balances == {"assets:bank": eur("-84.20"), "expenses:food": eur("84.20")}


def test_balance_without_date_counts_everything(ledger):
    assert ledger.balance("expenses:rent") == eur("1200")
