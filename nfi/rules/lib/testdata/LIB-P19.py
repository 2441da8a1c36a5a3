import inspect
import logging
import time
import warnings
import xml.etree.cElementTree as ET  # want "LIB-P19"
from typing import Text  # want "LIB-P19"

import mock  # want "LIB-P19"

logger = logging.getLogger(__name__)


def check(fn, x: Text) -> Text:  # want "LIB-P19" "LIB-P19"
    spec = inspect.getargspec(fn)  # want "LIB-P19"
    start = time.clock()  # want "LIB-P19"
    logging.warn("legacy")  # want "LIB-P19"
    logger.warn("negative: %s", x)  # want "LIB-P19"
    logging.getLogger("x").warn("deep")  # want "LIB-P19"
    return spec, start, ET, mock


def modern(fn, x: str) -> str:
    sig = inspect.signature(fn)
    start = time.perf_counter()
    logging.warning("fine")
    logger.warning("negative: %s", x)
    warnings.warn("a warning, not a log call")
    return sig, start
