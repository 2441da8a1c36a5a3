# --- tab then spaces
if True:
	    x = 1
# --- spaces then tab in a block
if True:
    if True:
    	x = 1
# --- mixed in a def
def f():
	if True:
	    return 1
# --- mixed in a class
class C:
	def m(self):
	    pass
# --- continuation line mixed
x = (1,
	    2)
# --- mixed in a for
for i in range(3):
	if i:
	    print(i)
# --- mixed in a while
while False:
	if True:
	    pass
# --- mixed in a with
with open('f') as f:
	if f:
	    pass
# --- mixed in try
try:
	if True:
	    pass
except Exception:
	pass
# --- mixed comment line
if True:
	x = 1
	    # c
# --- mixed deep
def f():
	for i in range(3):
		if i:
		    pass
# --- spaces file with one tab-indented block
def f():
    return 1


def g():
	if True:
	    return 2
# --- mixed in a string continuation
x = [
	 1,
]
# --- tabs only passes
if True:
	if True:
		x = 1
# --- spaces only passes
if True:
    if True:
        x = 1
