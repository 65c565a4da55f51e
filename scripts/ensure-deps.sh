#!/usr/bin/env bash
# Installs the C libraries Nuvie links against (LMDB, SQLite, OpenBLAS for its LAPACK) when they are missing. Debian/Ubuntu.
set -euo pipefail
missing=()
pkg-config --exists lmdb 2>/dev/null || missing+=(liblmdb-dev)
pkg-config --exists openblas 2>/dev/null || missing+=(libopenblas-dev)
[ -f /usr/include/sqlite3.h ] || missing+=(libsqlite3-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
"$(dirname "${BASH_SOURCE[0]}")/apt-install.sh" "${missing[@]}"
