#!/usr/bin/env bash
# Issue 11's live-fuzz leak check: ten minutes of `mcp-conformance fuzz --live` against a
# server that forks a grandchild (half of them in a session of their own) for every
# request, then a count of what is left. Usage: benches/live-leak/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-600}
cargo build --release -p mcp-conformance >/dev/null
out=$(mktemp -d)
/usr/bin/time -v target/release/mcp-conformance fuzz --live --time "$secs" --timeout 5 \
  -- python3 benches/live-leak/forker.py >"$out/stdout" 2>"$out/stderr" || true
sleep 2
tail -1 "$out/stdout"
grep -E "Elapsed|Maximum resident" "$out/stderr"
left=$(ps -eo args | grep -c "[f]orker.py" || true)
echo "forker processes left running: $left"
[ "$left" -eq 0 ]
