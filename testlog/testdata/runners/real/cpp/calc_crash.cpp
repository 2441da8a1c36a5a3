#include <gtest/gtest.h>
#include <cstdlib>
TEST(Crash, Fine) { EXPECT_TRUE(true); }
TEST(Crash, Aborts) { std::abort(); }
TEST(Crash, NeverRuns) { EXPECT_TRUE(true); }
