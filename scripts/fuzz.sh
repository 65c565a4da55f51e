#!/usr/bin/env bash
# Property-based fuzzing of every operation in each product's OpenAPI document
# (Sources/Products/<Product>/API/OpenAPI/openapi.json, schemathesis) against a fresh demo server of
# that product. Fails on any 5xx, any response the document does not describe (status code, content
# type, body schema, headers), and any rejected request (status >= 400) that appended to the log
# (scripts/fuzz_hooks.py).
#
#   scripts/fuzz.sh                 nuvie, savry, chat and news, one after another
#   scripts/fuzz.sh savry [chat …]  only those
#
# Reproducible: per product a fresh data dir, one worker, a fixed seed (printed), no example
# database, and a number of examples rather than a time budget (schemathesis's --max-time keeps
# fuzzing until it is spent, so what runs would depend on the machine's speed); the timeout only
# stops a run gone slow, as a failure. Every product is fuzzed even when an earlier one failed; the
# script fails if any did.
#
# Environment, per product P in NUVIE, SAVRY, CHAT, NEWS (P_FUZZ_X, else FUZZ_X, else the default):
#   P_FUZZ_SEED / FUZZ_SEED                  seed (14)
#   P_FUZZ_MAX_EXAMPLES / FUZZ_MAX_EXAMPLES  examples per operation and phase (nuvie 150, savry 100, chat 50, news 100)
#   P_FUZZ_TIMEOUT / FUZZ_TIMEOUT            seconds per product (600)
#   P_FUZZ_BINARY                            the server (default $FUZZ_BIN_DIR/<product>, FUZZ_BIN_DIR=.build/debug)
# so NUVIE_FUZZ_SEED, NUVIE_FUZZ_MAX_EXAMPLES, NUVIE_FUZZ_TIMEOUT and NUVIE_FUZZ_BINARY work as before.
#
# Left out, as each would end the one session every other operation is fuzzed with or erase its
# user (they are covered by the products' Swift tests): nuvie deleteMe, adminEraseUser, logout,
# logoutEverywhere; savry signOut, deleteAccount, adminEraseUser; chat logout, deleteAccount,
# adminEraseUser; news adminEraseUser.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

SCHEMATHESIS_VERSION=4.32.5
ALL_PRODUCTS=(nuvie savry chat news)
if [[ $# -eq 0 ]]; then PRODUCTS=("${ALL_PRODUCTS[@]}"); else PRODUCTS=("$@"); fi
for product in "${PRODUCTS[@]}"; do
    case $product in
        nuvie | savry | chat | news) ;;
        *) echo "usage: scripts/fuzz.sh [nuvie|savry|chat|news]..." >&2; exit 2 ;;
    esac
done

python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore "schemathesis==$SCHEMATHESIS_VERSION"

# <P>_FUZZ_<NAME>, else FUZZ_<NAME>, else the default.
setting() {
    local product=$1 name=$2 default=$3
    local specific="${product^^}_FUZZ_$name" general="FUZZ_$name"
    echo "${!specific:-${!general:-$default}}"
}

# Per operation and phase; sized so that all four finish in about 10 minutes on 2 cores with debug builds.
max_examples() {
    case $1 in
        nuvie) setting "$1" MAX_EXAMPLES 150 ;;
        savry) setting "$1" MAX_EXAMPLES 100 ;;
        chat) setting "$1" MAX_EXAMPLES 50 ;;
        news) setting "$1" MAX_EXAMPLES 100 ;;
    esac
}

SERVER_PID=""
FUZZER_PID=""
DATA_DIR=""

stop_server() {
    if [[ -n "$FUZZER_PID" ]]; then  # timeout passes the signal on to schemathesis
        kill "$FUZZER_PID" 2>/dev/null || true
        wait "$FUZZER_PID" 2>/dev/null || true
        FUZZER_PID=""
    fi
    if [[ -n "$SERVER_PID" ]]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
        SERVER_PID=""
    fi
}

