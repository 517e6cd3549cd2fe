#include "events/sink_urls.h"

#include <algorithm>

#include "common/macros.h"
#include "common/strings.h"

namespace firn::events {
namespace {

constexpr size_t kMaxUrlBytes = 2048;

Status CheckForm(std::string_view url) {
  const bool http = url.starts_with("http://") || url.starts_with("https://");
  const size_t host = http ? url.find("://") + 3 : 0;
  if (!http || url.size() <= host || url.size() > kMaxUrlBytes || url[host] == '/') {
    return Fail(ErrorKind::kBadRequest,
                "Invalid url: an event sink needs an http:// or https:// URL with a host (at most " +
                    std::to_string(kMaxUrlBytes) + " bytes)");
  }
  if (std::any_of(url.begin(), url.end(), [](unsigned char c) { return c <= 0x20 || c == 0x7f; })) {
    return Fail(ErrorKind::kBadRequest, "Invalid url: it contains spaces or control characters");
  }
  return Ok();
}

// A path that a client would rewrite before sending ("/a/../b" goes to "/b"), or may: dot
// segments, their percent-encoded forms, backslashes. Refused under an allowlist, so a prefix's
// path cannot be climbed out of.
bool Climbs(std::string_view url) {
  const size_t scheme = url.find("://");
  const size_t path = url.find_first_of("/?#", scheme + 3);
  if (path == std::string_view::npos || url[path] != '/') return false;
  std::string_view rest = url.substr(path, url.find_first_of("?#", path) - path);
  if (rest.find('\\') != std::string_view::npos) return true;
  if (ToLower(rest).find("%2e") != std::string::npos) return true;
  for (std::string_view segment : SplitString(rest, '/')) {
    if (segment == "." || segment == "..") return true;
  }
  return false;
}

bool Within(std::string_view url, std::string_view prefix) {
  if (!url.starts_with(prefix)) return false;
  if (prefix.back() == '/' || url.size() == prefix.size()) return true;
  const char next = url[prefix.size()];
  return next == '/' || next == '?' || next == '#';
}

}  // namespace

Result<std::vector<std::string>> ParseSinkUrlPrefixes(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view part : SplitString(text, ',')) {
    const std::string_view prefix = Trim(part);
    if (prefix.empty()) continue;
    if (auto st = CheckForm(prefix); !st) {
      return Fail(ErrorKind::kIllegalArgument,
                  "Invalid --event-sink-urls entry '" + std::string(prefix.substr(0, 200)) +
                      "': each is an http:// or https:// URL prefix with a host");
    }
    out.emplace_back(prefix);
  }
  return out;
}

Status CheckSinkUrl(std::string_view url, const std::vector<std::string>& allowed) {
  FIRN_RETURN_IF_ERROR(CheckForm(url));
  if (allowed.empty()) return Ok();
  for (const std::string& prefix : allowed) {
    if (Within(url, prefix) && !Climbs(url)) return Ok();
  }
  return Fail(ErrorKind::kBadRequest,
              "Invalid url: this server sends events only to the URLs its operator allows "
              "(--event-sink-urls), and this one is not among them");
}

std::string RedactedSinkUrl(std::string_view url) {
  url = url.substr(0, url.find_first_of("?#"));
  const size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return std::string(url);
  const size_t authority = scheme + 3;
  const size_t path = url.find('/', authority);
  const std::string_view host_part = url.substr(authority, path == std::string_view::npos
                                                                ? std::string_view::npos
                                                                : path - authority);
  const size_t at = host_part.rfind('@');
  if (at == std::string_view::npos) return std::string(url);
  return std::string(url.substr(0, authority)) + std::string(url.substr(authority + at + 1));
}

}  // namespace firn::events
