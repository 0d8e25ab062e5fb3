#!/bin/bash -eu
# Builds the live_server target of `fuzz/` and puts it in $OUT with your Node server beside
# it: the repository's files (but fuzz/, .git and node_modules) in $OUT/server, its
# production dependencies installed there (`npm ci --omit=dev` with a package-lock.json,
# else `npm install --omit=dev`) after `npm run build` when package.json has a build script,
# and the node binary copied in as $OUT/server/node (the runner image has no Node), where
# the target's defaults (fuzz/fuzz_targets/live_server.rs) look for them.
#
# Run from the repository root (the Dockerfile's WORKDIR). Environment, as ClusterFuzzLite
# sets it: OUT (required). Also:
#   FUZZ_DIR   the cargo-fuzz crate (default: fuzz)
#   NODE       the node binary copied (default: the one on PATH, 18 or later)
#
# Always built with `--sanitizer none`: the code under test is the Node server, which a
# sanitizer of the Rust harness does not watch; its coverage reaches libFuzzer through the
# agent, not through instrumentation.
fuzz_dir=${FUZZ_DIR:-fuzz}
node=${NODE:-$(command -v node)}
target_dir=${CARGO_TARGET_DIR:-$PWD/$fuzz_dir/target}
cargo fuzz build --fuzz-dir "$fuzz_dir" -O --sanitizer none live_server
cp "$target_dir/x86_64-unknown-linux-gnu/release/live_server" "$OUT/"
if [ -f package.json ] && node -e 'process.exit(require("./package.json").scripts?.build ? 0 : 1)'; then
  npm install --no-audit --no-fund --silent
  npm run build --silent
fi
rm -rf "$OUT/server"
mkdir -p "$OUT/server"
tar --exclude="./$fuzz_dir" --exclude=./.git --exclude=./node_modules -cf - . | tar -xf - -C "$OUT/server"
if [ -f "$OUT/server/package-lock.json" ]; then
  (cd "$OUT/server" && npm ci --omit=dev --no-audit --no-fund --silent)
elif [ -f "$OUT/server/package.json" ]; then
  (cd "$OUT/server" && npm install --omit=dev --no-audit --no-fund --silent)
fi
cp "$node" "$OUT/server/node"
