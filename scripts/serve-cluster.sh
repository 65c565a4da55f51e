#!/usr/bin/env bash
# Serves one product as a cluster on this machine: N nodes sharing one event log in a throwaway PostgreSQL
# server, behind nginx. Debian's nginx and PostgreSQL are installed when missing (scripts/postgres.sh).
#
#   scripts/serve-cluster.sh [--product nuvie|savry|chat|news] [--nodes N] [--port P] [--dir DIR] [--standby] [--release]
#
#   --product   the product to serve (default nuvie)
#   --nodes     how many nodes (default 3); each serves --demo on its own free port and data directory
#   --port      the port nginx answers on, on 127.0.0.1 (default 8080)
#   --dir       where everything lives (default: a new directory under /tmp); kept afterwards. It must be
#               reachable by the postgres user. Given an earlier run's DIR, the cluster resumes with its secrets.
#   --standby   a second PostgreSQL (DIR/postgres-2) as the first's synchronous standby: an append is
#               acknowledged once both hold it, and the nodes list both servers, so after a failover
#               (scripts/postgres.sh promote DIR/postgres-2) they write to the promoted one by themselves
#   --release   serve the release build (.build/release) instead of the debug one
#
# The product is built only when its binary is missing. The nodes share the master key and the secrets their
# tokens are signed with (DIR/secrets.env, which also holds the admin token), and nginx routes each
# Authorization header to one node, so a signed-in user reads their own writes. A node that stops is
# started again (its users are served by the others meanwhile). Ctrl-C stops it all.
set -euo pipefail

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; }

product=nuvie nodes=3 port=8080 dir="" config=debug standby=""
while [ $# -gt 0 ]; do
  case "$1" in
    --product) product=${2:?--product needs a value}; shift 2 ;;
    --nodes) nodes=${2:?--nodes needs a value}; shift 2 ;;
    --port) port=${2:?--port needs a value}; shift 2 ;;
    --dir) dir=${2:?--dir needs a value}; shift 2 ;;
    --standby) standby=1; shift ;;
    --release) config=release; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "serve-cluster.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
done
case "$product" in nuvie|savry|chat|news) ;; *) echo "serve-cluster.sh: --product is nuvie, savry, chat or news" >&2; exit 2 ;; esac
[[ "$nodes" =~ ^[1-9][0-9]*$ ]] || { echo "serve-cluster.sh: --nodes is a positive number" >&2; exit 2; }
[[ "$port" =~ ^[1-9][0-9]*$ ]] || { echo "serve-cluster.sh: --port is a port number" >&2; exit 2; }
prefix=$(echo "$product" | tr a-z A-Z)

if [ -n "$dir" ]; then
  mkdir -p "$dir"; dir=$(cd "$dir" && pwd)
else
  dir=$(mktemp -d "/tmp/$product-cluster.XXXXXX"); chmod 755 "$dir"
fi
cd "$(dirname "$0")/.."
root=$(pwd)

port_is_free() {
  python3 -c 'import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try: s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError: sys.exit(1)' "$1"
}
port_is_free "$port" || { echo "serve-cluster.sh: port $port on 127.0.0.1 is in use (choose another with --port)" >&2; exit 1; }

