#include <gtest/gtest.h>

#include "inikit/ini.hpp"

using inikit::Ini;

TEST(Parse, ReadsSectionsAndKeys) {
    Ini ini = Ini::parse("top = 1\n[server]\nhost = example.org\nport=8080\n\n[client]\nretries = 3\n");
    EXPECT_EQ(ini.get("", "top"), "1");
    EXPECT_EQ(ini.get("server", "host"), "example.org");
    EXPECT_EQ(ini.get("server", "port"), "8080");
    EXPECT_EQ(ini.get("client", "retries"), "3");
    EXPECT_EQ(ini.size(), 4u);
}

TEST(Parse, SkipsCommentLines) {
    Ini ini = Ini::parse("; a comment\n# another\n[s]\n  ; indented\nk = v\n");
    EXPECT_EQ(ini.get("s", "k"), "v");
    EXPECT_EQ(ini.size(), 1u);
}

TEST(Parse, LaterKeyWins) {
    Ini ini = Ini::parse("[s]\nk = 1\nk = 2\n");
    EXPECT_EQ(ini.get("s", "k"), "2");
}

TEST(Parse, ReportsTheBadLine) {
    try {
        Ini::parse("[s]\nk = v\nnot a pair\n");
        FAIL() << "no ParseError";
    } catch (const inikit::ParseError& e) {
        EXPECT_EQ(e.line(), 3);
    }
    EXPECT_THROW(Ini::parse("[open\n"), inikit::ParseError);
}

TEST(Get, MissingIsEmpty) {
    Ini ini = Ini::parse("[s]\nk = v\n");
    EXPECT_FALSE(ini.get("s", "other").has_value());
    EXPECT_FALSE(ini.get("t", "k").has_value());
}

TEST(Parse, StripsInlineComments) {
    Ini ini = Ini::parse("[s]\na = 1 ; one\nb = 2 # two\nc = x;y\nd = \"quoted ; kept\" ; dropped\n");
    EXPECT_EQ(ini.get("s", "a"), "1");
    EXPECT_EQ(ini.get("s", "b"), "2");
    EXPECT_EQ(ini.get("s", "c"), "x;y");
    EXPECT_EQ(ini.get("s", "d"), "\"quoted ; kept\"");
}
