#!/usr/bin/env bash
# Usage: infra/local/clients.sh  -- installs the command-line paste clients the end-to-end tests drive
# (CommandLineClientsIT): Debian's `pastebinit`, with apt-get (as root, or through `sudo -n`). Quick when it is
# there already. `curl` is a prerequisite of the local scripts anyway. Not installed (no haste client, no
# rustypaste `rpaste`): see README, "Use it from your terminal", for why those tests use curl in their place.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

command -v pastebinit >/dev/null 2>&1 && exit 0
command -v apt-get >/dev/null 2>&1 || die "pastebinit is not installed and there is no apt-get to install it"
sudo=()
if [[ "$(id -u)" -ne 0 ]]; then
    sudo -n true 2>/dev/null || die "pastebinit is not installed; installing it needs root: sudo apt-get install -y pastebinit"
    sudo=(sudo -n)
fi
apt_log="$PASTEBIN_LOG_DIR/clients-apt.log"
# A fresh machine may not have package lists yet: update only when apt knows no candidate.
if [[ "$(apt-cache policy pastebinit 2>/dev/null)" != *"Candidate: "[0-9]* ]]; then
    log "apt-get update (log: $apt_log)"
    "${sudo[@]}" apt-get update >"$apt_log" 2>&1 || die "apt-get update failed; see $apt_log"
fi
log "installing Debian's pastebinit (once; log: $apt_log)"
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends pastebinit >>"$apt_log" 2>&1 \
    || die "apt-get install pastebinit failed; see $apt_log"
command -v pastebinit >/dev/null 2>&1 || die "apt-get installed pastebinit but it is not on PATH"
