// CatalogService::SignRequest: remote signing of an engine's S3 request for one table, and
// FindSignOwner: the table a request of the older table-less signer route reaches
// (docs/vending.md, "Remote signing"). Part of catalog_service.h.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include "catalog/authorization.h"
#include "catalog/catalog_service.h"
#include "catalog/identifiers.h"
#include "catalog/location_ownership.h"
#include "catalog/location_policy.h"
#include "common/log.h"
#include "common/macros.h"

namespace firn::catalog {

using auth::Operation;

namespace {

// "host[:port]" of an http(s) endpoint; "" for none.
std::string EndpointHost(std::string_view endpoint) {
  size_t start = endpoint.find("://");
  if (start == std::string_view::npos) return "";
  std::string_view rest = endpoint.substr(start + 3);
  rest = rest.substr(0, rest.find('/'));
  size_t colon = rest.rfind(':');
  if (colon != std::string_view::npos && rest.find(']') == std::string_view::npos) {
    rest = rest.substr(0, colon);
  }
  return std::string(rest);
}

// Whether `key` of `bucket` lies inside one of `locations`. A listing prefix must name the
// inside of a location (a bare "db/t" would also list "db/t2/…").
bool Inside(const std::vector<std::string>& locations, const std::string& bucket,
            const std::string& key, bool listing) {
  const std::string uri = "s3://" + bucket + "/" + key;
  for (const std::string& location : locations) {
    if (listing) {
      if (uri.starts_with(location + "/")) return true;
    } else if (uri != location && IsUnder(uri, location)) {
      return true;
    }
  }
  return false;
}

// The host of the client-facing endpoint of `config` ("" when it names none: path-style).
std::string ConfigEndpointHost(const std::map<std::string, std::string>& config) {
  auto endpoint = config.find("s3.endpoint");
  return endpoint == config.end() ? "" : EndpointHost(endpoint->second);
}

// One answer for every reason the table-less signer refuses, so that it tells a caller nothing
// about which tables exist where.
std::unexpected<Error> NoSignOwner() {
  return Fail(ErrorKind::kForbidden,
              "Cannot sign this request: it lies inside no single table the caller may sign for");
}

}  // namespace

Result<SignOwner> CatalogService::FindSignOwner(const RequestContext& ctx,
                                                const io::s3::ClientS3Request& request) {
  const CatalogInfo& catalog = CatalogOf(ctx, catalogs_);
  const auto config = vendor_ ? vendor_->ClientConfig(catalog)
                              : std::map<std::string, std::string>();
  FIRN_ASSIGN_OR_RETURN(io::s3::SignTarget target,
                        io::s3::ParseSignTarget(request.uri, ConfigEndpointHost(config)));
  auto touched = io::s3::TouchedKeys(request, target);
  if (!touched) return NoSignOwner();
  std::optional<store::LocationOwner> found;
  for (const std::string& key : *touched) {
    std::string_view inside = key;
    while (inside.ends_with('/')) inside.remove_suffix(1);  // a listing prefix "db/t/data/"
    if (inside.empty()) return NoSignOwner();              // the whole bucket
    auto location = NormalizeLocation("s3://" + target.bucket + "/" + std::string(inside));
    if (!location) return NoSignOwner();
    FIRN_ASSIGN_OR_RETURN(auto holders, store_->LocationHolders(*location));
    auto table = std::ranges::find_if(holders, [&](const store::HeldLocation& held) {
      return held.owner.kind == store::LocationOwnerKind::kTable &&
             held.owner.realm == ctx.scope.realm;
    });
    if (table == holders.end() || (found && !(*found == table->owner))) return NoSignOwner();
    found = table->owner;
  }
  if (!found) return NoSignOwner();
  return SignOwner{found->catalog, Identifier{found->ns, found->name}};
}

std::unexpected<Error> SignOwnerRefusal(const Error& error) {
  switch (error.kind) {
    case ErrorKind::kForbidden:
    case ErrorKind::kNoSuchTable:
    case ErrorKind::kNoSuchNamespace:
    case ErrorKind::kNoSuchWarehouse:
      return NoSignOwner();
    default:
      return std::unexpected(error);
  }
}

Result<std::vector<io::s3::HttpHeader>> CatalogService::SignRequest(
    const RequestContext& ctx, const Identifier& id, const io::s3::ClientS3Request& request) {
  FIRN_ASSIGN_OR_RETURN(io::s3::S3Access access, io::s3::AccessOf(request.method));
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(
      ctx,
      access == io::s3::S3Access::kWrite ? Operation::kSignWriteRequest : Operation::kSignRequest,
      id));
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store_->LoadPointer(ctx.scope, id, store::ObjectKind::kTable));
  FIRN_ASSIGN_OR_RETURN(auto table, ReadMetadata(ctx, ptr.metadata_location));
  const CatalogInfo& catalog = CatalogOf(ctx, catalogs_);
  const auto config = vendor_ ? vendor_->ClientConfig(catalog)
                              : std::map<std::string, std::string>();
  if (config.empty()) {
    return Fail(ErrorKind::kIllegalArgument,
                "Remote signing is not available for table " + FormatIdentifier(id) +
                    ": its catalog is not on S3");
  }
  FIRN_ASSIGN_OR_RETURN(io::s3::SignTarget target,
                        io::s3::ParseSignTarget(request.uri, ConfigEndpointHost(config)));
  auto touched = io::s3::TouchedKeys(request, target);
  if (!touched) {
    // A request on the whole bucket (its policy, ACL, …) is outside every table.
    return Fail(ErrorKind::kForbidden, "Cannot sign a request outside table " +
                                           FormatIdentifier(id) + "'s locations: " +
                                           touched.error().message);
  }
  const std::vector<std::string>& keys = *touched;
  FIRN_ASSIGN_OR_RETURN(store::LocationClaim claim, TableLocationClaim(catalog, table->metadata));
  const bool listing = target.key.empty() && !(request.method == "POST");
  for (const std::string& key : keys) {
    if (!Inside(claim.locations, target.bucket, key, listing)) {
      spdlog::info(R"("msg":"sign refused","request_id":"{}","table":"{}","target":"{}")",
                   log::Escape(ctx.request_id), log::Escape(FormatIdentifier(id)),
                   log::Escape("s3://" + target.bucket + "/" + key));
      return Fail(ErrorKind::kForbidden, "Cannot sign a request outside table " +
                                             FormatIdentifier(id) + "'s locations");
    }
  }
  // The keys that reach this catalog's store: its storageName's, else the server's own.
  FIRN_ASSIGN_OR_RETURN(io::s3::S3Config server, vendor_->ServerConnection(catalog));
  io::s3::Credentials credentials{server.access_key_id, server.secret_access_key,
                                  server.session_token};
  return io::s3::SignClientRequest(request, target, credentials, server.region,
                                   std::chrono::system_clock::now());
}

}  // namespace firn::catalog
