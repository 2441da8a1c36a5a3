import builtins


class ParseError(ValueError):
    pass


def parse(text):
    if not text:
        raise Exception("empty input")  # want "ERR-P04"
    if text == "?":
        raise Exception  # want "ERR-P04"
    if text == "!":
        raise BaseException("stop")  # want "ERR-P04"
    if text == "b":
        raise builtins.Exception("spelled out")  # want "ERR-P04"
    if text == "x":
        raise ParseError(text)
    try:
        return int(text)
    except ValueError as err:
        raise err


def shadow(Exception):
    raise Exception("a parameter, not the builtin")
