#include "store/sql/sql_migrations.h"

#include <array>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/macros.h"

namespace firn::store::sql {
namespace {

// Step N brings the schema from version N-1 to N. Never edit a shipped step; append one.
// Keys compare byte by byte ({key}), which page tokens and listing order rely on.
constexpr std::array<std::string_view, 9> kSteps = {
    // 1: namespaces, their properties, table/view pointers, metrics reports.
    R"sql(
CREATE TABLE namespaces (
  realm       {key} NOT NULL,
  catalog     {key} NOT NULL,
  ns_key      {key} NOT NULL,
  parent_key  {key} NOT NULL,
  created_ms  {int64} NOT NULL,
  updated_ms  {int64} NOT NULL,
  PRIMARY KEY (realm, catalog, ns_key)
);
CREATE INDEX namespaces_by_parent ON namespaces (realm, catalog, parent_key, ns_key);

CREATE TABLE namespace_properties (
  realm    {key} NOT NULL,
  catalog  {key} NOT NULL,
  ns_key   {key} NOT NULL,
  name     {key} NOT NULL,
  value    {text} NOT NULL,
  PRIMARY KEY (realm, catalog, ns_key, name),
  FOREIGN KEY (realm, catalog, ns_key) REFERENCES namespaces (realm, catalog, ns_key)
    ON DELETE CASCADE
);

CREATE TABLE objects (
  realm              {key} NOT NULL,
  catalog            {key} NOT NULL,
  ns_key             {key} NOT NULL,
  name               {key} NOT NULL,
  kind               {text} NOT NULL CHECK (kind IN ('table', 'view')),
  metadata_location  {text} NOT NULL,
  version            {int64} NOT NULL,
  created_ms         {int64} NOT NULL,
  updated_ms         {int64} NOT NULL,
  PRIMARY KEY (realm, catalog, ns_key, name),
  FOREIGN KEY (realm, catalog, ns_key) REFERENCES namespaces (realm, catalog, ns_key)
);
CREATE INDEX objects_by_kind ON objects (realm, catalog, ns_key, kind, name);

CREATE TABLE metrics_reports (
  id           {generated_id},
  realm        {key} NOT NULL,
  catalog      {key} NOT NULL,
  ns_key       {key} NOT NULL,
  table_name   {key} NOT NULL,
  report_type  {text} NOT NULL,
  report_json  {text} NOT NULL,
  received_ms  {int64} NOT NULL
);
CREATE INDEX metrics_reports_by_table
  ON metrics_reports (realm, catalog, ns_key, table_name, received_ms);
)sql",
    // 2: finalized responses by Idempotency-Key (store/idempotency_store.h).
    R"sql(
CREATE TABLE idempotency_records (
  realm         {key} NOT NULL,
  catalog       {key} NOT NULL,
  idem_key      {key} NOT NULL,
  operation     {text} NOT NULL,
  status        {int32} NOT NULL,
  headers_json  {text} NOT NULL,
  body          {text} NOT NULL,
  created_ms    {int64} NOT NULL,
  PRIMARY KEY (realm, catalog, idem_key)
);
CREATE INDEX idempotency_records_by_age ON idempotency_records (created_ms);
)sql",
    // 3: identity and access records (store/access_store.h), their change counter, the audit
    // trail and the access version each serving instance has loaded.
    R"sql(
CREATE TABLE access_records (
  realm           {key} NOT NULL,
  kind            {key} NOT NULL,
  scope           {key} NOT NULL,
  name            {key} NOT NULL,
  body            {text} NOT NULL,
  entity_version  {int64} NOT NULL,
  created_ms      {int64} NOT NULL,
  updated_ms      {int64} NOT NULL,
  PRIMARY KEY (realm, kind, scope, name)
);

CREATE TABLE access_version (
  id       {int32} PRIMARY KEY CHECK (id = 1),
  version  {int64} NOT NULL
);
INSERT INTO access_version (id, version) VALUES (1, 0);

CREATE TABLE audit_log (
  id            {increasing_id},
  at_ms         {int64} NOT NULL,
  realm         {key} NOT NULL,
  catalog       {key} NOT NULL,
  principal     {key} NOT NULL,
  client        {text} NOT NULL,
  request_id    {text} NOT NULL,
  operation     {key} NOT NULL,
  object        {key} NOT NULL,
  old_location  {text} NOT NULL,
  new_location  {text} NOT NULL,
  outcome       {text} NOT NULL,
  detail        {text} NOT NULL
);
CREATE INDEX audit_log_by_realm_time ON audit_log (realm, at_ms);
CREATE INDEX audit_log_by_principal ON audit_log (principal, at_ms);
CREATE INDEX audit_log_by_operation ON audit_log (operation, at_ms);

CREATE TABLE instance_acks (
  instance_id   {key} PRIMARY KEY,
  version       {int64} NOT NULL,
  heartbeat_ms  {int64} NOT NULL
);
)sql",
    // 4: location claims (store/location_claims.h): one row per location an owner holds, keyed
    // by the location so equality and "inside" are index lookups and ranges; and small named
    // settings of the deployment.
    R"sql(
