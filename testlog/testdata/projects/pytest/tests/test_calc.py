"""Fixture for testlog's pytest golden: every outcome pytest can report."""
import pytest


def add(a, b):
    return a + b


def test_add():
    assert add(2, 3) == 5


def test_add_wrong():
    assert add(2, 2) == 5


@pytest.mark.parametrize("a,b,want", [(1, 1, 2), (2, -2, 0), (0.5, 0.25, 0.75), ("x", "y", "yx")])
def test_add_param(a, b, want):
    assert add(a, b) == want


@pytest.mark.skip(reason="not supported on this platform")
def test_skipped():
    pass


@pytest.mark.xfail(reason="known rounding bug")
def test_xfail():
    assert 0.1 + 0.2 == 0.3


@pytest.mark.xfail(reason="fixed upstream")
def test_xpass():
    assert True


@pytest.fixture
def broken():
    raise RuntimeError("fixture setup exploded")


def test_setup_error(broken):
    pass


@pytest.fixture
def bad_teardown():
    yield 1
    raise RuntimeError("teardown exploded")


def test_teardown_error(bad_teardown):
    assert bad_teardown == 1


class TestDivide:
    def test_exact(self):
        assert 6 / 3 == 2

    def test_by_zero(self):
        with pytest.raises(ZeroDivisionError):
            1 / 0

    def test_prints(self):
        print("some output PASSED in the middle")
        assert 1 / 4 == 0.3

    class TestNested:
        def test_inner(self):
            assert True
