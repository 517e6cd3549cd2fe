// ManagementService: the operations of Polaris's management API (polaris-management-service.yml,
// /api/management/v1) — catalogs, principals, principal roles, catalog roles, role assignments,
// grants — plus Firn's audit listing.
//
// Every operation authorises first (before any existence check, so a refused caller learns
// nothing), reads from the current AccessSnapshot (no database round trip for reads), writes
// through store::AccessStore::ApplyAccessWrites together with one audit row in the same
// transaction, then waits with AccessState::AwaitPropagation until the change is in effect on
// this instance (and acknowledged by live peers) before returning. Each operation's privilege
// and securable is its auth::Operation row (auth/operations.cc), which also names its audit
// rows; docs/management.md lists them.
//
// Errors: kForbidden (missing privilege, the message names it), kNotFound (no such entity),
// kAlreadyExists (409), kCommitFailed (409, entity version mismatch), kIllegalArgument /
// kBadRequest (400), kServiceUnavailable (database down; nothing changed).
// A write that committed is reported as success even when propagation to peers is slow (the
// peers converge on their next poll) — create and rotate return a secret that is shown once.
// Secrets: generated or supplied client secrets are returned to the caller once and stored
// only as auth::HashSecretScrypt hashes; they never reach a log line or an audit row.
// Thread-safety: all methods are thread-safe. Ownership: the service borrows the stores and
// the AccessState, which must outlive it.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <memory>
#include <set>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "access/access_records.h"
#include "access/access_snapshot.h"
#include "access/bootstrap.h"
#include "access/access_state.h"
#include "auth/caller.h"
#include "auth/operations.h"
#include "auth/secrets.h"
#include "common/result.h"
#include "common/secret.h"
#include "store/access_store.h"
#include "store/store.h"

