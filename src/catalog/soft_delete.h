// Soft delete (docs/soft-delete.md): a dropped table or view is kept, invisible, for its
// catalog's retention, restorable (undrop) under its old name or a new one, and forgotten when
// the retention ends — its files purged then if the drop asked for a purge. The CatalogService
// methods live in soft_delete.cc; this header holds the pure parts.
//
// Thread-safety: pure functions and constants.
#pragma once

#include <boost/json/object.hpp>

#include <chrono>
#include <string>
#include <string_view>

#include "common/result.h"
#include "store/store.h"

namespace firn::catalog {

// The catalog property that sets how long dropped objects are kept ("0" turns soft delete off:
// a drop then forgets the object at once, and a purge runs at once).
inline constexpr std::string_view kDropRetentionProperty = "firn.drop.retention";
inline constexpr std::chrono::seconds kDefaultDropRetention{7 * 24 * 3600};
// The task that ends a dropped object's retention (catalog/task_runner.h).
inline constexpr std::string_view kExpireDroppedTask = "expire-dropped";

// A duration as Firn's settings and properties write it (drop retention, maintenance ages and
// intervals, the load check): "<n>" seconds or "<n>s|m|h|d" (n a non-negative integer, at most
// 100 years). kBadRequest naming `what` (the setting or property) otherwise.
Result<std::chrono::seconds> ParseDuration(std::string_view text,
                                           std::string_view what = kDropRetentionProperty);

// The payload of an expire-dropped task: the drop id.
std::string EncodeExpireTask(const std::string& drop_id);
Result<std::string> DecodeExpireTask(std::string_view payload);

// A dropped object as the management API shows it (DroppedObject in the OpenAPI document).
boost::json::object DroppedObjectJson(const store::DroppedObject& dropped);

}  // namespace firn::catalog
