#!/usr/bin/env bash
# Fails unless every module a target's sources import is declared in Package.swift for that target:
# one of its target dependencies, a module of one of its product dependencies, or the toolchain's
# (Foundation, Glibc, Dispatch, Synchronization, Testing, XCTest, …). A module reached only through
# another target's dependencies compiles all the same, so without this the graph drifts from the
# manifest. SwiftPM's own --explicit-target-dependency-import-check=error reports nothing here
# (Swift 6.3.1, Linux: an undeclared `import EventSourcing` in NuvieRecommendations, which reaches it
# through NuvieDomain, built with exit 0, whole package and target alone).
#
# Reads the targets from `swift package describe`, and each dependency's products from its manifest
# (`swift package dump-package` in its checkout). `--unused` also lists declared target dependencies
# that no source of the target imports (not a failure: some are there only to link).
# Run by scripts/test.sh before it builds.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PYTHON'
import json, os, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

TOOLCHAIN = {
    "Swift", "_Concurrency", "_StringProcessing", "Foundation", "FoundationEssentials", "FoundationNetworking",
    "FoundationXML", "CoreFoundation", "Dispatch", "Glibc", "Musl", "Darwin", "os", "Synchronization",
    "RegexBuilder", "Distributed", "Observation", "XCTest", "Testing",
}
IMPORT = re.compile(
    r"^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_]\w*)"
)


def output(*command, cwd=None):
    return subprocess.run(command, check=True, capture_output=True, text=True, cwd=cwd).stdout


def module_name(target):
    return re.sub(r"\W", "_", target)


def products(package_path):
    manifest = json.loads(output("swift", "package", "--package-path", package_path, "dump-package"))
    return {product["name"]: {module_name(t) for t in product["targets"]} for product in manifest["products"]}


package = json.loads(output("swift", "package", "describe", "--type", "json"))
dependencies = json.loads(output("swift", "package", "show-dependencies", "--format", "json"))["dependencies"]
product_modules = {}
with ThreadPoolExecutor(max_workers=4) as pool:
    for declared in pool.map(products, [dependency["path"] for dependency in dependencies]):
        for name, modules in declared.items():
            product_modules.setdefault(name, set()).update(modules)

undeclared, unused = [], []
for target in sorted(package["targets"], key=lambda t: t["name"]):
    sources = [os.path.join(target["path"], source) for source in target.get("sources", []) if source.endswith(".swift")]
    declared_targets = {module_name(t) for t in target.get("target_dependencies", [])}
    declared = {module_name(target["name"])} | declared_targets | TOOLCHAIN
    for product in target.get("product_dependencies", []):
        declared |= product_modules.get(product, {module_name(product)})
    imported = set()
    for source in sorted(sources):
        with open(source, encoding="utf-8") as file:
            for number, line in enumerate(file, start=1):
                match = IMPORT.match(line)
                if not match:
                    continue
                imported.add(match.group(1))
                if match.group(1) not in declared:
                    undeclared.append(f"{source}:{number}: imports {match.group(1)}, which Package.swift does not declare for target {target['name']}")
    unused += [f"{target['name']}: declares {module}, which none of its sources imports" for module in sorted(declared_targets - imported)]

if "--unused" in sys.argv[1:]:
    print("\n".join(unused) or "every declared target dependency is imported")
if undeclared:
    print("\n".join(undeclared), file=sys.stderr)
    print(f"{len(undeclared)} import(s) not declared: add the module (or its product) to that target's dependencies in Package.swift, or drop the import.", file=sys.stderr)
    sys.exit(1)
print(f"check-imports: every import of {len(package['targets'])} targets is declared in Package.swift")
PYTHON
