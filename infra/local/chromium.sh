#!/usr/bin/env bash
# Usage: infra/local/chromium.sh  -- print the path of a headless-capable Chromium, installing it when missing.
#
# The dashboard's browser test (local-runtime, DashboardBrowserIT) drives a real Chromium. This finds
# $PASTEBIN_CHROMIUM, else `chromium` / `chromium-browser` on PATH, else installs Debian's `chromium` package
# with apt-get (as root, or through `sudo -n`). Quick when Chromium is already there. Progress goes to
# stderr, the path alone to stdout; exits non-zero with the reason when Chromium cannot be had.
set -euo pipefail
PASTEBIN_LOG_TAG=chromium
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

find_chromium() {
    local c
    for c in chromium chromium-browser; do
        command -v "$c" 2>/dev/null && return 0
    done
    return 1
}

if [[ -n "${PASTEBIN_CHROMIUM:-}" ]]; then
    command -v "$PASTEBIN_CHROMIUM" 2>/dev/null || die "PASTEBIN_CHROMIUM=$PASTEBIN_CHROMIUM is not an executable"
    exit 0
fi

if find_chromium; then
    exit 0
fi

command -v apt-get >/dev/null 2>&1 \
    || die "Chromium is not installed and there is no apt-get to install it; install Chromium and set PASTEBIN_CHROMIUM"
sudo=()
if [[ "$(id -u)" -ne 0 ]]; then
    sudo -n true 2>/dev/null \
        || die "Chromium is not installed; installing it needs root: sudo apt-get install -y chromium"
    sudo=(sudo -n)
fi
apt_log="$PASTEBIN_LOG_DIR/chromium-apt.log"
# A fresh machine may not have package lists yet: update only when apt knows no candidate.
if [[ "$(apt-cache policy chromium 2>/dev/null)" != *"Candidate: "[0-9]* ]]; then
    log "apt-get update (log: $apt_log)"
    "${sudo[@]}" apt-get update >"$apt_log" 2>&1 || die "apt-get update failed; see $apt_log"
fi
log "installing Debian's chromium package (once; log: $apt_log)"
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends chromium >>"$apt_log" 2>&1 \
    || die "apt-get install chromium failed; see $apt_log"
find_chromium || die "apt-get installed chromium but no chromium command is on PATH"
