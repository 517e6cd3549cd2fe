// Plain HTTP request/response values passed between the server and handlers.
// http/ knows nothing of Iceberg: handlers receive raw (still percent-encoded) path segments.
//
// Thread-safety: plain values; no internal synchronisation. Ownership: everything by value,
// except PathParams, whose views point into the Router's patterns and the Request's `path`.
#pragma once

#include <any>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/strings.h"  // EqualsIgnoreCase: header names compare case-insensitively

namespace firn::http {

enum class Method { kGet, kHead, kPost, kPut, kDelete, kPatch, kOptions, kOther };

// "GET", "HEAD", ...; "OTHER" for kOther.
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
  // Whatever the server's `admit` callback established from the header (see server.h), for
  // the handler of the same request; empty when there is no admit callback. The server never
  // reads it.
  std::any context;
  // The pattern of the route admission found ("" when none: a 404, 405 or a refusal before
  // admission); points into the router, for metrics by route.
  std::string_view route;

  // First header with this name (case-insensitive), or empty.
  std::string_view GetHeader(std::string_view name) const;
  bool HasHeader(std::string_view name) const;
};

struct Response {
  int status = 200;
  // Sent in order. The server owns Content-Length, Connection, Transfer-Encoding and
  // X-Request-Id; values for those set here are ignored.
  std::vector<Header> headers;
  std::string body;  // sent as-is (never for HEAD requests)

  // First header with this name (case-insensitive), or empty.
  std::string_view GetHeader(std::string_view name) const;
  // Replaces every header of that name (case-insensitive) with one, or appends it.
  void SetHeader(std::string name, std::string value);

  // `body` with Content-Type: application/json.
  static Response Json(int status, std::string body);
  // `body` with Content-Type: text/plain; charset=utf-8.
  static Response Text(int status, std::string body);
  // No body, no headers (e.g. 204).
  static Response Empty(int status);
};

// Raw path params captured by the router, in pattern order: {name, raw value}.
using PathParams = std::vector<std::pair<std::string_view, std::string_view>>;

}  // namespace firn::http
