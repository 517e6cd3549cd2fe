#include "common/strings.h"

#include <algorithm>

namespace firn {

std::string ToLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = AsciiToLower(c);
  return out;
}

std::string ToUpper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
  return out;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return std::ranges::equal(a, b,
                            [](char x, char y) { return AsciiToLower(x) == AsciiToLower(y); });
}

bool StartsWithIgnoreCase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && EqualsIgnoreCase(text.substr(0, prefix.size()), prefix);
}

std::string_view Trim(std::string_view text, std::string_view chars) {
  const size_t first = text.find_first_not_of(chars);
  if (first == std::string_view::npos) return text.substr(text.size());
  return TrimEnd(text.substr(first), chars);
}

std::string_view TrimEnd(std::string_view text, std::string_view chars) {
  const size_t last = text.find_last_not_of(chars);
  return text.substr(0, last == std::string_view::npos ? 0 : last + 1);
}

std::string StripTrailingSlash(std::string_view location) {
  while (location.size() > 1 && location.back() == '/') location.remove_suffix(1);
  return std::string(location);
}

std::string_view StripOneTrailingSlash(std::string_view location) {
  if (!location.empty() && location.back() == '/') location.remove_suffix(1);
  return location;
}

std::vector<std::string_view> SplitString(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const size_t at = text.find(sep);
    out.push_back(text.substr(0, at));
    if (at == std::string_view::npos) break;
    text.remove_prefix(at + 1);
  }
  return out;
}

std::string JoinStrings(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += sep;
    out += items[i];
  }
  return out;
}

}  // namespace firn