# Everything started below is stopped here, whichever way the script ends.
pg_servers=() nginx_pid="" pids=()
cleanup() {
  local status=$?
  trap '' INT TERM
  echo >&2
  if [ -n "$nginx_pid" ] && kill -0 "$nginx_pid" 2>/dev/null; then
    echo "stopping nginx" >&2
    kill -TERM "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true
  fi
  if [ ${#pids[@]} -gt 0 ]; then
    echo "stopping the $product nodes" >&2
    kill -TERM "${pids[@]}" 2>/dev/null || true
    for _ in $(seq 30); do
      local alive=0
      for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
      [ $alive -eq 0 ] && break
      sleep 1
    done
    kill -KILL "${pids[@]}" 2>/dev/null || true
    wait "${pids[@]}" 2>/dev/null || true
  fi
  for server in "${pg_servers[@]}"; do
    echo "stopping PostgreSQL in $server" >&2
    scripts/postgres.sh stop "$server" 2>/dev/null || true
  done
  echo "kept $dir (remove it when done: rm -rf $dir)" >&2
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# nginx, from Debian when missing.
nginx=$(command -v nginx || echo /usr/sbin/nginx)
if [ ! -x "$nginx" ]; then
  "$root/scripts/apt-install.sh" nginx
  nginx=$(command -v nginx || echo /usr/sbin/nginx)
fi

# The product, built only when missing.
bin=$root/.build/$config/$product
if [ ! -x "$bin" ]; then
  scripts/ensure-deps.sh
  echo "building $product ($config)" >&2
  if [ "$config" = release ]; then swift build -c release --product "$product"; else swift build --product "$product"; fi
fi

# The shared secrets: generated on the first run in DIR, reused after.
secret() { head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n'; }
secrets=$dir/secrets.env
if [ ! -s "$secrets" ]; then
  (
    umask 077
    {
      echo "${prefix}_MASTER_KEY=$(head -c 32 /dev/urandom | base64)"
      echo "${prefix}_ADMIN_TOKEN=$(secret)"
      case "$product" in nuvie|savry) echo "${prefix}_JWT_SECRET=$(secret)" ;; esac
      [ "$product" = nuvie ] && echo "NUVIE_INTERNAL_TOKEN=$(secret)"
      true
    } >"$secrets"
  )
fi
chmod 600 "$secrets"
set -a; . "$secrets"; set +a
# The nodes believe nginx's X-Forwarded-For: their per-address limits count clients, not nginx,
# whose address every connection has.
export "${prefix}_HTTP_TRUSTED_PROXIES=127.0.0.1" "${prefix}_HTTP_MAX_CONNECTIONS_PER_ADDRESS=512"

# PostgreSQL, holding the shared log in a database named after the product; with --standby, a second
# server streaming it. Resumed, either may be the primary (after a failover).
servers=("$dir/postgres")
[ -n "$standby" ] && servers+=("$dir/postgres-2")
for server in "${servers[@]}"; do
  if [ -d "$server/data" ]; then
    scripts/postgres.sh resume "$server"
  elif [ "$server" = "$dir/postgres" ]; then
    scripts/postgres.sh start "$server" >/dev/null
  else
    scripts/postgres.sh standby "$server" "$dir/postgres" >/dev/null
  fi
  pg_servers+=("$server")
done
primary=""
for server in "${servers[@]}"; do [ "$(scripts/postgres.sh role "$server")" = primary ] && primary=$server; done
[ -n "$primary" ] || { echo "serve-cluster.sh: none of ${servers[*]} is a primary" >&2; exit 1; }
psql=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)/psql
if [ -z "$("$psql" "$(cat "$primary/url")" -tAc "SELECT 1 FROM pg_database WHERE datname = '$product'")" ]; then
  "$psql" "$(cat "$primary/url")" -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE $product"
fi
hosts=$(for server in "${servers[@]}"; do printf '127.0.0.1:%s,' "$(cat "$server/port")"; done)
log_url="postgres://postgres@${hosts%,}/$product?sslmode=disable"
[ -n "$standby" ] && log_url="$log_url&target_session_attrs=read-write"

# The nodes, one after another: each answers GET /health before the next starts. A node that stops
# is started again on its data directory and port (below), as a service manager would.
health() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$1/health" 2>/dev/null || true; }
start_node() {  # start_node I PORT: starts node I and waits for its /health; its pid in pids[I-1]
  local i=$1 node_port=$2 timeout=120 pid
  echo "starting $product node $i on 127.0.0.1:$node_port (log: $dir/node-$i.log)" >&2
  "$bin" serve --demo --data-dir "$dir/node-$i" --port "$node_port" --log-url "$log_url" --log-level info \
    >>"$dir/node-$i.log" 2>&1 &
  pid=$!
  pids[$((i - 1))]=$pid
  [ "$i" -eq 1 ] && timeout=300
  for second in $(seq "$timeout"); do
    [ "$(health "$node_port")" = 200 ] && return 0
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "serve-cluster.sh: $product node $i exited while starting; the end of $dir/node-$i.log:" >&2
      tail -n 30 "$dir/node-$i.log" >&2
      return 1
    fi
    sleep 1
  done
  echo "serve-cluster.sh: $product node $i did not answer /health within ${timeout}s; the end of $dir/node-$i.log:" >&2
  tail -n 30 "$dir/node-$i.log" >&2
  return 1
}
node_ports=()
for i in $(seq "$nodes"); do
  node_ports+=("$(scripts/free-port.sh)")
  start_node "$i" "${node_ports[$((i - 1))]}" || exit 1
done

# nginx in front: the hash on who the user is keeps each user on one node, so they read their own
# writes: the Authorization header, or for News, which has no sign-in, X-User-ID (else ?user_id=).
# A request without Authorization (a sign-in, a sign-up) goes by the client's address, so one node's
# per-address limits (Chat's login throttle, the rate limit) see every attempt of that client.
case "$product" in
  news) user_key='$news_user' routed_by='X-User-ID' ;;
  *) user_key='$user_or_address' routed_by='Authorization (else the client address)' ;;
esac
# A node that took a request and then failed or hung (nginx's own 502 and 504) is answered 503 with
# Retry-After in the product's error shape, not nginx's HTML page: the request may have been done.
unanswered="The node serving this request did not answer; it may have been done"
case "$product" in
  nuvie) unavailable='{"error":{"code":"SERVICE_UNAVAILABLE","message":"'"$unanswered"': retry it under the same Idempotency-Key","details":{}}}' ;;
  savry) unavailable='{"message":"'"$unanswered"': retry it under the same Idempotency-Key"}' ;;
  chat) unavailable='{"error":"service_unavailable","message":"'"$unanswered"'","detail":"Read the session before sending it again"}' ;;
  news) unavailable='{"error":"Service unavailable","details":"'"$unanswered"': retry it"}' ;;
