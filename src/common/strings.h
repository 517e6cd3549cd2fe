// ASCII string helpers every area shares: case-insensitive comparison, lower-casing, trimming
// and trailing-slash stripping of locations.
//
// Contract: pure functions, thread-safe, no errors. "Case" and "whitespace" are ASCII whatever
// the process locale: these compare protocol tokens (schemes, header names, property values,
// UUIDs, type names), never prose. Bytes >= 0x80 are compared and copied unchanged.
// Ownership: a returned std::string_view points into the argument, so the caller keeps the
// argument alive while it uses the view; a returned std::string is a copy.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace firn {

// What std::isspace accepts in the "C" locale.
inline constexpr std::string_view kAsciiWhitespace = " \t\n\v\f\r";

constexpr char AsciiToLower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// `text` with A-Z mapped to a-z / a-z mapped to A-Z (ASCII only).
std::string ToLower(std::string_view text);
std::string ToUpper(std::string_view text);

bool EqualsIgnoreCase(std::string_view a, std::string_view b);
bool StartsWithIgnoreCase(std::string_view text, std::string_view prefix);

// `text` without the leading and trailing characters that are in `chars`.
std::string_view Trim(std::string_view text, std::string_view chars = kAsciiWhitespace);
// `text` without the trailing characters that are in `chars`.
std::string_view TrimEnd(std::string_view text, std::string_view chars = kAsciiWhitespace);

// `items` with `sep` between them.
std::string JoinStrings(const std::vector<std::string>& items, std::string_view sep);
// The pieces of `text` between `sep`s: "a,b" gives {"a", "b"}; "" gives none, and a trailing
// separator adds no empty piece ("a/" gives {"a"}). The pieces view `text`.
std::vector<std::string_view> SplitString(std::string_view text, char sep);

// Every trailing '/' removed, except that the first character always stays ("/" stays "/",
// "a//" becomes "a"): the form in which a base location is joined with "/" + name.
std::string StripTrailingSlash(std::string_view location);
// At most one trailing '/' removed ("a//" becomes "a/"): how the metadata directory is derived
// from a table or view location, which keeps any further slash the writer put there.
std::string_view StripOneTrailingSlash(std::string_view location);

}  // namespace firn
