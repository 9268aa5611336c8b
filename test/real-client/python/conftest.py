# conftest.py: svc-mock for the whole test session, over HTTPS, and a clean slate for every test.
import json
import os
import subprocess
import threading

import pytest
import requests


@pytest.fixture(scope="session")
def svc_mock():
    """Starts svc-mock on a free port with HTTPS, yields its address, and stops it at the end."""
    server = subprocess.Popen(
        ["npx", "svc-mock", "--https", "--port", "0", "--log", "json"],
        stdout=subprocess.PIPE,
        text=True,
    )
    first_line = server.stdout.readline()  # {"event":"listening","url":…,"caFile":…}
    if not first_line:
        raise RuntimeError(f"svc-mock did not start (exit code {server.wait()})")
    listening = json.loads(first_line)
    # Read the rest of its log (one JSON line a request), so that svc-mock never waits on a full pipe.
    threading.Thread(target=server.stdout.read, daemon=True).start()
    # Trust svc-mock's local CA: requests reads REQUESTS_CA_BUNDLE, httpx SSL_CERT_FILE.
    os.environ["REQUESTS_CA_BUNDLE"] = listening["caFile"]
    os.environ["SSL_CERT_FILE"] = listening["caFile"]
    yield listening["url"]
    server.terminate()
    server.wait(timeout=10)


@pytest.fixture(autouse=True)
def fresh_svc_mock(svc_mock):
    """Every test starts from the fixtures: tokens, scenarios, journal and changes of the test before are gone."""
    requests.post(f"{svc_mock}/__svc-mock/reset", json={}).raise_for_status()
