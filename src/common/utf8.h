// UTF-8 well-formedness for bytes that arrive from outside (decoded path segments, query
// values, header values) before they are echoed in JSON or accepted as names.
//
// "Well-formed" is RFC 3629 / Unicode table 3-7: no overlong forms, no surrogates (U+D800 to
// U+DFFF), nothing above U+10FFFF, no truncated sequence. Thread-safety: pure functions.
// Errors: none; the caller decides what ill-formed input means.
#pragma once

#include <string>
#include <string_view>

namespace firn::utf8 {

// Byte length of the well-formed sequence starting at `text[pos]`, or 0 if it is ill-formed.
size_t SequenceLength(std::string_view text, size_t pos);

bool IsWellFormed(std::string_view text);

// `text` with every maximal ill-formed subpart replaced by U+FFFD (as the Unicode standard
// recommends), so the result is always well-formed; well-formed input comes back unchanged.
std::string Sanitize(std::string_view text);

}  // namespace firn::utf8
