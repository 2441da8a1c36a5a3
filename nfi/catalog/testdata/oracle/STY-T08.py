# --- issue #18: 19 methods and an overloaded one with 3 stubs pass
import typing
import typing_extensions
from typing import overload


class B:
    def m0(self):
        pass
    def m1(self):
        pass
    def m2(self):
        pass
    def m3(self):
        pass
    def m4(self):
        pass
    def m5(self):
        pass
    def m6(self):
        pass
    def m7(self):
        pass
    def m8(self):
        pass
    def m9(self):
        pass
    def m10(self):
        pass
    def m11(self):
        pass
    def m12(self):
        pass
    def m13(self):
        pass
    def m14(self):
        pass
    def m15(self):
        pass
    def m16(self):
        pass
    def m17(self):
        pass
    def m18(self):
        pass
    @overload
    def ov(self, x: int) -> int: ...
    @overload
    def ov(self, x: str) -> str: ...
    @overload
    def ov(self, x: bytes) -> bytes: ...
    def ov(self, x: object) -> object:
        return x

# --- 20 methods and an overloaded one fail
import typing
import typing_extensions
from typing import overload


class C:
    def m0(self):
        pass
    def m1(self):
        pass
    def m2(self):
        pass
    def m3(self):
        pass
    def m4(self):
        pass
    def m5(self):
        pass
    def m6(self):
        pass
    def m7(self):
        pass
    def m8(self):
        pass
    def m9(self):
        pass
    def m10(self):
        pass
    def m11(self):
        pass
    def m12(self):
        pass
    def m13(self):
        pass
    def m14(self):
        pass
    def m15(self):
        pass
    def m16(self):
        pass
    def m17(self):
        pass
    def m18(self):
        pass
    def m19(self):
        pass
    @overload
    def ov(self, x: int) -> int: ...
    def ov(self, x: object) -> object:
        return x

# --- stubs without an implementation are not counted
import typing
import typing_extensions
from typing import overload


class E:
    def m0(self):
        pass
    def m1(self):
        pass
    def m2(self):
        pass
    def m3(self):
        pass
    def m4(self):
        pass
    def m5(self):
        pass
    def m6(self):
        pass
    def m7(self):
        pass
    def m8(self):
        pass
    def m9(self):
        pass
    def m10(self):
        pass
    def m11(self):
        pass
    def m12(self):
        pass
    def m13(self):
        pass
    def m14(self):
        pass
    def m15(self):
        pass
    def m16(self):
        pass
    def m17(self):
        pass
    def m18(self):
        pass
    def m19(self):
        pass
    @typing.overload
    def s(self): ...
    @typing_extensions.overload
    def s(self, x): ...

# --- @typing.overload() counts
import typing
import typing_extensions
from typing import overload


class J:
    def m0(self):
        pass
    def m1(self):
        pass
    def m2(self):
        pass
    def m3(self):
        pass
    def m4(self):
        pass
    def m5(self):
        pass
    def m6(self):
        pass
    def m7(self):
        pass
    def m8(self):
        pass
    def m9(self):
        pass
    def m10(self):
        pass
    def m11(self):
        pass
    def m12(self):
        pass
    def m13(self):
        pass
    def m14(self):
        pass
    def m15(self):
        pass
    def m16(self):
        pass
    def m17(self):
        pass
    def m18(self):
        pass
    def m19(self):
        pass
    @typing.overload()
    def s(self): ...

# --- a redefinition counts twice
import typing
import typing_extensions
from typing import overload


class A:
    def m0(self):
        pass
    def m1(self):
        pass
    def m2(self):
        pass
    def m3(self):
        pass
    def m4(self):
        pass
    def m5(self):
        pass
    def m6(self):
        pass
    def m7(self):
        pass
    def m8(self):
        pass
    def m9(self):
        pass
    def m10(self):
        pass
    def m11(self):
        pass
    def m12(self):
        pass
    def m13(self):
        pass
    def m14(self):
        pass
    def m15(self):
        pass
    def m16(self):
        pass
    def m17(self):
        pass
    def m18(self):
        pass
    def dup(self):
        pass

    def dup(self):
        pass

