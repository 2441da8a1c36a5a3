import json


class ConfigError(Exception):
    pass


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        raise ConfigError(path)  # want "ERR-R01"
    except ValueError as err:
        raise ConfigError(path) from err
    except KeyError:
        raise ConfigError(path) from None
    except TypeError as err:
        raise err
    except RuntimeError:
        raise


def nested(path):
    try:
        return load(path)
    except ConfigError as err:
        if err.args:
            raise ValueError(path)  # want "ERR-R01"
        elif path:
            raise KeyError(path)  # want "ERR-R01"
        else:
            for _ in range(2):
                raise LookupError  # want "ERR-R01"
            else:
                raise LookupError
        with open(path):
            raise OSError(path)  # want "ERR-R01"
        match path:
            case "x":
                raise IndexError  # want "ERR-R01"
        try:
            pass
        except IndexError:
            raise ValueError  # want "ERR-R01"
        try:
            raise ValueError
        finally:
            pass

        def helper():
            raise ValueError

        class Inner:
            raise ValueError

        return helper, Inner


try:
    import yaml
except* ImportError:
    raise SystemExit("install yaml")  # want "ERR-R01"


def outside():
    raise ValueError("not in a handler")
