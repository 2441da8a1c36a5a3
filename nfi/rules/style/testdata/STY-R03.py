"""Module constant naming fixture."""
import logging
import os
from typing import TypeAlias

__all__ = ["MAX_RETRIES", "connect"]
__version__ = "1.2.0"

MAX_RETRIES = 5
DEFAULT_HOST = "localhost"
_CACHE_SIZE = 128
PAIR = (1, 2)
FLAGS = frozenset({"a", "b"})
NEGATIVE = -1
ENABLED = True

max_retries = 5  # want "STY-R03"
default_timeout = 30.0  # want "STY-R03"
_cache_dir = "/tmp/cache"  # want "STY-R03"
greeting = "hello " "world"  # want "STY-R03"
pair = (1, "two", None)  # want "STY-R03"
modes = frozenset(("r", "w"))  # want "STY-R03"
offset = -4  # want "STY-R03"
mixedCase = b"bytes"  # want "STY-R03"

logger = logging.getLogger(__name__)
base_dir = os.path.dirname(__file__)
items = [1, 2, 3]
label = f"{DEFAULT_HOST}"
Alias: TypeAlias = "int"

counter = 0
counter += 1

state = "idle"


def reset():
    global state
    state = "reset"


try:
    import json
    have_json = True
except ImportError:
    have_json = False

if os.name == "nt":
    separator = "\\"  # want "STY-R03"

for step in range(3):
    last_step = 1

while False:
    looping = 1

first = second = 2


class Config:
    retries = 3


def connect():
    timeout = 10
    return timeout
