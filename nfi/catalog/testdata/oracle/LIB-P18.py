# --- self.assertEquals
import unittest


class T(unittest.TestCase):
    def test(self):
        self.assertEquals(1, 1)
# --- self.assertNotEquals
import unittest


class T(unittest.TestCase):
    def test(self):
        self.assertNotEquals(1, 1)
# --- self.assert_
import unittest


class T(unittest.TestCase):
    def test(self):
        self.assert_(1, 1)
# --- self.assertAlmostEquals
import unittest


class T(unittest.TestCase):
    def test(self):
        self.assertAlmostEquals(1, 1)
# --- self.assertNotAlmostEquals
import unittest


class T(unittest.TestCase):
    def test(self):
        self.assertNotAlmostEquals(1, 1)
# --- self.failUnless
import unittest


class T(unittest.TestCase):
    def test(self):
        self.failUnless(1, 1)
# --- self.failIf
import unittest


class T(unittest.TestCase):
    def test(self):
        self.failIf(1, 1)
# --- self.failUnlessEqual
import unittest


class T(unittest.TestCase):
    def test(self):
        self.failUnlessEqual(1, 1)
# --- self.failIfEqual
import unittest


class T(unittest.TestCase):
    def test(self):
        self.failIfEqual(1, 1)
# --- self.assertRegexpMatches
import unittest


class T(unittest.TestCase):
    def test(self):
        self.assertRegexpMatches(1, 1)
# --- self.assertRaisesRegexp
import unittest


class T(unittest.TestCase):
    def test(self):
        self.assertRaisesRegexp(1, 1)
# --- self.failUnlessRaises
import unittest


class T(unittest.TestCase):
    def test(self):
        self.failUnlessRaises(1, 1)
# --- self.failUnlessAlmostEqual
import unittest


class T(unittest.TestCase):
    def test(self):
        self.failUnlessAlmostEqual(1, 1)
# --- self.failIfAlmostEqual
import unittest


class T(unittest.TestCase):
    def test(self):
        self.failIfAlmostEqual(1, 1)
# --- self.assertDictContainsSubset
import unittest


class T(unittest.TestCase):
    def test(self):
        self.assertDictContainsSubset(1, 1)
# --- assertEqual passes
import unittest


class T(unittest.TestCase):
    def test(self):
        self.assertEqual(1, 1)
# --- another object's assertEquals
import unittest


class T(unittest.TestCase):
    def test(self):
        other = self
        other.assertEquals(1, 1)
# --- assertEquals outside a class
def f(self):
    self.assertEquals(1, 1)
# --- attribute without a call
import unittest


class T(unittest.TestCase):
    def test(self):
        f = self.assertEquals
