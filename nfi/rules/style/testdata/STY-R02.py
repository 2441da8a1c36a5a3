"""Class naming fixture."""


class HttpClient:
    pass


class _PrivateHelper:
    pass


class __Mangled:
    pass


class http_client:  # want "STY-R02"
    pass


class Snake_Case:  # want "STY-R02"
    pass


class _lower:  # want "STY-R02"
    pass


class _:  # want "STY-R02"
    pass


class Ünicode:
    pass


class über:  # want "STY-R02"
    pass


def factory():
    class inner:  # want "STY-R02"
        pass

    class Inner:
        pass

    return inner, Inner


class HTTP2Server:
    pass


class maxDiff:
    pass
