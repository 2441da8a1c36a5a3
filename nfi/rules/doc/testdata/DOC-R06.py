def scale(x, factor: float = 2.0, *args, key=None, **kwargs) -> float:  # want "DOC-R06" "DOC-R06" "DOC-R06" "DOC-R06"
    return x * factor


def typed(x: int, *args: int, flag: bool = False, **kwargs: str) -> int:
    return x


class Shape:
    def area(self, unit) -> float:  # want "DOC-R06"
        return 0.0

    @staticmethod
    def make(kind) -> "Shape":  # want "DOC-R06"
        return Shape()

    @classmethod
    def default(cls) -> "Shape":
        return cls()

    def __new__(cls, *args: int) -> "Shape":
        return super().__new__(cls)


def outer(a: int) -> None:
    def inner(b) -> None:  # want "DOC-R06"
        pass

    handler = lambda event: event
    return handler
