import errors


class ParseFailure(ValueError):  # want "ERR-R03"
    pass


class Timeout(Exception):  # want "ERR-R03"
    """Raised when the server does not answer."""


class ParseError(ValueError):
    pass


class Warned(UserWarning):
    pass


class Remote(errors.RemoteError):
    pass


class Stop(BaseException):
    pass


class Mixin(object):
    pass


class Both(Mixin, LookupError):  # want "ERR-R03"
    pass
