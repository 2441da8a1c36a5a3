import glob
import os
import os.path as osp
from os.path import join, exists
from pathlib import Path


def collect(root):
    base = os.path.abspath(root)  # want "LIB-R01"
    if not osp.isdir(base):  # want "LIB-R01"
        os.makedirs(base)  # want "LIB-R01"
    files = glob.glob(join(base, "*.py"))  # want "LIB-R01" "LIB-R01"
    for name in os.listdir(base):  # want "LIB-R01"
        if exists(name):  # want "LIB-R01"
            os.remove(name)  # want "LIB-R01"
    cwd = os.getcwd()  # want "LIB-R01"
    size = os.path.getsize(files[0])  # want "LIB-R01"
    return cwd, size


def modern(root):
    base = Path(root).resolve()
    base.mkdir(parents=True, exist_ok=True)
    files = sorted(base.glob("*.py"))
    joiner = os.path.join
    with open(files[0]) as f:
        text = f.read()
    return joiner, text, os.sep, os.environ.get("HOME")


def shadowed(os):
    return os.path.join("a", "b")