# --- 20 public methods pass
import typing
import typing_extensions
from typing import overload


class A:
    def m0(self):
        pass
    def m1(self):
        pass
    def m2(self):
        pass
    def m3(self):
        pass
    def m4(self):
        pass
    def m5(self):
        pass
    def m6(self):
        pass
    def m7(self):
        pass
    def m8(self):
        pass
    def m9(self):
        pass
    def m10(self):
        pass
    def m11(self):
        pass
    def m12(self):
        pass
    def m13(self):
        pass
    def m14(self):
        pass
    def m15(self):
        pass
    def m16(self):
        pass
    def m17(self):
        pass
    def m18(self):
        pass
    def m19(self):
        pass

# --- 21 public methods fail
import typing
import typing_extensions
from typing import overload


class A:
    def m0(self):
        pass
    def m1(self):
        pass
    def m2(self):
        pass
    def m3(self):
        pass
    def m4(self):
        pass
    def m5(self):
        pass
    def m6(self):
        pass
    def m7(self):
        pass
    def m8(self):
        pass
    def m9(self):
        pass
    def m10(self):
        pass
    def m11(self):
        pass
    def m12(self):
        pass
    def m13(self):
        pass
    def m14(self):
        pass
    def m15(self):
        pass
    def m16(self):
        pass
    def m17(self):
        pass
    def m18(self):
        pass
    def m19(self):
        pass
    def m20(self):
        pass

# --- setters and deleters count
import typing
import typing_extensions
from typing import overload


class F:
    def m0(self):
        pass
    def m1(self):
        pass
    def m2(self):
        pass
    def m3(self):
        pass
    def m4(self):
        pass
    def m5(self):
        pass
    def m6(self):
        pass
    def m7(self):
        pass
    def m8(self):
        pass
    def m9(self):
        pass
    def m10(self):
        pass
    def m11(self):
        pass
    def m12(self):
        pass
    def m13(self):
        pass
    def m14(self):
        pass
    def m15(self):
        pass
    def m16(self):
        pass
    def m17(self):
        pass
    def m18(self):
        pass
    def m19(self):
        pass
    @property
    def s(self):
        pass

    @s.setter
    def s(self, v):
        pass

# --- private methods do not count
import typing
import typing_extensions
from typing import overload


class P:
    def m0(self):
        pass
    def m1(self):
        pass
    def m2(self):
        pass
    def m3(self):
        pass
    def m4(self):
        pass
    def m5(self):
        pass
    def m6(self):
        pass
    def m7(self):
        pass
    def m8(self):
        pass
    def m9(self):
        pass
    def m10(self):
        pass
    def m11(self):
        pass
    def m12(self):
        pass
    def m13(self):
        pass
    def m14(self):
        pass
    def m15(self):
        pass
    def m16(self):
        pass
    def m17(self):
        pass
    def m18(self):
        pass
    def m19(self):
        pass
    def _p(self):
        pass

# --- differs: Ruff counts dunder methods
import typing
import typing_extensions
from typing import overload


class D:
    def m0(self):
        pass
    def m1(self):
        pass
    def m2(self):
        pass
    def m3(self):
        pass
    def m4(self):
        pass
    def m5(self):
        pass
    def m6(self):
        pass
    def m7(self):
        pass
    def m8(self):
        pass
    def m9(self):
        pass
    def m10(self):
        pass
    def m11(self):
        pass
    def m12(self):
        pass
    def m13(self):
        pass
    def m14(self):
        pass
    def m15(self):
        pass
    def m16(self):
        pass
    def m17(self):
        pass
    def __eq__(self, o):
        pass

    def __len__(self):
        pass

    def __iter__(self):
        pass

