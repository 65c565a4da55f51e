#!/usr/bin/env bash
# Before and after a change to folds or wiring: each product's demo, seeded and folded by the binary
# of an earlier revision, then folded again from position 0 by this tree's binary, and the two read
# databases compared row by row, table by table. Also checks that this tree's demo start appends
# nothing to a log that already holds the demo (the import and the seeds recognise what they wrote).
#
#   scripts/demo-before-after.sh REV [nuvie|savry|chat|news]...   (default: all four)
#
# REV is built in a worktree under $TMPDIR (a first build takes minutes). A projection whose version
# changed between REV and now may differ, in its own tables (those its recorded schemas create, in
# Tests/*/Schemas) and its own checkpoint; every other row must be identical. Exits 1 if any row
# differs outside a projection that changed version, or if a demo start appended.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 1 ]] || { echo "usage: scripts/demo-before-after.sh REV [product]..." >&2; exit 2; }
rev=$(git rev-parse --short "$1"); shift
products=("$@"); [[ ${#products[@]} -gt 0 ]] || products=(nuvie savry chat news)
scratch=$(mktemp -d); before="${TMPDIR:-/tmp}/before-$rev"
# Servers start inside $(…), so their pids are kept in a file for the trap to stop.
stop_servers() {
    local pid
    [[ -f $scratch/pids ]] || return 0
    while read -r pid; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done <"$scratch/pids"
}
trap 'stop_servers; rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM
[[ -d $before ]] || git worktree add -f --detach "$before" "$rev" >/dev/null
for product in "${products[@]}"; do
    (cd "$before" && swift build --product "$product" >/dev/null 2>&1)
    swift build --product "$product" >/dev/null 2>&1
done
old_bin=$(cd "$before" && swift build --show-bin-path) new_bin=$(swift build --show-bin-path)

# Waits until the server has caught up (scripts/caught-up.sh); prints the log head.
caught_up() {
    scripts/caught-up.sh "http://127.0.0.1:$1" --wait 900
}

# Serves the demo from `dir` with `bin` until caught up; prints the log head.
fold() {
    local bin=$1 dir=$2 port head
    port=$(scripts/free-port.sh)
    "$bin" serve --data-dir "$dir" --port "$port" >"$dir.log" 2>&1 &
    local pid=$!
    echo "$pid" >>"$scratch/pids"
    head=$(caught_up "$port") || { kill "$pid"; wait "$pid" || true; echo "never caught up: $dir.log" >&2; return 1; }
    kill -TERM "$pid"; wait "$pid" || true
    echo "$head"
}

# Every row of every table, sorted, one per line, prefixed by its table.
rows() {
    python3 - "$1/read" <<'PY'
import os, sqlite3, sys
# The read database in use: the one CURRENT names after a replay's swap, else read.sqlite.
current = os.path.join(sys.argv[1], "CURRENT")
db = sqlite3.connect(os.path.join(sys.argv[1], open(current).read().strip() if os.path.exists(current) else "read.sqlite"))
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
    echo "$product: log head $head_before, after this tree's demo start $head_after; $(wc -l <"$scratch/$product.before") rows before, $(wc -l <"$scratch/$product.after") after"
    [[ $head_before == "$head_after" ]] || { echo "  FAIL: this tree's demo start appended to the log"; failed=1; }
    python3 - "$scratch/$product.before" "$scratch/$product.after" <<'PY' || failed=1
import ast, glob, os, re, sys
before, after = (open(path).read().splitlines() for path in sys.argv[1:])
def versions(lines):
    return {row[0]: row[1] for row in (ast.literal_eval(line.split(" ", 1)[1]) for line in lines if line.startswith("projectionCheckpoint "))}
changed = {name for name, version in versions(after).items() if versions(before).get(name) != version}
owner = {}
for schema in glob.glob("Tests/*/Schemas/*.sql"):
    projection = re.sub(r"\.v\d+\.sql$", "", os.path.basename(schema))
    for table in re.findall(r'CREATE TABLE "?(\w+)"?', open(schema).read()):
        owner[table] = projection
differing = set(before).symmetric_difference(after)
def excused(line):
    table, row = line.split(" ", 1)
    if table in ("projectionCheckpoint", "grdb_migrations"):
        return any(name in row for name in changed)
    return owner.get(table) in changed
unexcused = sorted({line.split(" ", 1)[0] for line in differing if not excused(line)})
tables = sorted({line.split(" ", 1)[0] for line in differing})
if not differing:
    print("  read models identical")
else:
    print(f"  tables that differ: {' '.join(tables)} (projections whose version changed: {' '.join(sorted(changed)) or 'none'})")
if unexcused:
    print(f"  FAIL: rows differ outside a projection whose version changed: {' '.join(unexcused)}")
    sys.exit(1)
PY
done
exit $failed
