# --- type(x) == type(y)
x = y = 1
if type(x) == type(y):
    pass
# --- type(x) != type(y)
x = y = 1
if type(x) != type(y):
    pass
# --- type(x) == int
x = 1
if type(x) == int:
    pass
# --- int == type(x)
x = 1
if int == type(x):
    pass
# --- type(x) != str
x = 1
y = type(x) != str
# --- type(x) == type(None)
x = 1
y = type(x) == type(None)
# --- in a return
def f(x):
    return type(x) == dict
# --- in a comprehension
xs = [x for x in range(3) if type(x) == int]
# --- in an assert
x = 1
assert type(x) == int
# --- in a lambda
f = lambda x: type(x) == list
# --- types module
import types

x = 1
y = type(x) == types.FunctionType
# --- in a chain
x = 1
y = 0 < 1 == 1 and type(x) == float
# --- type(x) == tuple in a call
x = 1
print(type(x) == tuple)
# --- type(x) is int passes
x = 1
y = type(x) is int
# --- isinstance passes
x = 1
y = isinstance(x, int)
# --- x.type == y passes
class C:
    type = 1


y = C.type == 1