# An interrupted run keeps the current product's data dir, as a failed one does.
cleanup() {
    local status=$?
    stop_server
    [[ -n "$DATA_DIR" ]] && echo "fuzz: data kept in $DATA_DIR"
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Fuzzes one product; non-zero when it fails. Sets DATA_DIR and SERVER_PID, for the caller to clean up.
fuzz_product() {
    local product=$1
    local Product=${product^}
    local seed max_examples timeout binary
    seed=$(setting "$product" SEED 14)
    max_examples=$(max_examples "$product")
    timeout=$(setting "$product" TIMEOUT 600)
    binary=$(setting "$product" BINARY "${FUZZ_BIN_DIR:-.build/debug}/$product")
    local document="$ROOT/Sources/Products/$Product/API/OpenAPI/openapi.json"
    if [[ ! -x "$binary" ]]; then
        [[ -n "${FUZZ_BIN_DIR:-}" ]] && { echo "fuzz $product: no executable $binary"; return 1; }
        swift build --product "$product"
    fi

    DATA_DIR=$(mktemp -d -t "$product-fuzz.XXXXXX")
    local port url server_log="$DATA_DIR/server.log"
    port=$(scripts/free-port.sh)
    url="http://127.0.0.1:$port"

    # Rate limits and the login throttle off, or as good as off: one client sends thousands of requests.
    local settings
    case $product in
        nuvie) settings=(NUVIE_RATE_LIMIT_PER_MINUTE=0 "NUVIE_LOG_LEVEL=${NUVIE_LOG_LEVEL:-warning}") ;;
        savry) settings=(SAVRY_RATE_LIMIT_PER_MINUTE=0 "SAVRY_LOG_LEVEL=${SAVRY_LOG_LEVEL:-warning}") ;;
        chat) settings=(CHAT_RATE_LIMIT_PER_MINUTE=0 CHAT_LOGIN_FAILURES_PER_ACCOUNT=1000 CHAT_LOGIN_FAILURES_PER_ADDRESS=100000
                        "CHAT_LOG_LEVEL=${CHAT_LOG_LEVEL:-warning}") ;;
        news) settings=(NEWS_RATE_LIMIT_PER_MINUTE=1000000 "NEWS_LOG_LEVEL=${NEWS_LOG_LEVEL:-warning}") ;;
    esac

    echo "=== fuzz $product: schemathesis $SCHEMATHESIS_VERSION, seed $seed, $max_examples examples per operation, at most ${timeout}s, server $url ($binary), data $DATA_DIR"
    env "${settings[@]}" "$binary" serve --data-dir "$DATA_DIR" --demo --host 127.0.0.1 --port "$port" >"$server_log" 2>&1 &
    SERVER_PID=$!

    # The demo import and the first folds (nuvie: and the first training run) before it is caught up.
    scripts/caught-up.sh "$url" --wait 300 --pid "$SERVER_PID" --log "$server_log" >/dev/null || { echo "fuzz $product: not served"; return 1; }

    # Signed in as a demo user, with the operator's tokens (demo mode writes them into the data dir).
    # Printed unsanitised: they belong to this throwaway server, and reproducing a write needs its
    # Idempotency-Key.
    local token="" auth excluded extra=()
    case $product in
        nuvie)
            token=$(curl -sf -X POST "$url/auth/login" -H 'Content-Type: application/json' \
                -d '{"provider":"dev","user_identifier":"movielens-1"}' | python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])') || true
            auth="Authorization: Bearer $token"
            extra=(-H "X-Internal-Token: $(cat "$DATA_DIR/internal-token")")
            excluded=(deleteMe adminEraseUser logout logoutEverywhere) ;;
        savry)
            token=$(curl -sf -X POST "$url/api/app/auth" -H 'Content-Type: application/json' \
                -d '{"devUser":"ana"}' | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])') || true
            auth="Authorization: Bearer $token"
            excluded=(signOut deleteAccount adminEraseUser) ;;
        chat)
            token=$(curl -sf -X POST "$url/api/login/" -H 'Content-Type: application/json' \
                -d '{"email":"demo@example.com","password":"demo-password-1"}' | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])') || true
            auth="Authorization: Token $token"
            excluded=(logout deleteAccount adminEraseUser) ;;
        news)
            token=1
            auth="X-User-ID: $token"
            excluded=(adminEraseUser) ;;
    esac
    [[ -n "$token" ]] || { echo "fuzz $product: could not sign in the demo user"; return 1; }
    local exclusions=()
    for operation in "${excluded[@]}"; do exclusions+=(--exclude-operation-id "$operation"); done

    # From the data dir, so schemathesis's crash cache (for `st replay`) stays out of the checkout. In
    # the background, waited for, so that a signal to this script stops it at once (cleanup).
    local status=0
    cd "$DATA_DIR"
    FUZZ_PRODUCT="$product" FUZZ_URL="$url" SCHEMATHESIS_HOOKS="$ROOT/scripts/fuzz_hooks.py" \
        timeout "$timeout" python3 -m schemathesis.cli run "$document" \
        --url "$url" \
        --workers 1 \
        --seed "$seed" \
        --generation-database none \
        --max-examples "$max_examples" \
        --phases examples,coverage,fuzzing \
        --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,rejected_request_records_nothing \
        --generation-with-security-parameters false \
        "${exclusions[@]}" \
        --request-timeout 30 \
        --no-color \
        --output-sanitize false \
        -H "$auth" \
        -H "X-Admin-Token: $(cat "$DATA_DIR/admin-token")" \
        "${extra[@]}" &
    FUZZER_PID=$!
    wait "$FUZZER_PID" || status=$?
    FUZZER_PID=""
    cd "$ROOT"
    if [[ $status -eq 124 ]]; then echo "fuzz $product: stopped after ${timeout}s (${product^^}_FUZZ_TIMEOUT, FUZZ_TIMEOUT)"; fi
    stop_server
    if [[ $status -ne 0 ]]; then
        echo "--- $product server errors (full log: $server_log) ---"
        grep -E ' (error|critical) ' "$server_log" | tail -n 40 || true
    fi
    return $status
}

SUMMARY=()
failed=0
for product in "${PRODUCTS[@]}"; do
    started=$SECONDS
    status=0
    fuzz_product "$product" || status=$?
    stop_server
    if [[ $status -ne 0 ]]; then
        failed=1
        [[ -n "$DATA_DIR" ]] && echo "fuzz $product: data kept in $DATA_DIR (st replay)"
    else
        rm -rf "$DATA_DIR"
    fi
    DATA_DIR=""
    SUMMARY+=("$product: $([[ $status -eq 0 ]] && echo passed || echo "FAILED (exit $status)") in $((SECONDS - started)) s, $(max_examples "$product") examples per operation")
done
echo "=== fuzz summary"
printf '  %s\n' "${SUMMARY[@]}"
exit $failed
