#!/usr/bin/env bash
# Debian's chromium for the browser end-to-end tests (tests/test_web_browser.py drives
# /usr/bin/chromium through Playwright). Does nothing when it is already installed.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
    exit 0
fi

# Installing system packages needs root; say so plainly rather than fail deep inside apt.
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO=sudo
    else
        echo "install-chromium.sh: /usr/bin/chromium is missing and installing it needs root" >&2
        exit 1
    fi
else
    SUDO=
fi

# Quiet on success; apt's full output only when something went wrong.
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "install-chromium.sh: apt-get could not install chromium" >&2
    exit 1
fi
