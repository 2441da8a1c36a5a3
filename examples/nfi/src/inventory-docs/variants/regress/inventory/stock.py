from dataclasses import dataclass, field


@dataclass
class StockItem:
    sku: str
    name: str
    quantity: int = 0
    reorder_level: int = 5

    def needs_reorder(self):
        return self.quantity <= self.reorder_level


@dataclass
class Warehouse:
    code: str
    items: dict = field(default_factory=dict)

    def add(self, item):
        if item.sku in self.items:
            raise KeyError(f"duplicate sku {item.sku}")
        self.items[item.sku] = item

    def receive(self, sku, amount):
        if amount <= 0:
            raise ValueError("amount must be positive")
        self.items[sku].quantity += amount
        return self.items[sku].quantity

    def ship(self, sku, amount):
        # TODO: allow back-orders
        item = self.items[sku]
        if amount > item.quantity:
            raise ValueError(f"only {item.quantity} of {sku} in stock")
        item.quantity -= amount
        return item.quantity

    def reorder_list(self):
        return sorted(sku for sku, item in self.items.items() if item.needs_reorder())


def total_units(warehouses):
    return sum(item.quantity for w in warehouses for item in w.items.values())
