#include "io/s3/sigv4.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <utility>

#include "common/encoding.h"
#include "common/strings.h"

namespace firn::io::s3 {
namespace {

constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256";

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Trims and collapses every run of inner whitespace to one space (SigV4 header rule).
std::string TrimAll(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  bool pending_space = false;
  for (char c : value) {
    if (IsSpace(c)) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::string UriEncode(std::string_view text, bool encode_slash) {
  return PercentEncode(text, encode_slash);
}

std::string FormatAmzDate(std::chrono::system_clock::time_point time) {
  std::time_t t = std::chrono::system_clock::to_time_t(time);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  size_t n = std::strftime(buffer, sizeof(buffer), "%Y%m%dT%H%M%SZ", &tm);
  return std::string(buffer, n);
}

std::string CanonicalQueryString(const std::vector<QueryParam>& query) {
  std::vector<std::pair<std::string, std::string>> encoded;
  encoded.reserve(query.size());
  for (const QueryParam& p : query) {
    encoded.emplace_back(UriEncode(p.name, true), UriEncode(p.value, true));
  }
  std::sort(encoded.begin(), encoded.end());
  std::string out;
  for (const auto& [name, value] : encoded) {
    if (!out.empty()) out.push_back('&');
    out += name;
    out.push_back('=');
    out += value;
  }
  return out;
}

CanonicalHeaders CanonicalizeHeaders(const std::vector<HttpHeader>& headers) {
  // stable_sort keeps repeated names in their given order, as the spec joins them.
  std::vector<std::pair<std::string, std::string>> lowered;
  lowered.reserve(headers.size());
  for (const HttpHeader& h : headers) lowered.emplace_back(ToLower(h.name), TrimAll(h.value));
  std::stable_sort(lowered.begin(), lowered.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  CanonicalHeaders out;
  for (size_t i = 0; i < lowered.size(); ++i) {
    const std::string& name = lowered[i].first;
    if (i > 0 && lowered[i - 1].first == name) {
      out.canonical.pop_back();  // the '\n' of the previous value
      out.canonical += ',' + lowered[i].second + '\n';
      continue;
    }
    if (!out.signed_headers.empty()) out.signed_headers.push_back(';');
    out.signed_headers += name;
    out.canonical += name + ':' + lowered[i].second + '\n';
  }
  return out;
}

std::string CanonicalRequest(const SigningRequest& request) {
  CanonicalHeaders headers = CanonicalizeHeaders(request.headers);
  std::string out;
  out += request.method + '\n';
  out += (request.canonical_uri.empty() ? std::string("/") : request.canonical_uri) + '\n';
  out += CanonicalQueryString(request.query) + '\n';
  out += headers.canonical + '\n';
  out += headers.signed_headers + '\n';
  out += request.payload_hash;
  return out;
}

std::string CredentialScope(std::string_view amz_date, const SigningScope& scope) {
  return std::string(amz_date.substr(0, 8)) + '/' + scope.region + '/' + scope.service +
         "/aws4_request";
}

std::string StringToSign(std::string_view amz_date, std::string_view credential_scope,
                         std::string_view canonical_request) {
  std::string out(kAlgorithm);
  out += '\n';
  out += amz_date;
  out += '\n';
  out += credential_scope;
  out += '\n';
  out += Sha256Hex(canonical_request);
  return out;
}

std::string SigningKey(const Secret& secret_access_key, std::string_view amz_date,
                       const SigningScope& scope) {
  std::string key = HmacSha256("AWS4" + secret_access_key.Reveal(), amz_date.substr(0, 8));
  key = HmacSha256(key, scope.region);
  key = HmacSha256(key, scope.service);
  return HmacSha256(key, "aws4_request");
}

SignedRequest SignRequest(const SigningRequest& request, const Credentials& credentials,
                          const SigningScope& scope, std::string_view amz_date) {
  SignedRequest out;
  std::string credential_scope = CredentialScope(amz_date, scope);
  out.canonical_request = CanonicalRequest(request);
  out.string_to_sign = StringToSign(amz_date, credential_scope, out.canonical_request);
  out.signature = HexEncode(
      HmacSha256(SigningKey(credentials.secret_access_key, amz_date, scope), out.string_to_sign));
  out.authorization = std::string(kAlgorithm) + " Credential=" + credentials.access_key_id + '/' +
                      credential_scope + ", SignedHeaders=" +
                      CanonicalizeHeaders(request.headers).signed_headers +
                      ", Signature=" + out.signature;
  return out;
}

std::string PresignUrlQuery(const SigningRequest& request, const Credentials& credentials,
                            const SigningScope& scope, std::string_view amz_date,
                            int expires_seconds) {
  SigningRequest presigned = request;
  presigned.payload_hash = std::string(kUnsignedPayload);
  std::vector<QueryParam>& q = presigned.query;
  q.push_back({"X-Amz-Algorithm", std::string(kAlgorithm)});
  q.push_back({"X-Amz-Credential",
               credentials.access_key_id + '/' + CredentialScope(amz_date, scope)});
  q.push_back({"X-Amz-Date", std::string(amz_date)});
  q.push_back({"X-Amz-Expires", std::to_string(expires_seconds)});
  if (!credentials.session_token.empty()) {
    q.push_back({"X-Amz-Security-Token", credentials.session_token.Reveal()});
  }
  q.push_back({"X-Amz-SignedHeaders", CanonicalizeHeaders(request.headers).signed_headers});
  SignedRequest signed_request = SignRequest(presigned, credentials, scope, amz_date);
  return CanonicalQueryString(q) + "&X-Amz-Signature=" + signed_request.signature;
}

}  // namespace firn::io::s3
