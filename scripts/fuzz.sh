#!/usr/bin/env bash
# Property-based fuzzing of every operation in Sources/Products/Nuvie/API/OpenAPI/openapi.json (schemathesis) against
# a fresh demo server. Fails on any 5xx, any response the document does not describe (status code,
# content type, body schema, headers), and any rejected request (status >= 400) that appended to the
# log (scripts/fuzz_hooks.py).
#
# Reproducible: a fresh data dir, one worker, a fixed seed (printed), no example database, and a
# number of examples rather than a time budget (schemathesis's --max-time keeps fuzzing until it is
# spent, so what runs would depend on the machine's speed); NUVIE_FUZZ_TIMEOUT only stops a run gone
# slow, as a failure. Environment: NUVIE_FUZZ_SEED, NUVIE_FUZZ_MAX_EXAMPLES (per operation and phase),
# NUVIE_FUZZ_TIMEOUT (seconds), NUVIE_FUZZ_BINARY (default .build/debug/nuvie). Deleting accounts and
# signing out are left out: either would end the one session every other operation is fuzzed with
# (they take no input; NuviePrivacyTests and SessionTests cover them).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

SCHEMATHESIS_VERSION=4.32.5
SEED=${NUVIE_FUZZ_SEED:-14}
MAX_EXAMPLES=${NUVIE_FUZZ_MAX_EXAMPLES:-150}
TIMEOUT=${NUVIE_FUZZ_TIMEOUT:-360}
BINARY=${NUVIE_FUZZ_BINARY:-.build/debug/nuvie}
DOCUMENT=Sources/Products/Nuvie/API/OpenAPI/openapi.json

python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore "schemathesis==$SCHEMATHESIS_VERSION"
[[ -x "$BINARY" ]] || swift build --product nuvie

DATA_DIR=$(mktemp -d -t nuvie-fuzz.XXXXXX)
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL="http://127.0.0.1:$PORT"
SERVER_LOG="$DATA_DIR/server.log"
SERVER_PID=""

cleanup() {
    local status=$?
    if [[ -n "$SERVER_PID" ]]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    if [[ $status -ne 0 && -f "$SERVER_LOG" ]]; then
        echo "--- server errors (full log: $SERVER_LOG) ---"
        grep -E ' (error|critical) ' "$SERVER_LOG" | tail -n 40 || true
    else
        rm -rf "$DATA_DIR"
    fi
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "fuzz: schemathesis $SCHEMATHESIS_VERSION, seed $SEED, $MAX_EXAMPLES examples per operation, at most ${TIMEOUT}s, server $URL, data $DATA_DIR"
NUVIE_RATE_LIMIT_PER_MINUTE=0 NUVIE_LOG_LEVEL=${NUVIE_LOG_LEVEL:-warning} \
    "$BINARY" serve --data-dir "$DATA_DIR" --demo --host 127.0.0.1 --port "$PORT" >"$SERVER_LOG" 2>&1 &
SERVER_PID=$!

# The demo import, the first fold and the first training run before the server listens.
caught_up() {
    curl -sf "$URL/health" 2>/dev/null | python3 -c '
import json, sys
health = json.load(sys.stdin)
sys.exit(0 if health["status"] == "ok" and all(p["lag"] == 0 for p in health["projections"]) else 1)' 2>/dev/null
}
for _ in $(seq 1 300); do
    caught_up && break
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "fuzz: the server exited"; tail -n 20 "$SERVER_LOG"; exit 1; }
    sleep 1
done
caught_up || { echo "fuzz: the server did not catch up within 300 s"; exit 1; }

ACCESS_TOKEN=$(curl -sf -X POST "$URL/auth/login" -H 'Content-Type: application/json' \
    -d '{"provider":"dev","user_identifier":"movielens-1"}' | python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])')

# From the data dir, so schemathesis's crash cache (for `st replay`) stays out of the checkout. The
# tokens are printed unsanitised: they belong to this throwaway server, and reproducing a write needs
# its Idempotency-Key.
cd "$DATA_DIR"
status=0
NUVIE_FUZZ_URL="$URL" SCHEMATHESIS_HOOKS="$ROOT/scripts/fuzz_hooks.py" timeout "$TIMEOUT" python3 -m schemathesis.cli run "$ROOT/$DOCUMENT" \
    --url "$URL" \
    --workers 1 \
    --seed "$SEED" \
    --generation-database none \
    --max-examples "$MAX_EXAMPLES" \
    --phases examples,coverage,fuzzing \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,rejected_request_records_nothing \
    --generation-with-security-parameters false \
    --exclude-operation-id deleteMe --exclude-operation-id adminEraseUser \
    --exclude-operation-id logout --exclude-operation-id logoutEverywhere \
    --request-timeout 30 \
    --no-color \
    --output-sanitize false \
    -H "Authorization: Bearer $ACCESS_TOKEN" \
    -H "X-Admin-Token: $(cat "$DATA_DIR/admin-token")" \
    -H "X-Internal-Token: $(cat "$DATA_DIR/internal-token")" || status=$?
if [[ $status -eq 124 ]]; then echo "fuzz: stopped after ${TIMEOUT}s (NUVIE_FUZZ_TIMEOUT)"; fi
exit $status
