# want:1 "DOC-T02"
# 3 of 8 slots annotated (0.375 < 0.80).


def scale(x: float, factor) -> float:
    return x * factor


class Box:
    def resize(self, width, height):
        return width * height

    @staticmethod
    def unit(size: int):
        return size