CREATE TABLE object_locations (
  location    {key} NOT NULL,
  realm       {key} NOT NULL,
  catalog     {key} NOT NULL,
  owner_kind  {key} NOT NULL
              CHECK (owner_kind IN ('table', 'view', 'namespace', 'catalog')),
  ns_key      {key} NOT NULL,
  name        {key} NOT NULL,
  PRIMARY KEY (location, realm, catalog, owner_kind, ns_key, name)
);
CREATE INDEX object_locations_by_owner
  ON object_locations (realm, catalog, owner_kind, ns_key, name);

CREATE TABLE store_settings (
  name   {key} PRIMARY KEY,
  value  {text} NOT NULL
);
)sql",
    // 5: a table fenced against a foreign writer (catalog/foreign_writers.h): the fence as a
    // small JSON document, '' when there is none. Read with the pointer, so a commit learns it
    // without another query; dropped and renamed with the row.
    R"sql(
ALTER TABLE objects ADD COLUMN fence {text} NOT NULL DEFAULT '';
)sql",
    // 6: durable tasks (store/task_store.h): purges, expiry and maintenance, claimed by one
    // instance at a time with a lease.
    R"sql(
CREATE TABLE tasks (
  id              {key} PRIMARY KEY,
  kind            {key} NOT NULL,
  realm           {key} NOT NULL,
  catalog         {key} NOT NULL,
  object          {text} NOT NULL,
  payload         {text} NOT NULL,
  state           {key} NOT NULL CHECK (state IN ('pending', 'running', 'done', 'failed')),
  attempts        {int32} NOT NULL,
  not_before_ms   {int64} NOT NULL,
  lease_owner     {key} NOT NULL,
  lease_until_ms  {int64} NOT NULL,
  progress        {text} NOT NULL,
  last_error      {text} NOT NULL,
  created_ms      {int64} NOT NULL,
  updated_ms      {int64} NOT NULL
);
CREATE INDEX tasks_due ON tasks (state, not_before_ms);
CREATE INDEX tasks_by_time ON tasks (created_ms);
)sql",
    // 7: soft-deleted tables and views (store.h, DroppedObject), kept until they expire; and
    // a table moving to another catalog (store.h, SetMoving), read with the pointer.
    R"sql(
ALTER TABLE objects ADD COLUMN moving {text} NOT NULL DEFAULT '';
CREATE TABLE dropped_objects (
  drop_id            {key} PRIMARY KEY,
  realm              {key} NOT NULL,
  catalog            {key} NOT NULL,
  ns_key             {key} NOT NULL,
  name               {key} NOT NULL,
  kind               {text} NOT NULL CHECK (kind IN ('table', 'view')),
  metadata_location  {text} NOT NULL,
  fence              {text} NOT NULL,
  uuid               {key} NOT NULL,
  dropped_ms         {int64} NOT NULL,
  expires_ms         {int64} NOT NULL,
  purge_requested    {int32} NOT NULL,
  detail             {text} NOT NULL
);
CREATE INDEX dropped_objects_by_catalog ON dropped_objects (realm, catalog, drop_id);
CREATE INDEX dropped_objects_by_uuid ON dropped_objects (realm, uuid);
)sql",
    // 8: grants follow their object (store.h, GrantsPlan): a dropped object keeps the grants
    // that were on it; a table or view moved to another catalog keeps its files where they
    // are, inside its host catalog's locations (store.h, MoveObject); and commit intents
    // (store.h, PendingFile), so that a crash never leaves a metadata file no pointer names.
    R"sql(
