#!/usr/bin/env bash
# End-to-end test of the web playground in a real headless browser: starts `verikit serve` on a
# free loopback port, loads the LTL page with a formula in the URL (`/ltl?f=…` submits at once),
# lets Debian's chromium run the page's script, dumps the DOM and looks for the automaton's SVG
# (its states and the formula's title) that the page inserted.
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
# G(a -> F b), URL-encoded.
url="$addr/ltl?f=G(a%20-%3E%20F%20b)"
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --disable-dev-shm-usage --user-data-dir="$tmp/profile" --virtual-time-budget=30000 \
    --dump-dom "$url" >"$tmp/dom.html" 2>"$tmp/chromium.log" || {
    echo "browser test: chromium failed:" >&2
    tail -n 20 "$tmp/chromium.log" >&2
    exit 1
}
fail() {
    echo "browser test: $1" >&2
    head -c 4000 "$tmp/dom.html" >&2
    echo "browser: 0 passed, 1 failed"
    exit 1
}
grep -q '<svg[^>]*class="verikit-graph"' "$tmp/dom.html" || fail "no automaton SVG in the page"
nodes=$(grep -o '<g class="node"' "$tmp/dom.html" | wc -l)
[ "$nodes" -ge 1 ] || fail "the SVG has no states"
grep -q 'G(a -&gt; F b)' "$tmp/dom.html" || fail "the formula is not the SVG's title"
grep -q 'HOA: v1' "$tmp/dom.html" || fail "no HOA text in the page"
kill "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
pid=
end=$(date +%s)
echo "browser test: automaton with $nodes states drawn in the page ($((installed - start)) s to find or install chromium, $((end - installed)) s for the test)"
echo "browser: 1 passed, 0 failed"
