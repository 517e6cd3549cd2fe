// A table's name in the JSON documents the catalog keeps for itself (task payloads, the
// management API's dropped objects): {"namespace": ["a", "b"], "name": "t"}.
//
// Thread-safety: pure functions.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <optional>
#include <string>

#include "store/store.h"

namespace firn::catalog {

inline void PutIdentifier(boost::json::object& o, const store::Identifier& id) {
  boost::json::array ns;
  for (const std::string& level : id.ns) ns.emplace_back(level);
  o["namespace"] = std::move(ns);
  o["name"] = id.name;
}

// nullopt when either member is missing or of the wrong type.
inline std::optional<store::Identifier> GetIdentifier(const boost::json::object& o) {
  const auto* ns = o.if_contains("namespace");
  const auto* name = o.if_contains("name");
  if (!ns || !ns->is_array() || !name || !name->is_string()) return std::nullopt;
  store::Identifier id;
  for (const auto& level : ns->as_array()) {
    if (!level.is_string()) return std::nullopt;
    id.ns.emplace_back(level.as_string());
  }
  id.name = std::string(name->as_string());
  return id;
}

}  // namespace firn::catalog
