import unittest


class TestMath(unittest.TestCase):
    def test_sum(self):
        self.assertEquals(sum([1, 2]), 3)  # want "LIB-P18"
        self.assertNotEquals(sum([1, 2]), 4)  # want "LIB-P18"
        self.failUnless(True)  # want "LIB-P18"
        self.assert_(1)  # want "LIB-P18"
        with self.assertRaisesRegexp(ValueError, "x"):  # want "LIB-P18"
            int("x")

    def test_modern(self):
        self.assertEqual(sum([1, 2]), 3)
        self.assertTrue(True)
        with self.assertRaisesRegex(ValueError, "x"):
            int("x")

    def test_other_receiver(self, case):
        case.assertEquals(1, 1)
        alias = self.assertEquals
        return alias
