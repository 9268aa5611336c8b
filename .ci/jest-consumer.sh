#!/usr/bin/env bash
# A jest 30 consumer of the packed tarball, set up as docs/jest.md says: ES modules (`"type":
# "module"`), ts-jest's createDefaultEsmPreset, NODE_OPTIONS=--experimental-vm-modules; one test
# file through msw's setupServer, one through emu.handle() (.ci/consumer/jest/).
#
#   .ci/jest-consumer.sh TARBALL NODE [MSW] [REPORT]
#     TARBALL  the packed svc-mock (npm pack)
#     NODE     the node binary that runs npm and jest (its folder goes first on PATH)
#     MSW      the msw to install (default msw@2)
#     REPORT   where jest writes its JSON report (numPassedTests, numFailedTests, testResults)
#
# Installs into a scratch folder (removed afterwards) from the npm registry; exits with jest's code.
set -euo pipefail
TARBALL="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
NODE_BIN="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
MSW="${3:-msw@2}"
REPORT="${4:-}"
[ -z "$REPORT" ] || REPORT="$(cd "$(dirname "$REPORT")" && pwd)/$(basename "$REPORT")"
HERE="$(cd "$(dirname "$0")" && pwd)"

DIR="$(mktemp -d "${TMPDIR:-/tmp}/svc-mock-jest.XXXXXX")"
trap 'rm -rf "$DIR"' EXIT
cp "$HERE"/consumer/jest/* "$DIR/"
cd "$DIR"
export PATH="$(dirname "$NODE_BIN"):$PATH"
NODE_MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
echo "== jest consumer: node $(node --version), $MSW, $(basename "$TARBALL")"
npm install --no-audit --no-fund --save-dev jest@30 @jest/globals@30 ts-jest typescript@5.9 "@types/node@^$NODE_MAJOR" "$MSW" "$TARBALL" >install.log 2>&1 || { cat install.log; exit 1; }
echo "== jest $(node -p 'require("jest/package.json").version'), ts-jest $(node -p 'require("ts-jest/package.json").version'), msw $(node -p 'require("msw/package.json").version')"
NODE_OPTIONS=--experimental-vm-modules node node_modules/jest/bin/jest.js --ci ${REPORT:+--json --outputFile="$REPORT"}
