#!/usr/bin/env bash
# Installs the Debian packages AlbumKit builds and tests with (scripts/debian-packages) when
# any is missing. Safe to run again; `make setup` uses it.
set -euo pipefail
mapfile -t packages < <(grep -v '^#' "$(dirname "$0")/debian-packages")
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all Debian packages present"
else
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The Python packages the tests drive real tools with (Tests/requirements.txt). Debian's own
# Python refuses packages from PyPI outside a virtual environment (PEP 668); these are test tools,
# installed for the whole machine on purpose (pip ignores the setting where nothing refuses).
PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install -q -r "$(dirname "$0")/../Tests/requirements.txt"
