#!/usr/bin/env bash
# Time for the live_server fuzz target to find a rare-input crash of the reference server
# (the `crash-on-astral` fault by default), from an empty corpus, over several libFuzzer
# seeds. Needs cargo-fuzz (see fuzz/README.md). Usage:
#   benches/live-find-time.sh [FAULT] [RUNS] [MAX_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
fault=${1:-crash-on-astral}
runs=${2:-5}
max=${3:-120}
cargo build --release -p mcp-conformance -q
(cd fuzz && cargo fuzz build live_server --sanitizer none -O 2>/dev/null)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export MCP_FUZZ_SERVER="$PWD/target/release/mcp-conformance reference-server --fault $fault"
export MCP_FUZZ_CASES="$work/cases"
for seed in $(seq 1 "$runs"); do
  mkdir -p "$work/corpus-$seed"
  start=$(date +%s.%N)
  (cd fuzz && ./target/x86_64-unknown-linux-gnu/release/live_server -seed="$seed" \
      -max_total_time="$max" -artifact_prefix="$work/crash-$seed-" "$work/corpus-$seed" \
      >"$work/log-$seed" 2>&1) || true
  end=$(date +%s.%N)
  execs=$(grep -oE '^#[0-9]+' "$work/log-$seed" | tail -1 | tr -d '#')
  if grep -q "found a violation" "$work/log-$seed"; then
    check=$(grep -m1 -oE '^FAIL [a-z-]+ \([A-Za-z]+\)' "$work/log-$seed" || true)
    printf 'seed %s: found in %.2f s (about %s execs): %s\n' "$seed" "$(echo "$end - $start" | bc)" "${execs:-?}" "$check"
  else
    printf 'seed %s: not found in %s s\n' "$seed" "$max"
  fi
done
