#!/usr/bin/env bash
# Installs the C libraries Nuvie links against (LMDB, SQLite, OpenBLAS for its LAPACK) when they are missing. Debian/Ubuntu.
set -euo pipefail
missing=()
pkg-config --exists lmdb 2>/dev/null || missing+=(liblmdb-dev)
pkg-config --exists openblas 2>/dev/null || missing+=(libopenblas-dev)
[ -f /usr/include/sqlite3.h ] || missing+=(libsqlite3-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
