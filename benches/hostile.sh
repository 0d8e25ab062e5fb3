#!/usr/bin/env bash
# Regenerates the table of reports/hostile.md: runs the release binary against each
# hostile server of fixtures/python/hostile_server.py at the issue's sizes, and prints one
# Markdown row per behaviour: wall time, peak RSS (from /usr/bin/time -v: the largest
# process waited for, which may be the server), the harness's own peak (its VmHWM, sampled
# every half second while it runs), processes left
# running afterwards (found by a marker in their environment or in HOSTILE_PIDFILE, then
# killed), exit code and the failing/warning checks of the JSON report.
#
#   cargo build --release -p mcp-conformance
#   benches/hostile.sh [ROW...]            # all rows when none is named
#
# Environment: TIMEOUT (the harness's --timeout, default 3), WALL_CAP (seconds before the
# run is killed, default 600), RSS_CAP_MB (a watchdog kills a run whose RSS passes it, so
# a measurement cannot take the machine down; default 4096). Extra harness flags go in
# HARNESS_ARGS. Needs python3, /usr/bin/time, jq.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/mcp-conformance}
SERVER=fixtures/python/hostile_server.py
TIMEOUT=${TIMEOUT:-3}
WALL_CAP=${WALL_CAP:-600}
RSS_CAP_MB=${RSS_CAP_MB:-4096}
HARNESS_ARGS=${HARNESS_ARGS:-}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# name | server arguments (the issue's table first, then the extra rows)
ROWS=(
  "group-grandchild|group-grandchild"
  "setsid-grandchild|setsid-grandchild"
  "fork-grandchild|fork-grandchild"
  "request-loop|request-loop"
  "notify-flood-8k|notify-flood 8192"
  "notify-flood-small|notify-flood 100"
  "notify-objects-800|notify-objects 800"
  "deep|deep 100000"
  "wide-notify-7500000|wide-notify 7500000"
  "close-stdout|close-stdout"
  "stall-tools-list|stall-tools-list"
  "pages-5000|pages 5000"
  "long-line-100mb|long-line 100000000"
  "ignore-sigterm|ignore-sigterm"
  "never-reads-stdin|never-reads-stdin"
  "partial-lines|partial-lines"
  "answer-twice|answer-twice"
  "stderr-flood|stderr-flood"
  "daemon-refork|daemon-refork"
  "scrubbed-daemon|scrubbed-daemon"
  "progress-flood|progress-flood"
  "big-enum-100000|big-enum 100000"
  "min-length-1000000|min-length 1000000"
  "many-tools-100000|many-tools 100000"
  "heavy-schemas|heavy-schemas"
)

# Every live process whose environment holds HOSTILE_BENCH=$1 (one grep over /proc).
marked() {
  grep -lzax "HOSTILE_BENCH=$1" /proc/[0-9]*/environ 2>/dev/null \
    | sed -e 's|^/proc/||' -e 's|/environ$||'
}

echo "| row | wall | peak RSS | harness peak | left running | exit | failing / warning checks |"
echo "|---|---|---|---|---|---|---|"
for row in "${ROWS[@]}"; do
  name=${row%%|*}
  args=${row#*|}
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then
    continue
  fi
  tag="$name-$$"
  # shellcheck disable=SC2086
  HOSTILE_BENCH=$tag HOSTILE_PIDFILE="$OUT/$name.pids" /usr/bin/time -v -o "$OUT/$name.time" \
    timeout --foreground -s KILL "$WALL_CAP" "$BIN" run --timeout "$TIMEOUT" $HARNESS_ARGS \
    --format json --output "$OUT/$name.json" --cases-dir "$OUT/cases" -- python3 "$SERVER" $args \
    >"$OUT/$name.stdout" 2>"$OUT/$name.stderr" &
  runner=$!
  capped=""
  hwm=0
  while kill -0 "$runner" 2>/dev/null; do
    for pid in $(pgrep -f "^$BIN run" || true); do
      if tr '\0' '\n' 2>/dev/null <"/proc/$pid/environ" | grep -qx "HOSTILE_BENCH=$tag"; then
        # The harness's own high-water mark (the server's memory is not in it), sampled.
        seen=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
        [ "${seen:-0}" -gt "$hwm" ] && hwm=$seen
        rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
        if [ "${rss:-0}" -gt $((RSS_CAP_MB * 1024)) ]; then
          capped=" (killed over $RSS_CAP_MB MB)"
          kill -KILL "$pid"
        fi
      fi
    done
    sleep 0.5
  done
  wait "$runner"
  code=$(awk -F': ' '/Exit status/ {print $2}' "$OUT/$name.time")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$OUT/$name.time")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%d MB", $2/1024}' "$OUT/$name.time")
  sleep 1
  # Marked processes, and those a server listed in HOSTILE_PIDFILE (scrubbed-daemon's
  # sleeper has no environment to mark).
  listed=$(cat "$OUT/$name.pids" 2>/dev/null | while read -r p; do
    [ -d "/proc/$p" ] && ! grep -q '^State:.*Z' "/proc/$p/status" 2>/dev/null && echo "$p"; done)
  left=$( (marked "$tag"; echo "$listed") | grep -c . )
  for pid in $(marked "$tag") $listed; do kill -KILL "$pid" 2>/dev/null; done
  checks="(no report)"
  if [ -s "$OUT/$name.json" ]; then
    checks=$(jq -r '[.revisions[] | .revision as $r | .results[]
        | select(.status == "fail" or .status == "warn")
        | "\(.check) \(.status)"] | group_by(.) | map("\(.[0]) x\(length)") | join(", ")' \
      "$OUT/$name.json" 2>/dev/null || echo "(unreadable report)")
  fi
  if [ "$code" = "137" ] || [ "$code" = "9" ]; then
    wall="$wall (killed at cap)"
  fi
  echo "| $name | $wall$capped | $rss | $((hwm / 1024)) MB | $left | $code | $checks |"
done
