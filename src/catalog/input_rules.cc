#include "catalog/input_rules.h"

#include <string>

#include "catalog/schema_policy.h"
#include "common/macros.h"
#include "common/utf8.h"

namespace firn::catalog {
namespace {

std::unexpected<Error> Invalid(std::string_view what, std::string_view rule) {
  return Fail(ErrorKind::kBadRequest, "Invalid " + std::string(what) + ": " + std::string(rule));
}

// C0 (with NUL and 0x1F, the namespace separator) and DEL as bytes; C1 as its two-byte
// UTF-8 form C2 80..C2 9F (only meaningful once the text is known to be well-formed).
bool HasControlCharacter(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x20 || b == 0x7F) return true;
    if (b == 0xC2 && i + 1 < text.size()) {
      const auto next = static_cast<unsigned char>(text[i + 1]);
      if (next >= 0x80 && next <= 0x9F) return true;
    }
  }
  return false;
}

}  // namespace

Status ValidateName(std::string_view what, std::string_view name) {
  if (name.empty()) return Invalid(what, "must not be empty");
  if (name.size() > kMaxNameBytes) {
    return Invalid(what, "must be at most " + std::to_string(kMaxNameBytes) + " bytes");
  }
  if (!utf8::IsWellFormed(name)) return Invalid(what, "must be valid UTF-8");
  if (name == "." || name == "..") return Invalid(what, "must not be '.' or '..'");
  if (name.find('/') != std::string_view::npos) return Invalid(what, "must not contain '/'");
  if (HasControlCharacter(name)) return Invalid(what, "must not contain control characters");
  return Ok();
}

Status ValidateNamespace(const store::Namespace& ns) {
  if (ns.empty()) return Invalid("namespace", "must have at least one level");
  for (const std::string& level : ns) FIRN_RETURN_IF_ERROR(ValidateName("namespace level", level));
  return Ok();
}

Status ValidateIdentifier(std::string_view what, const store::Identifier& id) {
  for (const std::string& level : id.ns) {
    FIRN_RETURN_IF_ERROR(ValidateName("namespace level", level));
  }
  return ValidateName(what, id.name);
}

Status CheckProperties(const PropertyLimits& limits, std::string_view what,
                       const store::Properties& props) {
  if (props.size() > limits.max_count) {
    return Invalid(what, "more than " + std::to_string(limits.max_count) + " properties");
  }
  size_t total = 0;
  for (const auto& [key, value] : props) {
    if (key.size() > limits.max_key_bytes) {
      return Invalid(what, "a key is longer than " + std::to_string(limits.max_key_bytes) +
                               " bytes");
    }
    if (value.size() > limits.max_value_bytes) {
      return Invalid(what, "the value of '" + key + "' is longer than " +
                               std::to_string(limits.max_value_bytes) + " bytes");
    }
    total += key.size() + value.size();
  }
  if (total > limits.max_total_bytes) {
    return Invalid(what, "keys and values exceed " + std::to_string(limits.max_total_bytes) +
                             " bytes in total");
  }
  return CheckSchemaEvolutionProperty(what, props);
}

}  // namespace firn::catalog
