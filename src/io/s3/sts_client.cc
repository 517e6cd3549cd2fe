#include "io/s3/sts_client.h"

#include <algorithm>
#include <charconv>
#include <ctime>
#include <utility>

#include "common/macros.h"
#include "io/s3/aws_http.h"
#include "io/s3/s3_xml.h"
#include "io/s3/sigv4.h"

namespace firn::io::s3 {
namespace {

bool ReadNumber(std::string_view text, size_t pos, size_t len, int* out) {
  if (pos + len > text.size()) return false;
  const char* first = text.data() + pos;
  auto [end, ec] = std::from_chars(first, first + len, *out);
  return ec == std::errc() && end == first + len;
}

// What a failed AssumeRole becomes (the header's table).
Error MapStsFailure(const S3Outcome& outcome, std::string_view role_arn) {
  if (outcome.transport != TransportError::kNone) {
    return Error(ErrorKind::kServiceUnavailable, "The storage token service is unavailable",
                 "STS: " + outcome.transport_detail);
  }
  const S3ErrorBody body = ParseS3Error(outcome.body);
  std::string detail = "STS AssumeRole " + std::string(role_arn) + " -> HTTP " +
                       std::to_string(outcome.status);
  if (!body.code.empty()) detail += " " + body.code;
  if (!body.message.empty()) detail += ": " + body.message;
  const std::string& code = body.code;
  if (code == "MalformedPolicyDocument" || code == "PackedPolicyTooLarge" ||
      code == "InvalidAction" || code == "NotImplemented" || outcome.status == 501 ||
      (outcome.status == 404 && code.empty())) {
    return Error(ErrorKind::kUnsupportedOperation,
                 "The storage token service cannot issue credentials confined to this table",
                 std::move(detail));
  }
  // 501 is refused above as unsupported, not retried as a server error.
  if (IsRetryable(outcome)) {
    return Error(ErrorKind::kServiceUnavailable, "The storage token service is unavailable",
                 std::move(detail));
  }
  if (outcome.status == 401 || outcome.status == 403 || code == "AccessDenied" ||
      code == "InvalidClientTokenId" || code == "SignatureDoesNotMatch") {
    return Error(ErrorKind::kForbidden, "The storage token service refused the catalog's role",
                 std::move(detail));
  }
  return Error(ErrorKind::kInternal, "The storage token service failed", std::move(detail));
}

}  // namespace

bool IsSessionNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '+' || c == '=' || c == ',' || c == '.' || c == '@' || c == '_' || c == '-';
}

std::optional<int64_t> ParseIso8601Millis(std::string_view text) {
  // YYYY-MM-DDTHH:MM:SS[.fff…](Z|+00:00)
  int year, month, day, hour, minute, second;
  if (text.size() < 20 || text[4] != '-' || text[7] != '-' || (text[10] != 'T' &&
      text[10] != 't') || text[13] != ':' || text[16] != ':') {
    return std::nullopt;
  }
  if (!ReadNumber(text, 0, 4, &year) || !ReadNumber(text, 5, 2, &month) ||
      !ReadNumber(text, 8, 2, &day) || !ReadNumber(text, 11, 2, &hour) ||
      !ReadNumber(text, 14, 2, &minute) || !ReadNumber(text, 17, 2, &second)) {
    return std::nullopt;
  }
  size_t pos = 19;
  int64_t millis = 0;
  if (pos < text.size() && text[pos] == '.') {
    int64_t scale = 100;
    ++pos;
    const size_t digits_start = pos;
    for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos) {
      millis += (text[pos] - '0') * scale;
      scale /= 10;
    }
    if (pos == digits_start) return std::nullopt;
  }
  const std::string_view zone = text.substr(pos);
  if (zone != "Z" && zone != "z" && zone != "+00:00") return std::nullopt;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 ||
      second > 60) {
    return std::nullopt;
  }
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  const time_t seconds = timegm(&tm);
  return static_cast<int64_t>(seconds) * 1000 + millis;
}

