// Text form of replayed response headers for idempotency records, shared by the backends:
// a JSON array of [name, value] pairs.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"

namespace firn::store {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

std::string EncodeHeaders(const HeaderList& headers);
Result<HeaderList> DecodeHeaders(std::string_view text);

}  // namespace firn::store
