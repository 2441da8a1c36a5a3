# --- if/else returning True/False
def f(x):
    if x:
        return True
    else:
        return False
# --- if/else returning False/True
def f(x):
    if x:
        return False
    else:
        return True
# --- if then return True, then return False
def f(x):
    if x:
        return True
    return False
# --- if then return False, then return True
def f(x):
    if x > 1:
        return False
    return True
# --- comparison test
def f(x):
    if x == 1:
        return True
    else:
        return False
# --- boolean operator test
def f(x, y):
    if x and y:
        return True
    return False
# --- method
class C:
    def m(self):
        if self:
            return True
        return False
# --- nested in a loop
def f(xs):
    for x in xs:
        if x:
            return True
        else:
            return False
# --- not test
def f(x):
    if not x:
        return True
    return False
# --- call test
def f(x):
    if callable(x):
        return True
    else:
        return False
# --- differs: Ruff also reports the last elif/else pair
def f(x):
    if x == 1:
        return 1
    elif x == 2:
        return True
    else:
        return False
# --- async def
async def f(x):
    if x:
        return True
    return False
# --- in is test
def f(x, xs):
    if x in xs:
        return False
    return True
# --- returning 1/0 passes
def f(x):
    if x:
        return 1
    return 0
# --- returning True twice passes
def f(x):
    if x:
        return True
    return True
# --- more statements in the branch passes
def f(x):
    if x:
        print(x)
        return True
    return False
