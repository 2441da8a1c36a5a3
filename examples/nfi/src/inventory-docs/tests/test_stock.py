import pytest

from inventory.stock import StockItem, Warehouse, total_units


def make():
    w = Warehouse("W1")
    w.add(StockItem("A-1", "bolt", 10, 3))
    w.add(StockItem("B-2", "nut", 2))
    return w


def test_receive_and_ship():
    w = make()
    assert w.receive("A-1", 5) == 15
    assert w.ship("A-1", 14) == 1
    with pytest.raises(ValueError):
        w.ship("A-1", 2)
    with pytest.raises(ValueError):
        w.receive("A-1", 0)


def test_duplicate_sku():
    w = make()
    with pytest.raises(KeyError):
        w.add(StockItem("A-1", "other"))


def test_reorder_and_totals():
    w = make()
    assert w.reorder_list() == ["B-2"]
    assert total_units([w, Warehouse("W2")]) == 12
