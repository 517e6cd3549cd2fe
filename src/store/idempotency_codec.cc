#include "store/idempotency_codec.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

namespace firn::store {

std::string EncodeHeaders(const HeaderList& headers) {
  boost::json::array out;
  for (const auto& [name, value] : headers) out.push_back(boost::json::array{name, value});
  return boost::json::serialize(out);
}

Result<HeaderList> DecodeHeaders(std::string_view text) {
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(text, ec);
  if (ec || !v.is_array()) {
    return Fail(ErrorKind::kInternal, "Catalog database error", "bad idempotency headers_json");
  }
  HeaderList headers;
  for (const auto& item : v.get_array()) {
    const auto* pair = item.if_array();
    if (!pair || pair->size() != 2 || !(*pair)[0].is_string() || !(*pair)[1].is_string()) {
      return Fail(ErrorKind::kInternal, "Catalog database error", "bad idempotency header");
    }
    headers.emplace_back(std::string((*pair)[0].get_string()), std::string((*pair)[1].get_string()));
  }
  return headers;
}

}  // namespace firn::store
