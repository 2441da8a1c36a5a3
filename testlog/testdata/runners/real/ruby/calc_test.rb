require "minitest/autorun"

class CalcTest < Minitest::Test
  def test_adds = assert_equal(2, 1 + 1)
  def test_fails = assert_equal(3, 1 + 1)
  def test_errors = raise("boom")
  def test_skips = skip("later")
end
