# --- indent of 2
if True:
  x = 1
# --- indent of 3
def f():
   return 1
# --- indent of 6 inside 4
def f():
    if True:
          return 1
# --- over-indented 8
def f():
        return 1
# --- comment indent of 2
def f():
  # c
    return 1
# --- comment indent of 5
def f():
     # c
    return 1
# --- over-indented class body
class C:
        x = 1
# --- indent of 2 in a for
for i in range(3):
  print(i)
# --- indent of 1
while False:
 pass
# --- indent of 2 in a with
with open('f') as f:
  f.read()
# --- indent of 2 in try
try:
  pass
except Exception:
  pass
# --- over-indented with tabs
if True:
		x = 1
# --- comment over-indented in a block
if True:
    x = 1
        # c
# --- indent of 4 passes
if True:
    x = 1
# --- hanging continuation passes
x = [
  1,
   2,
]
# --- a tab passes
if True:
	x = 1
# --- a comment at column 0 passes
def f():
# c
    return 1
