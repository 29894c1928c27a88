#!/usr/bin/env bash
# Debian's chromium for the browser end-to-end tests (tests/test_web_browser.py drives
# /usr/bin/chromium through Playwright). Does nothing when it is already installed.
set -euo pipefail
source "$(dirname "$0")/apt.sh"

if [ ! -x /usr/bin/chromium ]; then
    apt_install install-chromium.sh chromium
fi
