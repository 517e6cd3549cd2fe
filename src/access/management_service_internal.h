// Helpers shared by the management_service_*.cc files. Internal to firn_access.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "access/management_service.h"

namespace firn::access::mgmt {

inline constexpr std::string_view kSuccess = "success";

// An audit row for `op` by the context's caller (at_ms now; outcome left to the caller).
store::AuditEntry MakeAudit(const ManagementContext& ctx, auth::Operation op,
                            std::string_view catalog, std::string_view object);
// A store error as the management API words it for `object`.
Error MapStoreError(const Error& e, std::string_view object);

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

// The principal-role link of some principal other than `excluded` that holds service_admin
// in `realm`; nullopt when `excluded` is (or would leave) no other administrator. Writes that
// take service_admin away re-write this link with its expected version, so two concurrent
// removals of the last two administrators cannot both commit.
std::optional<store::AccessRecord> OtherServiceAdminLink(const RealmState& realm,
                                                         std::string_view excluded);

const RoleInfo* FindCatalogRole(const RealmState& realm, std::string_view catalog,
                                std::string_view name);

}  // namespace firn::access::mgmt
