"""Fixture for testlog's unittest golden: every outcome unittest can report."""
import unittest


class TestArith(unittest.TestCase):
    def test_add(self):
        self.assertEqual(2 + 3, 5)

    def test_sub_wrong(self):
        self.assertEqual(5 - 3, 1)

    def test_documented(self):
        """Multiplication distributes over addition."""
        self.assertEqual(2 * (3 + 4), 2 * 3 + 2 * 4)

    def test_prints(self):
        print("intermediate output", flush=True)
        self.assertTrue(True)

    def test_error(self):
        raise KeyError("missing")

    @unittest.skip("needs a network")
    def test_skipped(self):
        pass

    @unittest.expectedFailure
    def test_expected_failure(self):
        self.assertEqual(1, 2)

    @unittest.expectedFailure
    def test_unexpected_success(self):
        self.assertEqual(1, 1)

    def test_subtests(self):
        for i in range(4):
            with self.subTest(i=i):
                self.assertNotEqual(i % 2, 1)


class TestStrings(unittest.TestCase):
    def test_upper(self):
        self.assertEqual("abc".upper(), "ABC")
