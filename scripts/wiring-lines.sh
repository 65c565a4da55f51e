#!/usr/bin/env bash
# Lines of each product's wiring at a revision (default HEAD), as issue 29 counts them: its
# application builder, its configuration and environment, its executable's entry and global options,
# its serve and as-of commands, its error mapping and its request context. Product features (eval,
# imports, demo data, user snapshot, model health) are not counted.
#
#   scripts/wiring-lines.sh [REV]
set -euo pipefail
rev=${1:-HEAD}
cd "$(dirname "$0")/.."
for product in Nuvie Savry Chat News; do
    total=0
    for file in $(git ls-tree -r --name-only "$rev" "Sources/Products/$product" | grep -E \
        "/App/${product}Application\.swift|/App/${product}Configuration.*\.swift|/CLI/${product}\.swift|/CLI/GlobalOptions\.swift|/CLI/Serve\.swift|/CLI/AsOf\.swift|/API/Errors/ErrorMapping\.swift|RequestContext\.swift"); do
        total=$((total + $(git show "$rev:$file" | wc -l)))
    done
    echo "$product $total"
done
