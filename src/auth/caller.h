// Caller: the authenticated identity of one request plus the grant snapshot it is judged by.
//
// Built by access/ (Authenticator) per request, read by catalog/ and the management service.
// `grants == nullptr` means authorisation is off for this server (every check allows); that is
// an operator choice (`--auth off`), never a fallback after an error.
#pragma once

#include <memory>
#include <string>

#include "auth/authorizer.h"

namespace firn::auth {

struct Caller {
  Subject subject;                              // realm, principal name, active roles
  std::shared_ptr<const GrantSnapshot> grants;  // null = authorisation disabled
  std::string client_id;                        // for audit; "" for external (OIDC) callers
  bool external = false;                        // authenticated by an external issuer

  bool authorization_enabled() const { return grants != nullptr; }
};

}  // namespace firn::auth
