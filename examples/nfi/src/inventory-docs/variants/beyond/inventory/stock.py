"""Stock keeping for warehouses: items, receipts, shipments and reorders."""

from dataclasses import dataclass, field


@dataclass
class StockItem:
    """One stock-keeping unit held in a warehouse."""

    sku: str
    name: str
    quantity: int = 0
    reorder_level: int = 5

    def needs_reorder(self) -> bool:
        """Return True when the quantity is at or below the reorder level."""
        return self.quantity <= self.reorder_level


@dataclass
class Warehouse:
    """A warehouse and the items it holds, keyed by SKU."""

    code: str
    items: dict[str, StockItem] = field(default_factory=dict)

    def add(self, item: StockItem) -> None:
        """Register a new item.

        Args:
            item: the item to add; its SKU must not be registered yet.
        """
        if item.sku in self.items:
            raise KeyError(f"duplicate sku {item.sku}")
        self.items[item.sku] = item

    def receive(self, sku: str, amount: int) -> int:
        """Add received units to an item and return its new quantity.

        Args:
            sku: the item's SKU.
            amount: how many units arrived; must be positive.
        """
        if amount <= 0:
            raise ValueError("amount must be positive")
        self.items[sku].quantity += amount
        return self.items[sku].quantity

    def ship(self, sku: str, amount: int) -> int:
        """Remove shipped units from an item and return its new quantity.

        Args:
            sku: the item's SKU.
            amount: how many units leave; at most the quantity in stock.
        """
        item = self.items[sku]
        if amount > item.quantity:
            raise ValueError(f"only {item.quantity} of {sku} in stock")
        item.quantity -= amount
        return item.quantity

    def reorder_list(self) -> list[str]:
        """Return the SKUs that need reordering, sorted."""
        return sorted(sku for sku, item in self.items.items() if item.needs_reorder())


def total_units(warehouses: list[Warehouse]) -> int:
    """Return the number of units held across all warehouses.

    Args:
        warehouses: the warehouses to count.
    """
    return sum(item.quantity for w in warehouses for item in w.items.values())
