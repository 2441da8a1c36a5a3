# --- issue #18: a method of a class defined in a loop uses the loop variable
for i in range(3):
    class A:
        def m(self):
            return i
# --- a lambda in a class body defined in a loop
for j in range(3):
    class B:
        f = lambda self: j
# --- a class nested in a class in a loop
for q in range(3):
    class D:
        class E:
            def m(self):
                return q
# --- a method that binds the name as a default passes
for p in range(3):
    class G:
        def meth(self, p=p):
            return p
# --- a class attribute does not make the name local to the method
for o in range(3):
    class F:
        o = o

        def meth(self):
            return o
# --- lambda in a loop
fs = []
for n in range(3):
    fs.append(lambda: n)
# --- the default idiom passes
fs = []
for n in range(3):
    fs.append(lambda n=n: n)
# --- def in a while loop reads a name assigned in the body
k = 0
while k < 3:
    k += 1

    def g():
        return k
# --- differs: Ruff does not report a lambda passed as key=
for x in range(3):
    sorted([], key=lambda y: y - x)
# --- differs: Ruff does not report a lambda passed to map
for x in range(3):
    list(map(lambda y: y + x, []))
# --- differs: Ruff checks nested defs inside a def made in a loop
for k in range(3):
    def outer():
        class C:
            def m(self):
                return k
        return C
# --- differs: Ruff counts a name assigned in a nested def as local
for n in range(3):
    def outer5():
        def inner():
            n = 2
            return n
        return n
