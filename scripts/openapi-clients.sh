#!/usr/bin/env bash
# Keeps true that swift-openapi-generator 1.14.3 builds a client from each product's OpenAPI document
# (Sources/Products/<Product>/API/OpenAPI/openapi.json, the one its binary serves at /openapi.json)
# that compiles and decodes the demo's real answers.
#
# Builds Tools/OpenAPIClients (one generated client per product: its openapi.json is a symlink to the
# product's document), starts the four demo servers from $OPENAPI_BIN_DIR (default .build/debug),
# each on a free loopback port with a new temporary data directory, and runs openapi-client-check
# against them: per product it signs in as the demo does, then reads and writes through the generated
# client, printing one line per call (`<product> <operationId> <status>`). It fails when a call is
# answered with a status the document does not describe (or one the demo's flow should not get), when
# a body does not decode into the generated types, or when the generator skipped part of a document.
#
#   scripts/openapi-clients.sh                             the binaries in .build/debug (built if missing)
#   OPENAPI_BIN_DIR=/path/to/bin scripts/openapi-clients.sh
#
# The servers are stopped and their data directories removed on exit, whatever the outcome.
set -euo pipefail
cd "$(dirname "$0")/.."
PACKAGE=Tools/OpenAPIClients
PRODUCTS=(nuvie savry chat news)

PIDS=()
DIRS=()
cleanup() {
    local status=$?
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    for dir in "${DIRS[@]}"; do rm -rf "$dir"; done
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The build log keeps the generated code's warnings (over a thousand `public import ... was not used`
# from the generated sources) out of the output; the generator's own diagnostics are shown.
echo "=== openapi-clients: building $PACKAGE"
build_log=$(mktemp -t openapi-clients-build.XXXXXX)
DIRS+=("$build_log")
started=$SECONDS
if ! swift build --package-path "$PACKAGE" >"$build_log" 2>&1; then
    grep -E 'error:' "$build_log" | sort -u | head -n 60 || true
    tail -n 20 "$build_log"
    echo "openapi-clients: building $PACKAGE failed"
    exit 1
fi
echo "built in $((SECONDS - started)) s"
grep -E 'warning: (Validation warning|.*not supported|.*skipping)' "$build_log" | sed -E 's/^.*warning: (Validation warning: )?/generator warning: /' | sort -u || true
if grep -qE 'warning: .*skipping' "$build_log"; then
    echo "openapi-clients: the generator skipped part of a document (above): its client cannot represent it"
    exit 1
fi
check=$(swift build --package-path "$PACKAGE" --show-bin-path)/openapi-client-check

bin_dir=${OPENAPI_BIN_DIR:-.build/debug}
for product in "${PRODUCTS[@]}"; do
    if [[ ! -x "$bin_dir/$product" ]]; then
        [[ -n "${OPENAPI_BIN_DIR:-}" ]] && { echo "openapi-clients: no executable $bin_dir/$product"; exit 1; }
        swift build --product "$product"
    fi
done


# Rate limits off (News: as good as off); Chat with its cheapest password hashing and its offline
# responder (no model), so that the run depends on nothing outside this machine.
declare -A URLS LOGS
for product in "${PRODUCTS[@]}"; do
    data_dir=$(mktemp -d -t "$product-openapi-clients.XXXXXX")
    DIRS+=("$data_dir")
    port=$(scripts/free-port.sh)
    URLS[$product]="http://127.0.0.1:$port"
    LOGS[$product]="$data_dir/server.log"
    case $product in
        nuvie) settings=(NUVIE_RATE_LIMIT_PER_MINUTE=0 "NUVIE_LOG_LEVEL=${NUVIE_LOG_LEVEL:-warning}") ;;
        savry) settings=(SAVRY_RATE_LIMIT_PER_MINUTE=0 "SAVRY_LOG_LEVEL=${SAVRY_LOG_LEVEL:-warning}") ;;
        chat) settings=(-u CHAT_OPENAI_BASE_URL -u CHAT_OPENAI_API_KEY -u CHAT_OPENAI_API_KEY_FILE -u CHAT_OPENAI_MODEL
                        -u CHAT_OPENAI_TEMPERATURE -u CHAT_OPENAI_TIMEOUT_SECONDS
                        CHAT_RATE_LIMIT_PER_MINUTE=0 CHAT_PASSWORD_ITERATIONS=100000 "CHAT_LOG_LEVEL=${CHAT_LOG_LEVEL:-warning}") ;;
        news) settings=(NEWS_RATE_LIMIT_PER_MINUTE=1000000 "NEWS_LOG_LEVEL=${NEWS_LOG_LEVEL:-warning}") ;;
    esac
    echo "=== openapi-clients: $product demo at ${URLS[$product]} ($bin_dir/$product, data $data_dir)"
    env "${settings[@]}" "$bin_dir/$product" serve --data-dir "$data_dir" --demo --host 127.0.0.1 --port "$port" >"${LOGS[$product]}" 2>&1 &
    PIDS+=($!)
done

# Ready when /health answers 200 with every projection caught up (the demo import, Nuvie's first
# training run): before that some reads answer documented 503s the flow does not expect.
for index in "${!PRODUCTS[@]}"; do
    product=${PRODUCTS[$index]}
    scripts/caught-up.sh "${URLS[$product]}" --wait 300 --pid "${PIDS[$index]}" --log "${LOGS[$product]}" >/dev/null ||
        { echo "openapi-clients: the $product server was not served"; exit 1; }
done

echo "=== openapi-clients: checking the generated clients against the four demos"
status=0
"$check" --nuvie "${URLS[nuvie]}" --savry "${URLS[savry]}" --chat "${URLS[chat]}" --news "${URLS[news]}" || status=$?
if [[ $status -ne 0 ]]; then
    for product in "${PRODUCTS[@]}"; do
        if grep -qE ' (error|critical) ' "${LOGS[$product]}"; then
            echo "--- $product server errors"
            grep -E ' (error|critical) ' "${LOGS[$product]}" | tail -n 20
        fi
    done
fi
exit $status
