# --- issue #18: nested if under if TYPE_CHECKING passes
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if TYPE_CHECKING:
    if A:
        import os
# --- typing.TYPE_CHECKING
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if typing.TYPE_CHECKING:
    if A:
        pass
# --- any attribute named TYPE_CHECKING
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if A.TYPE_CHECKING:
    if B:
        pass
# --- TYPE_CHECKING alias
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

from typing import TYPE_CHECKING as TC

if TC:
    if A:
        pass
# --- if TYPE_CHECKING with the elif form
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if TYPE_CHECKING:
    pass
elif A:
    if B:
        pass
# --- not TYPE_CHECKING fails
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if not TYPE_CHECKING:
    if A:
        pass
# --- TYPE_CHECKING and x fails
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if TYPE_CHECKING and A:
    if B:
        pass
# --- elif TYPE_CHECKING fails
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if A:
    pass
elif TYPE_CHECKING:
    if B:
        pass
# --- inner TYPE_CHECKING fails
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if A:
    if TYPE_CHECKING:
        pass
# --- inside TYPE_CHECKING, a deeper nested pair fails
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if TYPE_CHECKING:
    if A:
        if B:
            pass
# --- TYPE_CHECKING in a def
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

def f():
    if TYPE_CHECKING:
        if A:
            pass
# --- variable holding TYPE_CHECKING fails
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

TC = TYPE_CHECKING
if TC:
    if A:
        pass
# --- sys.platform in the outer test
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if sys.platform == 'win32':
    if A:
        pass
# --- sys.platform anywhere in the outer test
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if sys.platform.startswith('win') and A:
    if B:
        pass
# --- sys.version_info subscript
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if sys.version_info[0] == 3:
    if A:
        pass
# --- from sys import platform
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

from sys import platform

if platform == 'x':
    if A:
        pass
# --- inner sys.platform test fails
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if A:
    if sys.platform == 'win32':
        pass
# --- elif sys.platform fails
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if A:
    pass
elif sys.platform == 'x':
    if B:
        pass
# --- sys.platform outer if with elif form
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if sys.platform == 'x':
    pass
elif A:
    if B:
        pass
# --- parameter named sys
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

def g(sys):
    if sys.platform == 'x':
        if A:
            pass
# --- __name__ == '__main__'
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if __name__ == '__main__':
    if A:
        pass
# --- __name__ != '__main__'
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if __name__ != '__main__':
    if A:
        pass
# --- '__main__' == __name__ fails
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if '__main__' == __name__:
    if A:
        pass
# --- (__name__) == '__main__'
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if (__name__) == "__main__":
    if A:
        pass
# --- elif __name__ == '__main__'
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if A:
    pass
elif __name__ == '__main__':
    if B:
        pass
# --- if True
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if True:
    if A:
        pass
# --- elif False
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if A:
    pass
elif False:
    if B:
        pass
# --- if 0 fails
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if 0:
    if A:
        pass
# --- if None fails
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if None:
    if A:
        pass
# --- plain nested if fails
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if A:
    if B:
        pass
# --- three deep fails twice
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if A:
    if B:
        if C:
            pass
# --- last elif with a lone if fails
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if A:
    pass
elif B:
    pass
elif C:
    if A:
        pass
# --- else with a lone if passes
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if A:
    pass
else:
    if B:
        pass
# --- inner if with else passes
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if A:
    if B:
        pass
    else:
        pass
# --- outer body with two statements passes
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if A:
    if B:
        pass
    C = 2
# --- comments around
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if A:  # a
    # b
    if B:  # c
        pass
# --- in a loop and a match
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

for i in range(3):
    if A:
        if i:
            pass
match A:
    case 1:
        if A:
            if B:
                pass
# --- walrus in the outer test
import sys
import typing
from typing import TYPE_CHECKING

A = B = C = 1

if (n := A):
    if n:
        pass
