#!/usr/bin/env bash
# Install the "servers in the wild": a dozen real, third-party MCP servers of varied stacks,
# each pinned to an exact version, that speak stdio and start and list their tools with no
# network and no API key. They are run by reports/wild/run.sh (a weekly or manual CI job,
# .github/workflows/wild.yml), never by .ci/run.
#
#   usage: .ci/install-wild.sh DIR        (e.g. target/wild)
#
# Creates, under DIR:
#   DIR/npm     one package.json (--save-exact) with the npm servers:
#                 TypeScript SDK 1.x: @modelcontextprotocol/server-filesystem, server-memory,
#                   server-sequential-thinking, @eslint/mcp, mcp-hello-world
#                 TypeScript SDK 2.x (@modelcontextprotocol/server): @upstash/context7-mcp
#                 Go SDK (a Go binary shipped in npm): kubernetes-mcp-server
#   DIR/venv    Python venv, official Python SDK 2.x and fastmcp 4.x:
#                 mcp-server-fetch, mcp-server-git (low-level Server), excel-mcp-server
#                 (MCPServer), office-word-mcp-server (fastmcp)
#   DIR/venv1   Python venv, official Python SDK 1.x (mcp-server-sqlite breaks on mcp 2.x):
#                 mcp-server-sqlite with mcp 1.30.0
#
# reports/wild/servers.tsv gives each server's launch line. Idempotent: each part is skipped
# when its pinned versions are already installed. Needs only node/npm and python3 (>= 3.10)
# on PATH, and access to the npm registry and PyPI. Override the interpreter with
# PYTHON=/path/to/python3.
set -euo pipefail

# --- pins (exact versions; checked against the registries on 2026-12-02) --------------------
NPM_PINS=(
  "@modelcontextprotocol/server-filesystem@2026.8.31"
  "@modelcontextprotocol/server-memory@2026.8.31"
  "@modelcontextprotocol/server-sequential-thinking@2026.8.31"
  "@eslint/mcp@0.3.13"
  "mcp-hello-world@1.1.2"
  "@upstash/context7-mcp@4.1.1"
  "kubernetes-mcp-server@0.0.67"
  "kubernetes-mcp-server-linux-amd64@0.0.67"
)
# The Python SDK 2.x venv (one resolution: pip checks that these agree).
VENV_PINS=(
  "mcp==2.3.0"
  "mcp-server-fetch==2026.10.24"
  "mcp-server-git==2026.10.19"
  "excel-mcp-server==2.2.2"
  "office-word-mcp-server==1.1.11"
  "fastmcp==4.2.3"
)
# The Python SDK 1.x venv: mcp-server-sqlite 2025.4.25 asks for any mcp, but calls
# Server.list_resources, which mcp 2.x no longer has (it fails at start-up there).
VENV1_PINS=(
  "mcp==1.30.0"
  "mcp-server-sqlite==2025.4.25"
)

if [[ $# -ne 1 || -z "$1" ]]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
mkdir -p "$1"
DIR="$(cd "$1" && pwd)"
PYTHON="${PYTHON:-python3}"

for tool in node npm "$PYTHON"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "install-wild: '$tool' not found on PATH" >&2; exit 1; }
done
"$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' ||
  { echo "install-wild: $PYTHON is older than 3.10" >&2; exit 1; }
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) ;;
  *) echo "install-wild: kubernetes-mcp-server is pinned for linux-amd64 only" >&2; exit 1 ;;
esac

# --- npm ------------------------------------------------------------------------------
NPM_DIR="$DIR/npm"
installed_npm() {
  local pin name want
  for pin in "${NPM_PINS[@]}"; do
    name=${pin%@*}
    want=${pin##*@}
    [[ -f "$NPM_DIR/node_modules/$name/package.json" ]] || return 1
    node -e 'process.exit(require(process.argv[1]).version === process.argv[2] ? 0 : 1)' \
      "$NPM_DIR/node_modules/$name/package.json" "$want" || return 1
  done
}
if installed_npm; then
  echo "install-wild: npm servers already installed in $NPM_DIR"
else
  echo "install-wild: installing ${#NPM_PINS[@]} npm packages into $NPM_DIR"
  mkdir -p "$NPM_DIR"
  if [[ ! -f "$NPM_DIR/package.json" ]]; then
    printf '{\n  "name": "mcp-conformance-wild",\n  "private": true\n}\n' > "$NPM_DIR/package.json"
  fi
  (cd "$NPM_DIR" && npm install --no-audit --no-fund --save-exact --loglevel=error "${NPM_PINS[@]}")
  installed_npm || { echo "install-wild: npm install did not produce the pinned versions" >&2; exit 1; }
fi

# --- Python venvs ---------------------------------------------------------------------
# installed_venv VENV PIN...: every pinned distribution is at its version in VENV.
installed_venv() {
  local venv=$1
  shift
  [[ -x "$venv/bin/python" ]] || return 1
  "$venv/bin/python" - "$@" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
for pin in sys.argv[1:]:
    name, want = pin.split("==")
    if version(name) != want:
        sys.exit(1)
PY
}
install_venv() {
  local venv=$1
  shift
  if installed_venv "$venv" "$@"; then
    echo "install-wild: $(basename "$venv") already holds $*"
    return
  fi
  echo "install-wild: installing $* into $venv"
  # (Re)create the venv when missing or when its interpreter no longer runs.
  if ! "$venv/bin/python" -c 'import sys' >/dev/null 2>&1; then
    "$PYTHON" -m venv --clear "$venv"
  fi
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@"
  installed_venv "$venv" "$@" || { echo "install-wild: $venv does not hold the pinned versions" >&2; exit 1; }
}
install_venv "$DIR/venv" "${VENV_PINS[@]}"
install_venv "$DIR/venv1" "${VENV1_PINS[@]}"

# --- summary --------------------------------------------------------------------------
echo "install-wild: installed in $DIR:"
for pin in "${NPM_PINS[@]}"; do echo "  npm  $pin"; done
for pin in "${VENV_PINS[@]}"; do echo "  venv  $pin"; done
for pin in "${VENV1_PINS[@]}"; do echo "  venv1 $pin"; done
echo "  launch lines: reports/wild/servers.tsv (reports/wild/run.sh runs them)"
