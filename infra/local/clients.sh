#!/usr/bin/env bash
# Usage: infra/local/clients.sh  -- installs the command-line paste clients the end-to-end tests drive
# (CommandLineClientsIT), each once and quick when it is there already:
#   - Debian's `pastebinit`, with apt-get (as root, or through `sudo -n`);
#   - the haste protocol's client `haste` (PyPI's haste-client, pinned) into $PASTEBIN_CACHE_DIR/haste-venv;
#   - rustypaste's client `rpaste` (crates.io's rustypaste-cli, pinned), built with cargo into
#     $PASTEBIN_CACHE_DIR/rustypaste-cli when cargo is on this machine (about two minutes, once); without cargo it is
#     skipped and CommandLineClientsIT skips its test, saying why;
#   - PrivateBin's clients (PrivateBinClientsIT): `pbincli` (PyPI, pinned) into $PASTEBIN_CACHE_DIR/pbincli-venv;
#     `pbcli` (crates.io, pinned) built with cargo into $PASTEBIN_CACHE_DIR/pbcli when cargo is here (about three
#     minutes of CPU, once, against the machine's OpenSSL where its headers are); the Go client
#     `privatebin` (go.gearno.de/privatebin/v2, pinned) built with `go install` into $PASTEBIN_CACHE_DIR/privatebin-go
#     when go is here. Without cargo or go the test of that client is skipped, saying why.
# `curl` is a prerequisite of the local scripts anyway.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

: "${HASTE_CLIENT_VERSION:=1.0.3}"
: "${HASTE_VENV:=$PASTEBIN_CACHE_DIR/haste-venv}"
: "${RUSTYPASTE_CLI_VERSION:=0.10.0}"
: "${RUSTYPASTE_CLI_ROOT:=$PASTEBIN_CACHE_DIR/rustypaste-cli}"
: "${PBINCLI_VERSION:=0.3.7}"
: "${PBINCLI_VENV:=$PASTEBIN_CACHE_DIR/pbincli-venv}"
: "${PBCLI_VERSION:=2.10.0}"
: "${PBCLI_ROOT:=$PASTEBIN_CACHE_DIR/pbcli}"
: "${PRIVATEBIN_GO_VERSION:=v2.2.1}"
: "${PRIVATEBIN_GO_ROOT:=$PASTEBIN_CACHE_DIR/privatebin-go}"

install_pastebinit() {
    command -v pastebinit >/dev/null 2>&1 && return 0
    command -v apt-get >/dev/null 2>&1 || die "pastebinit is not installed and there is no apt-get to install it"
    local sudo=()
    if [[ "$(id -u)" -ne 0 ]]; then
        sudo -n true 2>/dev/null || die "pastebinit is not installed; installing it needs root: sudo apt-get install -y pastebinit"
        sudo=(sudo -n)
    fi
    local apt_log="$PASTEBIN_LOG_DIR/clients-apt.log"
    # A fresh machine may not have package lists yet: update only when apt knows no candidate.
    if [[ "$(apt-cache policy pastebinit 2>/dev/null)" != *"Candidate: "[0-9]* ]]; then
        log "apt-get update (log: $apt_log)"
        "${sudo[@]}" apt-get update >"$apt_log" 2>&1 || die "apt-get update failed; see $apt_log"
    fi
    log "installing Debian's pastebinit (once; log: $apt_log)"
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends pastebinit >>"$apt_log" 2>&1 \
        || die "apt-get install pastebinit failed; see $apt_log"
    command -v pastebinit >/dev/null 2>&1 || die "apt-get installed pastebinit but it is not on PATH"
}

install_rpaste() {
    with_install_lock "$RUSTYPASTE_CLI_ROOT"
    build_rpaste
    release_install_lock
}

build_rpaste() {
    # Without the crate's link-time optimisation (Cargo's own override of its release profile): the same code, linked
    # as Cargo does by default, on a fifth less CPU (131 s against 105 s on 2 cores), which a first run spends beside
    # Maven's build.
    cargo_install_client "$RUSTYPASTE_CLI_ROOT" rpaste rustypaste-cli "$RUSTYPASTE_CLI_VERSION" clients-cargo.log \
        CommandLineClientsIT CARGO_PROFILE_RELEASE_LTO=false
}

install_pbcli() {
    with_install_lock "$PBCLI_ROOT"
    build_pbcli
    release_install_lock
}

