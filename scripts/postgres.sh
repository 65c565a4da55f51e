#!/usr/bin/env bash
# A throwaway PostgreSQL server for tests and the cluster demo, from Debian's packages.
#
#   scripts/postgres.sh start DIR   installs PostgreSQL when missing, creates a cluster in DIR (empty or
#                                   absent), starts it on a free port on 127.0.0.1, prints its URL
#   scripts/postgres.sh stop DIR    stops it (DIR is kept: remove it when done)
#   scripts/postgres.sh resume DIR  starts the cluster in DIR again, on the same port
#   scripts/postgres.sh run CMD…    starts one in a temporary directory, runs CMD with
#                                   ENGINE_TEST_POSTGRES_URL set to it, then stops and removes it
#
# Durability is what the tests check: fsync and synchronous_commit stay on.
set -euo pipefail

# As root, PostgreSQL's commands run as the postgres user, from / (the caller's directory may be
# closed to that user: a clone under a private temp dir).
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

install_if_missing() {
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "installing postgresql" >&2
    local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
  fi
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  local dir=$1
  install_if_missing
  mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
  if ! as_owner test -w "$dir"; then
    echo "postgres.sh: the postgres user cannot reach $dir (a parent is not searchable); use a directory under /tmp" >&2
    exit 1
  fi
  as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >"$dir/initdb.log"
  free_port >"$dir/port"
  resume "$dir"
  echo "postgres://postgres@127.0.0.1:$(cat "$dir/port")/postgres?sslmode=disable" | tee "$dir/url"
}

resume() {
  local dir=$1
  install_if_missing
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -c port=$(cat "$dir/port") -c unix_socket_directories=$dir -c fsync=on -c synchronous_commit=on -c max_connections=300" \
    start >/dev/null
}

stop() {
  install_if_missing
  as_owner "$bin/pg_ctl" -D "$1/data" -m fast -w stop >/dev/null
}

case "${1:-}" in
  start) start "$2" ;;
  stop) stop "$2" ;;
  resume) resume "$2" ;;
  run)
    shift
    dir=$(mktemp -d)
    trap 'stop "$dir" || true; rm -rf "$dir"' EXIT
    ENGINE_TEST_POSTGRES_URL=$(start "$dir") "$@"
    ;;
  *) sed -n '2,11p' "$0" >&2; exit 2 ;;
esac
