#!/usr/bin/env bash
# Debian's shellcheck, for the test that checks the release workflow's shell steps
# (tests/test_release.py). Does nothing when it is already installed.
set -euo pipefail
source "$(dirname "$0")/apt.sh"

if ! command -v shellcheck > /dev/null; then
    apt_install install-shellcheck.sh shellcheck
fi
