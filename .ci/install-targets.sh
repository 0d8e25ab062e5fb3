#!/usr/bin/env bash
# Install the third-party MCP servers the conformance suite runs against.
#
#   usage: .ci/install-targets.sh DIR        (e.g. target/third-party)
#
# Creates, under DIR:
#   DIR/npm   npm @modelcontextprotocol/server-everything (pinned)
#             launch: node DIR/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio
#             with the TypeScript SDK and zod pinned beside it, and fixtures/node/planted-server.mjs
#             copied in: node DIR/npm/planted-server.mjs
#   DIR/venv  Python venv with PyPI mcp and mcp-server-time (pinned)
#             launch: DIR/venv/bin/mcp-server-time --local-timezone UTC
#                     DIR/venv/bin/python fixtures/python/sdk_server.py [--paginate]
#   DIR/rmcp  the fixture server on crates.io rmcp 3.9 (fixtures/rmcp-server, its own
#             Cargo.lock), built in release with its own target dir
#             launch: DIR/rmcp/release/mcp-rmcp-server
#
# Idempotent: each part is skipped when the pinned version is already installed.
# Needs only node/npm and python3 (>= 3.10) on PATH, and access to the npm registry and PyPI.
# Override the interpreter with PYTHON=/path/to/python3.
set -euo pipefail

EVERYTHING_VERSION="2026.8.31"   # @modelcontextprotocol/server-everything
SDK_VERSION="1.32.2"             # @modelcontextprotocol/sdk (the TypeScript SDK: the planted server)
ZOD_VERSION="4.6.7"              # zod (the TypeScript SDK's schemas)
MCP_VERSION="2.3.0"              # PyPI mcp (official Python SDK)
TIME_VERSION="2026.10.19"        # PyPI mcp-server-time

if [[ $# -ne 1 || -z "$1" ]]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
mkdir -p "$1"
DIR="$(cd "$1" && pwd)"
PYTHON="${PYTHON:-python3}"

for tool in node npm "$PYTHON"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "install-targets: '$tool' not found on PATH" >&2; exit 1; }
done

# --- npm: server-everything -------------------------------------------------
NPM_DIR="$DIR/npm"
EVERYTHING_PKG="$NPM_DIR/node_modules/@modelcontextprotocol/server-everything"
installed_everything() {
  [[ -f "$EVERYTHING_PKG/package.json" && -f "$EVERYTHING_PKG/dist/index.js" ]] || return 1
  local pkg want
  for pkg in "@modelcontextprotocol/server-everything=$EVERYTHING_VERSION" \
    "@modelcontextprotocol/sdk=$SDK_VERSION" "zod=$ZOD_VERSION"; do
    want=${pkg##*=}
    [[ -f "$NPM_DIR/node_modules/${pkg%=*}/package.json" ]] || return 1
    node -e 'process.exit(require(process.argv[1]).version === process.argv[2] ? 0 : 1)' \
      "$NPM_DIR/node_modules/${pkg%=*}/package.json" "$want" || return 1
  done
}
if installed_everything; then
  echo "install-targets: server-everything $EVERYTHING_VERSION already installed in $NPM_DIR"
else
  echo "install-targets: installing @modelcontextprotocol/server-everything@$EVERYTHING_VERSION into $NPM_DIR"
  mkdir -p "$NPM_DIR"
  if [[ ! -f "$NPM_DIR/package.json" ]]; then
    printf '{\n  "name": "mcp-conformance-third-party",\n  "private": true\n}\n' > "$NPM_DIR/package.json"
  fi
  (cd "$NPM_DIR" && npm install --no-audit --no-fund --save-exact --loglevel=error \
    "@modelcontextprotocol/server-everything@$EVERYTHING_VERSION" \
    "@modelcontextprotocol/sdk@$SDK_VERSION" "zod@$ZOD_VERSION")
  installed_everything || { echo "install-targets: server-everything install did not produce $EVERYTHING_VERSION" >&2; exit 1; }
fi

# The TypeScript SDK server with a planted crash (fuzz --coverage's tests and benchmark)
# runs from here, where its imports resolve; copied afresh each time.
cp "$(cd "$(dirname "$0")/.." && pwd)/fixtures/node/planted-server.mjs" "$NPM_DIR/planted-server.mjs"

# --- Python venv: mcp + mcp-server-time --------------------------------------
VENV="$DIR/venv"
installed_py() {
  [[ -x "$VENV/bin/python" && -x "$VENV/bin/mcp-server-time" ]] || return 1
  "$VENV/bin/python" - "$MCP_VERSION" "$TIME_VERSION" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
sys.exit(0 if (version("mcp"), version("mcp-server-time")) == (sys.argv[1], sys.argv[2]) else 1)
PY
}
if installed_py; then
  echo "install-targets: mcp $MCP_VERSION and mcp-server-time $TIME_VERSION already installed in $VENV"
else
  echo "install-targets: installing mcp==$MCP_VERSION mcp-server-time==$TIME_VERSION into $VENV"
  # (Re)create the venv when missing or when its interpreter no longer runs.
  if ! "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1; then
    "$PYTHON" -m venv --clear "$VENV"
  fi
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    "mcp==$MCP_VERSION" "mcp-server-time==$TIME_VERSION"
  installed_py || { echo "install-targets: venv does not hold the pinned versions" >&2; exit 1; }
fi

# --- crates.io: the rmcp fixture server ----------------------------------------
# Its own workspace and lock file, built once into DIR/rmcp (cargo skips it when fresh).
RMCP_MANIFEST="$(cd "$(dirname "$0")/.." && pwd)/fixtures/rmcp-server/Cargo.toml"
command -v cargo >/dev/null 2>&1 || { echo "install-targets: 'cargo' not found on PATH" >&2; exit 1; }
echo "install-targets: building the rmcp fixture server into $DIR/rmcp"
cargo build --quiet --release --locked --manifest-path "$RMCP_MANIFEST" --target-dir "$DIR/rmcp"
[[ -x "$DIR/rmcp/release/mcp-rmcp-server" ]] || { echo "install-targets: the rmcp fixture did not build" >&2; exit 1; }

# --- summary -------------------------------------------------------------------
echo "install-targets: installed in $DIR:"
echo "  server-everything $(node -p 'require(process.argv[1]).version' "$EVERYTHING_PKG/package.json")" \
     "-> node $EVERYTHING_PKG/dist/index.js stdio"
"$VENV/bin/python" - "$VENV" <<'PY'
import sys
from importlib.metadata import version
venv = sys.argv[1]
print(f"  mcp {version('mcp')} -> {venv}/bin/python fixtures/python/sdk_server.py")
print(f"  mcp-server-time {version('mcp-server-time')} -> {venv}/bin/mcp-server-time --local-timezone UTC")
PY
echo "  rmcp fixture -> $DIR/rmcp/release/mcp-rmcp-server"
echo "  TypeScript SDK $SDK_VERSION planted server -> node $NPM_DIR/planted-server.mjs"
