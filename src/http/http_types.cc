#include "http/http_types.h"

#include <algorithm>

namespace firn::http {

namespace {

constexpr char ToLowerAscii(char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; }

}  // namespace

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (ToLowerAscii(a[i]) != ToLowerAscii(b[i])) return false;
  }
  return true;
}

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

Response Response::Json(int status, std::string body) {
  Response r;
  r.status = status;
  r.headers.push_back(Header{"Content-Type", "application/json"});
  r.body = std::move(body);
  return r;
}

Response Response::Text(int status, std::string body) {
  Response r;
  r.status = status;
  r.headers.push_back(Header{"Content-Type", "text/plain; charset=utf-8"});
  r.body = std::move(body);
  return r;
}

Response Response::Empty(int status) {
  Response r;
  r.status = status;
  return r;
}

}  // namespace firn::http
