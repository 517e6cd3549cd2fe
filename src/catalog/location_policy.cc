#include "catalog/location_policy.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace firn::catalog {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

Error Invalid(std::string_view location, std::string_view why) {
  // `detail` carries the bare reason, for messages that name the location themselves.
  return Error(ErrorKind::kIllegalArgument,
               "Invalid location " + std::string(location) + ": " + std::string(why),
               std::string(why));
}

bool IsSchemeChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
}

// A `..` in any spelling the path could be decoded to by some store.
bool IsParentSegment(std::string_view seg) {
  const std::string s = Lower(seg);
  return s == ".." || s == "%2e%2e" || s == ".%2e" || s == "%2e.";
}

}  // namespace

Result<std::string> NormalizeLocation(std::string_view location) {
  std::string scheme;
  std::string_view rest;
  const size_t colon = location.find(':');
  const size_t first_slash = location.find('/');
  if (colon != std::string_view::npos && colon > 0 &&
      (first_slash == std::string_view::npos || colon < first_slash) &&
      std::all_of(location.begin(), location.begin() + colon, IsSchemeChar)) {
    scheme = Lower(location.substr(0, colon));
    rest = location.substr(colon + 1);
  } else if (!location.empty() && location.front() == '/') {
    scheme = "file";  // a bare absolute path is a local file, as the file store reads it
    rest = location;
  } else {
    return Fail(Invalid(location, "not an absolute location"));
  }
  if (scheme == "s3a" || scheme == "s3n") scheme = "s3";

  std::string authority;
  std::string_view path = rest;
  if (rest.starts_with("//")) {
    const size_t slash = rest.find('/', 2);
    authority = std::string(rest.substr(2, slash == std::string_view::npos ? rest.npos : slash - 2));
    path = slash == std::string_view::npos ? std::string_view("/") : rest.substr(slash);
    if (scheme == "file" && authority == "localhost") authority.clear();
  }
  if (path.empty() || path.front() != '/') {
    return Fail(Invalid(location, "the path is not absolute"));
  }
  if (authority.empty() && scheme != "file") {
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

Status CheckLocationAllowed(const RequestContext& ctx, const CatalogRegistry& registry,
                            std::string_view location) {
  if (ctx.catalog) return CheckLocationAllowed(*ctx.catalog, location);
  const CatalogInfo* info = registry.Find(ctx.scope.catalog);
  return CheckLocationAllowed(info ? *info : registry.Default(), location);
}

}  // namespace firn::catalog
