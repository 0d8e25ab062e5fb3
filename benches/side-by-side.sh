#!/usr/bin/env bash
# The real servers of reports/ side by side in one sitting (issue 48, Want 5): what a
# default run of ours costs on each, what the official conformance suite costs on the
# Streamable HTTP ones, and what a bare client sending the same lines costs on the stdio
# ones; one Markdown table on stdout (and in target/side-by-side/table.md) for
# reports/bench.md, with the load before and after.
#
#   benches/side-by-side.sh
#
# Builds the release binary; installs the third-party servers (.ci/install-targets.sh) and,
# the first time, the pinned official suite (benches/official-side-by-side.sh, npm registry
# needed). NOT run in CI: a report for humans, a few minutes long. The HTTP rows bind the
# fixed loopback ports of reports/servers.sh and benches/official-side-by-side.sh.
#
# Ours: each row of reports/servers.sh (the reviewed runs, server-everything's 10 s tool
# denied), plus server-everything over stdio and HTTP with that tool, and with its gzip
# tool confined to a domain no generated URL names (GZIP_ALLOWED_DOMAINS: otherwise the
# tool resolves generated host names, and this machine's resolver can cost 5 s a query).
# Official: benches/official-side-by-side.sh on everything (all its tools) and python-sdk
# (its seconds.tsv). Bare client: benches/suite-speed.sh's floor, one round, on the stdio
# targets it knows: every process the suite started, one after another, sent the lines the
# suite sent (so a server that starts slowly costs more there than in our parallel run).
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=target/release/mcp-conformance
OUT=target/side-by-side
mkdir -p "$OUT"
load() { cut -d' ' -f1-3 /proc/loadavg; }

cargo build --release -p mcp-conformance -q || exit 2
bash .ci/install-targets.sh target/third-party >/dev/null ||
  { echo "side-by-side: installing the third-party servers failed" >&2; exit 2; }
# shellcheck source=reports/servers.sh
source reports/servers.sh
CONFINED="--env GZIP_ALLOWED_DOMAINS=example.invalid"
EXTRA=(
  "server-everything, slow tool too|-- node $EVERYTHING stdio"
  "server-everything, slow tool too, gzip confined|$CONFINED -- node $EVERYTHING stdio"
  "server-everything-http, slow tool too|--url http://127.0.0.1:18801/mcp --env PORT=18801 -- node $EVERYTHING streamableHttp"
  "server-everything-http, slow tool too, gzip confined|--url http://127.0.0.1:18801/mcp --env PORT=18801 $CONFINED -- node $EVERYTHING streamableHttp"
)
before=$(load)

# ours NAME ARGS: one default run, "seconds<TAB>pass / fail / warn / skip".
ours() {
  local file
  file="$OUT/$(printf '%s' "$1" | tr -c 'a-z0-9-' '_').json"
  local t0 t1
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$BIN" run --format json --output "$file" $2 >/dev/null 2>&1
  t1=$(date +%s.%N)
  printf '%.1f\t%s\n' "$(echo "$t1 - $t0" | bc)" "$(python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))['summary']
print(s['pass'], s['fail'], s['warn'], s['skip'], sep=' / ')" "$file" 2>/dev/null || echo 'no report')"
}

declare -A OURS_S OURS_V
NAMES=()
for row in "${ROWS[@]}" "${EXTRA[@]}"; do
  name=${row%%|*}
  IFS=$'\t' read -r secs verdicts < <(ours "$name" "${row#*|}")
  OURS_S[$name]=$secs
  OURS_V[$name]=$verdicts
  NAMES+=("$name")
  echo "side-by-side: $name: $secs s ($verdicts)" >&2
done

# The official suite on the two Streamable HTTP servers it shares with reports/.
MCP_CONFORMANCE=$PWD/$BIN benches/official-side-by-side.sh everything python-sdk >&2 ||
  echo "side-by-side: the official suite did not run (see above)" >&2
official() {  # SERVER KEY: seconds, or "-"
  local file="target/official-suite/results/$1/seconds.tsv"
  [ -f "$file" ] || { printf -- '-'; return; }
  awk -v k="$2" '$1 == k { printf "%.1f", $2; found = 1 } END { if (!found) printf "-" }' "$file"
}
declare -A OFFICIAL=(
  ["server-everything-http, slow tool too"]="$(official everything official) s / $(official everything official-all) s"
  [python-sdk-http]="$(official python-sdk official) s / $(official python-sdk official-all) s"
)

# The bare client's floor on the stdio targets suite_speed knows, one round each.
benches/suite-speed.sh reference rmcp python-sdk everything everything-confined --rounds 1 \
  > "$OUT/suite-speed.txt" 2>&1 ||
  echo "side-by-side: suite-speed did not finish (see $OUT/suite-speed.txt)" >&2
floor() {  # LABEL: the floor wall of suite_speed's table row with that target label, or "-"
  awk -F'|' -v l="$1" '{ x = $2; gsub(/^ +| +$/, "", x) }
    x == l { y = $4; gsub(/[ s]/, "", y); printf "%.1f s\n", y; found = 1; exit }
    END { if (!found) print "-" }' "$OUT/suite-speed.txt"
}
declare -A FLOOR=(
  [reference-server]="$(floor 'reference server')"
  [rmcp-server]="$(floor 'rmcp 3.9 server')"
  [python-sdk]="$(floor 'Python SDK (mcp 2.3)')"
  ["server-everything, slow tool too"]="$(floor 'server-everything')"
  ["server-everything, slow tool too, gzip confined"]="$(floor 'server-everything, GZIP_ALLOWED_DOMAINS=example.invalid')"
)

{
  echo "Load before: $before; after: $(load). One run each, release build, $(nproc) cores."
  echo
  echo "| server | ours | ours: pass / fail / warn / skip | official, default / --suite all | bare client: the same lines, one process after another |"
  echo "|---|---|---|---|---|"
  for name in "${NAMES[@]}"; do
    echo "| $name | ${OURS_S[$name]} s | ${OURS_V[$name]} | ${OFFICIAL[$name]:--} | ${FLOOR[$name]:--} |"
  done
} | tee "$OUT/table.md"
