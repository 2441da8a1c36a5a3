def area(w: float, h: float):  # want "DOC-R07"
    return w * h


def perimeter(w: float, h: float) -> float:
    return 2 * (w + h)


class Box:
    def __init__(self, size: int):  # want "DOC-R07"
        self.size = size

    def __len__(self):  # want "DOC-R07"
        return self.size

    @staticmethod
    def unit():  # want "DOC-R07"
        return Box(1)

    @classmethod
    def empty(cls) -> "Box":
        return cls(0)

    async def load(self) -> None:
        def _inner():  # want "DOC-R07"
            return None

        callback = lambda: None
        return callback()
