import builtins


class ShutdownRequest(BaseException):  # want "ERR-R02"
    pass


class Abort(builtins.BaseException):  # want "ERR-R02"
    pass


class ConfigError(Exception):
    pass


class Mixed(KeyError, BaseException):  # want "ERR-R02"
    pass


class Meta(ConfigError, metaclass=type):
    pass


def local_shadow():
    BaseException = ConfigError

    class Fine(BaseException):
        pass

    return Fine
