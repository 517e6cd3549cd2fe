// CatalogRegistry: the catalogs (warehouses) this server serves, by name.
//
// Thread-safety: immutable after construction. A catalog's name is also its REST `prefix`.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace firn::catalog {

struct CatalogInfo {
  std::string name;
  std::string base_location;  // default location root for new tables, e.g. file:///data/wh
  std::string storage_type = "FILE";            // Polaris StorageConfigInfo.storageType
  std::vector<std::string> allowed_locations;   // empty = base_location only
  std::map<std::string, std::string> properties;  // Polaris CatalogProperties
};

class CatalogRegistry {
 public:
  CatalogRegistry(CatalogInfo default_catalog) : default_(std::move(default_catalog)) {
    catalogs_.emplace(default_.name, default_);
  }
  void Add(CatalogInfo info) { catalogs_.insert_or_assign(info.name, std::move(info)); }

  const CatalogInfo& Default() const { return default_; }
  const CatalogInfo* Find(std::string_view name) const {
    auto it = catalogs_.find(std::string(name));
    return it == catalogs_.end() ? nullptr : &it->second;
  }

 private:
  CatalogInfo default_;
  std::map<std::string, CatalogInfo> catalogs_;
};

}  // namespace firn::catalog
