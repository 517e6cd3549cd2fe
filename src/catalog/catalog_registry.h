// CatalogRegistry: the catalogs (warehouses) this server serves, by name.
//
// Thread-safety: immutable after construction. A catalog's name is also its REST `prefix`.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/storage_profile.h"

namespace firn::catalog {

struct CatalogInfo {
  std::string name;
  std::string base_location;  // default location root for new tables, e.g. file:///data/wh
  std::string storage_type = "FILE";            // Polaris StorageConfigInfo.storageType
  std::vector<std::string> allowed_locations;   // empty = base_location only
  StorageProfile storage;                        // S3 settings (storage_type "S3")
  std::map<std::string, std::string> properties;  // Polaris CatalogProperties
};

class CatalogRegistry {
 public:
  CatalogRegistry(CatalogInfo default_catalog) : default_(std::move(default_catalog)) {
    catalogs_.emplace(default_.name, default_);
  }
  void Add(CatalogInfo info) { catalogs_.insert_or_assign(info.name, std::move(info)); }

  const CatalogInfo& Default() const { return default_; }
  // The operator's storage roots (docs/storage.md); empty = unrestricted (tests).
  void SetStorageRoots(std::vector<std::string> roots) { storage_roots_ = std::move(roots); }
  const std::vector<std::string>& storage_roots() const { return storage_roots_; }
  const CatalogInfo* Find(std::string_view name) const {
    auto it = catalogs_.find(std::string(name));
    return it == catalogs_.end() ? nullptr : &it->second;
  }

 private:
  CatalogInfo default_;
  std::map<std::string, CatalogInfo> catalogs_;
  std::vector<std::string> storage_roots_;
};

}  // namespace firn::catalog
