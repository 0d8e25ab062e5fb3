#!/usr/bin/env bash
# Regenerates the text reports of reports/*.txt: one default run of the release binary per
# real server (seed 0), with the servers `.ci/install-targets.sh target/third-party`
# installs. Review the diff against each server's note (*.md) before committing: a moved
# verdict needs its note and tests/third_party.rs updated too.
#
#   cargo build --release -p mcp-conformance
#   bash .ci/install-targets.sh target/third-party
#   reports/regenerate.sh [NAME...]        # every report when none is named
#
# The HTTP rows bind fixed loopback ports (18765, 18801, 3001): nothing else may hold them.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/mcp-conformance}
# shellcheck source=reports/servers.sh
source reports/servers.sh

status=0
for row in "${ROWS[@]}"; do
  name=${row%%|*}
  args=${row#*|}
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then
    continue
  fi
  started=$(date +%s)
  # shellcheck disable=SC2086
  "$BIN" run --color never $args >"reports/$name.txt" 2>/dev/null
  code=$?
  # 0: nothing failed; 1: findings (the reviewed ones); anything else is a broken setup.
  if [ "$code" -gt 1 ]; then
    echo "$name: exit $code (setup error): see reports/$name.txt" >&2
    status=1
  fi
  echo "$name: exit $code, $(($(date +%s) - started)) s" >&2
done
exit $status
