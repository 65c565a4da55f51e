#!/usr/bin/env bash
# A soak for savry, chat or news: does the server's memory stay flat under sustained mixed traffic?
# The method and the checks of `nuvie-bench soak` (RELIABILITY.md section 1), for any product:
#
#   1. starts `<bin-dir>/<product> serve --demo` on a free loopback port with the rate limit lifted
#      and the per-address connection cap raised; the first start imports the demo, is stopped, and
#      a second start over the same directory is the one measured;
#   2. prepares users (savry: dev sign-ins, each with recipes; chat: signups, each with sessions;
#      news: X-User-ID values, each with holdings);
#   3. runs `wrk -t2 -c<N> -d<duration>s --timeout 10s -s scripts/soak/<product>.lua`: about 2/3 reads and
#      1/3 writes, every request valid by design, so every non-2xx answer is an error, as is every
#      socket error (connect, read, write, timeout);
#   4. every --sample-every seconds samples VmRSS, RssAnon (the heap: what must stay flat after the
#      warm-up), RssFile (the mapped log and read models, which grow with the data), SQLite's share
#      of the heap from /metrics (page caches filling to their bounds, or a leak?), and /health (log
#      head, largest projection lag); one line each, and a CSV beside the data directory;
#   5. after the load waits (at most 300 s) until every projection's lag is 0, stops the server
#      (SIGTERM) and runs `<product> verify --data-dir` as its own process (must say "identical");
#   6. prints a summary and exits 1 unless: requests > 0, 0 errors, lag back to 0, verify identical.
#
# Bounded: wrk's own -d, a watchdog that stops wrk at duration + 120 s, 300 s for the lag, 120 s for
# a server to stop, 1 h for verify. The trap on EXIT stops the server and wrk whatever happens.
# `nuvie` is handed to `nuvie-bench soak` (its own soak, the same method) from --bin-dir.
#
# Usage: scripts/soak.sh <savry|chat|news|nuvie> [--duration SECONDS (600)] [--connections N (64)]
#          [--bin-dir DIR (.build/release)] [--data-dir DIR (fresh temp)] [--users N] [--sample-every SECONDS (30)]
#          [--port P (a free one)] [--only KIND]
# --only KIND sends requests of one kind instead of the mix (savry, chat, news: a kind of the product's
# scripts/soak/<product>.lua, e.g. list, create; send; feed, preferences), for that request's own
# throughput and latency: BENCHMARKS.md's rows for the three products.
# Build first: swift build -c release --product <product>.
# Artifacts: <data-dir>/../soak-<product>-<UTC time>.csv (the samples) and a directory of the same
# name (wrk's output, both servers' logs, verify's output, the Lua data file). A fresh temporary data
# directory is removed after a PASS, kept after a FAIL.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
usage() { sed -n '/^# Usage:/,/^# Build first/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "soak: $*" >&2; exit 2; }

[ $# -ge 1 ] || usage
product=$1; shift
case "$product" in savry|chat|news|nuvie) ;; -h|--help) usage ;; *) die "unknown product '$product' (savry, chat, news or nuvie)" ;; esac
duration=600 connections=64 bin_dir="$root/.build/release" data_dir="" users="" sample_every=30 port="" only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration=${2:?}; shift 2 ;;
    --connections) connections=${2:?}; shift 2 ;;
    --bin-dir) bin_dir=${2:?}; shift 2 ;;
    --data-dir) data_dir=${2:?}; shift 2 ;;
    --users) users=${2:?}; shift 2 ;;
    --sample-every) sample_every=${2:?}; shift 2 ;;
    --port) port=${2:?}; shift 2 ;;
    --only) only=${2:?}; shift 2 ;;
    -h|--help) usage ;;
    *) die "unknown option '$1'" ;;
  esac
done
for value in "$duration" "$connections" "$sample_every" ${users:+"$users"} ${port:+"$port"}; do
  [[ "$value" =~ ^[1-9][0-9]*$ ]] || die "'$value' is not a whole number of at least 1"
done
bin_dir=$(realpath -ms "$bin_dir")
binary="$bin_dir/$product"

