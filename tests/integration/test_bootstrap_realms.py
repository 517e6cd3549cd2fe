"""First contact (issue 14, item 7): FIRN_BOOTSTRAP_CREDENTIALS naming a realm other than the
default bootstraps that realm too and says so (it was silently ignored and the client only
saw invalid_client); the realms stay apart."""
from __future__ import annotations

import secrets

import pytest

import firn_auth
from firn_auth import Credentials, new_secret, request_token

pytestmark = pytest.mark.firn_only("bootstrap of several realms (issue 14)")


def test_a_second_realm_in_the_bootstrap_credentials_is_bootstrapped(server_factory):
    admin = firn_auth.admin_credentials()
    other = Credentials("tenant_b", f"tb{secrets.token_hex(4)}", new_secret())
    srv = server_factory(env={"FIRN_BOOTSTRAP_CREDENTIALS":
                              f"{admin.bootstrap_value()};{other.bootstrap_value()}"})
    log = srv.log_path.read_text()
    assert '"realm":"tenant_b"' in log and "bootstrapped realm" in log, log[-3000:]
    assert other.client_secret not in log
    assert request_token(srv.uri, other.client_id, other.client_secret,
                         realm="tenant_b").status_code == 200
    # Each realm knows only its own admin.
    assert request_token(srv.uri, admin.client_id, admin.client_secret,
                         realm="tenant_b").status_code == 401
    assert request_token(srv.uri, other.client_id, other.client_secret).status_code == 401
    assert request_token(srv.uri, admin.client_id, admin.client_secret).status_code == 200
