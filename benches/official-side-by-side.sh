#!/usr/bin/env bash
# Side-by-side of mcp-conformance with the official MCP conformance suite
# (npm @modelcontextprotocol/conformance, pinned below), issue 29 item 5.
# reports/official-suite.md is written from one run of this script.
#
# NOT run in CI: it needs the npm registry, takes a few minutes, and its
# outcome is a report for humans, not a gate.
#
# For each server below (one at a time, each over Streamable HTTP on
# 127.0.0.1) it starts the server, runs the official suite's server mode
# (default "active" suite, then --suite all), runs ours
# (`mcp-conformance run --url URL --format json`), and stops the server:
#   reference       our bundled reference server
#   reference-poll  the same with --http-poll
#   everything      npm server-everything (streamableHttp)
#   python-sdk      fixtures/python/sdk_server.py --http on the PyPI mcp SDK
# The last two come from target/third-party as installed by
#   .ci/install-targets.sh target/third-party
# (fastmcp was measured by hand for the report; it is not installed here.)
#
# Installs the pinned npm package into target/official-suite/ (never
# globally) and writes raw outputs to target/official-suite/results/<server>/:
#   official.txt, official-default/*/checks.json    default suite
#   official-all.txt, official-all/*/checks.json    --suite all
#   ours.json, ours.stderr                          mcp-conformance
#   seconds.tsv                                     each of the three runs' wall time
#   server.log                                      the server's output
#
# Node 20 note: 0.2.0-alpha.12 imports fs.globSync (Node >= 22). On an older
# node the script adds a tiny shim for its one use (`**/checks.json`) to the
# copy in target/official-suite; on Node >= 22 nothing is patched.
#
#   usage: benches/official-side-by-side.sh [SERVER...]   (default: all four)
#   env:   MCP_CONFORMANCE (default target/debug/mcp-conformance),
#          THIRD_PARTY (default target/third-party), BASE_PORT (default 18300; below the
#          usual ephemeral range so a client socket cannot hold the port)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

OFFICIAL_VERSION="0.2.0-alpha.12"
OUT="$ROOT/target/official-suite"
RESULTS="$OUT/results"
OURS="${MCP_CONFORMANCE:-$ROOT/target/debug/mcp-conformance}"
THIRD="${THIRD_PARTY:-$ROOT/target/third-party}"
BASE_PORT="${BASE_PORT:-18300}"
SUITE_TIMEOUT=300   # seconds per suite run, bounded

[[ -x "$OURS" ]] || { echo "official-side-by-side: $OURS not built (cargo build first)" >&2; exit 1; }
for tool in node npm timeout bc; do
  command -v "$tool" >/dev/null || { echo "official-side-by-side: $tool not on PATH" >&2; exit 1; }
done

# --- the pinned official suite, local to target/official-suite ---------------
PKG="$OUT/node_modules/@modelcontextprotocol/conformance"
if [[ "$(node -p "require('$PKG/package.json').version" 2>/dev/null || true)" != "$OFFICIAL_VERSION" ]]; then
  mkdir -p "$OUT"
  [[ -f "$OUT/package.json" ]] || printf '{\n  "name": "official-suite-side-by-side",\n  "private": true\n}\n' > "$OUT/package.json"
  (cd "$OUT" && npm install --no-audit --no-fund --save-exact --loglevel=error \
    "@modelcontextprotocol/conformance@$OFFICIAL_VERSION")
fi
CLI="$PKG/dist/index.js"
if ! node -e 'process.exit(typeof require("fs").globSync === "function" ? 0 : 1)'; then
  if ! grep -q 'globshim.js' "$CLI"; then
    cat > "$PKG/dist/globshim.js" <<'EOF'
