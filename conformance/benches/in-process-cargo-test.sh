#!/usr/bin/env bash
# `cargo test` of the whole suite against the reference server, linked in-process
# (tests/mcp_in_process.rs) next to spawned as a binary (tests/mcp.rs), as a server author
# runs it: the test binaries' own wall time (built first, so compiling is not counted),
# ROUNDS rounds alternating the two, the median of each (reports/in-process.md).
#   usage: conformance/benches/in-process-cargo-test.sh [ROUNDS]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS="${1:-5}"
binary() {
  cargo test -p mcp-conformance --test "$1" --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == sys.argv[1]:
        print(m["executable"])' "$1" | tail -1
}
spawned=$(binary mcp)
linked=$(binary mcp_in_process)
time_of() {
  local start end
  start=$(date +%s.%N)
  "$1" -q >/dev/null 2>&1
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.2f}')"
}
s=(); l=()
for _ in $(seq "$ROUNDS"); do
  s+=("$(time_of "$spawned")")
  l+=("$(time_of "$linked")")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| cargo test --test ... | median | rounds |"
echo "|---|---|---|"
echo "| mcp (spawned binary) | $(median "${s[@]}") s | ${s[*]} |"
echo "| mcp_in_process (linked) | $(median "${l[@]}") s | ${l[*]} |"
