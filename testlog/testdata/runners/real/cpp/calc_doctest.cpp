#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
TEST_CASE("adds") { CHECK(1 + 1 == 2); }
TEST_CASE("vector <ops> & more") {
  int x = 1;
  SUBCASE("push") {
    CHECK(x == 1);
    SUBCASE("nested") { CHECK(x == 2); }
  }
  SUBCASE("pop") { CHECK(x == 1); }
}
TEST_CASE("fails") { CHECK(1 == 2); }
TEST_CASE("skipped" * doctest::skip()) { CHECK(false); }
TEST_CASE("throws") { throw 5; }
