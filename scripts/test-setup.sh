#!/usr/bin/env bash
# Installs what `npm test` needs beyond `npm ci`, from Debian packages, each only when missing
# (idempotent; nothing is downloaded when everything is there):
# - `chromium`, which the browser test (test/client/browser.test.ts) drives through
#   playwright-core (Playwright never downloads a browser here);
# - `python3-fastapi` and `python3-uvicorn` for /usr/bin/python3, which run the Python container
#   the conformance checker is tested against (test/conformance/python.test.ts);
# - `postgresql` (the server binaries: initdb, pg_ctl, psql), from which test/helpers/postgres.ts
#   starts a throwaway cluster for the replica and session-store tests (test/replicas/,
#   test/agent-app/service-uris.test.ts). Debian keeps them in /usr/lib/postgresql/<N>/bin, off
#   PATH; the helper looks there. Installing it starts no server the tests use.
set -euo pipefail

missing=()
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
  missing+=(chromium)
fi
if ! /usr/bin/python3 -c 'import fastapi, uvicorn' >/dev/null 2>&1; then
  missing+=(python3-fastapi python3-uvicorn)
fi
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  missing+=(postgresql)
fi
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "test-setup: missing ${missing[*]} and apt-get is not available; install them (Chromium as /usr/bin/chromium; FastAPI and uvicorn for /usr/bin/python3; PostgreSQL's server binaries)" >&2
  exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
  sudo=""
elif command -v sudo >/dev/null 2>&1; then
  sudo="sudo"
else
  echo "test-setup: missing ${missing[*]}; run as root or install sudo, or run: apt-get install ${missing[*]}" >&2
  exit 1
fi

echo "test-setup: installing ${missing[*]} (Debian packages) for the browser, Python container and PostgreSQL tests" >&2
$sudo apt-get update
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
