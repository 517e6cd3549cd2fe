// RequestContext: who is asking, in which realm and catalog. Built by rest/, read by catalog/.
#pragma once

#include <string>

#include "store/store.h"

namespace firn::catalog {

struct RequestContext {
  store::CatalogScope scope;
  std::string request_id;
  std::string user_agent;
};

}  // namespace firn::catalog
