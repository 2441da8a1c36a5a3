"""Blank lines fixture."""
import os



SEP = os.sep  # want "STY-T07"


def compact(value):
    first = value

    second = value


    third = value  # want "STY-T07"
    items = [
        first,



        second,
    ]
    text = """



"""
    return first, second, third, items, text


# a comment after two blank lines



# a comment after three  # want "STY-T07"
class Shape:
    def area(self):
        return 0


    def perimeter(self):  # want "STY-T07"
        return 0




