#include "inikit/ini.hpp"

#include <sstream>

namespace inikit {
namespace {

std::string trim(const std::string& s) {
    const char* ws = " \t\r";
    auto b = s.find_first_not_of(ws);
    if (b == std::string::npos) return "";
    auto e = s.find_last_not_of(ws);
    return s.substr(b, e - b + 1);
}

}  // namespace

Ini Ini::parse(const std::string& text) {
    Ini ini;
    std::istringstream in(text);
    std::string raw, section;
    int n = 0;
    while (std::getline(in, raw)) {
        ++n;
        std::string line = trim(raw);
        if (line.empty() || line[0] == ';' || line[0] == '#') continue;
        if (line.front() == '[') {
            if (line.back() != ']') throw ParseError(n, "unterminated section header");
            section = trim(line.substr(1, line.size() - 2));
            continue;
        }
        auto eq = line.find('=');
        if (eq == std::string::npos) throw ParseError(n, "expected key = value");
        std::string key = trim(line.substr(0, eq));
        if (key.empty()) throw ParseError(n, "empty key");
        std::string value = line.substr(eq + 1);
        auto semi = value.find(" ;");
        if (semi != std::string::npos) value = value.substr(0, semi);
        value = trim(value);
        ini.sections_[section][key] = value;
    }
    return ini;
}

std::optional<std::string> Ini::get(const std::string& section, const std::string& key) const {
    auto s = sections_.find(section);
    if (s == sections_.end()) return std::nullopt;
    auto k = s->second.find(key);
    if (k == s->second.end()) return std::nullopt;
    return k->second;
}

std::size_t Ini::size() const {
    std::size_t n = 0;
    for (const auto& s : sections_) n += s.second.size();
    return n;
}

}  // namespace inikit
