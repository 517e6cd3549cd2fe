#include "http/http_types.h"

#include <algorithm>

namespace firn::http {

std::string_view MethodName(Method m) {
  switch (m) {
    case Method::kGet: return "GET";
    case Method::kHead: return "HEAD";
    case Method::kPost: return "POST";
    case Method::kPut: return "PUT";
    case Method::kDelete: return "DELETE";
    case Method::kPatch: return "PATCH";
    case Method::kOptions: return "OPTIONS";
    case Method::kOther: return "OTHER";
  }
  return "OTHER";
}

std::string_view FindHeader(const std::vector<Header>& headers, std::string_view name) {
  for (const Header& h : headers) {
    if (EqualsIgnoreCase(h.name, name)) return h.value;
  }
  return {};
}

std::string_view Request::GetHeader(std::string_view name) const {
  return FindHeader(headers, name);
}

bool Request::HasHeader(std::string_view name) const {
  return std::any_of(headers.begin(), headers.end(),
                     [&](const Header& h) { return EqualsIgnoreCase(h.name, name); });
}

std::string_view Response::GetHeader(std::string_view name) const {
  return FindHeader(headers, name);
}

void Response::SetHeader(std::string name, std::string value) {
  auto it = std::find_if(headers.begin(), headers.end(),
                         [&](const Header& h) { return EqualsIgnoreCase(h.name, name); });
  if (it == headers.end()) {
    headers.push_back(Header{std::move(name), std::move(value)});
    return;
  }
  it->value = std::move(value);
  // Drop any later duplicates so the header has exactly one value.
  headers.erase(std::remove_if(std::next(it), headers.end(),
                               [&](const Header& h) { return EqualsIgnoreCase(h.name, it->name); }),
                headers.end());
}

namespace {

// A response whose body is `body`, labelled with `content_type`.
Response WithBody(int status, std::string_view content_type, std::string body) {
  Response r;
  r.status = status;
  r.headers.push_back(Header{"Content-Type", std::string(content_type)});
  r.body = std::move(body);
  return r;
}

}  // namespace

Response Response::Json(int status, std::string body) {
  return WithBody(status, "application/json", std::move(body));
}

Response Response::Text(int status, std::string body) {
  return WithBody(status, "text/plain; charset=utf-8", std::move(body));
}

Response Response::Empty(int status) {
  Response r;
  r.status = status;
  return r;
}

}  // namespace firn::http
