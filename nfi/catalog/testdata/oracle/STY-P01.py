# --- trailing space
x = 1 
# --- trailing tab
x = 1	
# --- whitespace-only line
x = 1
    
y = 2
# --- trailing space after a comment
x = 1  # c 
# --- trailing space in a def
def f(): 
    return 1
# --- whitespace line in a def
def f():
    x = 1
    
    return x
# --- trailing space on a decorator
@staticmethod 
def f():
    pass
# --- trailing form feed
x = 1
# --- trailing space before a continuation
x = (1, 
     2)
# --- trailing space in a docstring
def f():
    """Do it. 

    More.
    """
# --- trailing space in a multi-line string
S = """a 
b"""
# --- tab on a blank line
x = 1
	
y = 2
# --- trailing whitespace at end of file
x = 1
   # --- trailing space in a comment line
# comment 
x = 1
# --- clean file passes
x = 1
y = 2
# --- backslash-continued line passes
x = 1 + \
    2