Status CheckAssumeRoleRequest(const AssumeRoleRequest& request) {
  if (request.role_arn.empty()) {
    return Fail(ErrorKind::kIllegalArgument, "AssumeRole needs a role ARN");
  }
  const std::string& name = request.session_name;
  if (name.size() < 2 || name.size() > 64 ||
      !std::all_of(name.begin(), name.end(), IsSessionNameChar)) {
    return Fail(ErrorKind::kIllegalArgument,
                "An STS session name is 2 to 64 characters of [A-Za-z0-9+=,.@_-]");
  }
  if (request.policy.size() > kMaxSessionPolicyChars) {
    return Fail(ErrorKind::kUnsupportedOperation,
                "The session policy for these locations is longer than STS accepts (" +
                    std::to_string(request.policy.size()) + " > " +
                    std::to_string(kMaxSessionPolicyChars) + " characters)");
  }
  const auto seconds = request.duration.count();
  if (seconds < 900 || seconds > 43200) {
    return Fail(ErrorKind::kIllegalArgument,
                "An STS session lasts 900 to 43200 seconds, not " + std::to_string(seconds));
  }
  return Ok();
}

std::string AssumeRoleForm(const AssumeRoleRequest& request) {
  std::string form = "Action=AssumeRole&Version=2011-06-15";
  auto add = [&form](std::string_view key, std::string_view value) {
    form += "&";
    form += key;
    form += "=";
    form += UriEncode(value, /*encode_slash=*/true);
  };
  add("RoleArn", request.role_arn);
  add("RoleSessionName", request.session_name);
  add("DurationSeconds", std::to_string(request.duration.count()));
  if (!request.policy.empty()) add("Policy", request.policy);
  if (!request.external_id.empty()) add("ExternalId", request.external_id);
  return form;
}

Result<TemporaryCredentials> ParseAssumeRoleResponse(std::string_view xml) {
  auto malformed = [](std::string why) {
    return Error(ErrorKind::kInternal, "Malformed response from the storage token service",
                 std::move(why));
  };
  auto root = ParseXml(xml);
  if (!root) return Fail(malformed(root.error().detail));
  const XmlElement* result = root->name == "AssumeRoleResponse"
                                 ? root->Child("AssumeRoleResult")
                                 : nullptr;
  const XmlElement* credentials = result ? result->Child("Credentials") : nullptr;
  if (credentials == nullptr) return Fail(malformed("no AssumeRoleResult/Credentials"));
  TemporaryCredentials out;
  out.access_key_id = std::string(credentials->ChildText("AccessKeyId"));
  out.secret_access_key = Secret(std::string(credentials->ChildText("SecretAccessKey")));
  out.session_token = Secret(std::string(credentials->ChildText("SessionToken")));
  auto expires = ParseIso8601Millis(credentials->ChildText("Expiration"));
  if (out.access_key_id.empty() || out.secret_access_key.empty() ||
      out.session_token.empty() || !expires) {
    return Fail(malformed("incomplete Credentials element"));
  }
  out.expires_at_ms = *expires;
  return out;
}

Result<TemporaryCredentials> AssumeRole(AwsHttpClient& sts, const AssumeRoleRequest& request) {
  FIRN_RETURN_IF_ERROR(CheckAssumeRoleRequest(request));
  const std::string form = AssumeRoleForm(request);
  AwsRequest r;
  r.method = "POST";
  r.target = MakeTarget(sts.endpoint(), /*path_style=*/true, "", "");
  r.extra_headers.push_back({"content-type", "application/x-www-form-urlencoded; charset=utf-8"});
  r.body = form;
  // 501 (no STS here) is final: stop retrying and report it as unsupported.
  S3Outcome outcome = sts.PerformWithRetry(r, [](long status) { return status == 501; });
  if (!AwsHttpClient::Succeeded(outcome)) {
    return Fail(MapStsFailure(outcome, request.role_arn));
  }
  return ParseAssumeRoleResponse(outcome.body);
}

}  // namespace firn::io::s3