# --- tools: wrk for the load, curl and jq for the preparation and /health (Debian/Ubuntu; as scripts/ensure-deps.sh) ---
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v curl >/dev/null || missing+=(curl)
command -v jq >/dev/null || missing+=(jq)
"$root/scripts/apt-install.sh" "${missing[@]}"

if [ "$product" = nuvie ]; then
  [ -z "$only" ] || die "--only is for savry, chat and news: nuvie-bench http measures Nuvie's requests one by one"
  [ -x "$bin_dir/nuvie-bench" ] && [ -x "$binary" ] || die "$bin_dir/nuvie-bench and $binary are needed: swift build -c release --product nuvie && swift build -c release --product nuvie-bench"
  max_connections=$(( connections * 2 + 64 > 512 ? connections * 2 + 64 : 512 ))
  export NUVIE_HTTP_MAX_CONNECTIONS=$max_connections NUVIE_HTTP_MAX_CONNECTIONS_PER_ADDRESS=$max_connections
  exec "$bin_dir/nuvie-bench" soak --duration "$duration" --connections "$connections" --sample-every "$sample_every" \
    ${data_dir:+--data-dir "$data_dir"} ${users:+--users "$users"} ${port:+--port "$port"}
fi
[ -x "$binary" ] || die "$binary is missing: swift build -c release --product $product (or pass --bin-dir)"

# --- where things go ---
stamp=$(date -u +%Y%m%dT%H%M%SZ)
temporary_data=""
if [ -z "$data_dir" ]; then
  temporary_data=$(mktemp -d "${TMPDIR:-/tmp}/soak-$product-XXXXXX")
  data_dir="$temporary_data/data"
fi
data_dir=$(realpath -m "$data_dir")
mkdir -p "$(dirname "$data_dir")"
work="$(dirname "$data_dir")/soak-$product-$stamp"
csv="$work.csv"
mkdir -p "$work"

# --- the product's settings ---
upper=$(echo "$product" | tr '[:lower:]' '[:upper:]')
max_connections=$(( connections * 2 + 64 > 512 ? connections * 2 + 64 : 512 ))
server_env=(
  "${upper}_LOG_LEVEL=warning"
  # One wrk address opens every connection: the per-address cap (a quarter of the maximum by default) must allow them all.
  "${upper}_HTTP_MAX_CONNECTIONS=$max_connections" "${upper}_HTTP_MAX_CONNECTIONS_PER_ADDRESS=$max_connections"
)
case "$product" in
  savry) server_env+=(SAVRY_RATE_LIMIT_PER_MINUTE=0); users=${users:-50} ;;
  # Accounts made here hash their password at the lowest count the server accepts (100,000).
  chat) server_env+=(CHAT_RATE_LIMIT_PER_MINUTE=0 CHAT_PASSWORD_ITERATIONS=100000); users=${users:-100} ;;
  # News cannot switch its limit off: 1,000,000 a minute per user (10 times that per address) is its maximum.
  news) server_env+=(NEWS_RATE_LIMIT_PER_MINUTE=1000000); users=${users:-200} ;;
esac
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $(( max_connections + 256 )) ]; then
  ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
fi

