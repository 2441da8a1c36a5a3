"""Parameter documentation in three styles."""


def google(x, factor, *args, **kwargs):
    """Scale x.

    Args:
        x: The value.
        factor (float): The multiplier.
        *args: Extra values.
        **kwargs: Options.
    """
    return x * factor


def google_missing(x, factor):  # want "DOC-R12"
    """Scale x.

    Args:
        x: The value.

    Returns:
        factor: not an argument entry, this section is Returns.
    """
    return x * factor


def numpy_style(x, y, z):
    """Add numbers.

    Parameters
    ----------
    x : int
        First.
    y, z : int
        The others.
    """
    return x + y + z


def sphinx(path, mode):
    """Open a file.

    :param path: Where.
    :param str mode: How.
    """
    return open(path, mode)


def undocumented(path, mode):  # want "DOC-R12" "DOC-R12"
    """Open a file."""
    return open(path, mode)


class Store:
    """A store."""

    def get(self, key):  # want "DOC-R12"
        """Return the value."""
        return key

    def clear(self):
        """Remove everything."""

    def _private(self, key):
        """Not checked."""
        return key


def no_docstring(a, b):
    return a + b


def _private(a):
    """Private functions are not checked."""
    return a
