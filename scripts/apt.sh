# Sourced by scripts/install-*.sh: `apt_install NAME PACKAGE…` installs Debian packages quietly
# (apt's full output only when something went wrong), as root or through sudo, and says plainly
# when neither is possible rather than failing deep inside apt. Sets SUDO for the caller's own
# root commands.

if [ "$(id -u)" -eq 0 ]; then
    SUDO=
elif command -v sudo >/dev/null 2>&1; then
    SUDO=sudo
else
    SUDO=
fi

apt_install() {
    local name=$1
    shift
    if [ "$(id -u)" -ne 0 ] && [ -z "$SUDO" ]; then
        echo "$name: installing $* needs root" >&2
        exit 1
    fi
    local log
    log=$(mktemp)
    if ! { DEBIAN_FRONTEND=noninteractive $SUDO apt-get update -qq \
           && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@"; } >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        echo "$name: apt-get could not install $*" >&2
        exit 1
    fi
    rm -f "$log"
}
