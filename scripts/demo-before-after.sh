#!/usr/bin/env bash
# Before and after a change to folds or wiring: each product's demo, seeded and folded by the binary
# of an earlier revision, then folded again from position 0 by this tree's binary, and the two read
# databases compared row by row, table by table. Also checks that this tree's demo start appends
# nothing to a log that already holds the demo (the import and the seeds recognise what they wrote).
#
#   scripts/demo-before-after.sh REV [nuvie|savry|chat|news]...   (default: all four)
#
# REV is built in a worktree under $TMPDIR (a first build takes minutes). A projection whose version
# changed between REV and now is expected to differ; every other table must be identical. Exits 1 if
# any product differs outside a projection that changed version, or if a demo start appended.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 1 ]] || { echo "usage: scripts/demo-before-after.sh REV [product]..." >&2; exit 2; }
rev=$(git rev-parse --short "$1"); shift
products=("$@"); [[ ${#products[@]} -gt 0 ]] || products=(nuvie savry chat news)
scratch=$(mktemp -d); before="${TMPDIR:-/tmp}/before-$rev"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$scratch"' EXIT
[[ -d $before ]] || git worktree add -f --detach "$before" "$rev" >/dev/null
for product in "${products[@]}"; do
    (cd "$before" && swift build --product "$product" >/dev/null 2>&1)
    swift build --product "$product" >/dev/null
done
old_bin=$(cd "$before" && swift build --show-bin-path) new_bin=$(swift build --show-bin-path)

# Waits until /health shows every projection at lag 0; prints the log head.
caught_up() {
    local port=$1
    for _ in $(seq 1 900); do
        if head=$(curl -sf "http://127.0.0.1:$port/health" | python3 -c '
import json, sys
h = json.load(sys.stdin)
ps = h.get("projections", [])
assert ps and all(p.get("lag") == 0 for p in ps)
print(h.get("logHeadPosition", h.get("log_head_position")))' 2>/dev/null); then echo "$head"; return 0; fi
        sleep 1
    done
    return 1
}

# Serves the demo from `dir` with `bin` until caught up; prints the log head.
fold() {
    local bin=$1 dir=$2 port head
    port=$(scripts/free-port.sh)
    "$bin" serve --data-dir "$dir" --port "$port" >"$dir.log" 2>&1 &
    local pid=$!
    head=$(caught_up "$port") || { kill "$pid"; echo "never caught up: $dir.log" >&2; return 1; }
    kill -TERM "$pid"; wait "$pid" || true
    echo "$head"
}

# Every row of every table, sorted, one per line, prefixed by its table.
rows() {
    python3 - "$1/read/read.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"):
    for row in sorted(db.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr):
        print(table, repr(row))
PY
}

failed=0
for product in "${products[@]}"; do
    dir="$scratch/$product"
    head_before=$(fold "$old_bin/$product" "$dir")
    rows "$dir" >"$scratch/$product.before"
    cp -a "$dir" "$dir-after"; rm -rf "$dir-after/read"
    head_after=$(fold "$new_bin/$product" "$dir-after")
    rows "$dir-after" >"$scratch/$product.after"
    changed=$(diff <(grep '^projectionCheckpoint ' "$scratch/$product.before") <(grep '^projectionCheckpoint ' "$scratch/$product.after") \
        | sed -n "s/^> projectionCheckpoint ('\([^']*\)'.*/\1/p" | sort -u | tr '\n' ' ' || true)
    differing=$(diff "$scratch/$product.before" "$scratch/$product.after" | sed -n 's/^[<>] \([^ ]*\) .*/\1/p' | sort -u | tr '\n' ' ' || true)
    echo "$product: log head $head_before, after this tree's demo start $head_after; $(wc -l <"$scratch/$product.before") rows before, $(wc -l <"$scratch/$product.after") after"
    [[ $head_before == "$head_after" ]] || { echo "  FAIL: this tree's demo start appended to the log"; failed=1; }
    if [[ -z $differing ]]; then
        echo "  read models identical"
    else
        echo "  tables that differ: $differing(projections whose version changed since $rev: ${changed:-none})"
        [[ -n $changed ]] || { echo "  FAIL: rows differ with no projection version changed"; failed=1; }
    fi
done
exit $failed