build_pbcli() {
    # pbcli asks for a vendored OpenSSL, compiled from C source in the build: half of its CPU (413 s against 197 s on
    # 2 cores). Where the machine has OpenSSL's headers (Debian's libssl-dev, as this kind of machine does), openssl-sys
    # links that one instead when told OPENSSL_NO_VENDOR; the tests speak plain HTTP to 127.0.0.1 either way.
    local no_vendor=()
    if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists openssl 2>/dev/null; then
        no_vendor=(OPENSSL_NO_VENDOR=1)
    fi
    cargo_install_client "$PBCLI_ROOT" pbcli pbcli "$PBCLI_VERSION" clients-pbcli.log PrivateBinClientsIT \
        "${no_vendor[@]}"
}

# `cargo_install_client ROOT BINARY CRATE VERSION LOG TEST [NAME=VALUE...]`: builds CRATE's BINARY at VERSION with
# cargo into ROOT once (a stamp there holds the version), with NAME=VALUE... in cargo's environment and its output in
# LOG; without cargo on this machine it says that TEST skips, and returns.
cargo_install_client() {
    local root="$1" binary="$2" crate="$3" version="$4" cargo_log="$PASTEBIN_LOG_DIR/$5" test="$6"
    shift 6
    local stamp="$root/.pastebin-version"
    [[ -x "$root/bin/$binary" && "$(cat "$stamp" 2>/dev/null)" == "$version" ]] && return 0
    local cargo
    cargo="$(command -v cargo || { [[ -x "$HOME/.cargo/bin/cargo" ]] && echo "$HOME/.cargo/bin/cargo"; } || true)"
    if [[ -z "$cargo" ]]; then
        warn "no cargo on this machine: $crate's $binary is not built, $test skips its test"
        return 0
    fi
    log "building $crate $version with cargo into $root (once; log: $cargo_log)"
    env "$@" "$cargo" install "$crate" --version "$version" --locked --root "$root" >"$cargo_log" 2>&1 \
        || die "cargo install $crate failed; see $cargo_log"
    echo "$version" >"$stamp"
}

install_privatebin_go() {
    with_install_lock "$PRIVATEBIN_GO_ROOT"
    build_privatebin_go
    release_install_lock
}

build_privatebin_go() {
    local stamp="$PRIVATEBIN_GO_ROOT/.pastebin-version"
    [[ -x "$PRIVATEBIN_GO_ROOT/bin/privatebin" && "$(cat "$stamp" 2>/dev/null)" == "$PRIVATEBIN_GO_VERSION" ]] && return 0
    local go
    go="$(command -v go || { [[ -x /usr/local/go/bin/go ]] && echo /usr/local/go/bin/go; } || true)"
    if [[ -z "$go" ]]; then
        warn "no go on this machine: PrivateBin's Go client is not built, PrivateBinClientsIT skips its test"
        return 0
    fi
    local go_log="$PASTEBIN_LOG_DIR/clients-privatebin-go.log"
    log "building the Go PrivateBin client $PRIVATEBIN_GO_VERSION into $PRIVATEBIN_GO_ROOT (once; log: $go_log)"
    # Built inside a module of its own that requires the client's module at the pinned version: `go install
    # pkg@version` would list the module's versions for a deprecation notice, which this machine's module proxy
    # refuses (403), and the checksum database does not answer for go.gearno.de through it (404), so that one
    # module is taken as the proxy serves it; its dependencies are verified as usual.
    local build="$PRIVATEBIN_GO_ROOT/build"
    rm -rf "$build" && mkdir -p "$build" "$PRIVATEBIN_GO_ROOT/bin"
    printf 'module pastebin.local/privatebin-client\n\ngo 1.26\n\nrequire go.gearno.de/privatebin/v2 %s\n' \
        "$PRIVATEBIN_GO_VERSION" >"$build/go.mod"
    (cd "$build" && GONOSUMDB="go.gearno.de/privatebin" GOFLAGS=-mod=mod \
        "$go" build -o "$PRIVATEBIN_GO_ROOT/bin/privatebin" go.gearno.de/privatebin/v2/cmd/privatebin) \
        >"$go_log" 2>&1 || die "building the Go PrivateBin client failed; see $go_log"
    echo "$PRIVATEBIN_GO_VERSION" >"$stamp"
}

install_pastebinit
ensure_tool_venv "$HASTE_VENV" haste "haste-client==$HASTE_CLIENT_VERSION requests==2.34.2 docopt==0.6.2" haste
install_rpaste
ensure_tool_venv "$PBINCLI_VENV" pbincli "pbincli==$PBINCLI_VERSION pycryptodome==4.4.0 base58==2.1.1 sjcl==0.2.1 \
requests==2.34.2 argcomplete==3.7.2 PySocks==1.7.1" pbincli
install_pbcli
install_privatebin_go