namespace firn::access {

// Who asks, per request. Built by rest/ after authentication.
struct ManagementContext {
  std::string realm = "default";
  std::shared_ptr<const auth::Caller> caller;  // null: authentication off (every check allows)
  std::string client;                          // User-Agent + X-Client-* (audit)
  std::string request_id;
};

struct ManagementOptions {
  // resetCredentials may take caller-chosen clientId/clientSecret (the spec leaves it to
  // configuration). Off: supplied credentials are refused with 400.
  bool allow_supplied_credentials = true;
  // Caller-chosen secrets shorter than this are refused.
  size_t min_supplied_secret_length = 16;
  auth::ScryptParams scrypt;  // tests lower the cost
  // Every catalog's base and allowed locations must lie inside one of these (normalised;
  // docs/storage.md). Empty = unrestricted (tests).
  std::vector<std::string> storage_roots;
  // The server-side S3 key sets a storage profile may name (`storageName`; the server's
  // s3-key-sets). A profile naming another is refused with 400.
  std::set<std::string> storage_names;
  // Seal event sinks' secrets (docs/events.md); null: a sink with a secret is refused.
  std::shared_ptr<const auth::KeyEncryptionKeys> keks;
  // Names this deployment in change events' `source`.
  std::string deployment_id;
  // Where event sinks may point (events/sink_urls.h; --event-sink-urls). Empty = any URL.
  std::vector<std::string> sink_urls;
};

// A webhook to create (createEventSink).
struct EventSinkSpec {
  std::string name;
  std::string url;                      // http:// or https://
  std::optional<Secret> secret;         // signs deliveries; 16..1024 characters
  std::string catalog;                  // '' = every catalog of the realm
  std::vector<std::string> operations;  // operation names; empty = every operation
  bool from_start = false;              // the realm's whole feed, not only what follows
};

struct EventPage {
  std::vector<store::ChangeEvent> events;
  store::EventCursor next;  // the last event's cursor, or the one asked for when none
};

// Management view of a principal (never carries secret hashes).
struct PrincipalView {
  std::string name;
  std::string client_id;
  Properties properties;
  int64_t entity_version = 0;
  int64_t created_ms = 0;
  int64_t updated_ms = 0;
};

struct PrincipalCredentials {
  std::string client_id;
  Secret client_secret;  // shown once
};

struct PrincipalWithCredentials {
  PrincipalView principal;
  PrincipalCredentials credentials;
};

struct RoleView {  // principal role or catalog role
  std::string name;
  Properties properties;
  bool federated = false;  // principal roles only; Firn has no federated roles
  int64_t entity_version = 0;
  int64_t created_ms = 0;
  int64_t updated_ms = 0;
};

// UpdatePrincipalRequest / UpdatePrincipalRoleRequest / UpdateCatalogRoleRequest.
struct PropertiesUpdate {
  int64_t current_entity_version = 0;
  Properties properties;  // replaces the stored properties
};

// UpdateCatalogRequest: absent fields stay as they are.
struct CatalogUpdate {
  std::optional<int64_t> current_entity_version;
  std::optional<Properties> properties;
  std::optional<boost::json::object> storage_config_info;
};

// ResetPrincipalRequest: absent fields are generated.
struct CredentialsReset {
  std::optional<std::string> client_id;
  std::optional<Secret> client_secret;
};

// A GrantResource of the spec (catalog, namespace, table, view) with its privilege.
struct GrantResource {
  auth::SecurableType type = auth::SecurableType::kCatalog;
  std::vector<std::string> namespace_levels;  // namespace, or the table's / view's namespace
  std::string name;                           // table or view name
  auth::Privilege privilege = auth::Privilege::kCATALOG_MANAGE_CONTENT;
  bool operator==(const GrantResource&) const = default;
};

// The audit listing's filters (the realm is always the caller's).
struct AuditQuery {
  std::optional<std::string> catalog;
  std::optional<std::string> principal;
  std::optional<std::string> operation;
  std::optional<std::string> outcome;
  std::optional<std::string> object_prefix;
  std::optional<int64_t> since_ms;
  std::optional<int64_t> until_ms;
  std::optional<int64_t> after_id;
  int64_t limit = 100;
};

struct AuditPage {
  std::vector<store::AuditEntry> entries;
  std::optional<int64_t> next;  // pass as after_id for the next page; absent on the last
};

class ManagementService {
 public:
  // `catalogs` answers "does this catalog still hold namespaces?" for deleteCatalog.
  ManagementService(store::AccessStore& access_store, store::CatalogStore& catalogs,
                    AccessState& state, ManagementOptions options = {});

  // --- catalogs (management_service_catalogs.cc)
  // Catalogs the caller may see: all with CATALOG_LIST on root, else those on which the caller
  // holds CATALOG_LIST-satisfying privileges or any catalog role.
  Result<std::vector<boost::json::object>> ListCatalogs(const ManagementContext& ctx);
  // The names listCatalogs shows this caller, sorted (also for /v1/config's unknown-warehouse
  // answer, so it names no catalog the caller could not list).
  std::vector<std::string> VisibleCatalogs(const ManagementContext& ctx) const;
  // `catalog` is the request's Catalog JSON; returns the stored Catalog JSON with versions.
  Result<boost::json::object> CreateCatalog(const ManagementContext& ctx,
                                            const boost::json::object& catalog);
  Result<boost::json::object> GetCatalog(const ManagementContext& ctx, std::string_view name);
  Result<boost::json::object> UpdateCatalog(const ManagementContext& ctx, std::string_view name,
                                            const CatalogUpdate& update);
  // Refused with 409 (kNamespaceNotEmpty-like conflict) while the catalog holds namespaces.
  Status DeleteCatalog(const ManagementContext& ctx, std::string_view name);

