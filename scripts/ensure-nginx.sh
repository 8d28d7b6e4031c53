#!/usr/bin/env bash
# Makes sure an nginx binary is on this machine for the load-balancer test (npm run test:lb):
# Debian's nginx-light, installed with apt-get when missing. Silent and instant when nginx is
# there; exits non-zero with a message saying what to do when it cannot be had, so the test fails
# loudly instead of passing without a balancer.
set -uo pipefail
have() { command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; }
fail() {
  echo "ensure-nginx: $1. npm run test:lb needs nginx: install Debian's nginx-light (apt-get install nginx-light) or any nginx on PATH." >&2
  exit 1
}
have && exit 0
command -v apt-get >/dev/null 2>&1 || fail "nginx is missing and there is no apt-get here"
SUDO=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null || fail "nginx is missing and installing it needs root (no passwordless sudo)"
  SUDO="sudo -n"
fi
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
echo "ensure-nginx: installing nginx-light with apt-get" >&2
$SUDO apt-get update -qq >"$log" 2>&1 || { cat "$log" >&2; fail "apt-get update failed"; }
# Only the binary: the package's service is not started (no systemd here, and the test runs its own).
$SUDO apt-get install -y -qq --no-install-recommends nginx-light >"$log" 2>&1 || { cat "$log" >&2; fail "apt-get install nginx-light failed"; }
rm -f "$log"
have || fail "nginx-light was installed but no nginx binary is on PATH or in /usr/sbin"
