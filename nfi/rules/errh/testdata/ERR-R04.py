import os
import socket
import select as sel
from mmap import error as mmap_error


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except IOError:  # want "ERR-R04"
        return None
    except (EnvironmentError, ValueError):  # want "ERR-R04"
        return None
    except socket.error:  # want "ERR-R04"
        return None
    except sel.error:  # want "ERR-R04"
        return None
    except mmap_error:  # want "ERR-R04"
        return None
    except os.error:  # want "ERR-R04"
        return None
    except OSError:
        return None


def check(err):
    if isinstance(err, IOError):  # want "ERR-R04"
        raise IOError("again")  # want "ERR-R04"
    return socket.timeout, os.sep


try:
    WindowsError  # want "ERR-R04"
except NameError:
    WindowsError = None


def windows(err):
    return isinstance(err, WindowsError)


def shadowed(IOError):
    return IOError