ALTER TABLE dropped_objects ADD COLUMN grants {text} NOT NULL DEFAULT '';
ALTER TABLE object_locations ADD COLUMN host_catalog {key} NOT NULL DEFAULT '';
CREATE INDEX object_locations_by_host ON object_locations (realm, host_catalog);

CREATE TABLE pending_files (
  location    {key} PRIMARY KEY,
  realm       {key} NOT NULL,
  catalog     {key} NOT NULL,
  ns_key      {key} NOT NULL,
  name        {key} NOT NULL,
  kind        {text} NOT NULL CHECK (kind IN ('table', 'view')),
  instance    {key} NOT NULL,
  created_ms  {int64} NOT NULL
);
CREATE INDEX pending_files_by_age ON pending_files (created_ms);
)sql",
    // 9: change events (store/event_store.h): each audit row records the transaction that wrote
    // it, so the success rows read in (txn, id) order are the change feed; and webhook sinks
    // with their delivery state.
    R"sql(
ALTER TABLE audit_log ADD COLUMN txn {int64} NOT NULL DEFAULT {transaction_id};
CREATE INDEX audit_log_by_txn ON audit_log (realm, txn, id);

CREATE TABLE event_sinks (
  realm            {key} NOT NULL,
  name             {key} NOT NULL,
  url              {text} NOT NULL,
  secret           {text} NOT NULL,
  catalog          {key} NOT NULL,
  operations       {text} NOT NULL,
  created_ms       {int64} NOT NULL,
  after_txn        {int64} NOT NULL,
  after_id         {int64} NOT NULL,
  delivered        {int64} NOT NULL,
  failures         {int64} NOT NULL,
  last_error       {text} NOT NULL,
  last_attempt_ms  {int64} NOT NULL,
  last_success_ms  {int64} NOT NULL,
  next_attempt_ms  {int64} NOT NULL,
  lease_owner      {key} NOT NULL,
  lease_until_ms   {int64} NOT NULL,
  PRIMARY KEY (realm, name)
);
CREATE INDEX event_sinks_due ON event_sinks (next_attempt_ms);
)sql",
};

// The dialect's spelling of the role named between braces.
std::string_view Spelling(std::string_view role, const SchemaDialect& dialect) {
  if (role == "key") return dialect.key;
  if (role == "text") return dialect.text;
  if (role == "int32") return dialect.int32;
  if (role == "int64") return dialect.int64;
  if (role == "generated_id") return dialect.generated_id;
  if (role == "increasing_id") return dialect.increasing_id;
  if (role == "transaction_id") return dialect.transaction_id;
  std::abort();  // a step names a role SchemaDialect lacks: a programming error
}

}  // namespace

int LatestSchemaVersion() { return static_cast<int>(kSteps.size()); }

std::string SchemaStep(int version, const SchemaDialect& dialect) {
  const std::string_view step = kSteps.at(static_cast<size_t>(version - 1));
  std::string sql;
  size_t pos = 0;
  // The steps hold no braces but their role names.
  for (size_t open = step.find('{'); open != std::string_view::npos;
       open = step.find('{', pos)) {
    const size_t close = step.find('}', open);
    sql.append(step.substr(pos, open - pos));
    sql.append(Spelling(step.substr(open + 1, close - open - 1), dialect));
    pos = close + 1;
  }
  sql.append(step.substr(pos));
  return sql;
}

Status ApplySchemaSteps(int current, const SchemaDialect& dialect,
                        FunctionRef<Status(std::string_view)> run) {
  if (current > LatestSchemaVersion()) {
    return Fail(ErrorKind::kInternal,
                "The catalog database schema (version " + std::to_string(current) +
                    ") is newer than this binary supports (version " +
                    std::to_string(LatestSchemaVersion()) + "); upgrade firn");
  }
  for (int v = current + 1; v <= LatestSchemaVersion(); ++v) {
    FIRN_RETURN_IF_ERROR(run(SchemaStep(v, dialect)));
  }
  return Ok();
}

}  // namespace firn::store::sql
