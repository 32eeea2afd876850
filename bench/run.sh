#!/usr/bin/env bash
# Usage: bash bench/run.sh <engine> [args passed to the engine script]
# Builds verikit in release mode, then runs bench/engines/<engine>.py with the peers' venv; the script
# writes bench/results/<engine>.md. Run bench/peers.sh once first.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
engine=${1:?usage: bench/run.sh <engine> [args]}
shift
script="$here/engines/$engine.py"
[ -f "$script" ] || { echo "no benchmark script $script; have: $(ls "$here/engines" | sed 's/\.py$//' | tr '\n' ' ')" >&2; exit 2; }
[ -x "$here/.venv/bin/python" ] || { echo "peer venv missing: run bash bench/peers.sh first" >&2; exit 2; }
(cd "$here/.." && cargo build --release -q -p verikit)
PYTHONPATH="$here" exec "$here/.venv/bin/python" "$script" "$@"
