"""Line breaks around binary operators fixture."""


def totals(first, second, third, flag, other):
    after = (first +
             second)
    before = (first
              + second)  # want "STY-R06"
    logical = (flag
               and other)  # want "STY-R06"
    either = (flag or
              other)
    compared = (first
                == second)  # want "STY-R06"
    unary = [
        -first,
        +second,
    ]
    call = max(first,
               -second)
    chained = (first +
               -second)
    modulo = ("%s"
              % first)
    matrix = (first
              @ second)
    commented = (first  # a comment
                 * second)  # want "STY-R06"
    continued = first \
        + second
    conditional = (first if flag
                   else -second)
    return after, before, logical, either, compared, unary, call, chained, modulo, matrix, commented, continued, conditional


def annotated(
    value: int,
) -> int:
    return value
