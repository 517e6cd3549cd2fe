#include "rest/request_params.h"

#include <charconv>

#include "catalog/input_rules.h"
#include "common/macros.h"
#include "common/strings.h"
#include "rest/route_registrar.h"

namespace firn::rest {

Result<store::Namespace> NamespaceParam(const http::PathParams& params) {
  FIRN_ASSIGN_OR_RETURN(store::Namespace ns,
                        DecodeNamespaceSegment(PathParam(params, "namespace")));
  FIRN_RETURN_IF_ERROR(catalog::ValidateNamespace(ns));
  return ns;
}

Result<store::Identifier> IdentifierParam(const http::PathParams& params,
                                          std::string_view name_param) {
  store::Identifier id;
  FIRN_ASSIGN_OR_RETURN(id.ns, NamespaceParam(params));
  FIRN_ASSIGN_OR_RETURN(id.name, DecodeNameSegment(PathParam(params, name_param)));
  FIRN_RETURN_IF_ERROR(catalog::ValidateName(std::string(name_param) + " name", id.name));
  return id;
}

Result<store::Namespace> ParentParam(const QueryParams& query) {
  store::Namespace parent = NamespaceFromQueryValue(query.Get("parent").value_or(""));
  if (!parent.empty()) FIRN_RETURN_IF_ERROR(catalog::ValidateNamespace(parent));
  return parent;
}

Result<bool> BoolParam(const QueryParams& query, std::string_view name) {
  auto value = query.Get(name);
  if (!value || value->empty()) return false;
  if (EqualsIgnoreCase(*value, "true")) return true;
  if (EqualsIgnoreCase(*value, "false")) return false;
  return Fail(ErrorKind::kBadRequest, "Invalid " + std::string(name) + ": must be true or false");
}

Result<store::PageRequest> PageParams(const QueryParams& query) {
  store::PageRequest page;
  if (auto token = query.Get("pageToken"); token && !token->empty()) {
    page.token = std::string(*token);
  }
  if (auto size = query.Get("pageSize"); size && !size->empty()) {
    int64_t n = 0;
    auto [end, ec] = std::from_chars(size->data(), size->data() + size->size(), n);
    if (ec != std::errc() || end != size->data() + size->size() || n < 1) {
      return Fail(ErrorKind::kBadRequest, "Invalid pageSize: must be an integer >= 1");
    }
    page.size = n;
  }
  return page;
}

Result<std::optional<int64_t>> IntParam(const QueryParams& query, std::string_view name) {
  auto v = query.Get(name);
  if (!v || v->empty()) return std::optional<int64_t>();
  int64_t out = 0;
  auto [ptr, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
  if (ec != std::errc() || ptr != v->data() + v->size()) {
    return Fail(ErrorKind::kBadRequest, "Query parameter '" + std::string(name) +
                                            "' must be an integer");
  }
  return std::optional<int64_t>(out);
}

std::optional<std::string> TextParam(const QueryParams& query, std::string_view name) {
  auto v = query.Get(name);
  if (!v || v->empty()) return std::nullopt;
  return std::string(*v);
}

}  // namespace firn::rest
