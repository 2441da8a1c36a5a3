"""Function naming fixture."""
import ast
import unittest
from http.server import BaseHTTPRequestHandler
from typing import overload, override


def parse_line(line):
    return line.split()


def parseLine(line):  # want "STY-R01"
    return line.split()


async def fetchAll(urls):  # want "STY-R01"
    return urls


def __private_helper():
    def innerHelper():  # want "STY-R01"
        return 1

    def inner_ok():
        return 2

    return innerHelper() + inner_ok()


def état():
    return 0


def Été():  # want "STY-R01"
    return 0


class Walker(ast.NodeVisitor):
    def visit_Name(self, node):
        return node.id

    def visitCall(self, node):  # want "STY-R01"
        return node


class DeepWalker(Walker):
    def visit_Attribute(self, node):
        return node.attr


class Plain:
    def visit_Name(self, node):  # want "STY-R01"
        return node


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        return None

    def sendIt(self):  # want "STY-R01"
        return None


class Tests(unittest.TestCase):
    def setUp(self):
        self.value = 1

    def tearDown(self):
        self.value = 0

    def testValue(self):  # want "STY-R01"
        self.assertEqual(self.value, 1)


class Base:
    def getName(self):  # want "STY-R01"
        return "base"


class Child(Base):
    @override
    def getName(self):
        return "child"


@overload
def toText(value: int) -> str: ...
@overload
def toText(value: str) -> str: ...
def toText(value):  # want "STY-R01"
    return str(value)


def __dunder__():
    return None
