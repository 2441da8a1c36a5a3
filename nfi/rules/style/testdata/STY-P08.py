"""Multiple imports fixture."""
import os
import os, sys  # want "STY-P08"
import json as j, pickle  # want "STY-P08"
import xml.etree.ElementTree
from collections import OrderedDict, defaultdict
from typing import (
    Any,
    Optional,
)


def load():
    import csv, io  # want "STY-P08"
    return os, sys, j, pickle, xml, OrderedDict, defaultdict, Any, Optional, csv, io
