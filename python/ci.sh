#!/usr/bin/env bash
# The Python package's CI: a venv, `pip install ./python` (maturin builds the extension, a member
# of the workspace, into the workspace's target directory with the release profile, so it reuses
# the verikit crates that `cargo test --workspace --release` compiled: only pyo3, numpy and the
# extension itself are compiled here, see decision 1100), then pytest on python/tests. The
# CLI-equality tests use the release `verikit` binary that the cargo tests built.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv="$root/target/py-venv"
log="$root/target/py-build.log"
t0=$(date +%s)
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check maturin pytest numpy
[ -x "$root/target/release/verikit" ] || cargo build --release -q -p verikit
PATH="$venv/bin:$PATH" CARGO_TARGET_DIR="$root/target" "$venv/bin/pip" install -v --disable-pip-version-check \
    --no-build-isolation --force-reinstall --no-deps ./python >"$log" 2>&1 || { cat "$log"; exit 1; }
t1=$(date +%s)
# What maturin had to compile (after the cargo tests: pyo3, numpy and verikit-py only).
compiled=$(sed -n 's/^.*Compiling \([^ ]*\) .*$/\1/p' "$log" | sort -u | tr '\n' ' ')
echo "python/ci.sh: venv and build took $((t1 - t0)) s; compiled: ${compiled:-nothing}"
# Run from python/tests so that `import verikit` finds the installed package, not the sources.
cd "$root/python/tests"
"$venv/bin/python" -m pytest -q -p no:cacheprovider .
echo "python/ci.sh: total $(($(date +%s) - t0)) s"