// Added by benches/official-side-by-side.sh: Node < 22 lacks fs.globSync.
// Enough for the suite's one call, globSync("**/checks.json", {cwd}).
import { readdirSync } from "fs";
import { join } from "path";
export function globSync(pattern, opts = {}) {
  const cwd = opts.cwd || process.cwd();
  const base = pattern.replace(/^\*\*\//, "");
  const out = [];
  const walk = (rel) => {
    let ents;
    try { ents = readdirSync(join(cwd, rel), { withFileTypes: true }); } catch { return; }
    for (const e of ents) {
      const r = rel ? join(rel, e.name) : e.name;
      if (e.isDirectory()) walk(r); else if (e.name === base) out.push(r);
    }
  };
  walk("");
  return out;
}
EOF
    sed -i 's/import{existsSync as i,globSync as a,/import{globSync as a}from".\/globshim.js";import{existsSync as i,/' "$CLI"
    grep -q 'globshim.js' "$CLI" || { echo "official-side-by-side: could not shim fs.globSync; use Node >= 22" >&2; exit 1; }
  fi
fi

# --- server lifecycle ---------------------------------------------------------
SERVER_PID=""
stop_server() {
  if [[ -n "$SERVER_PID" ]]; then
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 20); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.25; done
    kill -9 "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
  fi
}
trap stop_server EXIT INT TERM

wait_port() {  # bounded: 30 s
  local port=$1
  for _ in $(seq 1 120); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || return 1
    sleep 0.25
  done
  return 1
}

run_one() {  # NAME PORT -- COMMAND...
  local name=$1 port=$2; shift 3
  local dir="$RESULTS/$name" url="http://127.0.0.1:$port/mcp"
  rm -rf "$dir"; mkdir -p "$dir"
  echo "official-side-by-side: $name on $url"
  "$@" > "$dir/server.log" 2>&1 &
  SERVER_PID=$!
  if ! wait_port "$port"; then
    echo "official-side-by-side: $name did not listen on $port (see $dir/server.log)" >&2
    stop_server; return 1
  fi
  # The official suite exits 1 when any check fails; that is data, not an error. Each
  # run's wall time goes to seconds.tsv (benches/side-by-side.sh reads it).
  local t0 t1 t2 t3
  t0=$(date +%s.%N)
  (cd "$dir" && timeout "$SUITE_TIMEOUT" node "$CLI" server --url "$url" -o "$dir/official-default" \
     > "$dir/official.txt" 2>&1; echo "exit=$?" >> "$dir/official.txt") || true
  t1=$(date +%s.%N)
  (cd "$dir" && timeout "$SUITE_TIMEOUT" node "$CLI" server --url "$url" --suite all -o "$dir/official-all" \
     > "$dir/official-all.txt" 2>&1; echo "exit=$?" >> "$dir/official-all.txt") || true
  t2=$(date +%s.%N)
  (timeout "$SUITE_TIMEOUT" "$OURS" run --url "$url" --format json --output "$dir/ours.json" \
     > "$dir/ours.stdout" 2> "$dir/ours.stderr"; echo "exit=$?" >> "$dir/ours.stderr") || true
  t3=$(date +%s.%N)
  printf 'official\t%s\nofficial-all\t%s\nours\t%s\n' \
    "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" "$(echo "$t3 - $t2" | bc)" > "$dir/seconds.tsv"
  stop_server
  echo "  official: $(grep -m1 '^Total:' "$dir/official.txt" || echo '(no summary)')"
  echo "  ours:     $(node -p "JSON.stringify(require('$dir/ours.json').summary)" 2>/dev/null || echo '(no report)')"
}

EVERYTHING_JS="$THIRD/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
PYTHON="$THIRD/venv/bin/python"

servers=("$@")
[[ ${#servers[@]} -gt 0 ]] || servers=(reference reference-poll everything python-sdk)
mkdir -p "$RESULTS"
port=$BASE_PORT
for s in "${servers[@]}"; do
  port=$((port + 1))
  case "$s" in
    reference)      run_one "$s" "$port" -- "$OURS" reference-server --http "$port" ;;
    reference-poll) run_one "$s" "$port" -- "$OURS" reference-server --http "$port" --http-poll ;;
    everything)
      [[ -f "$EVERYTHING_JS" ]] || { echo "official-side-by-side: run .ci/install-targets.sh $THIRD first" >&2; exit 1; }
      run_one "$s" "$port" -- env PORT="$port" node "$EVERYTHING_JS" streamableHttp ;;
    python-sdk)
      [[ -x "$PYTHON" ]] || { echo "official-side-by-side: run .ci/install-targets.sh $THIRD first" >&2; exit 1; }
      run_one "$s" "$port" -- "$PYTHON" fixtures/python/sdk_server.py --http "$port" ;;
    *) echo "official-side-by-side: unknown server $s (reference, reference-poll, everything, python-sdk)" >&2; exit 2 ;;
  esac
done
echo "official-side-by-side: raw outputs in $RESULTS"
