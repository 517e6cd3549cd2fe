// Helpers shared by the management_service_*.cc files. Internal to firn_access.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "access/management_service.h"

namespace firn::access::mgmt {

inline constexpr std::string_view kSuccess = "success";

// Polaris names must be 1..256 characters and not "system$..." (spec pattern).
Status ValidateName(std::string_view what, std::string_view name);

std::unexpected<Error> NotFound(std::string_view what, std::string_view name);

PrincipalView ToView(const PrincipalInfo& p);
RoleView ToView(const RoleInfo& r);

store::AccessWrite Create(store::AccessRecord record);
store::AccessWrite Update(store::AccessRecord record, std::optional<int64_t> expected);
store::AccessWrite Delete(const store::AccessRecord& record, std::optional<int64_t> expected);

// Decoded links of one realm, from RealmState::links.
std::vector<PrincipalRoleAssignment> PrincipalRoleLinks(const RealmState& realm);
std::vector<CatalogRoleAssignment> CatalogRoleLinks(const RealmState& realm);
std::vector<PrivilegeGrantInfo> PrivilegeGrants(const RealmState& realm);

// The realm of the request, or an empty placeholder (a realm with nothing in it yet).
const RealmState& RealmOf(const AccessSnapshot& snap, std::string_view realm);

const RoleInfo* FindCatalogRole(const RealmState& realm, std::string_view catalog,
                                std::string_view name);

}  // namespace firn::access::mgmt
