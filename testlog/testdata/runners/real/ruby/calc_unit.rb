require "test/unit"

class CalcUnit < Test::Unit::TestCase
  def test_adds = assert_equal(2, 1 + 1)
  def test_fails = assert_equal(3, 1 + 1)
  def test_errors = raise("boom")
  def test_omits = omit("later")
  def test_pends = pend("soon")
  data("one" => 1, "two" => 2)
  def test_data(d) = assert_equal(1, d)
end
