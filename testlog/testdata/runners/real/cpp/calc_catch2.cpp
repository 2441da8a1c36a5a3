#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#include <stdexcept>
TEST_CASE("adds", "[math]") { REQUIRE(1 + 1 == 2); }
TEST_CASE("fails <x> & y") { CHECK(1 == 2); }
TEST_CASE("sections") {
  SECTION("a") { CHECK(true); }
  SECTION("b") { CHECK(false); }
}
TEST_CASE("throws") { throw std::runtime_error("boom"); }
TEST_CASE("may fail", "[!mayfail]") { CHECK(false); }
TEST_CASE("hidden", "[.]") { CHECK(false); }
