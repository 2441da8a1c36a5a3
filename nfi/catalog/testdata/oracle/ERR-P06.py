# --- return in finally
def f():
    try:
        pass
    finally:
        return 1
# --- bare return in finally
def f():
    try:
        pass
    finally:
        return
# --- break in finally
for i in range(3):
    try:
        pass
    finally:
        break
# --- continue in finally
for i in range(3):
    try:
        pass
    finally:
        continue
# --- return in an if in finally
def f(x):
    try:
        pass
    finally:
        if x:
            return x
# --- break in a while in finally? no: the loop is inside
def f():
    try:
        pass
    finally:
        while True:
            break
# --- continue in a for in finally is its own loop
def f():
    try:
        pass
    finally:
        for i in range(3):
            continue
# --- return in finally with except
def f():
    try:
        pass
    except ValueError:
        pass
    finally:
        return 2
# --- return in a with in finally
def f():
    try:
        pass
    finally:
        with open('f'):
            return 3
# --- return in a nested try's finally
def f():
    try:
        try:
            pass
        finally:
            return 1
    except Exception:
        pass
# --- break in a loop around try/finally in while
while True:
    try:
        pass
    finally:
        break
# --- return in a method's finally
class C:
    def m(self):
        try:
            pass
        finally:
            return self
# --- return in an async def's finally
async def f():
    try:
        pass
    finally:
        return 1
# --- differs: Ruff does not look into the else branch of an if in finally
for i in range(3):
    try:
        pass
    finally:
        if i:
            pass
        else:
            continue
# --- return in a nested def in finally passes
def f():
    try:
        pass
    finally:
        def g():
            return 1
# --- return in the try body passes
def f():
    try:
        return 1
    finally:
        pass
# --- return after try/finally passes
def f():
    try:
        pass
    finally:
        x = 1
    return x
