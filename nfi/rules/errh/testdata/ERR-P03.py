import contextlib
import os


def remove(path):
    try:
        os.remove(path)
    except FileNotFoundError:  # want "ERR-P03"
        pass


def remove_all(paths):
    for path in paths:
        try:
            os.remove(path)
        except OSError:  # want "ERR-P03"
            continue


def placeholder(path):
    try:
        os.remove(path)
    except OSError:  # want "ERR-P03"
        "ignored: the file may be gone already"
        ...


def handled(path):
    try:
        os.remove(path)
    except OSError as err:
        print(err)
    with contextlib.suppress(FileNotFoundError):
        os.remove(path)


def returns(path):
    try:
        os.remove(path)
    except OSError:
        return False
    return True
