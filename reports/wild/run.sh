#!/usr/bin/env bash
# Runs the suite (default options, seed 0) on each real server of reports/wild/servers.tsv,
# one at a time, each bounded by `timeout 900`: the text report goes to reports/wild/NAME.txt,
# the exit code and seconds to reports/wild/times.tsv. Not part of .ci/run: the weekly or
# manual workflow .github/workflows/wild.yml runs it.
#
#   cargo build --release -p mcp-conformance
#   bash .ci/install-wild.sh target/wild
#   reports/wild/run.sh [NAME...]        # every server when none is named
#
# BIN (default target/release/mcp-conformance) and WILD (default target/wild, the folder given
# to install-wild.sh) can be overridden. The servers' data (a filesystem root, a memory file,
# a git repository, a kubeconfig...) is made afresh, with the same content each time, in the
# scratch folder WILD_TMP (default /tmp/mcp-wild, emptied first), removed at the end (KEEP=1
# keeps it). Each server's stderr goes to that folder's logs/NAME.stderr, and the failing
# generated cases the suite saves (for `mcp-conformance replay`) to its cases/NAME/.
#
# Exit: 0 when every run ended with 0 (no failure) or 1 (findings); 1 when a run ended with
# anything else (a setup error, or 124: the 900 s timeout).
set -u
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
BIN=${BIN:-target/release/mcp-conformance}
WILD=${WILD:-target/wild}
LIMIT=${LIMIT:-900}
OUT=reports/wild
TABLE=$OUT/servers.tsv
TIMES=$OUT/times.tsv

case "$BIN" in /*) ;; *) BIN="$ROOT/$BIN" ;; esac
[ -x "$BIN" ] || { echo "run.sh: no binary at $BIN (cargo build --release -p mcp-conformance)" >&2; exit 2; }
[ -d "$WILD" ] || { echo "run.sh: no $WILD (bash .ci/install-wild.sh $WILD)" >&2; exit 2; }
# The scratch folder has a fixed path, and the install folder is reached through a link in it,
# so that the command lines the reports print are the same on every machine.
D=${WILD_TMP:-/tmp/mcp-wild}
case "$D" in /?*/?*) ;; *) echo "run.sh: WILD_TMP must be an absolute path two levels deep or more (got $D)" >&2; exit 2 ;; esac
rm -rf "$D"
mkdir -p "$D/logs" "$D/cwd"
ln -s "$(cd "$WILD" && pwd)" "$D/install"
W=$D/install
if [ "${KEEP:-0}" = 1 ]; then
  echo "run.sh: scratch folder $D (kept)" >&2
else
  trap 'rm -rf "$D"' EXIT
fi

# --- the servers' data, the same each time ----------------------------------------------
# server-filesystem's one allowed root: a few small files and a subfolder.
mkdir -p "$D/fs/docs" "$D/fs/empty"
printf 'hello from the wild\n' > "$D/fs/hello.txt"
printf '# Notes\n\nline one\nline two\n' > "$D/fs/docs/notes.md"
printf '{"name": "wild", "items": [1, 2, 3]}\n' > "$D/fs/docs/data.json"
# server-memory's knowledge graph file (it starts empty; the server creates it).
: > "$D/memory.jsonl"
# mcp-server-git's repository: two commits with fixed authors and dates.
(
  export GIT_AUTHOR_NAME=wild GIT_AUTHOR_EMAIL=wild@example.invalid
  export GIT_COMMITTER_NAME=wild GIT_COMMITTER_EMAIL=wild@example.invalid
  export GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
  cd "$D" && git init -q -b main repo && cd repo &&
    git config user.name wild && git config user.email wild@example.invalid &&
    printf 'hello\n' > README.md && git add README.md && git commit -q -m 'first commit' &&
    printf 'hello\nworld\n' > README.md && printf 'print("hi")\n' > main.py &&
    git add README.md main.py && git commit -q -m 'second commit' &&
    printf 'an unstaged change\n' >> README.md
) || { echo "run.sh: could not make the git repository" >&2; exit 2; }
# kubernetes-mcp-server: a cluster on a closed loopback port (every call is refused at once).
cat > "$D/kubeconfig" <<'EOF'
apiVersion: v1
kind: Config
clusters:
- name: wild
  cluster:
    server: https://127.0.0.1:9
    insecure-skip-tls-verify: true
contexts:
- name: wild
  context:
    cluster: wild
    user: wild
    namespace: default
current-context: wild
users:
- name: wild
  user:
    token: offline
EOF
# excel-mcp-server's workbook folder.
mkdir -p "$D/excel"
# @eslint/mcp lints files with the configuration found from its working folder.
mkdir -p "$D/cwd/eslint-mcp"
printf 'export default [{ rules: { "no-unused-vars": "error", "no-undef": "error" } }];\n' \
  > "$D/cwd/eslint-mcp/eslint.config.mjs"
printf 'const unused = 1;\nconsole.log(missing);\n' > "$D/cwd/eslint-mcp/example.js"

# --- times.tsv: one row per server, in servers.tsv's order; rows of servers not run now stay --
declare -A CODE SECS WHEN
if [ -f "$TIMES" ]; then
  while IFS=$'\t' read -r n c s w; do
    case "$n" in ''|'#'*|name) continue ;; esac
    CODE[$n]=$c SECS[$n]=$s WHEN[$n]=$w
  done < "$TIMES"
fi

status=0
names=()
while IFS=$'\t' read -r name stack version args; do
  case "$name" in ''|'#'*|name) continue ;; esac
  names+=("$name")
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then
    continue
  fi
  args=${args//\{W\}/$W}
  args=${args//\{D\}/$D}
  mkdir -p "$D/cwd/$name"
  echo "running $name ($stack $version)" >&2
  started=$(date +%s)
  # shellcheck disable=SC2086
  timeout "$LIMIT" "$BIN" run --color never --cwd "$D/cwd/$name" --cases-dir "$D/cases/$name" $args \
    </dev/null >"$OUT/$name.txt" 2>"$D/logs/$name.stderr"
  code=$?
  secs=$(($(date +%s) - started))
  CODE[$name]=$code SECS[$name]=$secs WHEN[$name]=$(date -u +%Y-%m-%d)
  # 0: nothing failed; 1: findings (each judged in README.md); anything else is a broken setup.
  if [ "$code" -eq 124 ]; then
    echo "$name: stopped by the ${LIMIT} s timeout (exit 124); the report is cut" >&2
    status=1
  elif [ "$code" -gt 1 ]; then
    echo "$name: exit $code (setup error): see $OUT/$name.txt; stderr:" >&2
    tail -n 20 "$D/logs/$name.stderr" >&2
    status=1
  fi
  echo "$name: exit $code, $secs s" >&2
done < "$TABLE"

{
  printf 'name\texit\tseconds\tdate\n'
  for n in "${names[@]}"; do
    [ -n "${CODE[$n]:-}" ] && printf '%s\t%s\t%s\t%s\n' "$n" "${CODE[$n]}" "${SECS[$n]}" "${WHEN[$n]}"
  done
} > "$TIMES"
exit $status
