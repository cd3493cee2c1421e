#!/usr/bin/env bash
# Installs what `npm test` needs beyond `npm ci`: the Debian package `chromium`, which the
# browser test (test/client/browser.test.ts) drives through playwright-core. Idempotent: does
# nothing when /usr/bin/chromium is already there. Playwright never downloads a browser here.
set -euo pipefail

if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "test-setup: chromium is missing and apt-get is not available; install Chromium so that /usr/bin/chromium exists" >&2
  exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
  sudo=""
elif command -v sudo >/dev/null 2>&1; then
  sudo="sudo"
else
  echo "test-setup: chromium is missing; run as root or install sudo, or run: apt-get install chromium" >&2
  exit 1
fi

echo "test-setup: installing chromium (Debian package) for the browser test" >&2
$sudo apt-get update
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium
