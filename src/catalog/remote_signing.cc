// CatalogService::SignRequest: remote signing of an engine's S3 request for one table
// (docs/vending.md, "Remote signing"). Part of catalog_service.h.
#include <spdlog/spdlog.h>

#include <chrono>

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

}  // namespace

Result<std::vector<io::s3::HttpHeader>> CatalogService::SignRequest(
    const RequestContext& ctx, const Identifier& id, const io::s3::ClientS3Request& request) {
  FIRN_ASSIGN_OR_RETURN(io::s3::S3Access access, io::s3::AccessOf(request.method));
  FIRN_RETURN_IF_ERROR(AuthorizeObjectOp(
      ctx,
      access == io::s3::S3Access::kWrite ? Operation::kSignWriteRequest : Operation::kSignRequest,
      id));
  FIRN_ASSIGN_OR_RETURN(store::ObjectPointer ptr,
                        store_->LoadPointer(ctx.scope, id, store::ObjectKind::kTable));
  FIRN_ASSIGN_OR_RETURN(auto table, ReadMetadata(ptr.metadata_location));
  const CatalogInfo& catalog = CatalogOf(ctx, catalogs_);
  const auto config = vendor_ ? vendor_->ClientConfig(catalog)
                              : std::map<std::string, std::string>();
  if (config.empty()) {
    return Fail(ErrorKind::kIllegalArgument,
                "Remote signing is not available for table " + FormatIdentifier(id) +
                    ": its catalog is not on S3");
  }
  auto endpoint = config.find("s3.endpoint");
  FIRN_ASSIGN_OR_RETURN(
      io::s3::SignTarget target,
      io::s3::ParseSignTarget(request.uri,
                              endpoint == config.end() ? "" : EndpointHost(endpoint->second)));
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
  const io::s3::S3Config& server = vendor_->settings().server;
  io::s3::Credentials credentials{server.access_key_id, server.secret_access_key,
                                  server.session_token};
  auto region = config.find("s3.region");
  return io::s3::SignClientRequest(request, target, credentials,
                                   region == config.end() ? server.region : region->second,
                                   std::chrono::system_clock::now());
}

}  // namespace firn::catalog
