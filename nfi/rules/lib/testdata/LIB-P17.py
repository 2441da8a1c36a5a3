import imp  # want "LIB-P17"
import os, cgi  # want "LIB-P17"
from distutils.core import setup  # want "LIB-P17"
from distutils import log, util  # want "LIB-P17"
import telnetlib as tn  # want "LIB-P17"

import importlib
import sysconfig
from email import message


def reload(mod):
    imp.reload(mod)
    return cgi, tn, importlib.reload(mod), sysconfig, message, os, setup, log, util


def lazy():
    import lib2to3.pytree  # want "LIB-P17"

    return lib2to3.pytree
