#!/usr/bin/env bash
# Installs the Debian packages Tapedeck builds against (plus any named as arguments), if any is missing.
# Safe to run any number of times.
set -euo pipefail

packages=(libcurl4-openssl-dev libmicrohttpd-dev libssl-dev pkg-config curl "$@")
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
echo "Installing ${missing[*]}" >&2
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
