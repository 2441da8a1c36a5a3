def convert(value):
    try:  # want "ERR-T02"
        return int(value)
    except ValueError:
        return None
    except TypeError:
        return 0
    except OverflowError:
        return -1
    except KeyError:
        return -2
    else:
        pass
    finally:
        pass


def fine(value):
    try:
        return int(value)
    except ValueError:
        return None
    except TypeError:
        return 0
    except (OverflowError, KeyError):
        return -1
    finally:
        pass


try:  # want "ERR-T02"
    import tomllib
except* ImportError:
    tomllib = None
except* ValueError:
    pass
except* TypeError:
    pass
except* OSError:
    pass