esac
mkdir -p "$dir/nginx-temp"
{
  echo "# Written by scripts/serve-cluster.sh: nginx -c $dir/nginx.conf -p $dir"
  [ "$(id -u)" -eq 0 ] && echo "user root;"
  cat <<CONF
daemon off;
worker_processes auto;
pid $dir/nginx.pid;
error_log $dir/nginx-error.log;
events {}
http {
  access_log $dir/nginx-access.log;
  client_body_temp_path $dir/nginx-temp/body;
  proxy_temp_path $dir/nginx-temp/proxy;
  fastcgi_temp_path $dir/nginx-temp/fastcgi;
  uwsgi_temp_path $dir/nginx-temp/uwsgi;
  scgi_temp_path $dir/nginx-temp/scgi;
  # News' user as the server reads it: X-User-ID, else ?user_id=, else the contract's default, 1.
  map \$http_x_user_id \$news_user_given { "" \$arg_user_id; default \$http_x_user_id; }
  map \$news_user_given \$news_user { "" 1; default \$news_user_given; }
  map \$http_authorization \$user_or_address { "" \$remote_addr; default \$http_authorization; }
  upstream nodes {
    hash $user_key consistent;
CONF
  # A node that refuses connections is skipped for 2 s: its users go to the next node meanwhile (a
  # request it refused was never sent, so nginx passes even a POST on; one it took and then died on
  # is answered 503 (nginx's 502, rewritten below), and the app retries it under its Idempotency-Key).
  for node_port in "${node_ports[@]}"; do echo "    server 127.0.0.1:$node_port max_fails=1 fail_timeout=2s;"; done
  echo "    keepalive 64;  # connections to the nodes kept open: a new one per request cost more than the request"
  cat <<CONF
  }
  server {
    listen 127.0.0.1:$port;
    client_max_body_size 60m;
    error_page 502 504 = @unavailable;
    location @unavailable {
      default_type application/json;
      add_header Retry-After 2 always;
      return 503 '$unavailable';
    }
    location / {
      proxy_pass http://nodes;
      proxy_set_header Host \$host;
      proxy_set_header X-Forwarded-For \$remote_addr;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
CONF
} >"$dir/nginx.conf"
"$nginx" -q -t -e "$dir/nginx-error.log" -c "$dir/nginx.conf" -p "$dir"
"$nginx" -e "$dir/nginx-error.log" -c "$dir/nginx.conf" -p "$dir" &
nginx_pid=$!
for second in $(seq 30); do
  [ "$(health "$port")" = 200 ] && break
  if ! kill -0 "$nginx_pid" 2>/dev/null || [ "$second" -eq 30 ]; then
    echo "serve-cluster.sh: nginx did not start; the end of $dir/nginx-error.log:" >&2
    tail -n 20 "$dir/nginx-error.log" >&2
    exit 1
  fi
  sleep 1
done

cat <<MSG

  $product cluster ready: http://127.0.0.1:$port (nginx, routing each user by $routed_by)
MSG
for i in $(seq "$nodes"); do
  echo "  node $i    http://127.0.0.1:${node_ports[$((i - 1))]}   data $dir/node-$i   log $dir/node-$i.log"
done
cat <<MSG
  log       $log_url (PostgreSQL in ${servers[*]})
  nginx     $dir/nginx.conf   logs $dir/nginx-error.log, $dir/nginx-access.log
  secrets   $secrets (${prefix}_ADMIN_TOKEN opens /admin/… as X-Admin-Token)
  Ctrl-C stops the nodes, nginx and PostgreSQL; $dir is kept.

MSG
[ -n "$standby" ] && cat <<MSG
  failover  the primary is $primary; when it is lost: scripts/postgres.sh promote <the other>, then
            scripts/postgres.sh standby <the lost one> <the promoted one> (ops/postgresql.md, "Failover")

MSG

# Until Ctrl-C or nginx stops; a node that stops is started again.
while :; do
  for i in $(seq "$nodes"); do
    if ! kill -0 "${pids[$((i - 1))]}" 2>/dev/null; then
      wait "${pids[$((i - 1))]}" 2>/dev/null && status=0 || status=$?
      echo "serve-cluster.sh: $product node $i stopped (exit status $status); starting it again" >&2
      start_node "$i" "${node_ports[$((i - 1))]}" || sleep 5
    fi
  done
  kill -0 "$nginx_pid" 2>/dev/null || { echo "serve-cluster.sh: nginx stopped (see $dir/nginx-error.log)" >&2; exit 1; }
  sleep 1
done