if [ -z "$port" ]; then
  port=$("$root/scripts/free-port.sh" 2>/dev/null || true)
  if [ -z "$port" ]; then
    for _ in $(seq 1 50); do
      port=$(( 20000 + RANDOM % 30000 ))
      (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || break
    done
  fi
fi
base="http://127.0.0.1:$port"

# --- cleanup: whatever happens, stop what this script started ---
server_pid="" wrk_pid=""
stop_pid() { # pid, seconds to wait after SIGTERM before SIGKILL; 0 when it stopped on its own
  local pid=$1 limit=$2 waited=0
  kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
  kill -TERM "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null && [ $waited -lt $(( limit * 10 )) ]; do sleep 0.1; waited=$(( waited + 1 )); done
  if kill -0 "$pid" 2>/dev/null; then
    echo "soak: pid $pid did not stop within $limit s of SIGTERM: SIGKILL" >&2
    kill -KILL "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; return 1
  fi
  wait "$pid" 2>/dev/null || true
}
cleanup() {
  [ -n "$wrk_pid" ] && kill -KILL "$wrk_pid" 2>/dev/null
  [ -n "$server_pid" ] && stop_pid "$server_pid" 30 >/dev/null 2>&1
  return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

progress() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }

start_server() { # log file
  env "${server_env[@]}" "$binary" serve --data-dir "$data_dir" --port "$port" --demo --log-level warning >"$1" 2>&1 &
  server_pid=$!
}

# Waits (at most $2 s) until GET /health answers 200; fails if the server exits first.
wait_until_serving() {
  local log=$1 limit=$2 started=$SECONDS
  while [ $(( SECONDS - started )) -lt "$limit" ]; do
    if ! kill -0 "$server_pid" 2>/dev/null; then
      echo "soak: the server exited before serving; its log ($log):" >&2; tail -20 "$log" >&2; exit 1
    fi
    [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$base/health" || true)" = 200 ] && return 0
    sleep 0.5
  done
  echo "soak: no 200 from $base/health within $limit s; the server's log ($log):" >&2; tail -20 "$log" >&2; exit 1
}

health() { curl -s --max-time 10 "$base/health" || true; }
json_field() { # jq filter, JSON text: the value, or ? when the text is not JSON (no answer)
  local value; value=$(jq -r "$1" 2>/dev/null <<<"$2" || true); echo "${value:-?}"
}
head_of() { json_field '(.logHeadPosition // .log_head_position // "?")' "$1"; }
lag_of() { json_field '([.projections[]?.lag // 0] | max // 0)' "$1"; }
status_of() { json_field '(.status // "?")' "$1"; }
lags_of() { json_field '[.projections[]? | "\(.name)=\(.lag)"] | join(" ")' "$1"; }
memory() { # "VmRSS RssAnon RssFile" of the server, in kB
  awk '/^VmRSS:/ {t=$2} /^RssAnon:/ {a=$2} /^RssFile:/ {f=$2} END {printf "%d %d %d\n", t, a, f}' "/proc/$server_pid/status" 2>/dev/null || echo "0 0 0"
}
mb() { awk -v k="$1" 'BEGIN {printf "%.1f", k / 1024}'; }
sqlite_memory() { # SQLite's heap in kB, from the server's /metrics (refreshed every 10 s; ? before the first)
  { curl -s --max-time 10 "$base/metrics" || true; } | awk '/^[a-z]+_sqlite_memory_bytes / {s=$2} END {if (s == "") print "?"; else printf "%d\n", s / 1024}'
}
kb_as_mb() { [ "$1" = "?" ] && echo "?" || mb "$1"; }

# --- 1. the demo, then the measured server ---
progress "$product: preparing the demo in $data_dir (port $port)"
start_server "$work/server-import.log"
wait_until_serving "$work/server-import.log" 900
stop_pid "$server_pid" 120 || true
server_pid=""
progress "$product: demo ready; starting the server to measure"
start_server "$work/server.log"
wait_until_serving "$work/server.log" 300

# --- 2. users, written as Lua for the product's script ---
api() { # method path [body] [header]: the answer's body; exits unless 2xx
  local method=$1 path=$2 body=${3:-} header=${4:-} out status
  local args=(-s --max-time 30 -X "$method" -o "$work/answer.json" -w '%{http_code}')
  [ -n "$body" ] && args+=(-H 'Content-Type: application/json' --data "$body")
  [ -n "$header" ] && args+=(-H "$header")
  status=$(curl "${args[@]}" "$base$path" || echo 000)
  out=$(cat "$work/answer.json" 2>/dev/null || true)
  if [[ "$status" != 2?? ]]; then echo "soak: preparing: $method $path ${body:+$body }answered $status: $out" >&2; exit 1; fi
  printf '%s' "$out"
}
data_file="$work/data.lua"
run_id=$(date +%s)
probe_header="" probe_path=""
progress "$product: preparing $users users"
case "$product" in
  savry)
    echo "users = {" >"$data_file"
    for i in $(seq 1 "$users"); do
      token=$(api POST /api/app/auth "{\"devUser\":\"soak-$i\"}" | jq -r .token)
      user_id="" recipes=()
      for r in 1 2 3 4 5; do
        created=$(api POST /api/app/recipes "{\"name\":\"Soak cook $i dish $r\",\"description\":\"Prepared before the load\",\"ingredients\":[{\"name\":\"flour\",\"quantity\":\"200\",\"unit\":\"g\"},{\"name\":\"egg\"}],\"instructions\":[\"Mix\",\"Bake\"],\"servings\":$r,\"cuisine\":\"French\"}" "Authorization: Bearer $token")
        recipes+=("\"$(jq -r .recipeId <<<"$created")\"")
        user_id=$(jq -r .recipe.userId <<<"$created")
      done
      echo "  { token = \"$token\", id = \"$user_id\", recipes = { $(IFS=,; echo "${recipes[*]}") } }," >>"$data_file"
      if [ "$i" = 1 ]; then probe_header="Authorization: Bearer $token" probe_path="/api/app/recipes?limit=20"; fi
    done
    echo "}" >>"$data_file"
    ;;
  chat)
    echo "users = {" >"$data_file"
    for i in $(seq 1 "$users"); do
      token=$(api POST /api/signup/ "{\"email\":\"soak-$run_id-$i@example.com\",\"password\":\"soak password $i\",\"first_name\":\"Soak $i\"}" | jq -r .token)
      sessions=()
      for s in 1 2 3; do
        sessions+=("$(api POST /api/chat/sessions/new/ "{\"title\":\"Soak session $s\",\"tone\":\"PlainClinical\",\"lang\":\"en-US\"}" "Authorization: Token $token" | jq -r .id)")
      done
      echo "  { token = \"$token\", sessions = { $(IFS=,; echo "${sessions[*]}") } }," >>"$data_file"
      if [ "$i" = 1 ]; then probe_header="Authorization: Token $token" probe_path="/api/chat/sessions/"; fi
    done
    echo "}" >>"$data_file"
    ;;
  news)
    tickers=(AAPL MSFT AMZN GOOGL META NVDA TSLA JPM JNJ V PG XOM UNH HD MA CVX ABBV PEP KO MRK)
    echo "users = {" >"$data_file"
    for i in $(seq 1 "$users"); do
      api PUT /v1/preferences "{\"focus_profile\":\"balanced\",\"holdings\":[\"${tickers[$(( i % 20 ))]}\",\"${tickers[$(( (i * 7) % 20 ))]}\"]}" "X-User-ID: soak-$i" >/dev/null
      echo "  \"soak-$i\"," >>"$data_file"
    done
    echo "}" >>"$data_file"
    # The days of the demo's articles, and today (no groups), for story groups.
    dates=$(api GET "/v1/feed?limit=100" "" "X-User-ID: soak-1" | jq -r '[.items[].published_at[0:10]] | unique | map("\"" + . + "\"") | join(",")')
    echo "dates = { ${dates:+$dates, }\"$(date -u +%Y-%m-%d)\" }" >>"$data_file"
    probe_header="X-User-ID: soak-1" probe_path="/v1/personalized-feed?limit=50"
    ;;
