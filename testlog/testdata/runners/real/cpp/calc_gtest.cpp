#include <gtest/gtest.h>
TEST(Calc, Adds) { EXPECT_EQ(2, 1 + 1); }
TEST(Calc, Fails) { EXPECT_EQ(3, 1 + 1); }
TEST(Calc, Skips) { GTEST_SKIP() << "not today"; }
class Param : public ::testing::TestWithParam<int> {};
TEST_P(Param, IsOne) { EXPECT_EQ(1, GetParam()); }
INSTANTIATE_TEST_SUITE_P(Values, Param, ::testing::Values(1, 2));
TEST(Calc, DISABLED_Later) { FAIL(); }
