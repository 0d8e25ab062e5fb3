#!/usr/bin/env bash
# How fast each fuzzing mode finds the planted bug of fixtures/rmcp-planted (a panic behind
# `code == 0x5EEDC0DE`, a tag starting "MCP!" and exactly 7 items), RUNS runs per mode with
# libFuzzer seeds 1..RUNS, each from an empty scratch corpus and with the same time budget:
#   inproc      the in-process cargo-fuzz target (server linked in, its code instrumented)
#   inproc-vp   the same with -use_value_profile=1 and fuzz/mcp.dict
#   inproc-fork the same as inproc with -fork=2 (two child processes; -ignore_crashes=0)
#   inproc-dict the same as inproc with the dictionary `mcp-conformance fuzz-dict` makes of
#               the fixture's source (its literals, as the fuzz input carries them)
#   inproc-dict-vp  inproc-dict with -use_value_profile=1 (value profile rewards each
#               comparison's operands coming closer: `items.len() == 7` too)
#   live        the live_server target (the server spawned over stdio, MCP_FUZZ_SERVER)
#   live-dict   the same with the same dictionary
#   cli         `mcp-conformance fuzz` (the property generators, no coverage guidance)
# Both cargo-fuzz targets pass over rmcp's own rpc-error-id finding
# (MCP_FUZZ_IGNORE=rpc-error-id) and speak 2025-11-25 (reports/planted-bug.md says
# why). Needs cargo-fuzz. Prints one line per run and, per mode, the median time to find.
#   usage: benches/planted-bug.sh [RUNS] [BUDGET_SECONDS] [MODE...]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
budget=${2:-120}
shift 2 || true
modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(inproc live cli)
root=$PWD
fixture=$root/fixtures/rmcp-planted
bins=$fixture/fuzz/target/x86_64-unknown-linux-gnu/release
cargo build --release -q -p mcp-conformance
(cd "$fixture" && cargo build --release -q)
(cd "$fixture/fuzz" && cargo fuzz build --sanitizer none -O 2>/dev/null)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$root/target/release/mcp-conformance" fuzz-dict "$fixture/src" >"$work/server.dict"
export MCP_FUZZ_REVISION=2025-11-25
export MCP_FUZZ_IGNORE=rpc-error-id
export MCP_FUZZ_SERVER="$fixture/target/release/mcp-rmcp-planted"

# One run: the command line of MODE for SEED, logged to $log.
run_mode() {
  local mode=$1 seed=$2 log=$3 corpus=$work/corpus-$mode-$seed
  mkdir -p "$corpus"
  local lf=(-seed="$seed" -max_total_time="$budget" -artifact_prefix="$work/crash-$mode-$seed-")
  export MCP_FUZZ_CASES=$work/cases-$mode-$seed
  case $mode in
    inproc) "$bins/in_process" "${lf[@]}" "$corpus" ;;
    inproc-vp) "$bins/in_process" "${lf[@]}" -use_value_profile=1 -dict="$root/fuzz/mcp.dict" "$corpus" ;;
    inproc-fork) "$bins/in_process" "${lf[@]}" -fork=2 "$corpus" ;;
    inproc-dict) "$bins/in_process" "${lf[@]}" -dict="$work/server.dict" "$corpus" ;;
    inproc-dict-vp) "$bins/in_process" "${lf[@]}" -use_value_profile=1 -dict="$work/server.dict" "$corpus" ;;
    live) "$bins/live_server" "${lf[@]}" "$corpus" ;;
    live-dict) "$bins/live_server" "${lf[@]}" -dict="$work/server.dict" "$corpus" ;;
    cli) "$root/target/release/mcp-conformance" fuzz --seed "$seed" --time "$budget" \
           --revision 2025-11-25 --cases-dir "$MCP_FUZZ_CASES" -- "$MCP_FUZZ_SERVER" ;;
  esac >"$log" 2>&1 || true
}

# How deep a run got: the stages the fixture reports on stderr (seen in-process; a spawned
# server's stderr is not in the log).
stage() {
  if grep -qx 'planted: code and tag met' "$1"; then echo 'code and tag met'
  elif grep -qx 'planted: code met' "$1"; then echo 'code met'
  else echo 'no stage seen'
  fi
}

# found or not, and executions per second, from a run's log.
summarise() {
  local mode=$1 log=$2 secs=$3 found=no rate
  if [ "$mode" = cli ]; then
    grep -q ' 0 distinct failure' "$log" || found=yes
    local cases
    cases=$(grep -oE '[0-9]+ cases?\b' "$log" | grep -oE '^[0-9]+' | head -1 || echo 0)
    rate=$(echo "$cases / $secs" | bc)
  else
    # Only the planted panic counts: another finding also ends a run (a deadly signal),
    # and is reported as what stopped it.
    grep -q 'planted bug' "$log" && found=yes
    rate=$(grep -oE 'exec/s: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo '?')
  fi
  echo "$found $rate"
}

for mode in "${modes[@]}"; do
  times=()
  for seed in $(seq 1 "$runs"); do
    log=$work/log-$mode-$seed
    start=$(date +%s.%N)
    run_mode "$mode" "$seed" "$log"
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    read -r found rate < <(summarise "$mode" "$log" "$secs")
    cp "$log" "${PLANTED_LOGS:-$work}/$mode-$seed.log" 2>/dev/null || true
    if [ "$found" = yes ]; then
      times+=("$secs")
      printf '%s seed %s: found in %.1f s, %s exec/s\n' "$mode" "$seed" "$secs" "$rate"
    else
      other=$(grep -m1 -oE '^FAIL [a-z-]+' "$log" | cut -c6- || true)
      if [ -n "$other" ]; then
        printf '%s seed %s: not found: stopped after %.1f s by another finding, %s (%s), %s exec/s\n' \
          "$mode" "$seed" "$secs" "$other" "$(stage "$log")" "$rate"
      else
        printf '%s seed %s: not found in %s s (%s), %s exec/s\n' "$mode" "$seed" "$budget" \
          "$(stage "$log")" "$rate"
      fi
    fi
  done
  # The median of all runs, a run that did not find counting as longer than the budget.
  found=${#times[@]}
  if [ $((found * 2)) -gt "$runs" ]; then
    median=$(printf '%s\n' "${times[@]}" | sort -g | awk -v n="$runs" '{a[NR]=$1} END {print a[int((n+1)/2)]}')
    printf '%s: found in %s of %s runs; median time to find %.1f s\n' "$mode" "$found" "$runs" "$median"
  else
    printf '%s: found in %s of %s runs of %s s; median time to find over %s s\n' \
      "$mode" "$found" "$runs" "$budget" "$budget"
  fi
done
