"""Magic numbers fixture: more than 5 magic literals fail the file."""
import sys

TIMEOUT = 30
RETRY_DELAYS = (0.5, 2, 8)
GRID = [[3, 4], [5, 6]]
__version__ = (2, 7, 1)
__all__ = ["area"]


def area(width, height=10, margin=(2, 2)):
    if width == 0 or height == 1.0:
        return -1
    first = sys.argv[2]
    tail = sys.argv[3:-2]
    every = sys.argv[::4]
    scaled = width * 3.14  # want "STY-T02"
    padded = height + 42  # want "STY-T02"
    offset = -7  # want "STY-T02"
    masked = width & ~255  # want "STY-T02"
    ratio = 16 / 9  # want "STY-T02" "STY-T02"
    big = 0x_FF_FF  # want "STY-T02"
    unit = 1 + 0.0 + ~0 + +1
    name = "12345"
    flag = True
    return first, tail, every, scaled, padded, offset, masked, ratio, big, unit, name, flag, margin
