// Path segments and query strings as clients send them: form-decoding, namespace levels split
// on %1F, names, query parameters (pageToken/pageSize, boolean flags, `parent`), and the
// management API's percent-decoded path names. The input is split at the first '?' into a
// path segment and a query string.
// Properties: no crash; every refusal is kBadRequest (a 400); a decoded namespace has no
// empty level.
#include <string>

#include "rest/management_routes_internal.h"
#include "rest/path_codec.h"
#include "rest/request_params.h"
#include "fuzz_support.h"

namespace {

template <typename T>
void CheckBadRequest(const firn::Result<T>& r) {
  if (!r) FIRN_FUZZ_CHECK(r.error().kind == firn::ErrorKind::kBadRequest, "refusal is 400");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input = firn::fuzz::AsView(data, size);
  size_t q = input.find('?');
  std::string_view segment = input.substr(0, q);
  std::string_view query = q == std::string_view::npos ? std::string_view() : input.substr(q + 1);

  CheckBadRequest(firn::rest::FormDecode(segment));
  auto ns = firn::rest::DecodeNamespaceSegment(segment);
  CheckBadRequest(ns);
  if (ns) {
    FIRN_FUZZ_CHECK(!ns->empty(), "namespace has a level");
    for (const std::string& level : *ns) FIRN_FUZZ_CHECK(!level.empty(), "no empty level");
  }
  CheckBadRequest(firn::rest::DecodeNameSegment(segment));
  firn::http::PathParams params = {{"namespace", segment}, {"table", segment},
                                   {"principalName", segment}};
  CheckBadRequest(firn::rest::NamespaceParam(params));
  CheckBadRequest(firn::rest::IdentifierParam(params, "table"));
  CheckBadRequest(firn::rest::mgmt::NameParam(params, "principalName"));

  auto parsed = firn::rest::QueryParams::Parse(query);
  CheckBadRequest(parsed);
  if (!parsed) return 0;
  CheckBadRequest(firn::rest::PageParams(*parsed));
  CheckBadRequest(firn::rest::BoolParam(*parsed, "purgeRequested"));
  if (auto parent = parsed->Get("parent")) (void)firn::rest::NamespaceFromQueryValue(*parent);
  return 0;
}
