"""Public methods per class fixture (limit 20)."""


class Wide:  # want "STY-T08"
    def method_0(self):
        return 0

    def method_1(self):
        return 1

    def method_2(self):
        return 2

    def method_3(self):
        return 3

    def method_4(self):
        return 4

    def method_5(self):
        return 5

    def method_6(self):
        return 6

    def method_7(self):
        return 7

    def method_8(self):
        return 8

    def method_9(self):
        return 9

    def method_10(self):
        return 10

    def method_11(self):
        return 11

    def method_12(self):
        return 12

    def method_13(self):
        return 13

    def method_14(self):
        return 14

    def method_15(self):
        return 15

    def method_16(self):
        return 16

    def method_17(self):
        return 17

    def method_18(self):
        return 18

    def method_19(self):
        return 19

    def method_20(self):
        return 20


class AtLimit:
    def method_0(self):
        return 0

    def method_1(self):
        return 1

    def method_2(self):
        return 2

    def method_3(self):
        return 3

    def method_4(self):
        return 4

    def method_5(self):
        return 5

    def method_6(self):
        return 6

    def method_7(self):
        return 7

    def method_8(self):
        return 8

    def method_9(self):
        return 9

    def method_10(self):
        return 10

    def method_11(self):
        return 11

    def method_12(self):
        return 12

    def method_13(self):
        return 13

    def method_14(self):
        return 14

    def method_15(self):
        return 15

    def method_16(self):
        return 16

    def method_17(self):
        return 17

    def method_18(self):
        return 18

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return 0

    def _private(self):
        return None

    @property
    def value(self):
        return 1


class WithSetter:
    def method_0(self):
        return 0

    def method_1(self):
        return 1

    def method_2(self):
        return 2

    def method_3(self):
        return 3

    def method_4(self):
        return 4

    def method_5(self):
        return 5

    def method_6(self):
        return 6

    def method_7(self):
        return 7

    def method_8(self):
        return 8

    def method_9(self):
        return 9

    def method_10(self):
        return 10

    def method_11(self):
        return 11

    def method_12(self):
        return 12

    def method_13(self):
        return 13

    def method_14(self):
        return 14

    def method_15(self):
        return 15

    def method_16(self):
        return 16

    def method_17(self):
        return 17

    def method_18(self):
        return 18

    @property
    def size(self):
        return 1

    @size.setter
    def size(self, value):
        self._size = value
