"""Trailing whitespace fixture."""
# want:4 "STY-P01"
# want:6 "STY-P01"
x = 1 
y = 2
    
z = """
text is fine
text with trailing tab	
"""
# want:9 "STY-P01"
w = 3
# want:14 "STY-P01"

v = 4  # a comment  
# want:15 "STY-P01"
