#include "catalog/store_claims.h"

#include <boost/json.hpp>

#include "common/macros.h"
#include "common/strings.h"
#include "metadata/serde_util.h"
#include "store/store_keys.h"

namespace firn::catalog {

namespace json = boost::json;

std::string StoreClaimUri(std::string_view table_location) {
  return StripTrailingSlash(std::string(table_location)) + "/" + std::string(kClaimFileName);
}

std::string StoreClaimTakeoverUri(std::string_view table_location, const StoreClaim& moving) {
  return StripTrailingSlash(std::string(table_location)) + "/" + std::string(kClaimFileName) +
         ".takeover-" + std::to_string(moving.claimed_ms);
}

std::string EncodeStoreClaim(const StoreClaim& claim) {
  json::object o;
  o["format"] = kClaimFormat;
  o["format-version"] = kClaimFormatVersion;
  o["deployment"] = claim.deployment;
  o["realm"] = claim.realm;
  o["catalog"] = claim.catalog;
  json::array ns;
  for (const std::string& level : claim.ns) ns.emplace_back(level);
  o["namespace"] = std::move(ns);
  o["name"] = claim.name;
  o["table-uuid"] = claim.table_uuid;
  o["claimed-at-ms"] = claim.claimed_ms;
  o["state"] = claim.state;
  o["location"] = claim.location;
  if (!claim.moving_to.empty()) o["moving-to"] = claim.moving_to;
  o["release"] =
      "This table is owned by the Firn deployment named above. Release it there (drop it with "
      "purgeRequested=false, or `firn admin fence release`); delete this file only if that "
      "deployment no longer exists.";
  return json::serialize(o) + "\n";
}

Result<StoreClaim> DecodeStoreClaim(std::string_view text) {
  FIRN_ASSIGN_OR_RETURN(json::value doc, metadata::ParseJsonDocument(text, "ownership claim"));
  FIRN_ASSIGN_OR_RETURN(metadata::JsonReader r, metadata::JsonReader::Of(doc, "ownership claim"));
  FIRN_ASSIGN_OR_RETURN(std::string format, r.String("format"));
  FIRN_ASSIGN_OR_RETURN(int version, r.Int("format-version"));
  if (format != kClaimFormat || version != kClaimFormatVersion) {
    return Fail(ErrorKind::kBadRequest, "Cannot parse ownership claim: unknown format " + format +
                                            " version " + std::to_string(version));
  }
  StoreClaim c;
  FIRN_ASSIGN_OR_RETURN(c.deployment, r.String("deployment"));
  FIRN_ASSIGN_OR_RETURN(c.realm, r.String("realm"));
  FIRN_ASSIGN_OR_RETURN(c.catalog, r.String("catalog"));
  FIRN_ASSIGN_OR_RETURN(const json::array* ns, r.Array("namespace"));
  for (const json::value& level : *ns) {
    auto s = metadata::AsString(level);
    if (!s) return r.WrongType("namespace", "a list of strings");
    c.ns.push_back(std::move(*s));
  }
  FIRN_ASSIGN_OR_RETURN(c.name, r.String("name"));
  FIRN_ASSIGN_OR_RETURN(c.table_uuid, r.String("table-uuid"));
  FIRN_ASSIGN_OR_RETURN(c.claimed_ms, r.Long("claimed-at-ms"));
  FIRN_ASSIGN_OR_RETURN(c.state, r.LowerEither("state", "active", "moving"));
  FIRN_ASSIGN_OR_RETURN(auto moving_to, r.OptString("moving-to"));
  c.moving_to = moving_to.value_or("");
  FIRN_ASSIGN_OR_RETURN(auto location, r.OptString("location"));
  c.location = location.value_or("");
  return c;
}

bool SameClaim(const StoreClaim& a, const StoreClaim& b) {
  return a.deployment == b.deployment && a.realm == b.realm && a.catalog == b.catalog &&
         a.ns == b.ns && a.name == b.name && a.table_uuid == b.table_uuid &&
         a.claimed_ms == b.claimed_ms;
}

bool DeleteOwnStoreClaim(io::ObjectStore& objects, std::string_view deployment,
                         const metadata::TableMetadata& table) {
  if (deployment.empty()) return false;
  const std::string uri = StoreClaimUri(table.location);
  auto text = objects.ReadAtMost(uri, kMaxClaimBytes);
  if (!text) return false;
  auto held = DecodeStoreClaim(*text);
  if (!held || held->deployment != deployment || held->table_uuid != table.table_uuid) {
    return false;
  }
  return objects.Delete(uri).has_value();
}

std::string DescribeClaimOwner(const StoreClaim& claim) {
  return "deployment " + claim.deployment + " (realm " + claim.realm + ", catalog " +
         claim.catalog + ", table " + store::IdentifierDisplay({claim.ns, claim.name}) + ")";
}

}  // namespace firn::catalog
