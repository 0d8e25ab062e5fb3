#!/usr/bin/env bash
# How fast `fuzz --coverage` finds the planted crash of a Python SDK server
# (fixtures/python/planted_server.py) and of a TypeScript SDK server
# (fixtures/node/planted-server.mjs): code == 0x5EEDC0DE, a tag starting "MCP!", exactly 7
# items. RUNS runs per mode with seeds 1..RUNS, each from an empty corpus, BUDGET seconds:
#   py-cov    fuzz --coverage on the Python server (the venv's Python: sys.settrace on 3.11)
#   py312-cov the same on Python 3.12+ (sys.monitoring), when PY312 names such a python
#             with the mcp SDK installed (a venv)
#   py-live   fuzz --live on the Python server (the same live target, blind)
#   py-gen    fuzz (the property generators, blind)
#   node-cov, node-live, node-gen   the same three on the Node server
#   overhead  what the agent costs: the same 2,000 inputs with and without it, on the Python
#             SDK server (3.11 and, with PY312, 3.12) and on server-everything
#             (cargo bench --bench coverage_overhead)
# PY312 defaults to target/third-party/venv312, made here (mcp 2.3.0) from a python3.12 or
# later found on PATH or in pyenv, when there is one.
# Needs .ci/install-targets.sh target/third-party first. Prints one line per run and, per
# mode, how many runs found it, the median time to find (over the budget for a miss) and
# the cases per second.
#   usage: benches/coverage-planted.sh [RUNS] [BUDGET_SECONDS] [MODE...]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
budget=${2:-300}
shift 2 || true
modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(py-cov py-live py-gen node-cov node-live node-gen)
root=$PWD
tp=$root/target/third-party
cargo build --release -q -p mcp-conformance
bin=$root/target/release/mcp-conformance
cp fixtures/node/planted-server.mjs "$tp/npm/planted-server.mjs"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A Python 3.12+ venv with the SDK, for the sys.monitoring modes.
if [ -z "${PY312:-}" ]; then
  venv312=$tp/venv312
  if [ ! -x "$venv312/bin/python" ]; then
    for py in python3.14 python3.13 python3.12 $(ls -d "$(pyenv root 2>/dev/null)"/versions/3.1[2-9]*/bin/python 2>/dev/null); do
      if "$py" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
        "$py" -m venv "$venv312" && "$venv312/bin/python" -m pip install --quiet mcp==2.3.0
        break
      fi
    done
  fi
  [ -x "$venv312/bin/python" ] && export PY312=$venv312/bin/python
fi

overhead() {
  local cases=2000
  cargo bench -q -p mcp-conformance --bench coverage_overhead -- $cases "$tp/venv/bin/python" "$root/fixtures/python/sdk_server.py"
  if [ -n "${PY312:-}" ]; then
    cargo bench -q -p mcp-conformance --bench coverage_overhead -- $cases "$PY312" "$root/fixtures/python/sdk_server.py"
  fi
  cargo bench -q -p mcp-conformance --bench coverage_overhead -- $cases node "$tp/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js" stdio
}

server_of() {
  case $1 in
    py312-*) echo "${PY312:?set PY312 to a Python 3.12+ with mcp installed} $root/fixtures/python/planted_server.py" ;;
    py-*) echo "$tp/venv/bin/python $root/fixtures/python/planted_server.py" ;;
    node-*) echo "node $tp/npm/planted-server.mjs" ;;
  esac
}

run_mode() {
  local mode=$1 seed=$2 log=$3
  local server
  read -r -a server <<<"$(server_of "$mode")"
  local common=(--seed "$seed" --time "$budget" --revision 2025-11-25 --cases-dir "$work/cases-$mode-$seed")
  case $mode in
    *-cov) "$bin" fuzz --coverage --corpus "$work/corpus-$mode-$seed" "${common[@]}" -- "${server[@]}" ;;
    *-live) "$bin" fuzz --live "${common[@]}" -- "${server[@]}" ;;
    *-gen) "$bin" fuzz "${common[@]}" -- "${server[@]}" ;;
  esac >"$log" 2>&1 || true
}

for mode in "${modes[@]}"; do
  if [ "$mode" = overhead ]; then
    overhead
    continue
  fi
  times=()
  found=0
  for seed in $(seq 1 "$runs"); do
    log=$work/$mode-$seed.log
    start=$(date +%s.%N)
    run_mode "$mode" "$seed" "$log"
    end=$(date +%s.%N)
    secs=$(echo "$end - $start" | bc)
    # Cases run, and cases per second over the whole run.
    ran=$(grep -oE '^(ran|fuzzed) [0-9,]+ (rounds?, )?' "$log" | head -1 || true)
    cases=$(grep -oE '^ran [0-9,]+ cases?|[0-9,]+ cases?:' "$log" | head -1 | grep -oE '[0-9,]+' | tr -d , || echo 0)
    rate=$(echo "${cases:-0} / $secs" | bc)
    if grep -q 'planted bug: the process exits' "$log"; then
      found=$((found + 1))
      # The coverage loop says when, after how many cases; the blind modes run to their
      # budget and say only that they found it (the run's length is an upper bound).
      when=$(grep -oE 'found after [0-9.]+ s and [0-9,]+ cases?' "$log" | head -1 || true)
      if [ -n "$when" ]; then
        t=$(echo "$when" | grep -oE '[0-9.]+ s' | grep -oE '[0-9.]+')
        n=$(echo "$when" | grep -oE '[0-9,]+ cases?' | grep -oE '[0-9,]+' | tr -d ,)
        until="found after $t s and $n cases ($(echo "$n / $t" | bc) cases/s until then)"
      else
        t=$secs
        until="found within $secs s"
      fi
    else
      t=$budget+
      until="not found in $budget s"
    fi
    edges=$(grep -oE 'reached [0-9,]+ edges?' "$log" | tail -1 || true)
    stage=$(grep -oE 'planted: code( and tag)? met' "$log" | tail -1 || true)
    echo "$mode seed $seed: $until; $rate cases/s over the run${edges:+, $edges}${stage:+, deepest stage seen: ${stage#planted: }}"
    times+=("${t%+}")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
  echo "== $mode: found in $found of $runs, median $median s (a miss counts as $budget s)"
done
