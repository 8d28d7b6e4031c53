#!/usr/bin/env bash
# Makes sure an nginx binary is on this machine for the load-balancer test (npm run test:lb):
# Debian's nginx-light, installed with apt-get when missing. Exits non-zero when it cannot be had,
# so the test fails loudly instead of passing without a balancer.
set -euo pipefail
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-nginx: nginx is missing and there is no apt-get here; install nginx yourself" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
# Only the binary: the package's service is not started (no systemd here, and the test runs its own).
$SUDO apt-get install -y -qq --no-install-recommends nginx-light >&2
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || { echo "ensure-nginx: nginx-light installed but no nginx binary" >&2; exit 1; }
