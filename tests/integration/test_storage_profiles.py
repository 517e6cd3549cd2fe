"""Storage profiles (issue 11, docs/vending.md): an S3 catalog's profile goes in and out of the
management API as Polaris's storageConfigInfo, never carries a key, and only a service admin
may change it — written as the attacks: a body smuggling keys in, a content manager re-pointing
the role or the endpoint, a file: catalog asked for credentials."""

from __future__ import annotations

import uuid

import pytest
import requests

import firn_auth
from conftest import make_catalog, session_storage_root
from helpers import SCHEMA

pytestmark = pytest.mark.firn_only

BUCKET_ROOT = "s3://profiles-bucket/lake"


def error_of(r: requests.Response, *statuses: int) -> dict:
    assert r.status_code in statuses, (r.status_code, r.text[:400])
    return r.json()["error"]


@pytest.fixture
def srv(server_factory, tmp_path):
    # A root on S3 besides the session's tree: catalogs there are S3 catalogs. Creating one
    # touches no store.
    return server_factory(args=["--storage-roots",
                                f"{session_storage_root(tmp_path)},{BUCKET_ROOT}"])


def s3_catalog_body(name: str, **storage) -> dict:
    return {"catalog": {"type": "INTERNAL", "name": name,
                        "properties": {"default-base-location": f"{BUCKET_ROOT}/{name}"},
                        "storageConfigInfo": {"storageType": "S3", **storage}}}


def test_a_profile_round_trips_without_keys(srv):
    admin = firn_auth.Management(srv.uri)
    name = f"p{uuid.uuid4().hex[:8]}"
    admin.ok("POST", "/catalogs", json=s3_catalog_body(
        name, roleArn="arn:aws:iam::123456789012:role/lake", region="eu-west-1",
        endpoint="https://s3.example.com", endpointInternal="http://10.0.0.5:9000",
        stsEndpoint="http://10.0.0.5:9000", pathStyleAccess=True))
    storage = admin.get_catalog(name)["storageConfigInfo"]
    assert storage["storageType"] == "S3"
    assert storage["roleArn"] == "arn:aws:iam::123456789012:role/lake"
    assert storage["endpoint"] == "https://s3.example.com"
    assert storage["endpointInternal"] == "http://10.0.0.5:9000"
    assert storage["pathStyleAccess"] is True
    assert not any("secret" in k.lower() or "key" in k.lower() for k in storage)


def test_storage_name_must_name_a_key_set_of_the_server(server_factory, tmp_path):
    """storageName refers to server-side keys by name: an unknown name is refused, a configured
    one round-trips, and the keys behind it appear nowhere (API, log)."""
    secret = f"tenant-secret-{uuid.uuid4().hex}"
    keys = tmp_path / "tenant.keys"
    keys.write_text(f"access_key_id = TENANTKEY\nsecret_access_key = {secret}\n")
    keys.chmod(0o600)
    srv = server_factory(args=["--storage-roots",
                               f"{session_storage_root(tmp_path)},{BUCKET_ROOT}",
                               "--s3-endpoint", "http://127.0.0.1:9", "--s3-access-key-id",
                               "SERVERKEY", "--s3-key-sets", f"tenant={keys}"],
                         env={"FIRN_S3_SECRET_ACCESS_KEY": "server-secret"})
    admin = firn_auth.Management(srv.uri)
    name = f"n{uuid.uuid4().hex[:8]}"
    r = admin.request("POST", "/catalogs", json=s3_catalog_body(name, storageName="other"))
    err = error_of(r, 400)
    assert err["message"] == ("Invalid catalog: storageConfigInfo.storageName 'other' names no "
                              "server-side key set of this server (s3-key-sets)")
    assert name not in admin.list_catalogs()
    admin.ok("POST", "/catalogs", json=s3_catalog_body(name, storageName="tenant"))
    got = admin.get_catalog(name)
    assert got["storageConfigInfo"]["storageName"] == "tenant"
    assert "TENANTKEY" not in str(got) and secret not in str(got)
    # Re-pointing to an unknown name is refused the same way, and nothing changes.
    r = admin.request("PUT", f"/catalogs/{name}", json={
        "currentEntityVersion": got["entityVersion"],
        "storageConfigInfo": {**got["storageConfigInfo"], "storageName": "nope"}})
    error_of(r, 400)
    assert admin.get_catalog(name)["storageConfigInfo"]["storageName"] == "tenant"
    assert secret not in srv.log_path.read_text()