  // --- principals (management_service_principals.cc)
  Result<std::vector<PrincipalView>> ListPrincipals(const ManagementContext& ctx);
  Result<PrincipalWithCredentials> CreatePrincipal(const ManagementContext& ctx,
                                                   std::string_view name,
                                                   const Properties& properties);
  Result<PrincipalView> GetPrincipal(const ManagementContext& ctx, std::string_view name);
  Result<PrincipalView> UpdatePrincipal(const ManagementContext& ctx, std::string_view name,
                                        const PropertiesUpdate& update);
  Status DeletePrincipal(const ManagementContext& ctx, std::string_view name);
  // New secret; the previous one keeps working until the next rotation; older tokens revoked.
  Result<PrincipalWithCredentials> RotateCredentials(const ManagementContext& ctx,
                                                     std::string_view name);
  // New (or supplied) credentials; every earlier secret and token stops working.
  Result<PrincipalWithCredentials> ResetCredentials(const ManagementContext& ctx,
                                                    std::string_view name,
                                                    const CredentialsReset& request);

  // --- principal roles and their assignment to principals (management_service_roles.cc)
  Result<std::vector<RoleView>> ListPrincipalRoles(const ManagementContext& ctx);
  Result<RoleView> CreatePrincipalRole(const ManagementContext& ctx, std::string_view name,
                                       const Properties& properties);
  Result<RoleView> GetPrincipalRole(const ManagementContext& ctx, std::string_view name);
  Result<RoleView> UpdatePrincipalRole(const ManagementContext& ctx, std::string_view name,
                                       const PropertiesUpdate& update);
  Status DeletePrincipalRole(const ManagementContext& ctx, std::string_view name);
  Result<std::vector<RoleView>> ListPrincipalRolesAssigned(const ManagementContext& ctx,
                                                           std::string_view principal);
  Status AssignPrincipalRole(const ManagementContext& ctx, std::string_view principal,
                             std::string_view principal_role);
  Status RevokePrincipalRole(const ManagementContext& ctx, std::string_view principal,
                             std::string_view principal_role);
  Result<std::vector<PrincipalView>> ListAssigneePrincipals(const ManagementContext& ctx,
                                                            std::string_view principal_role);

  // --- catalog roles and their assignment to principal roles
  // (management_service_catalog_roles.cc)
  Result<std::vector<RoleView>> ListCatalogRoles(const ManagementContext& ctx,
                                                 std::string_view catalog);
  Result<RoleView> CreateCatalogRole(const ManagementContext& ctx, std::string_view catalog,
                                     std::string_view name, const Properties& properties);
  Result<RoleView> GetCatalogRole(const ManagementContext& ctx, std::string_view catalog,
                                  std::string_view name);
  Result<RoleView> UpdateCatalogRole(const ManagementContext& ctx, std::string_view catalog,
                                     std::string_view name, const PropertiesUpdate& update);
  Status DeleteCatalogRole(const ManagementContext& ctx, std::string_view catalog,
                           std::string_view name);
  Result<std::vector<RoleView>> ListCatalogRolesForPrincipalRole(const ManagementContext& ctx,
                                                                 std::string_view principal_role,
                                                                 std::string_view catalog);
  Status AssignCatalogRole(const ManagementContext& ctx, std::string_view principal_role,
                           std::string_view catalog, std::string_view catalog_role);
  Status RevokeCatalogRole(const ManagementContext& ctx, std::string_view principal_role,
                           std::string_view catalog, std::string_view catalog_role);
  Result<std::vector<RoleView>> ListAssigneePrincipalRoles(const ManagementContext& ctx,
                                                           std::string_view catalog,
                                                           std::string_view catalog_role);

  // --- grants (management_service_grants.cc)
  Result<std::vector<GrantResource>> ListGrants(const ManagementContext& ctx,
                                                std::string_view catalog,
                                                std::string_view catalog_role);
  Status AddGrant(const ManagementContext& ctx, std::string_view catalog,
                  std::string_view catalog_role, const GrantResource& grant);
  // `cascade`: also revoke the same privilege held on securables beneath the given one.
  Status RevokeGrant(const ManagementContext& ctx, std::string_view catalog,
                     std::string_view catalog_role, const GrantResource& grant, bool cascade);

