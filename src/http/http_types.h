// Plain HTTP request/response values passed between the server and handlers.
// http/ knows nothing of Iceberg: handlers receive raw (still percent-encoded) path segments.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace firn::http {

enum class Method { kGet, kHead, kPost, kPut, kDelete, kPatch, kOptions, kOther };

std::string_view MethodName(Method m);

struct Header {
  std::string name;  // as received; look-ups are case-insensitive
  std::string value;
};

struct Request {
  Method method = Method::kGet;
  std::string target;      // raw request target, e.g. "/v1/namespaces/a%1Fb?pageToken="
  std::string path;        // raw path part of target (no query), not percent-decoded
  std::string query;       // raw query string without '?', not decoded
  std::vector<Header> headers;
  std::string body;
  std::string remote_address;
  std::string request_id;  // assigned by the server, echoed as X-Request-Id

  // First header with this name (case-insensitive), or empty.
  std::string_view GetHeader(std::string_view name) const;
  bool HasHeader(std::string_view name) const;
};

struct Response {
  int status = 200;
  std::vector<Header> headers;
  std::string body;  // sent as-is; Content-Length is set by the server

  void SetHeader(std::string name, std::string value);
  static Response Json(int status, std::string body);
  static Response Empty(int status);
};

// Raw path params captured by the router, in pattern order: {name, raw value}.
using PathParams = std::vector<std::pair<std::string_view, std::string_view>>;

}  // namespace firn::http
