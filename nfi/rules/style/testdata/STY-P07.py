"""Wildcard import fixture."""
import os
from os.path import *  # want "STY-P07"
from collections import OrderedDict, defaultdict
from . import sibling
from .helpers import *  # want "STY-P07"


def load():
    from json import *  # want "STY-P07"
    return loads("{}"), os.sep, OrderedDict, defaultdict, sibling, join
