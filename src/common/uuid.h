// Random (v4) and time-ordered (v7) UUIDs in canonical lowercase text form.
#pragma once

#include <string>
#include <string_view>

namespace firn {

std::string NewUuidV4();
std::string NewUuidV7();
// True for the canonical 8-4-4-4-12 hex form (either case).
bool IsUuid(std::string_view text);

}  // namespace firn
