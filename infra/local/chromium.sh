#!/usr/bin/env bash
# Usage: infra/local/chromium.sh [--driver]
#   -- print the path of a headless-capable Chromium, installing it when missing; with --driver, the path of
#      the chromedriver that drives it (Debian's chromium-driver, the same version), installing both when missing.
#
# The browser tests drive a real Chromium: the dashboard's (local-runtime, DashboardBrowserIT) through its
# command line, the web page's (infra, WebPageBrowserIT) through WebDriver. This finds $PASTEBIN_CHROMIUM
# ($PASTEBIN_CHROMEDRIVER), else `chromium` / `chromium-browser` (`chromedriver`) on PATH, else installs
# Debian's `chromium` (and `chromium-driver`) package with apt-get (as root, or through `sudo -n`). Quick when
# they are already there. Progress goes to stderr, the path alone to stdout; exits non-zero with the reason
# when it cannot be had. Installs one at a time (a lock in $PASTEBIN_CACHE_DIR): a run that finds another
# installing waits for it.
set -euo pipefail
PASTEBIN_LOG_TAG=chromium
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

driver=false
case "${1:-}" in
    "") ;;
    --driver) driver=true ;;
    *) die "usage: $0 [--driver]" ;;
esac

find_chromium() {
    local c
    for c in chromium chromium-browser; do
        command -v "$c" 2>/dev/null && return 0
    done
    return 1
}

find_driver() {
    command -v chromedriver 2>/dev/null
}

if $driver; then
    if [[ -n "${PASTEBIN_CHROMEDRIVER:-}" ]]; then
        command -v "$PASTEBIN_CHROMEDRIVER" 2>/dev/null || die "PASTEBIN_CHROMEDRIVER=$PASTEBIN_CHROMEDRIVER is not an executable"
        exit 0
    fi
    find_driver && exit 0
    # chromium-driver depends on the chromium of its own version: installing it brings (or upgrades) both
    packages=(chromium chromium-driver)
    find_installed=find_driver
else
    if [[ -n "${PASTEBIN_CHROMIUM:-}" ]]; then
        command -v "$PASTEBIN_CHROMIUM" 2>/dev/null || die "PASTEBIN_CHROMIUM=$PASTEBIN_CHROMIUM is not an executable"
        exit 0
    fi
    find_chromium && exit 0
    packages=(chromium)
    find_installed=find_chromium
fi

# One install at a time: `make test` runs this beside the build while a browser test that starts before it has ended
# runs it too; the second waits here, then finds what the first installed.
with_install_lock "$PASTEBIN_CACHE_DIR/chromium-apt"
"$find_installed" && exit 0

command -v apt-get >/dev/null 2>&1 \
    || die "${packages[*]} not installed and there is no apt-get to install it; install it and set PASTEBIN_CHROMIUM (PASTEBIN_CHROMEDRIVER)"
sudo=()
if [[ "$(id -u)" -ne 0 ]]; then
    sudo -n true 2>/dev/null \
        || die "${packages[*]} not installed; installing it needs root: sudo apt-get install -y ${packages[*]}"
    sudo=(sudo -n)
fi
apt_log="$PASTEBIN_LOG_DIR/chromium-apt.log"
# A fresh machine may not have package lists yet: update only when apt knows no candidate.
if [[ "$(apt-cache policy "${packages[-1]}" 2>/dev/null)" != *"Candidate: "[0-9]* ]]; then
    log "apt-get update (log: $apt_log)"
    "${sudo[@]}" apt-get update >"$apt_log" 2>&1 || die "apt-get update failed; see $apt_log"
fi
log "installing Debian's ${packages[*]} (once; log: $apt_log)"
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${packages[@]}" >>"$apt_log" 2>&1 \
    || die "apt-get install ${packages[*]} failed; see $apt_log"
"$find_installed" || die "apt-get installed ${packages[*]} but the command is not on PATH"
