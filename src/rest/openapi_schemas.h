// The `components` section shared by Firn's OpenAPI documents (rest/openapi.h): request and
// response schemas, reusable parameters, the error responses and the bearer security scheme,
// written from what Firn's handlers accept and answer. Internal to firn_rest.
// Errors: none (the text is a constant; a malformed constant fails the unit test).
// Thread-safety: returns a fresh copy of an immutable parsed constant.
#pragma once

#include <boost/json/object.hpp>

namespace firn::rest {

boost::json::object OpenApiComponents();

}  // namespace firn::rest
