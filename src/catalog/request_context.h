// RequestContext: who is asking, in which realm and catalog. Built by rest/, read by catalog/.
#pragma once

#include <memory>
#include <string>

#include "auth/caller.h"
#include "catalog/catalog_registry.h"
#include "store/store.h"

namespace firn::catalog {

struct RequestContext {
  store::CatalogScope scope;
  std::string request_id;
  std::string user_agent;
  // User-Agent plus X-Client-* headers, for the audit trail.
  std::string client;
  // The catalog named by scope.catalog, resolved from the current access snapshot.
  // Null only in tests that construct a context by hand (the registry default is used).
  std::shared_ptr<const CatalogInfo> catalog;
  // The authenticated caller; null when authentication is off (every check allows).
  std::shared_ptr<const auth::Caller> caller;
};

}  // namespace firn::catalog