esac
probe_size() { curl -s --max-time 30 -H "$probe_header" -o /dev/null -w '%{size_download}' "$base$probe_path" || echo "?"; }

# --- 3. the load, sampled ---
start_health=$(health)
start_head=$(head_of "$start_health")
read -r start_total start_anon start_files <<<"$(memory)"
start_probe=$(probe_size)
threads=$(( connections < 2 ? connections : 2 ))
start_sqlite=$(sqlite_memory)
echo "phase,t_s,vmrss_kb,rss_anon_kb,rss_file_kb,log_head,max_lag,health,lags,sqlite_kb" >"$csv"
echo "start,0,$start_total,$start_anon,$start_files,$start_head,$(lag_of "$start_health"),$(status_of "$start_health"),$(lags_of "$start_health"),$start_sqlite" >>"$csv"
progress "$product: start: head $start_head, RSS $(mb "$start_total") MB (anon $(mb "$start_anon"), files $(mb "$start_files")); wrk -t$threads -c$connections -d${duration}s, $users users"
SOAK_DATA="$data_file" SOAK_ONLY="$only" wrk -t"$threads" -c"$connections" -d"${duration}s" --timeout 10s -s "$root/scripts/soak/$product.lua" "$base" >"$work/wrk.txt" 2>&1 &
wrk_pid=$!
load_started=$SECONDS
next_sample=$sample_every
sample() { # phase
  local t=$(( SECONDS - load_started )) h total anon files sqlite
  h=$(health)
  read -r total anon files <<<"$(memory)"
  sqlite=$(sqlite_memory)
  echo "$1,$t,$total,$anon,$files,$(head_of "$h"),$(lag_of "$h"),$(status_of "$h"),$(lags_of "$h"),$sqlite" >>"$csv"
  progress "$product: t+$t s: RSS $(mb "$total") MB (anon $(mb "$anon"), files $(mb "$files"); SQLite $(kb_as_mb "$sqlite")), head $(head_of "$h"), lags $(lags_of "$h"), health $(status_of "$h")"
}
watchdog_fired=0
while kill -0 "$wrk_pid" 2>/dev/null; do
  if [ $(( SECONDS - load_started )) -ge $(( duration + 120 )) ]; then
    echo "soak: watchdog: wrk still running at duration + 120 s; stopping it" >&2
    watchdog_fired=1
    kill -INT "$wrk_pid" 2>/dev/null || true   # wrk prints its report on SIGINT
    for _ in $(seq 1 100); do kill -0 "$wrk_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$wrk_pid" 2>/dev/null || true
    break
  fi
  if [ $(( SECONDS - load_started )) -ge "$next_sample" ] && [ "$next_sample" -lt "$duration" ]; then
    sample load
    next_sample=$(( next_sample + sample_every ))
  fi
  sleep 1
