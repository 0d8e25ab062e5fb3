#!/usr/bin/env bash
# Builds examples/server-fuzz as a server author would after copying it into their own
# repository: from a scratch directory outside this workspace, with only the
# `mcp-conformance` dependency pointed at this checkout instead of a git URL, by the
# ClusterFuzzLite build script (examples/server-fuzz/clusterfuzzlite/build.sh) run as the
# image would, with ClusterFuzzLite's environment but on stable (SANITIZER=none; CI cannot
# pull the image). One `cargo fuzz build -O` builds both targets (a debug build beside it
# cost CI minutes for nothing it checks). Then checks each target lands in $OUT, runs the
# spawned target on our corpus and a few generated inputs against the reference server,
# and replays the in-process target's seed corpus and a few generated inputs from $OUT as
# ClusterFuzzLite would; both servers must pass.
#   usage: .ci/server-fuzz.sh   (after `cargo build -p mcp-conformance`)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT
cp -r "$ROOT/examples/server-fuzz" "$SCRATCH/fuzz"
cd "$SCRATCH/fuzz"
sed -i -E "s|^mcp-conformance = \{ git = [^,]+, rev = [^,]+,|mcp-conformance = { path = \"$ROOT/conformance\",|" Cargo.toml
grep -q "path = \"$ROOT/conformance\"" Cargo.toml || { echo "server-fuzz: dependency line not rewritten" >&2; exit 1; }
# The versions this repository is tested with (cargo fixes up the root package itself).
cp "$ROOT/fuzz/Cargo.lock" .
# Kept under this checkout, so a second run here builds only what changed.
export CARGO_TARGET_DIR="$ROOT/fuzz/target"
# cargo-fuzz: the one on PATH, else the pinned version built once into target/ci-tools.
if ! command -v cargo-fuzz >/dev/null; then
  cargo install --quiet --locked --root "$ROOT/target/ci-tools" cargo-fuzz@0.13.2
  export PATH="$ROOT/target/ci-tools/bin:$PATH"
fi
mkdir -p "$SCRATCH/out" "$SCRATCH/work"
# At opt-level 1, not the release profile's 3: CI checks that build.sh builds and that the
# targets replay cleanly, not how fast they fuzz (the build took 7 min 54 s so, against
# 10 min, 2026-11-27). An author's build.sh run is untouched.
(
  cd "$SCRATCH"
  CARGO_PROFILE_RELEASE_OPT_LEVEL=1 \
    SRC="$SCRATCH" OUT="$SCRATCH/out" WORK="$SCRATCH/work" FUZZING_LANGUAGE=rust \
    FUZZING_ENGINE=libfuzzer SANITIZER=none ARCHITECTURE=x86_64 \
    FUZZ_TARGETS="in_process live_server" \
    bash "$ROOT/examples/server-fuzz/clusterfuzzlite/build.sh"
)
[ -x "$SCRATCH/out/live_server" ] || { echo "server-fuzz: build.sh left no live_server in \$OUT" >&2; exit 1; }
# The spawned target against the reference server: our corpus (each input once), then 50
# generated inputs; the conformant server must draw no finding.
export MCP_FUZZ_SERVER="$ROOT/target/debug/mcp-conformance reference-server"
export MCP_FUZZ_CASES="$SCRATCH/live-cases"
"$SCRATCH/out/live_server" -runs=0 "$ROOT/fuzz/corpus/live_server" 2>&1 | tail -2
"$SCRATCH/out/live_server" -runs=50 -seed=1 2>&1 | tail -1
if [ -n "$(ls -A "$MCP_FUZZ_CASES" 2>/dev/null)" ]; then
  echo "server-fuzz: the conformant reference server drew findings" >&2
  exit 1
fi
for target in in_process; do
  [ -x "$SCRATCH/out/$target" ] || { echo "server-fuzz: build.sh left no $target in \$OUT" >&2; exit 1; }
  # Its dictionary: the example's server.dict (`mcp-conformance fuzz-dict`), as ClusterFuzzLite finds it.
  grep -q '"Greet someone by name"' "$SCRATCH/out/$target.dict" \
    || { echo "server-fuzz: build.sh left no $target.dict with the server's words in \$OUT" >&2; exit 1; }
done
# As ClusterFuzzLite runs it: from $OUT, with its seed corpus (unzipped) and dictionary.
export MCP_FUZZ_CASES="$SCRATCH/in-process-cases"
mkdir -p "$SCRATCH/seeds"
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
  "$SCRATCH/out/in_process_seed_corpus.zip" "$SCRATCH/seeds"
(
  cd "$SCRATCH/out"
  ./in_process -runs=0 "$SCRATCH/seeds" 2>&1 | tail -1
  ./in_process -runs=50 -seed=1 -dict=in_process.dict "$SCRATCH/work" "$SCRATCH/seeds" 2>&1 | tail -1
)
if [ -n "$(ls -A "$MCP_FUZZ_CASES" 2>/dev/null)" ]; then
  echo "server-fuzz: the in-process example server drew findings" >&2
  exit 1
fi
echo "server-fuzz: built from a scratch copy; the live corpus, the in-process seeds and 50 inputs each ran cleanly"
