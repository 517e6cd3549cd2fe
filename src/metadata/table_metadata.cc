#include "metadata/table_metadata.h"

namespace firn::metadata {

namespace {
template <typename T, typename Id, typename Key>
const T* FindBy(const std::vector<T>& items, Id id, Key key) {
  for (const T& item : items) {
    if (item.*key == id) return &item;
  }
  return nullptr;
}
}  // namespace

const Schema* TableMetadata::FindSchema(int id) const {
  return FindBy(schemas, id, &Schema::schema_id);
}
const PartitionSpec* TableMetadata::FindSpec(int id) const {
  return FindBy(partition_specs, id, &PartitionSpec::spec_id);
}
const SortOrder* TableMetadata::FindSortOrder(int id) const {
  return FindBy(sort_orders, id, &SortOrder::order_id);
}
const Snapshot* TableMetadata::FindSnapshot(int64_t id) const {
  return FindBy(snapshots, id, &Snapshot::snapshot_id);
}

}  // namespace firn::metadata
