#include "catalog/location_policy.h"

#include <algorithm>
#include <vector>

#include "common/macros.h"
#include "common/strings.h"
#include "io/storage_schemes.h"

namespace firn::catalog {
namespace {

Error Invalid(std::string_view location, std::string_view why) {
  // `detail` carries the bare reason, for messages that name the location themselves.
  return Error(ErrorKind::kIllegalArgument,
               "Invalid location " + std::string(location) + ": " + std::string(why),
               std::string(why));
}

// A `..` in any spelling the path could be decoded to by some store.
bool IsParentSegment(std::string_view seg) {
  const std::string s = ToLower(seg);
  return s == ".." || s == "%2e%2e" || s == ".%2e" || s == "%2e.";
}

}  // namespace

Result<std::string> NormalizeLocation(std::string_view location) {
  // What a scheme means (its canonical name, whether it needs an authority, which authority
  // names this host) is the storage registry's; a scheme no store serves is compared as
  // written (lower case) and needs an authority.
  const std::string_view written = io::UriScheme(location);
  const io::StorageScheme* known = nullptr;
  std::string scheme;
  std::string_view rest;
  if (!written.empty()) {
    known = io::FindStorageScheme(written);
    scheme = known ? std::string(known->canonical) : ToLower(written);
    rest = location.substr(written.size() + 1);
  } else if (!location.empty() && location.front() == '/') {
    known = &io::BarePathScheme();  // read the way the store for bare paths reads them
    scheme = std::string(known->canonical);
    rest = location;
  } else {
    return Fail(Invalid(location, "not an absolute location"));
  }

  std::string authority;
  std::string_view path = rest;
  if (rest.starts_with("//")) {
    const size_t slash = rest.find('/', 2);
    authority = std::string(rest.substr(2, slash == std::string_view::npos ? rest.npos : slash - 2));
    path = slash == std::string_view::npos ? std::string_view("/") : rest.substr(slash);
    if (known && !known->local_authority.empty() && authority == known->local_authority) {
      authority.clear();
    }
  }
  if (path.empty() || path.front() != '/') {
    return Fail(Invalid(location, "the path is not absolute"));
  }
  if (authority.empty() && (!known || known->needs_authority)) {
    return Fail(Invalid(location, "no bucket or host"));
  }

  std::string out = scheme + "://" + authority;
  size_t pos = 0;
  bool any = false;
  while (pos <= path.size()) {
    size_t next = path.find('/', pos);
    if (next == std::string_view::npos) next = path.size();
    std::string_view seg = path.substr(pos, next - pos);
    pos = next + 1;
    if (seg.empty() || seg == ".") continue;
    if (IsParentSegment(seg)) return Fail(Invalid(location, "it contains a '..' segment"));
    out += '/';
    out += seg;
    any = true;
  }
  if (!any) out += '/';
  return out;
}

bool IsUnder(std::string_view location, std::string_view prefix) {
  auto loc = NormalizeLocation(location);
  auto pre = NormalizeLocation(prefix);
  if (!loc || !pre) return false;
  if (*loc == *pre) return true;
  // A root prefix already ends in '/'; any other needs the boundary added.
  const std::string boundary = pre->back() == '/' ? *pre : *pre + "/";
  return loc->starts_with(boundary);
}

Status CheckLocationAllowed(const CatalogInfo& catalog, std::string_view location) {
  std::vector<std::string> allowed;
  if (!catalog.base_location.empty()) allowed.push_back(catalog.base_location);
  for (const std::string& a : catalog.allowed_locations) {
    // Polaris lists the base location among the allowed ones too: name it once.
    if (!a.empty() && std::find(allowed.begin(), allowed.end(), a) == allowed.end()) {
      allowed.push_back(a);
    }
  }
  auto normalised = NormalizeLocation(location);
  if (normalised) {
    for (const std::string& a : allowed) {
      if (IsUnder(*normalised, a)) return Ok();
    }
  }
  std::string list;
  for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
  if (list.empty()) list = "(none)";
  std::string why = normalised ? "" : " (" + normalised.error().detail + ")";
  return Fail(ErrorKind::kForbidden, "Location " + std::string(location) +
                                         " is not allowed for catalog '" + catalog.name + "'" +
                                         why + "; allowed: " + list);
}

const CatalogInfo& CatalogOf(const RequestContext& ctx, const CatalogRegistry& registry) {
  if (ctx.catalog) return *ctx.catalog;
  const CatalogInfo* info = registry.Find(ctx.scope.catalog);
  return info ? *info : registry.Default();
}

Status CheckLocationAllowed(const RequestContext& ctx, const CatalogRegistry& registry,
                            std::string_view location) {
  FIRN_RETURN_IF_ERROR(CheckLocationAllowed(CatalogOf(ctx, registry), location));
  return CheckInsideStorageRoots(registry.storage_roots(), location);
}

Status CheckInsideStorageRoots(const std::vector<std::string>& roots, std::string_view location) {
  if (roots.empty()) return Ok();
  if (auto normalised = NormalizeLocation(location); normalised) {
    for (const std::string& root : roots) {
      if (IsUnder(*normalised, root)) return Ok();
    }
  }
  std::string list;
  for (const std::string& root : roots) list += (list.empty() ? "" : ", ") + root;
  return Fail(ErrorKind::kForbidden, "Location " + std::string(location) +
                                         " is outside the server's storage roots (" + list + ")");
}

}  // namespace firn::catalog
