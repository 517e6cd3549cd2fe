#include "store/store.h"

namespace firn::store {

LocationOwner DroppedOwner(const CatalogScope& scope, ObjectKind kind,
                           const std::string& drop_id) {
  return {scope.realm, scope.catalog,
          kind == ObjectKind::kTable ? LocationOwnerKind::kTable : LocationOwnerKind::kView,
          Namespace{}, drop_id};
}

}  // namespace firn::store
