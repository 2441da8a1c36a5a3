import functools
from typing import Optional


class Point(object):
    def __init__(self, x):
        super(Point, self).__init__()
        self.label = "point %s" % x  # want "LIB-T02"
        self.name = u"p"

    @functools.lru_cache()
    def norm(self) -> Optional[float]:
        return None


def modern(x):
    label = f"point {x}"
    data = b"%d" % 3
    with open("f", "rb") as f:
        return label, data, f.read()
