#!/usr/bin/env bash
# Serves every finished product's demo, each in its own process, on its own port and data directory:
#   Nuvie (movies)   http://127.0.0.1:8080   ./nuvie-data   (NUVIE_PORT, NUVIE_DATA_DIR to change)
#   Savry (recipes)  http://127.0.0.1:3000   ./savry-data   (SAVRY_PORT, SAVRY_DATA_DIR to change)
#   Chat             http://127.0.0.1:8000   ./chat-data    (CHAT_PORT, CHAT_DATA_DIR to change)
#   News             http://127.0.0.1:5001   ./news-data    (NEWS_PORT, NEWS_DATA_DIR to change)
# A new data directory is a demo: Nuvie imports the bundled MovieLens data, Savry seeds its demo cooks,
# Chat its demo accounts, News its synthetic articles. Chat replies from the local model of scripts/local-model.sh when it answers on
# 127.0.0.1:8088 (or from CHAT_OPENAI_BASE_URL when set), else from its offline responder.
# Ctrl-C stops them all; if one stops, the others are stopped too.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
swift build --product nuvie
swift build --product savry
swift build --product chat
swift build --product news
bin=$(swift build --show-bin-path)

pids=()
stop() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap stop EXIT
trap 'exit 130' INT TERM
"$bin/nuvie" serve & pids+=($!)
"$bin/savry" serve & pids+=($!)
if [[ -z "${CHAT_OPENAI_BASE_URL:-}" ]] && curl -fsS -o /dev/null --max-time 2 http://127.0.0.1:8088/v1/models 2>/dev/null; then
  export CHAT_OPENAI_BASE_URL=http://127.0.0.1:8088/v1 CHAT_OPENAI_MODEL=smollm2-135m
fi
"$bin/chat" serve & pids+=($!)
"$bin/news" serve & pids+=($!)

ready() { curl -fsS -o /dev/null "http://127.0.0.1:$1/health" 2>/dev/null; }
for _ in $(seq 600); do
  ready "${NUVIE_PORT:-8080}" && ready "${SAVRY_PORT:-3000}" && ready "${CHAT_PORT:-8000}" && ready "${NEWS_PORT:-5001}" && break
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || { echo "a server stopped while starting (see above)" >&2; exit 1; }; done
  sleep 1
done
cat <<MSG

  Nuvie (movies)   http://127.0.0.1:${NUVIE_PORT:-8080}   sign in: POST /auth/login {"provider":"dev","user_identifier":"movielens-1"}
  Savry (recipes)  http://127.0.0.1:${SAVRY_PORT:-3000}   sign in: POST /api/app/auth {"devUser":"ana"}
  Chat             http://127.0.0.1:${CHAT_PORT:-8000}   log in: POST /api/login/ {"email":"demo@example.com","password":"demo-password-1"}
                   replies from: ${CHAT_OPENAI_BASE_URL:-the offline responder (no model configured)}
  News             http://127.0.0.1:${NEWS_PORT:-5001}   GET /v1/feed -H 'X-User-ID: 1' (synthetic articles, 2025-12-03 to 2026-01-01)
  All serve GET /health and /metrics. Ctrl-C stops them all.

  Operator console (sign in with the token in the file):
    http://127.0.0.1:${NUVIE_PORT:-8080}/admin/console   ${NUVIE_DATA_DIR:-./nuvie-data}/admin-token
    http://127.0.0.1:${SAVRY_PORT:-3000}/admin/console   ${SAVRY_DATA_DIR:-./savry-data}/admin-token
    http://127.0.0.1:${CHAT_PORT:-8000}/admin/console   ${CHAT_DATA_DIR:-./chat-data}/admin-token
    http://127.0.0.1:${NEWS_PORT:-5001}/admin/console   ${NEWS_DATA_DIR:-./news-data}/admin-token

MSG
wait -n "${pids[@]}"
