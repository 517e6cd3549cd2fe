#include "rest/page_responses.h"

#include <boost/json/serialize.hpp>

#include "rest/json_fields.h"

namespace firn::rest {

boost::json::value NextPageToken(const std::optional<std::string>& token) {
  return token ? boost::json::value(*token) : boost::json::value(nullptr);
}

http::Response IdentifierPageResponse(const store::Namespace& ns,
                                      const store::Page<std::string>& page) {
  boost::json::array identifiers;
  for (const std::string& name : page.items) identifiers.push_back(IdentifierToJson({ns, name}));
  boost::json::object body;
  body["identifiers"] = std::move(identifiers);
  body["next-page-token"] = NextPageToken(page.next_token);
  return http::Response::Json(200, boost::json::serialize(body));
}

}  // namespace firn::rest
