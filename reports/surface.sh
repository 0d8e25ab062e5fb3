#!/usr/bin/env bash
# Regenerates the tool surface snapshots of reports/surface/: the tools of three real servers
# per revision they speak (`mcp-conformance snapshot`, no tool called), and a check of
# server-everything's snapshot against an older release of it from the npm registry, whose
# classified changes reports/surface/README.md reads one by one.
#
#   cargo build --release -p mcp-conformance
#   bash .ci/install-targets.sh target/third-party
#   reports/surface.sh
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/mcp-conformance}
T=target/third-party
PY=$T/venv/bin/python
EVERYTHING=$T/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js
OLDER=2026.1.26
OLD_DIR=$T/npm-$OLDER
OUT=reports/surface
mkdir -p "$OUT"

# name | the server
ROWS=(
  "server-everything|node $EVERYTHING stdio"
  "python-sdk|$PY fixtures/python/sdk_server.py"
  "rmcp-server|$T/rmcp/release/mcp-rmcp-server"
)
status=0
for row in "${ROWS[@]}"; do
  name=${row%%|*}
  server=${row#*|}
  # shellcheck disable=SC2086
  if ! "$BIN" snapshot "$OUT/$name.snapshot.json" -- $server >/dev/null 2>"$OUT/$name.log"; then
    echo "$name: snapshot failed: see $OUT/$name.log" >&2
    status=1
    continue
  fi
  rm -f "$OUT/$name.log"
  echo "$name: $(grep -c '"name"' "$OUT/$name.snapshot.json") tool listings" >&2
done

# The snapshot checked against an older release (what its clients would meet on a downgrade),
# and the older release's snapshot checked against this one (an upgrade, the usual pull request).
OLD_INDEX=$OLD_DIR/node_modules/@modelcontextprotocol/server-everything/dist/index.js
if [ ! -f "$OLD_INDEX" ]; then
  npm install --prefix "$OLD_DIR" --no-audit --no-fund --silent \
    "@modelcontextprotocol/server-everything@$OLDER" || status=1
fi
"$BIN" snapshot "$OUT/server-everything-$OLDER.snapshot.json" -- node "$OLD_INDEX" stdio \
  >/dev/null 2>&1 || status=1
check() { # snapshot, server script, report
  "$BIN" snapshot "$1" --check -- node "$2" stdio >"$3" 2>/dev/null
  code=$?
  rm -f "$1.new"
  # 0 or 1 (breaking changes found); 2 is a broken setup.
  if [ "$code" -gt 1 ]; then
    echo "$3: exit $code (setup error)" >&2
    status=1
  fi
  echo "$3: exit $code" >&2
}
check "$OUT/server-everything.snapshot.json" "$OLD_INDEX" "$OUT/downgrade-to-$OLDER.txt"
check "$OUT/server-everything-$OLDER.snapshot.json" "$EVERYTHING" "$OUT/upgrade-from-$OLDER.txt"
exit $status
