"""
`svc-mock exec --https` in a CI image that already sets REQUESTS_CA_BUNDLE, to a bundle without
svc-mock's CA: requests in the command still reaches svc-mock (it verified against the image's
bundle alone before: CERTIFICATE_VERIFY_FAILED), and still trusts what the image's bundle held.
"""
import os
import shutil
import subprocess
import sys

import requests

# The command exec runs: the health answer over HTTPS, verified, and whether the bundle it was
# given still holds the first certificate of the image's own.
COMMAND = """
import os, requests
bundle = open(os.environ["REQUESTS_CA_BUNDLE"]).read()
first = open(os.environ["IMAGE_BUNDLE"]).read().split("-----END CERTIFICATE-----")[0].split("-----BEGIN CERTIFICATE-----")[1]
print(requests.get(os.environ["SVC_MOCK_URL"] + "/__svc-mock/health", timeout=10).json()["status"], "".join(first.split()) in "".join(bundle.split()))
"""


def test_requests_reaches_svc_mock_when_the_image_already_sets_requests_ca_bundle(tmp_path):
    image_bundle = tmp_path / "image-bundle.pem"
    shutil.copyfile(requests.certs.where(), image_bundle)
    env = {name: value for name, value in os.environ.items() if name not in ("SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS", "CURL_CA_BUNDLE")}
    env["REQUESTS_CA_BUNDLE"] = str(image_bundle)
    env["IMAGE_BUNDLE"] = str(image_bundle)
    done = subprocess.run(
        ["npx", "svc-mock", "exec", "--https", "--log", "silent", "--", sys.executable, "-c", COMMAND],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "ok True\n"
