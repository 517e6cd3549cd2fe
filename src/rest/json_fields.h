// Typed access to request-body JSON. Every failure is kBadRequest naming the field and the
// expected type, never the value that was sent. Namespaces and identifiers are also held to
// the name rules of catalog/input_rules.h.
#pragma once

#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "store/store.h"

namespace firn::rest {

Result<boost::json::value> ParseJsonBody(std::string_view body);
Result<const boost::json::object*> AsObject(const boost::json::value& v, std::string_view what);
// A request body that must be a JSON object: ParseJsonBody, then AsObject(.., "request").
Result<boost::json::object> RequestObject(std::string_view body);

Result<std::string> RequiredString(const boost::json::object& o, std::string_view key);
Result<std::optional<std::string>> OptionalString(const boost::json::object& o,
                                                  std::string_view key);
Result<bool> OptionalBool(const boost::json::object& o, std::string_view key, bool fallback);
// A string→string map; absent or null gives an empty map.
Result<store::Properties> StringMap(const boost::json::object& o, std::string_view key);
// An array of strings; absent or null gives nullopt.
Result<std::optional<std::vector<std::string>>> OptionalStringArray(const boost::json::object& o,
                                                                    std::string_view key);
// o[key], which must be an object (for the metadata parsers).
Result<const boost::json::value*> RequiredObject(const boost::json::object& o,
                                                 std::string_view key);
// o[key] when it is an array (for the metadata parsers); nullptr when absent or null.
Result<const boost::json::value*> OptionalArray(const boost::json::object& o,
                                                std::string_view key);
// o[key], which must be an array.
Result<const boost::json::value*> RequiredArray(const boost::json::object& o,
                                                std::string_view key);
// A namespace array: non-empty, every level a valid name (catalog::ValidateNamespace).
Result<store::Namespace> NamespaceField(const boost::json::object& o, std::string_view key);
// TableIdentifier {"namespace": [...], "name": "..."}; levels and name are valid names.
Result<store::Identifier> IdentifierField(const boost::json::object& o, std::string_view key);

boost::json::array NamespaceToJson(const store::Namespace& ns);
boost::json::object IdentifierToJson(const store::Identifier& id);

}  // namespace firn::rest
