#!/usr/bin/env bash
# Installs the system packages taskgraph builds against, only those missing.
# Uses sudo only when not running as root. `--browser` adds Debian's chromium, which the tests of
# the HTML report load pages in (headless); building and the demo do not need it.
set -euo pipefail

packages=(libcurl4-openssl-dev libjpeg62-turbo-dev libpng-dev libyaml-dev pkg-config python3 python3-jsonschema python3-cryptography
  slurm-wlm munge nginx-light)
if [[ ${1:-} == --browser ]]; then packages+=(chromium); fi
missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} > 0)); then
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: the Swift 6 toolchain is needed (https://www.swift.org/install/linux/)" >&2
  exit 1
fi
