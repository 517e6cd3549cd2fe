// Backend-independent encodings every CatalogStore implementation shares: the namespace key,
// display names used in error messages, and opaque page tokens.
//
// Thread-safety: pure functions. Errors: DecodePageToken/CheckPageSize return
// kIllegalArgument for a malformed token or a page size below 1.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"
#include "store/store.h"

namespace firn::store {

// Levels joined by 0x1F (the REST `parent` separator), so keys sort parent-first and a
// level containing '.' stays unambiguous.
inline constexpr char kNamespaceSeparator = '\x1F';

std::string NamespaceKey(const Namespace& ns);
Namespace NamespaceFromKey(std::string_view key);
// Key of the parent namespace; "" for a top-level namespace.
std::string ParentKey(const Namespace& ns);

// "a.b" — the Iceberg wording for messages.
std::string NamespaceDisplay(const Namespace& ns);
// "a.b.t"
std::string IdentifierDisplay(const Identifier& id);

// kIllegalArgument unless `ns` is non-empty and no level is empty or holds 0x1F.
Status ValidateNamespaceForCreate(const Namespace& ns);

// Opaque token = base64url (no padding) of the last key on the page.
std::string EncodePageToken(std::string_view last_key);
// nullopt for an absent or empty token (= start from the beginning).
Result<std::optional<std::string>> DecodePageToken(const std::optional<std::string>& token);
// kIllegalArgument for a size below 1.
Status CheckPageSize(const std::optional<int64_t>& size);

}  // namespace firn::store
