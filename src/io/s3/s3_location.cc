#include "io/s3/s3_location.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "common/strings.h"
#include "io/storage_schemes.h"

namespace firn::io::s3 {
namespace {

bool ValidBucket(std::string_view bucket) {
  if (bucket.empty() || bucket.size() > 255) return false;
  return std::all_of(bucket.begin(), bucket.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
  });
}

}  // namespace

bool IsS3Uri(std::string_view uri) {
  size_t colon = uri.find("://");
  if (colon == std::string_view::npos) return false;
  const StorageScheme* scheme = FindStorageScheme(uri.substr(0, colon));
  return scheme != nullptr && scheme->store == StoreKind::kS3;
}

Result<S3Location> ParseS3Uri(std::string_view uri) {
  if (!IsS3Uri(uri)) {
    return Fail(ErrorKind::kIllegalArgument, "Not an S3 location: " + std::string(uri));
  }
  size_t sep = uri.find("://");
  S3Location out;
  out.scheme = std::string(uri.substr(0, sep));
  std::string_view rest = uri.substr(sep + 3);
  size_t slash = rest.find('/');
  out.bucket = std::string(rest.substr(0, slash));
  if (slash != std::string_view::npos) out.key = std::string(rest.substr(slash + 1));
  if (!ValidBucket(out.bucket)) {
    return Fail(ErrorKind::kIllegalArgument, "Invalid S3 bucket in location: " + std::string(uri));
  }
  return out;
}

std::string S3UriOf(const S3Location& location, std::string_view key) {
  return location.scheme + "://" + location.bucket + "/" + std::string(key);
}

std::string Endpoint::HostHeader() const {
  return port == 0 ? host : host + ":" + std::to_string(port);
}

Result<Endpoint> ParseEndpoint(std::string_view endpoint, std::string_view region) {
  if (endpoint.empty()) {
    if (region.empty()) {
      return Fail(ErrorKind::kIllegalArgument, "S3 needs an endpoint or a region");
    }
    return Endpoint{"https", "s3." + std::string(region) + ".amazonaws.com", 0};
  }
  auto bad = [&](std::string_view why) {
    return Fail(ErrorKind::kIllegalArgument,
                "Invalid S3 endpoint (" + std::string(why) + "): " + std::string(endpoint));
  };
  Endpoint out;
  size_t sep = endpoint.find("://");
  if (sep == std::string_view::npos) return bad("expected http:// or https://");
  std::string_view scheme = endpoint.substr(0, sep);
  if (EqualsIgnoreCase(scheme, "http")) {
    out.scheme = "http";
  } else if (EqualsIgnoreCase(scheme, "https")) {
    out.scheme = "https";
  } else {
    return bad("expected http:// or https://");
  }
  std::string_view authority = endpoint.substr(sep + 3);
  if (!authority.empty() && authority.back() == '/') authority.remove_suffix(1);
  if (authority.find_first_of("/?#@ ") != std::string_view::npos) {
    return bad("only scheme://host[:port] is allowed");
  }
  std::string_view host = authority;
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    size_t close = authority.find(']');
    if (close == std::string_view::npos) return bad("unclosed IPv6 bracket");
    host = authority.substr(0, close + 1);
    std::string_view tail = authority.substr(close + 1);
    if (!tail.empty()) {
      if (tail.front() != ':') return bad("junk after IPv6 address");
      port = tail.substr(1);
    }
  } else if (size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty() || host == "[]") return bad("no host");
  out.host = std::string(host);
  if (!port.empty()) {
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), out.port);
    if (ec != std::errc() || end != port.data() + port.size() || out.port <= 0 ||
        out.port > 65535) {
      return bad("bad port");
    }
  } else if (authority.back() == ':') {
    return bad("bad port");
  }
  return out;
}

RequestTarget MakeTarget(const Endpoint& endpoint, bool path_style, std::string_view bucket,
                         std::string_view key, std::vector<QueryParam> query) {
  RequestTarget out;
  std::string authority = endpoint.HostHeader();
  if (path_style) {
    out.host = authority;
    out.canonical_uri = "/" + UriEncode(bucket, true);
    if (!key.empty()) out.canonical_uri += "/" + UriEncode(key, false);
  } else {
    out.host = std::string(bucket) + "." + authority;
    out.canonical_uri = "/" + UriEncode(key, false);
  }
  out.url = endpoint.scheme + "://" + out.host + out.canonical_uri;
  std::string query_string = CanonicalQueryString(query);
  if (!query_string.empty()) out.url += "?" + query_string;
  out.query = std::move(query);
  return out;
}

}  // namespace firn::io::s3
