# test_first_ten_minutes.py: a token over HTTPS, the API with it, and a failure on purpose.
import requests
from oauthlib.oauth2 import BackendApplicationClient
from requests_oauthlib import OAuth2Session

VERSIONS = "/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions"


def test_a_token_over_https_calls_the_api(svc_mock):
    session = OAuth2Session(client=BackendApplicationClient(client_id="ci-client"))
    token = session.fetch_token(f"{svc_mock}/oauth2/token", client_id="ci-client", client_secret="ci-secret")
    assert token["token_type"] == "Bearer"
    versions = session.get(f"{svc_mock}{VERSIONS}")
    assert versions.status_code == 200
    assert [v["attributes"]["version"]["127"] for v in versions.json()["elements"]] == ["1.0", "2.0", "2.1"]


def test_one_request_meets_a_scenario(svc_mock):
    headers = {"Authorization": "AppKey svcmock-app-key", "x-svc-mock-scenario": "rate-limited"}
    refused = requests.get(f"{svc_mock}{VERSIONS}", headers=headers)
    assert refused.status_code == 429
    assert "x-ratelimit-reset" in refused.headers
    # Only that request: the next one, without the header, is answered as usual.
    assert requests.get(f"{svc_mock}{VERSIONS}", headers={"Authorization": "AppKey svcmock-app-key"}).status_code == 200


def test_each_test_starts_from_the_fixtures(svc_mock):
    journal = requests.get(f"{svc_mock}/__svc-mock/journal").json()
    # Only the reset this test began with: the requests of the tests before are gone.
    assert [entry["route"] for entry in journal] == ["control.reset"]
