// Text forms of namespaces and identifiers as Iceberg messages print them ("a.b.t").
#pragma once

#include <string>

#include "store/store.h"

namespace firn::catalog {

inline std::string FormatNamespace(const store::Namespace& ns) {
  std::string out;
  for (size_t i = 0; i < ns.size(); ++i) {
    if (i) out.push_back('.');
    out += ns[i];
  }
  return out;
}

inline std::string FormatIdentifier(const store::Identifier& id) {
  return id.ns.empty() ? id.name : FormatNamespace(id.ns) + "." + id.name;
}

}  // namespace firn::catalog
