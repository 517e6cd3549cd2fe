#include "io/s3/request_signer.h"

#include <algorithm>
#include <utility>

#include "common/encoding.h"
#include "common/macros.h"
#include "common/strings.h"
#include "io/s3/s3_xml.h"

namespace firn::io::s3 {
namespace {

Error BadTarget(std::string why) {
  return Error(ErrorKind::kIllegalArgument, "Cannot sign this request: " + std::move(why));
}

bool Unsigned(std::string_view lower_name) {
  return lower_name == "authorization" || lower_name == "user-agent" || lower_name == "expect" ||
         lower_name == "connection" || lower_name == "x-amzn-trace-id";
}

std::string_view HostOnly(std::string_view host) {
  if (host.starts_with("[")) {
    size_t end = host.find(']');
    return end == std::string_view::npos ? host : host.substr(0, end + 1);
  }
  size_t colon = host.rfind(':');
  return colon == std::string_view::npos ? host : host.substr(0, colon);
}

const QueryParam* Param(const SignTarget& t, std::string_view name) {
  for (const QueryParam& q : t.query) {
    if (q.name == name) return &q;
  }
  return nullptr;
}

}  // namespace

Result<SignTarget> ParseSignTarget(std::string_view uri, std::string_view endpoint_host) {
  SignTarget t;
  size_t scheme_end = uri.find("://");
  if (scheme_end == std::string_view::npos) return Fail(BadTarget("not an http(s) URI"));
  t.scheme = ToLower(uri.substr(0, scheme_end));
  if (t.scheme != "http" && t.scheme != "https") return Fail(BadTarget("not an http(s) URI"));
  std::string_view rest = uri.substr(scheme_end + 3);
  size_t path_start = rest.find_first_of("/?#");
  t.host = std::string(rest.substr(0, path_start));
  if (t.host.empty() || t.host.find('@') != std::string::npos) {
    return Fail(BadTarget("the URI names no plain host"));
  }
  rest = path_start == std::string_view::npos ? std::string_view() : rest.substr(path_start);
  if (size_t hash = rest.find('#'); hash != std::string_view::npos) rest = rest.substr(0, hash);
  size_t q = rest.find('?');
  t.path = std::string(rest.substr(0, q));
  if (t.path.empty()) t.path = "/";
  if (q != std::string_view::npos) {
    std::string_view query = rest.substr(q + 1);
    while (!query.empty()) {
      size_t amp = query.find('&');
      std::string_view pair = query.substr(0, amp);
      query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
      if (pair.empty()) continue;
      size_t eq = pair.find('=');
      auto name = PercentDecodePath(pair.substr(0, eq));
      auto value = PercentDecodePath(eq == std::string_view::npos ? "" : pair.substr(eq + 1));
      if (!name || !value) return Fail(BadTarget("a malformed escape in the query"));
      t.query.push_back({std::move(*name), std::move(*value)});
    }
  }
  auto path = PercentDecodePath(t.path);
  if (!path) return Fail(BadTarget("a malformed escape in the path"));
  std::string_view decoded = *path;
  if (decoded.starts_with("/")) decoded.remove_prefix(1);
  const std::string host = ToLower(HostOnly(t.host));
  const std::string suffix = "." + ToLower(endpoint_host);
  if (!endpoint_host.empty() && host.size() > suffix.size() && host.ends_with(suffix)) {
    t.bucket = host.substr(0, host.size() - suffix.size());  // virtual-hosted
    t.key = std::string(decoded);
  } else {
    size_t slash = decoded.find('/');
    t.bucket = std::string(decoded.substr(0, slash));
    t.key = slash == std::string_view::npos ? std::string() : std::string(decoded.substr(slash + 1));
  }
  if (t.bucket.empty()) return Fail(BadTarget("the URI names no bucket"));
  return t;
}

Result<S3Access> AccessOf(std::string_view method) {
  if (method == "GET" || method == "HEAD") return S3Access::kRead;
  if (method == "PUT" || method == "POST" || method == "DELETE") return S3Access::kWrite;
  return Fail(BadTarget("S3 has no " + std::string(method) + " request to sign"));
}

Result<std::vector<std::string>> TouchedKeys(const ClientS3Request& request,
                                             const SignTarget& target) {
  if (request.method == "POST" && Param(target, "delete") != nullptr) {
    auto doc = ParseXml(request.body);
    if (!doc || doc->name != "Delete") {
      return Fail(BadTarget("a DeleteObjects body must be a <Delete> document"));
    }
    std::vector<std::string> keys;
    for (const XmlElement& object : doc->children) {
      if (object.name == "Object") keys.emplace_back(object.ChildText("Key"));
    }
    if (keys.empty()) return Fail(BadTarget("a DeleteObjects body names no key"));
    return keys;
  }
  if (!target.key.empty()) return std::vector<std::string>{target.key};
  // On the bucket itself only a listing is signed: a GET or HEAD whose parameters are all
  // listing parameters. Anything else there (PUT ?policy, DELETE, GET ?acl …) acts on the whole
  // bucket, whatever `prefix` it carries.
  static constexpr std::string_view kListing[] = {
      "list-type", "prefix", "delimiter", "max-keys", "continuation-token", "start-after",
      "fetch-owner", "encoding-type", "marker", "x-id"};
  const bool read = request.method == "GET" || request.method == "HEAD";
  for (const QueryParam& q : target.query) {
    if (std::find(std::begin(kListing), std::end(kListing), q.name) == std::end(kListing)) {
      return Fail(BadTarget("'" + q.name + "' on a bucket is not a listing"));
    }
  }
  if (!read) return Fail(BadTarget("only listings act on a bucket"));
  const QueryParam* prefix = Param(target, "prefix");
  return std::vector<std::string>{prefix ? prefix->value : std::string()};
}

std::vector<HttpHeader> SignClientRequest(const ClientS3Request& request,
                                          const SignTarget& target,
                                          const Credentials& credentials,
                                          std::string_view region,
                                          std::chrono::system_clock::time_point now) {
  const std::string amz_date = FormatAmzDate(now);
  std::string payload_hash(kUnsignedPayload);
  std::vector<HttpHeader> headers;
  for (const HttpHeader& h : request.headers) {
    const std::string name = ToLower(h.name);
    if (Unsigned(name) || name == "host" || name == "x-amz-date" ||
        name == "x-amz-security-token") {
      continue;
    }
    if (name == "x-amz-content-sha256") {
      payload_hash = h.value;
      continue;
    }
    headers.push_back({name, h.value});
  }
  headers.push_back({"host", target.host});
  headers.push_back({"x-amz-date", amz_date});
  headers.push_back({"x-amz-content-sha256", payload_hash});
  if (!credentials.session_token.empty()) {
    headers.push_back({"x-amz-security-token", credentials.session_token.Reveal()});
  }
  SigningRequest signing;
  signing.method = request.method;
  signing.canonical_uri = target.path;
  signing.query = target.query;
  signing.headers = headers;
  signing.payload_hash = payload_hash;
  SignedRequest signed_request =
      SignRequest(signing, credentials, SigningScope{std::string(region), "s3"}, amz_date);
  headers.push_back({"authorization", signed_request.authorization});
  return headers;
}

}  // namespace firn::io::s3