done
wait "$wrk_pid" 2>/dev/null || true
wrk_pid=""
end_health=$(health)
end_head=$(head_of "$end_health")
end_lag=$(lag_of "$end_health")
sample end
end_probe=$(probe_size)

# --- 4. lag back to 0, stop, verify ---
caught_up=""
lag_started=$SECONDS
while [ $(( SECONDS - lag_started )) -lt 300 ]; do
  if [ "$(lag_of "$(health)")" = 0 ]; then caught_up=$(( SECONDS - lag_started )); break; fi
  sleep 0.5
done
read -r final_total final_anon final_files <<<"$(memory)"
progress "$product: stopping the server"
stopped_cleanly=yes
stop_pid "$server_pid" 120 || stopped_cleanly=no
server_pid=""
progress "$product: $product verify --data-dir $data_dir"
verify_status=0
timeout 3600 "$binary" verify --data-dir "$data_dir" --log-level warning >"$work/verify.txt" 2>&1 || verify_status=$?
verify_output=$(tr '\n' ' ' <"$work/verify.txt" | sed 's/ *$//')

# --- 5. summary ---
wrk_out="$work/wrk.txt"
requests=$(awk '$1 == "soak-requests" {print $2}' "$wrk_out")
requests=${requests:-0}
rps=$(awk '/^Requests\/sec:/ {print $2}' "$wrk_out")
statuses=$(awk '$1 == "soak-status" {print $2 ": " $3}' "$wrk_out" | sort -n | paste -sd, - | sed 's/,/, /g')
non_2xx=$(awk '$1 == "soak-status" && ($2 < 200 || $2 > 299) {n += $3} END {print n + 0}' "$wrk_out")
socket_errors=$(awk '$1 == "soak-errors" {print $3 + $5 + $7 + $9}' "$wrk_out")
socket_errors=${socket_errors:-0}
errors=$(( non_2xx + socket_errors ))
kinds=$(awk '$1 == "soak-kind" {print $2 " " $3}' "$wrk_out" | sort -k2,2nr | paste -sd, - | sed 's/,/, /g')
latency=$(awk '$1 == "soak-latency" {$1 = ""; print substr($0, 2)}' "$wrk_out")
socket_line=$(awk '$1 == "soak-errors" {$1 = ""; print substr($0, 2)}' "$wrk_out")
# RssAnon: at the end of the warm-up (the first sample at 120 s or later), at the end, and its
# least-squares slope over the last 5 minutes of samples (those after the warm-up only, when the
# run is shorter than 7 minutes).
memory_report=$(awk -F, -v d="$duration" '
  NR > 1 && ($1 == "load" || $1 == "end") { t[n] = $2; a[n] = $4 / 1024; n++ }
  END {
    if (n == 0) { print "no samples"; exit }
    w = -1; for (i = 0; i < n; i++) if (t[i] >= 120) { w = i; break }
    last = t[n - 1]; from = last - 300
    if (w >= 0 && t[w] > from && w < n - 1) from = t[w]
    sx = sy = sxx = sxy = m = 0
    for (i = 0; i < n; i++) if (t[i] >= from) { sx += t[i]; sy += a[i]; sxx += t[i] * t[i]; sxy += t[i] * a[i]; m++ }
    slope = (m >= 2 && m * sxx - sx * sx > 0) ? sprintf("%+.2f MB/min", (m * sxy - sx * sy) / (m * sxx - sx * sx) * 60) : "n/a"
    warm = (w >= 0) ? sprintf("%.1f MB at t+%d s (end of warm-up)", a[w], t[w]) : "no sample at 120 s or later (the run is shorter than the warm-up)"
    printf "RssAnon %s; %.1f MB at t+%d s (end); slope %s from t+%d s to the end (%d samples)\n", warm, a[n - 1], last, slope, (from > 0 ? from : 0), m
  }' "$csv")

echo
echo "soak $product: wrk -t$threads -c$connections -d${duration}s --timeout 10s -s scripts/soak/$product.lua${only:+ (only $only)}, $users users, $binary"
echo "requests: $requests (${rps:-?} req/s); statuses $statuses"
echo "errors (non-2xx + socket): $errors   socket: ${socket_line:-?}"
echo "latency ms: ${latency:-?}"
echo "sent by kind: $kinds"
echo "by kind, ms (p99: upper bound of its power-of-two bucket; no answer: wrk timeouts and those in flight at the end):"
awk '$1 == "soak-kind" {printf "  %-20s sent %7d  answered %7d  mean %8.1f  p99 <= %6d  max %8.1f  no answer %d\n", $2, $3, $5, $7, $9, $11, $13}' "$wrk_out" | sort -k3,3nr
if [ "$requests" -eq 0 ]; then echo "wrk's output ($wrk_out):"; tail -20 "$wrk_out" | sed 's/^/  /'; fi
if grep -q '^soak-failure ' "$wrk_out"; then
  echo "non-2xx answers (first 20 per wrk thread): status request-id request -> answer"
  sed -n 's/^soak-failure /  /p' "$wrk_out"
fi
written="?"; [[ "$start_head$end_head" =~ ^[0-9]+$ ]] && written=$(( end_head - start_head ))
if [ -n "$caught_up" ]; then lag_line="all projections at lag 0 $caught_up s later"; else lag_line="lag NOT back to 0 within 300 s"; fi
echo "log head $start_head -> $end_head (+$written events); max projection lag when the load stopped $end_lag; $lag_line"
echo "RSS start $(mb "$start_total") MB (anon $(mb "$start_anon"), files $(mb "$start_files")); after the load $(mb "$final_total") MB (anon $(mb "$final_anon"), files $(mb "$final_files"))"
echo "$memory_report"
echo "samples ($csv):"
awk -F, 'NR > 1 {printf "  %-5s t+%4d s  VmRSS %7.1f MB  RssAnon %7.1f MB  RssFile %7.1f MB  head %s  max lag %s  %s\n", $1, $2, $3/1024, $4/1024, $5/1024, $6, $7, $8}' "$csv"
echo "GET $probe_path for one user: $start_probe bytes before the load, $end_probe after"
echo "server stopped on SIGTERM: $stopped_cleanly; its warnings and errors: $(grep -c . "$work/server.log" || true) lines in $work/server.log"
echo "$product verify: $verify_output (exit $verify_status)"
if [ "$watchdog_fired" = 1 ]; then echo "watchdog: wrk was stopped at duration + 120 s"; fi

passed=1
[ "$requests" -gt 0 ] && [ "$errors" -eq 0 ] && [ -n "$caught_up" ] && [ "$verify_status" -eq 0 ] && grep -q identical "$work/verify.txt" || passed=0
if [ "$passed" = 1 ]; then
  if [ -n "$temporary_data" ]; then rm -rf "$data_dir"; fi
  echo "PASS   (artifacts: $work)"
else
  echo "FAIL   (artifacts: $work; data: $data_dir)"
  exit 1
fi
