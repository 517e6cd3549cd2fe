#include "store/access_store_support.h"

namespace firn::store {

std::string AccessRecordLabel(const AccessRecord& key) {
  std::string label(AccessKindName(key.kind));
  label += ' ';
  if (!key.scope.empty()) label += key.scope + "/";
  // Link names join their parts with \x1f; show a readable separator instead.
  for (char c : key.name) label += c == '\x1f' ? '|' : c;
  label += " in realm " + key.realm;
  return label;
}

Error AccessRecordExistsError(const AccessRecord& key) {
  return Error(ErrorKind::kAlreadyExists, "Access record already exists: " + AccessRecordLabel(key));
}

Error AccessRecordMissingError(const AccessRecord& key) {
  return Error(ErrorKind::kNotFound, "Access record does not exist: " + AccessRecordLabel(key));
}

Error AccessVersionMismatchError(const AccessRecord& key, int64_t expected, int64_t actual) {
  return Error(ErrorKind::kCommitFailed,
               "Access record " + AccessRecordLabel(key) + " changed concurrently (expected version " +
                   std::to_string(expected) + ", found " + std::to_string(actual) + ")");
}

Status CheckAuditFilter(const AuditFilter& filter) {
  if (filter.limit < 1 || filter.limit > 1000) {
    return Fail(ErrorKind::kIllegalArgument, "Audit limit must be between 1 and 1000");
  }
  if (filter.since_ms && filter.until_ms && *filter.since_ms >= *filter.until_ms) {
    return Fail(ErrorKind::kIllegalArgument, "Audit 'since' must be before 'until'");
  }
  return Ok();
}

AuditQuery BuildAuditQuery(const AuditFilter& filter) {
  AuditQuery query;
  std::vector<std::string> where;
  auto placeholder = [&]() { return "$" + std::to_string(query.params.size()); };
  auto text = [&](std::string_view column, const std::optional<std::string>& value) {
    if (!value) return;
    query.params.emplace_back(*value);
    where.push_back(std::string(column) + " = " + placeholder());
  };
  text("realm", filter.realm);
  text("catalog", filter.catalog);
  text("principal", filter.principal);
  text("operation", filter.operation);
  text("outcome", filter.outcome);
  if (filter.object_prefix && !filter.object_prefix->empty()) {
    // A byte-wise prefix test: LIKE would need escaping and is case-insensitive in SQLite.
    query.params.emplace_back(*filter.object_prefix);
    const std::string typed = "CAST(" + placeholder() + " AS TEXT)";
    where.push_back("substr(object, 1, length(" + typed + ")) = " + typed);
  }
  auto number = [&](std::string_view condition, const std::optional<int64_t>& value) {
    if (!value) return;
    query.params.emplace_back(*value);
    where.push_back(std::string(condition) + placeholder());
  };
  number("at_ms >= ", filter.since_ms);
  number("at_ms < ", filter.until_ms);
  number("id > ", filter.after_id);

  query.sql = "SELECT " + std::string(kAuditColumns) + " FROM audit_log";
  for (size_t i = 0; i < where.size(); ++i) query.sql += (i == 0 ? " WHERE " : " AND ") + where[i];
  // Paging forward (after_id) reads oldest first; otherwise the newest rows come first.
  query.sql += filter.after_id ? " ORDER BY id ASC" : " ORDER BY id DESC";
  query.params.emplace_back(filter.limit);
  query.sql += " LIMIT " + placeholder();
  return query;
}

}  // namespace firn::store
