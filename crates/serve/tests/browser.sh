#!/usr/bin/env bash
# End-to-end test of the web playground in a real headless browser: starts `verikit serve` on a
# free loopback port, loads the LTL page with a formula in the URL (`/ltl?f=…` submits at once),
# lets Debian's chromium run the page's script, dumps the DOM and looks for the automaton's SVG
# (its states and the formula's title) that the page inserted; then a bad formula (located error)
# and one new option of the NFA, PRISM and BN pages.
# Usage: bash crates/serve/tests/browser.sh [path/to/verikit]   (default target/release/verikit)
# Installs chromium with apt-get when it is missing and we are root.
set -euo pipefail
cd "$(dirname "$0")/../../.."
start=$(date +%s)
bin=${1:-target/release/verikit}
if [ ! -x "$bin" ]; then
    echo "browser test: $bin not built" >&2
    exit 1
fi
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "browser test: installing chromium" >&2
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
        browser=$(command -v chromium)
    else
        echo "browser test: chromium is missing and cannot be installed (not root)" >&2
        exit 1
    fi
fi
installed=$(date +%s)
tmp=$(mktemp -d)
pid=
cleanup() {
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
"$bin" --timeout 20 serve --addr 127.0.0.1:0 2>"$tmp/serve.log" &
pid=$!
addr=
for _ in $(seq 1 200); do
    addr=$(grep -o 'http://[0-9.]*:[0-9]*' "$tmp/serve.log" | head -n 1 || true)
    [ -n "$addr" ] && break
    sleep 0.1
done
if [ -z "$addr" ]; then
    echo "browser test: the server did not start:" >&2
    cat "$tmp/serve.log" >&2
    exit 1
fi
# Loads one page URL in headless chromium (which runs the page's script) and dumps its DOM.
dump() {
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --disable-dev-shm-usage --user-data-dir="$tmp/profile" --virtual-time-budget=30000 \
        --dump-dom "$1" >"$tmp/dom.html" 2>"$tmp/chromium.log" || {
        echo "browser test: chromium failed on $1:" >&2
        tail -n 20 "$tmp/chromium.log" >&2
        exit 1
    }
}
fail() {
    echo "browser test: $1" >&2
    head -c 4000 "$tmp/dom.html" >&2
    echo "browser: $passed passed, 1 failed"
    exit 1
}
passed=0
# G(a -> F b), URL-encoded.
dump "$addr/ltl?f=G(a%20-%3E%20F%20b)"
grep -q '<svg[^>]*class="verikit-graph"' "$tmp/dom.html" || fail "no automaton SVG in the page"
nodes=$(grep -o '<g class="node"' "$tmp/dom.html" | wc -l)
[ "$nodes" -ge 1 ] || fail "the SVG has no states"
grep -q 'G(a -&gt; F b)' "$tmp/dom.html" || fail "the formula is not the SVG's title"
grep -q 'HOA: v1' "$tmp/dom.html" || fail "no HOA text in the page"
passed=$((passed + 1))
# A formula with a syntax error: the located error (line:column and caret) in the page.
dump "$addr/ltl?f=G(a%20%26%26"
grep -q 'bad input' "$tmp/dom.html" || fail "no 'bad input' verdict for a bad formula"
grep -q '&lt;formula&gt;:1:' "$tmp/dom.html" || fail "the error is not located"
passed=$((passed + 1))
# The NFA page's universality question on its example A (words ending in ab): not universal.
dump "$addr/nfa?question=univ&run=1"
grep -q '<[^>]*id="verdict"[^>]*>false<' "$tmp/dom.html" || fail "NFA universality: no 'false' verdict"
passed=$((passed + 1))
# The PRISM page with one property selected by number: P(heads) = 0.5.
dump "$addr/prism?property=1&run=1"
grep -q '0\.5' "$tmp/dom.html" || fail "PRISM property 1: no value 0.5"
passed=$((passed + 1))
# The BN page asking for fixed points of its example network.
dump "$addr/bn?question=fixed-points&run=1"
grep -Eq '[0-9]+ fixed points \(8 variables\)' "$tmp/dom.html" || fail "BN fixed points: no count"
passed=$((passed + 1))
kill "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
pid=
end=$(date +%s)
echo "browser test: automaton with $nodes states drawn in the page, a located error, NFA universality, a selected PRISM property and BN fixed points ($((installed - start)) s to find or install chromium, $((end - installed)) s for the tests)"
echo "browser: $passed passed, 0 failed"
