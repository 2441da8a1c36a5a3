# --- empty function docstring
def f():
    """"""
# --- blank function docstring
def f():
    """   """
# --- empty class docstring
class C:
    """"""
# --- empty method docstring
class C:
    """C."""

    def m(self):
        """"""
# --- empty module docstring
""""""
X = 1
# --- single-quoted empty docstring
def f():
    ''
# --- double-quoted empty docstring
def f():
    ""
# --- newline-only docstring
def f():
    """
    """
# --- raw empty docstring
def f():
    r""""""
# --- empty docstring of a private function
def _f():
    """"""
# --- empty docstring of a nested function
def f():
    """F."""

    def g():
        """"""
    return g
# --- empty docstring of an async function
async def f():
    """"""
# --- empty docstring of a dunder
class C:
    """C."""

    def __len__(self):
        """ """
        return 0
# --- tab-only docstring
def f():
    """	"""
# --- a docstring with text passes
def f():
    """Do it."""
# --- no docstring passes
def f():
    return 1
# --- an empty string after the first statement is no docstring
def f():
    x = 1
    """"""
    return x
# --- f-string is not a docstring
def f():
    f""""""