@pytest.mark.parametrize("field", ["secretAccessKey", "awsAccessKeyId", "sessionToken",
                                   "SECRET", "password", "s3.access-key-id"])
def test_a_body_smuggling_keys_is_refused_and_nothing_is_stored_or_logged(srv, field):
    admin = firn_auth.Management(srv.uri)
    name = f"k{uuid.uuid4().hex[:8]}"
    planted = f"planted-{uuid.uuid4().hex}"
    r = admin.request("POST", "/catalogs", json=s3_catalog_body(name, **{field: planted}))
    err = error_of(r, 400)
    assert "may not carry storage keys" in err["message"]
    assert name not in admin.list_catalogs()
    assert planted not in srv.log_path.read_text()


@pytest.mark.parametrize("bad", [{"endpoint": "ftp://h"}, {"endpoint": "http://h/path"},
                                 {"endpoint": "http://user@h"}, {"roleArn": 7},
                                 {"pathStyleAccess": "yes"}])
def test_malformed_profile_fields_are_400(srv, bad):
    admin = firn_auth.Management(srv.uri)
    r = admin.request("POST", "/catalogs", json=s3_catalog_body(f"m{uuid.uuid4().hex[:8]}", **bad))
    error_of(r, 400)


def test_a_content_manager_cannot_repoint_the_role_or_the_endpoint(srv):
    admin = firn_auth.Management(srv.uri)
    name = f"c{uuid.uuid4().hex[:8]}"
    admin.ok("POST", "/catalogs", json=s3_catalog_body(
        name, roleArn="arn:aws:iam::123456789012:role/lake", endpoint="https://s3.example.com"))
    manager = admin.principal_with(f"cm{uuid.uuid4().hex[:6]}", name,
                                   [("CATALOG_MANAGE_CONTENT", None)])
    mgmt = firn_auth.Management(srv.uri, manager.creds)
    before = admin.get_catalog(name)
    for change in [{"roleArn": "arn:aws:iam::999999999999:role/attacker"},
                   {"endpoint": "https://evil.example.com"},
                   {"stsEndpoint": "http://127.0.0.1:1"},
                   {"endpointInternal": "http://127.0.0.1:1"}]:
        storage = {**before["storageConfigInfo"], **change}
        r = mgmt.request("PUT", f"/catalogs/{name}", json={
            "currentEntityVersion": admin.get_catalog(name)["entityVersion"],
            "storageConfigInfo": storage})
        assert "SERVICE_MANAGE_ACCESS" in error_of(r, 403)["message"]
    assert admin.get_catalog(name)["storageConfigInfo"] == before["storageConfigInfo"]


def test_a_file_catalog_asked_for_credentials_serves_the_table_with_a_warning(srv):
    cat = make_catalog(srv)
    ns = f"n{uuid.uuid4().hex[:8]}"
    cat.create_namespace(ns)
    cat.create_table(f"{ns}.t", schema=SCHEMA)
    headers = {**firn_auth.auth_headers(srv.uri),
               "X-Iceberg-Access-Delegation": "vended-credentials"}
    r = requests.get(f"{srv.uri}/v1/namespaces/{ns}/tables/t", headers=headers, timeout=30)
    assert r.status_code == 200, r.text
    assert "storage-credentials" not in r.json()
    assert r.json()["config"] == {}
    assert r.headers["Warning"].startswith("299 firn ")
    r = requests.get(f"{srv.uri}/v1/namespaces/{ns}/tables/t/credentials", headers=headers,
                     timeout=30)
    err = error_of(r, 400)
    assert err["message"] == (f"Credential vending was requested for table {ns}.t, but no "
                              "credentials are available")
