#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>

namespace inikit {

// ParseError is thrown for a line that is neither a section header, a
// key = value pair, a comment nor blank; line() is 1-based.
class ParseError : public std::runtime_error {
public:
    ParseError(int line, const std::string& what)
        : std::runtime_error("line " + std::to_string(line) + ": " + what), line_(line) {}
    int line() const { return line_; }

private:
    int line_;
};

// Ini holds the key = value pairs of an INI text by section; keys before the
// first section header are in section "". A later duplicate key replaces an
// earlier one. Lines starting with ';' or '#' are comments.
class Ini {
public:
    static Ini parse(const std::string& text);

    std::optional<std::string> get(const std::string& section, const std::string& key) const;
    std::size_t size() const;

private:
    std::map<std::string, std::map<std::string, std::string>> sections_;
};

}  // namespace inikit
