// CatalogService: what engines are told about reaching a table's files — the catalog's client
// settings and, when asked, vended credentials (docs/vending.md). Part of catalog_service.h.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "catalog/authorization.h"
#include "catalog/catalog_service.h"
#include "catalog/identifiers.h"
#include "catalog/location_ownership.h"
#include "catalog/location_policy.h"
#include "common/log.h"
#include "common/macros.h"
#include "common/strings.h"

namespace firn::catalog {

using auth::Operation;

namespace {

// A catalog opts into Polaris's strict answer (400 when nothing can be vended) with this
// property; the server's `vending-strict` is the default for catalogs that do not say.
constexpr std::string_view kStrictVendingProperty = "firn.strict-credential-vending";

bool Strict(const CatalogInfo& catalog, bool server_default) {
  auto it = catalog.properties.find(std::string(kStrictVendingProperty));
  if (it == catalog.properties.end()) return server_default;
  return EqualsIgnoreCase(it->second, "true");
}

Error NoCredentials(const Identifier& id) {
  return Error(ErrorKind::kIllegalArgument, "Credential vending was requested for table " +
                                                FormatIdentifier(id) +
                                                ", but no credentials are available");
}

}  // namespace

Status CatalogService::AuthorizeVending(const RequestContext& ctx, const Identifier& id,
                                        bool creating) {
  return AuthorizeObjectOp(ctx, creating ? Operation::kCreateTableVended
                                         : Operation::kLoadTableVended,
                           id);
}

Result<TableAccess> CatalogService::TableAccessFor(const RequestContext& ctx,
                                                   const Identifier& id,
                                                   const metadata::TableMetadata& meta,
                                                   Delegation delegation,
                                                   std::string_view table_path) {
  TableAccess access;
  const CatalogInfo& catalog = CatalogOf(ctx, catalogs_);
  if (vendor_) access.config = vendor_->ClientConfig(catalog);
  const bool can_sign = !access.config.empty();
  auto offer_signing = [&] {
    const std::string endpoint = std::string(table_path) + "/sign";
    access.config["s3.remote-signing-enabled"] = "true";
    // Iceberg Java <= 1.10 and PyIceberg read s3.signer.*, 1.11 reads signer.*; both resolve
    // the endpoint against the catalog URI the client already uses.
    access.config["s3.signer.endpoint"] = endpoint;
    access.config["signer.endpoint"] = endpoint;
    access.config["s3.signer"] = "S3V4RestSigner";  // PyIceberg's signer (fsspec FileIO)
  };
  if (!delegation.vend) {
    if (delegation.sign && can_sign) offer_signing();
    return access;
  }
  const bool strict = Strict(catalog, vendor_ && vendor_->settings().strict);
  // Read-write for a caller that may write the table's data, read-only otherwise.
  const bool writer =
      AuthorizeObjectOp(ctx, Operation::kLoadTableVended, id,
                        auth::PrivilegeSet{auth::Privilege::kTABLE_WRITE_DATA})
          .has_value();
  Result<std::shared_ptr<const VendedCredentials>> vended =
      Fail(ErrorKind::kUnsupportedOperation, "this server vends no credentials");
  if (vendor_) {
    FIRN_ASSIGN_OR_RETURN(store::LocationClaim claim, TableLocationClaim(catalog, meta));
    std::vector<std::string> locations;
    auto table_location = NormalizeLocation(meta.location);
    if (table_location) locations.push_back(*table_location);
    for (const std::string& l : claim.locations) {
      if (std::find(locations.begin(), locations.end(), l) == locations.end()) {
        locations.push_back(l);
      }
    }
    const std::string principal =
        ctx.caller ? ctx.caller->subject.principal : std::string("anonymous");
    vended = vendor_->Vend(catalog, locations,
                           writer ? io::s3::DataAccess::kReadWrite : io::s3::DataAccess::kRead,
                           principal);
  }
  if (!vended) {
    if (vended.error().kind == ErrorKind::kServiceUnavailable && !(delegation.sign && can_sign)) {
      return Fail(vended.error());
    }
    spdlog::info(R"("msg":"no credentials vended","request_id":"{}","table":"{}","why":"{}")",
                 log::Escape(ctx.request_id), log::Escape(FormatIdentifier(id)),
                 log::Escape(vended.error().message));
    if (delegation.sign && can_sign) {
      offer_signing();  // the client accepts signing: it loses nothing
      return access;
    }
    if (strict) return Fail(NoCredentials(id));
    access.warning = "No storage credentials were vended: " + vended.error().message;
    return access;
  }
  access.credentials = *vended;
  // The same keys in `config`: Java serves paths outside the prefix from it, and PyIceberg
  // matches credentials by metadata location (a staged table has none).
  for (const auto& [key, value] : access.credentials->config) access.config[key] = value;
  if (!table_path.empty()) {
    access.config["client.refresh-credentials-endpoint"] = std::string(table_path) +
                                                           "/credentials";
    access.config["client.refresh-credentials-enabled"] = "true";
  }
  return access;
}

Result<std::shared_ptr<const VendedCredentials>> CatalogService::LoadCredentials(
    const RequestContext& ctx, const Identifier& id) {
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(ctx, Operation::kLoadCredentials, id));
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store_->LoadPointer(ctx.scope, id, store::ObjectKind::kTable));
  FIRN_ASSIGN_OR_RETURN(auto table, ReadMetadata(ctx, ptr.metadata_location));
  FIRN_ASSIGN_OR_RETURN(TableAccess access,
                        TableAccessFor(ctx, id, table->metadata, Delegation{true, false}, ""));
  if (!access.credentials) return Fail(NoCredentials(id));
  return access.credentials;
}

}  // namespace firn::catalog
