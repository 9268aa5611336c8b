"""
OAuth 2.0 client credentials over HTTPS with requests-oauthlib, as Python clients of the platform
fetch tokens: BackendApplicationClient verifying svc-mock's certificate against its local CA
(OAUTHLIB_INSECURE_TRANSPORT unset, verification on), by basic and by post, then the versions
API with the token; a client that does not trust the CA is refused by its own TLS check.
"""
import os

import pytest
import requests
from oauthlib.oauth2 import BackendApplicationClient, InsecureTransportError
from requests_oauthlib import OAuth2Session

VERSIONS = "/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions"


def test_oauthlib_insists_on_https_and_nothing_relaxes_it(svc_mock):
    assert "OAUTHLIB_INSECURE_TRANSPORT" not in os.environ
    assert svc_mock.startswith("https://")
    session = OAuth2Session(client=BackendApplicationClient(client_id="ci-client"))
    with pytest.raises(InsecureTransportError):
        session.fetch_token(svc_mock.replace("https://", "http://") + "/oauth2/token", client_id="ci-client", client_secret="ci-secret")


@pytest.mark.parametrize(
    "client_id, client_secret, include_client_id",
    [("ci-client", "ci-secret", False), ("ci-post-client", "ci-post-secret", True)],
    ids=["client secret basic", "client secret post"],
)
def test_client_credentials_token_over_https_then_the_versions_api(svc_mock, client_id, client_secret, include_client_id):
    session = OAuth2Session(client=BackendApplicationClient(client_id=client_id))
    token = session.fetch_token(
        f"{svc_mock}/oauth2/token",
        client_id=client_id,
        client_secret=client_secret,
        include_client_id=include_client_id,
        verify=os.environ["REQUESTS_CA_BUNDLE"],
    )
    assert token["token_type"] == "Bearer"
    assert token["expires_in"] == 899
    assert "studio" in token["scope"]
    versions = session.get(f"{svc_mock}{VERSIONS}", verify=os.environ["REQUESTS_CA_BUNDLE"])
    assert versions.status_code == 200
    assert versions.json()["count"] == 3
    journal = requests.get(f"{svc_mock}/__svc-mock/journal", params={"route": "versions.list"}).json()
    assert journal[-1]["identity"] == f"OAuth client {client_id}"


def test_a_client_that_does_not_trust_the_ca_is_refused(svc_mock):
    # certifi's list alone, as requests uses by default: svc-mock's certificate does not verify.
    with pytest.raises(requests.exceptions.SSLError):
        requests.get(f"{svc_mock}/__svc-mock/health", verify=requests.certs.where())


def test_the_ca_svc_mock_serves_is_the_one_the_server_is_signed_by(svc_mock):
    served = requests.get(f"{svc_mock}/__svc-mock/ca.pem")
    assert served.status_code == 200
    with open(os.environ["REQUESTS_CA_BUNDLE"], encoding="ascii") as trusted:
        assert served.text == trusted.read()
    assert "PRIVATE KEY" not in served.text
