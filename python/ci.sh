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
# Feature drift: a verikit crate recompiled here means the extension asks for other features of
# it (or of a shared dependency) than the workspace build did (decision 1100). It costs CI time,
# not correctness, so it is reported, not fatal.
for c in $compiled; do
    case "$c" in
    verikit-py) ;;
    verikit-*) echo "python/ci.sh: feature drift: maturin recompiled $c; align the python crate's features with the workspace's (decision 1100)" >&2 ;;
    esac
done
# The README's command as a user on a fresh machine types it: a new venv, build isolation (pip
# fetches maturin itself), no flags; then the package imports and answers.
fresh="$root/target/py-fresh"
rm -rf "$fresh"
python3 -m venv "$fresh"
CARGO_TARGET_DIR="$root/target" "$fresh/bin/pip" install -q --disable-pip-version-check ./python >"$root/target/py-fresh.log" 2>&1 ||
    { cat "$root/target/py-fresh.log"; exit 1; }
(cd /tmp && "$fresh/bin/python" -c 'import verikit; r = verikit.ltl.translate("G(a -> F b)"); assert len(r.states) >= 1, r; print("python/ci.sh: fresh `pip install ./python` works: verikit", verikit.__version__)')
t1=$(date +%s)
# Run from python/tests so that `import verikit` finds the installed package, not the sources.
cd "$root/python/tests"
"$venv/bin/python" -m pytest -q -p no:cacheprovider .
echo "python/ci.sh: total $(($(date +%s) - t0)) s"
