# --- == None
x = 1
if x == None:
    pass
# --- != None
x = 1
if x != None:
    pass
# --- None == x
x = 1
if None == x:
    pass
# --- == True
x = 1
if x == True:
    pass
# --- != False
x = 1
if x != False:
    pass
# --- == False
x = 1
y = x == False
# --- True == x
x = 1
y = True == x
# --- in a chain
x = 1
y = 0 < x == None
# --- in a return
def f(x):
    return x == None
# --- in a comprehension
xs = [x for x in range(3) if x != None]
# --- in an assert
x = 1
assert x == True
# --- in a lambda
f = lambda x: x != True
# --- in a call argument
x = 1
print(x == None)
# --- both sides literal
y = None == None
# --- is None passes
x = 1
if x is None:
    pass
# --- == 0 passes
x = 1
if x == 0:
    pass
# --- is True passes
x = 1
y = x is True