  // --- audit (management_service.cc); needs SERVICE_MANAGE_ACCESS.
  Result<AuditPage> ListAudit(const ManagementContext& ctx, const AuditQuery& query);
  // --- durable tasks of the caller's realm, newest first (docs/tasks.md); needs
  // SERVICE_MANAGE_ACCESS. `filter.realm` is replaced by the caller's; limit 1..1000.
  Result<std::vector<store::Task>> ListTasks(const ManagementContext& ctx,
                                             store::TaskFilter filter);

  // --- change events and their webhooks (management_service_events.cc, docs/events.md); each
  // needs SERVICE_MANAGE_ACCESS. `after` nullopt = from the realm's latest event on.
  Result<EventPage> ListEvents(const ManagementContext& ctx, const std::string& catalog,
                               std::optional<store::EventCursor> after, int64_t limit);
  Result<store::EventSink> CreateEventSink(const ManagementContext& ctx,
                                           const EventSinkSpec& spec);
  Result<std::vector<store::EventSink>> ListEventSinks(const ManagementContext& ctx);
  Result<store::EventSink> GetEventSink(const ManagementContext& ctx, std::string_view name);
  Status DeleteEventSink(const ManagementContext& ctx, std::string_view name);
  const std::string& deployment_id() const { return options_.deployment_id; }

 private:
  struct Change;  // one audited write (management_service.cc)

  // kForbidden naming the missing privilege unless the caller holds what `op`'s rule
  // (auth/operations.h) requires on its target: the realm's root, the catalog `catalog`, or
  // `securable` when given (grants: the securable the grant is on).
  Status Require(const ManagementContext& ctx, auth::Operation op, std::string_view catalog = {},
                 const auth::Resource* securable = nullptr) const;
  bool Holds(const ManagementContext& ctx, const auth::PrivilegeSet& privileges,
             const auth::Resource& resource) const;
  Result<auth::Resource> TargetOf(const ManagementContext& ctx, auth::Operation op,
                                  std::string_view catalog,
                                  const auth::Resource* securable) const;
  auth::Resource Root(const ManagementContext& ctx) const;
  auth::Resource OnCatalog(const ManagementContext& ctx, std::string_view catalog) const;
  // Authorises a write; a refusal is audited (outside any transaction) and returned.
  Status RequireForWrite(const ManagementContext& ctx, auth::Operation op,
                         std::string_view catalog, std::string_view object,
                         const auth::Resource* securable = nullptr);
  // The snapshot to act on; writes refresh first so cascades see every link.
  std::shared_ptr<const AccessSnapshot> ReadSnapshot() const;
  std::shared_ptr<const AccessSnapshot> WriteSnapshot();
  // Applies `writes` with their audit row, waits for propagation. Store errors are mapped to
  // management errors and audited as failures.
  // The audit rows' `operation` is auth::AuditName(op).
  Result<int64_t> Apply(const ManagementContext& ctx, auth::Operation op,
                        std::string_view catalog, std::string_view object,
                        const std::vector<store::AccessWrite>& writes);
  void AuditFailure(const ManagementContext& ctx, auth::Operation op, std::string_view catalog,
                    std::string_view object, const Error& error);
  // Principal roles the caller acts with (for visibility of catalogs).
  std::vector<std::string> ActiveRoles(const ManagementContext& ctx,
                                       const AccessSnapshot& snap) const;
  Result<PrincipalWithCredentials> WriteCredentials(const ManagementContext& ctx,
                                                    auth::Operation operation,
                                                    const PrincipalInfo& current,
                                                    PrincipalInfo next, Secret secret);

  store::AccessStore& store_;
  store::CatalogStore& catalogs_;
  AccessState& state_;
  ManagementOptions options_;
};

}  // namespace firn::access
