"""
pycelonis's get_celonis() against svc-mock, for every credential kind of the default fixtures:
exactly its calls, in its order, with its headers (GET /api/cloud as AppKey, as Bearer when that
is refused, /api/cloud again, /api/cloud/permissions, /api/team), its answers parsed with the field
types the SDK reads; what svc-mock's journal recorded is checked call by call.
"""
import datetime
import os
import re
import urllib.parse

import httpx
import pytest
import requests

from pycelonis_protocol import (
    USER_AGENT,
    CloudPermissions,
    PyCelonisPermissionError,
    get_celonis,
    oauth2,
)

SCOPE = "studio integration.data-pools"
ALICE_READS = [CloudPermissions(serviceName="storage/acme-collection/acme-tenant", permissions=["read"])]
PROBES = ("auth.cloud", "auth.permissions", "auth.teamInfo")


def code_token(base: str) -> str:
    """An authorization-code token for alice (consent at once), as a web app gets one."""
    callback = "http://127.0.0.1:8765/callback"
    authorize = httpx.get(f"{base}/oauth2/authorize", params={"response_type": "code", "client_id": "web-app", "redirect_uri": callback, "state": "s", "login_hint": "alice"}, verify=os.environ["SSL_CERT_FILE"])
    assert authorize.status_code == 302
    code = urllib.parse.parse_qs(urllib.parse.urlsplit(authorize.headers["location"]).query)["code"][0]
    answer = httpx.post(f"{base}/oauth2/token", data={"grant_type": "authorization_code", "code": code, "redirect_uri": callback, "client_id": "web-app", "client_secret": "web-app-secret"})
    return answer.json()["access_token"]


def device_token(base: str) -> str:
    """A device-code token for alice (approved at once), as the platform's CLI gets one."""
    started = httpx.post(f"{base}/oauth2/device_authorization", data={"client_id": "content-cli"}).json()
    answer = httpx.post(f"{base}/oauth2/token", data={"grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": started["device_code"], "client_id": "content-cli"})
    return answer.json()["access_token"]


CREDENTIALS = {
    "user key": lambda base: "svcmock-user-key-alice",
    "application key": lambda base: "svcmock-app-key",
    "client credentials, basic": lambda base: oauth2(base, "ci-client", "ci-secret", SCOPE),
    "client credentials, post": lambda base: oauth2(base, "ci-post-client", "ci-post-secret", SCOPE, method="post"),
    "authorization code": code_token,
    "device code": device_token,
}

# What get_celonis() must end up seeing: the scheme the key takes, and who the platform says it is.
EXPECTED = {
    "user key": ("Bearer", "alice", "Alice Example"),
    "application key": ("AppKey", "default-app-key", "default-app-key"),
    "client credentials, basic": ("Bearer", "ci-client", "CI client (client credentials, basic)"),
    "client credentials, post": ("Bearer", "ci-post-client", "CI client (client credentials, post)"),
    "authorization code": ("Bearer", "alice", "Alice Example"),
    "device code": ("Bearer", "alice", "Alice Example"),
}


def probe_calls(base: str):
    """The SDK's calls as svc-mock's journal recorded them: (path, scheme, status, user agent)."""
    journal = requests.get(f"{base}/__svc-mock/journal").json()
    return [
        (e["path"], e["request"]["headers"]["authorization"].split()[0], e["status"], e["request"]["headers"].get("user-agent"))
        for e in journal
        if e["route"] in PROBES
    ]


@pytest.mark.parametrize("kind", list(CREDENTIALS))
def test_get_celonis_connects_with_each_credential_kind(svc_mock, kind):
    token = CREDENTIALS[kind](svc_mock)
    scheme, user_id, name = EXPECTED[kind]

    celonis = get_celonis(base_url=svc_mock, api_token=token, verify=os.environ["SSL_CERT_FILE"])

    assert celonis.scheme == scheme
    assert celonis.user.id == user_id
    assert celonis.user.name == name
    assert celonis.user.teamId == "acme"
    assert isinstance(celonis.user.role, int) and not isinstance(celonis.user.role, bool)
    assert isinstance(celonis.user.effectiveRole, int)
    assert isinstance(celonis.user.lastLogInDate, datetime.datetime)
    assert celonis.user.lastLogInDate.tzinfo is not None
    assert celonis.permissions == ALICE_READS
    assert celonis.tracking_enabled is False

    fallback = [("/api/cloud", "AppKey", 401, USER_AGENT)] if scheme == "Bearer" else []
    assert probe_calls(svc_mock) == fallback + [
        ("/api/cloud", scheme, 200, USER_AGENT),
        ("/api/cloud", scheme, 200, USER_AGENT),
        ("/api/cloud/permissions", scheme, 200, USER_AGENT),
        ("/api/team", scheme, 200, USER_AGENT),
    ]


@pytest.mark.parametrize("key_type, token, scheme", [("USER_KEY", "svcmock-user-key-alice", "Bearer"), ("APP_KEY", "svcmock-app-key", "AppKey")])
def test_with_a_key_type_it_skips_the_scheme_probe(svc_mock, key_type, token, scheme):
    celonis = get_celonis(base_url=svc_mock, api_token=token, key_type=key_type, verify=os.environ["SSL_CERT_FILE"])
    assert celonis.scheme == scheme
    assert [call[:3] for call in probe_calls(svc_mock)] == [("/api/cloud", scheme, 200), ("/api/cloud/permissions", scheme, 200), ("/api/team", scheme, 200)]


def test_a_key_under_the_wrong_key_type_is_a_permission_error(svc_mock):
    with pytest.raises(PyCelonisPermissionError):
        get_celonis(base_url=svc_mock, api_token="svcmock-app-key", key_type="USER_KEY", verify=os.environ["SSL_CERT_FILE"])


def test_an_identity_without_permissions_gets_an_empty_list(svc_mock):
    celonis = get_celonis(base_url=svc_mock, api_token="svcmock-user-key-bob", verify=os.environ["SSL_CERT_FILE"])
    assert celonis.user.email == "bob@acme.test"
    assert celonis.permissions == []


def test_the_base_url_may_come_without_a_scheme_and_with_a_path(svc_mock):
    host = re.sub(r"^https://", "", svc_mock)
    celonis = get_celonis(base_url=f"{host}/some/path", api_token="svcmock-app-key", verify=os.environ["SSL_CERT_FILE"])
    assert celonis.user.id == "default-app-key"
