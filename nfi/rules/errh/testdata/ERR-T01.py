import json


def load(path):  # the try body is 4 of 5 code lines
    try:  # want "ERR-T01"
        with open(path) as f:
            text = f.read()
        # a comment line does not count
        data = json.loads(text)
        return data
    except OSError:
        return None


def small(path):
    name = path.strip()
    try:
        f = open(name)
    except OSError:
        return None
    text = f.read()
    data = json.loads(text)
    return data


def half(path):
    name = path.strip()
    try:
        return open(name)
    finally:
        pass


def outer(path):
    try:  # want "ERR-T01"
        try:
            return small(path)
        except ValueError:
            return None
    except OSError:
        return None


CONFIG = {}
VERSION = 1
NAME = "app"
try:
    CONFIG = load("config.json")
except ValueError:
    pass
