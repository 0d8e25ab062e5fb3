#!/bin/bash -eu
# Builds the live_server target of `fuzz/` and puts it in $OUT with your Python server beside
# it: the repository's files (but fuzz/, .git and virtual environments) in $OUT/server, and
# its dependencies in a virtual environment $OUT/server/.venv (requirements.txt when there is
# one, else the project itself when it has a pyproject.toml), where the target's defaults
# (fuzz/fuzz_targets/live_server.rs) look for them.
#
# Run from the repository root (the Dockerfile's WORKDIR). Environment, as ClusterFuzzLite
# sets it: OUT (required). Also:
#   FUZZ_DIR   the cargo-fuzz crate (default: fuzz)
#   PYTHON     the interpreter the environment is made with (default: python3, 3.10 or later;
#              the runner image must have the same one at the same path)
#
# Always built with `--sanitizer none`: the code under test is the Python server, which a
# sanitizer of the Rust harness does not watch; its coverage reaches libFuzzer through the
# agent, not through instrumentation.
fuzz_dir=${FUZZ_DIR:-fuzz}
python=${PYTHON:-python3}
target_dir=${CARGO_TARGET_DIR:-$PWD/$fuzz_dir/target}
cargo fuzz build --fuzz-dir "$fuzz_dir" -O --sanitizer none live_server
cp "$target_dir/x86_64-unknown-linux-gnu/release/live_server" "$OUT/"
rm -rf "$OUT/server"
mkdir -p "$OUT/server"
tar --exclude="./$fuzz_dir" --exclude=./.git --exclude=./.venv --exclude=./venv \
  --exclude='*/__pycache__' -cf - . | tar -xf - -C "$OUT/server"
"$python" -m venv "$OUT/server/.venv"
if [ -f requirements.txt ]; then
  "$OUT/server/.venv/bin/python" -m pip install --quiet --disable-pip-version-check -r requirements.txt
elif [ -f pyproject.toml ]; then
  "$OUT/server/.venv/bin/python" -m pip install --quiet --disable-pip-version-check .
fi
