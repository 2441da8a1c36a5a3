"""Functions with and without docstrings."""

import typing


def load(path):  # want "DOC-R04"
    return open(path).read()


async def fetch(url):  # want "DOC-R04"
    return url


def save(path, data):
    """Write data to path."""

    def helper():
        return data

    return helper


def _private():
    return None


@typing.overload
def parse(x: int) -> int: ...


def parse(x):  # want "DOC-R04"
    return x


if typing.TYPE_CHECKING:
    def checked():  # want "DOC-R04"
        return 1
