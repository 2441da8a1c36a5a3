"""Indentation fixture."""


def good(value):
    if value:
        return 1
    # a comment at the block level
    return 0


def odd(value):
  return value  # want "STY-R07"


def odd_comment(value):
    if value:
        pass
      # misaligned comment  # want "STY-R07"
    return value


def over(value):
    if value:
            return 1  # want "STY-R07"
    return 0


def over_comment(value):
    if value:
                # deep comment  # want "STY-R07"
        return 1
    return 0


def continuation(value):
    result = compute(value,
                     value + 1,
       value + 2)
    text = """
  odd indentation inside a string is fine
"""
    return result, text


def compute(*args):
    return args


class Shape:
    def area(self):
        return 0
