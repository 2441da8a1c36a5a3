"""Mixed indentation fixture."""


def spaces(value):
    if value:
        return 1
    return 0


def mixed(value):
    if value:
	    return 1
    return 0
# want:12 "STY-P02"


def tabbed(value):
	return value
# want:18 "STY-P02"


text = """
	  this line mixes tabs and spaces inside a string
"""
# want:23 "STY-P02"
