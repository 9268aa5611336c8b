#!/bin/sh
# The Python client suite: requests-oauthlib and the platform SDK's protocol against svc-mock over
# HTTPS. Installs nothing: it needs python3 with pytest, requests-oauthlib and httpx (on Debian:
# apt-get install python3-pytest python3-requests-oauthlib python3-httpx), Node.js, and svc-mock
# built (npm install, or npm run build). PYTHON picks the interpreter (default: Debian's /usr/bin/python3).
set -eu
export PYTHONDONTWRITEBYTECODE=1
cd "$(dirname "$0")/../../.."
[ -f dist/cli.js ] || { echo "svc-mock is not built: run npm run build first" >&2; exit 1; }
PYTHON="${PYTHON:-/usr/bin/python3}"
[ -x "$PYTHON" ] || PYTHON=python3
# The suite's local CA lives in a folder of its own, never in the user's data folder.
if [ -z "${SVC_MOCK_CA_DIR:-}" ]; then
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  SVC_MOCK_CA_DIR="$scratch/ca"
  export SVC_MOCK_CA_DIR
fi
"$PYTHON" -m pytest test/real-client/python -p no:cacheprovider -q "$@"
