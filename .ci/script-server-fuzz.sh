#!/usr/bin/env bash
# Builds examples/python-server-fuzz and examples/node-server-fuzz as a server author would
# after copying one into their own repository: a scratch repository holding a server (the
# planted Python SDK and TypeScript SDK servers of benches/coverage-planted.sh, with their
# dependencies declared as a project declares them), the example copied to fuzz/ with only
# the `mcp-conformance` dependency pointed at this checkout, and the ClusterFuzzLite build
# script run as the image would (no Docker here). Then runs the built target from $OUT, as
# ClusterFuzzLite would, for a few hundred inputs: the server it finds beside itself must
# start with the coverage agent, and libFuzzer must read the server's counters.
#   usage: .ci/script-server-fuzz.sh   (after .ci/server-fuzz.sh, whose build it shares)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# The target directory of .ci/server-fuzz.sh: the library is built there already.
export CARGO_TARGET_DIR="$ROOT/fuzz/target"
if ! command -v cargo-fuzz >/dev/null; then
  cargo install --quiet --locked --root "$ROOT/target/ci-tools" cargo-fuzz@0.13.2
  export PATH="$ROOT/target/ci-tools/bin:$PATH"
fi
for lang in python node; do
  SCRATCH="$(mktemp -d)"
  repo="$SCRATCH/repo"
  mkdir -p "$repo" "$SCRATCH/out"
  cp -r "$ROOT/examples/$lang-server-fuzz" "$repo/fuzz"
  sed -i -E "s|^mcp-conformance = \{ git = [^,]+, rev = [^,]+,|mcp-conformance = { path = \"$ROOT/conformance\",|" "$repo/fuzz/Cargo.toml"
  grep -q "path = \"$ROOT/conformance\"" "$repo/fuzz/Cargo.toml" || { echo "script-server-fuzz: dependency line not rewritten" >&2; exit 1; }
  cp "$ROOT/fuzz/Cargo.lock" "$repo/fuzz/"
  if [ "$lang" = python ]; then
    cp "$ROOT/fixtures/python/planted_server.py" "$repo/server.py"
    echo "mcp==2.3.0" >"$repo/requirements.txt"
  else
    mkdir -p "$repo/dist"
    cp "$ROOT/fixtures/node/planted-server.mjs" "$repo/dist/index.js"
    printf '{"name": "planted", "private": true, "type": "module",\n "dependencies": {"@modelcontextprotocol/sdk": "1.32.2", "zod": "4.6.7"}}\n' >"$repo/package.json"
  fi
  # At opt-level 1, as .ci/server-fuzz.sh builds (CI checks the script, not fuzzing speed).
  (cd "$repo" && CARGO_PROFILE_RELEASE_OPT_LEVEL=1 OUT="$SCRATCH/out" bash fuzz/clusterfuzzlite/build.sh)
  [ -x "$SCRATCH/out/live_server" ] || { echo "script-server-fuzz: no live_server in \$OUT" >&2; exit 1; }
  # From another folder: the target finds its server by its own path ({exe_dir}).
  (cd "$SCRATCH" && MCP_FUZZ_CASES="$SCRATCH/cases" MCP_FUZZ_REVISION=2025-11-25 \
    ./out/live_server -runs=300 -seed=1 >"$SCRATCH/log" 2>&1) || {
    tail -40 "$SCRATCH/log" >&2
    echo "script-server-fuzz: the $lang target failed" >&2
    exit 1
  }
  grep -E 'coverage from inside the server|Extra Counters|Done' "$SCRATCH/log"
  grep -q 'coverage from inside the server' "$SCRATCH/log"
  grep -q '65536 Extra Counters' "$SCRATCH/log"
  rm -rf "$SCRATCH"
done
echo "script-server-fuzz: both examples built from a scratch repository and fuzzed their server with its coverage"
