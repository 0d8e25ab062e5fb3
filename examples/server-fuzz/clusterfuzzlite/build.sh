#!/bin/bash -eu
# Builds the fuzz targets of `fuzz/` and copies each binary to $OUT, where ClusterFuzzLite
# runs them (its seed corpus, `seeds/<target>/`, and dictionary, `mcp.dict` and
# `server.dict`, beside it, when the crate has them).
#
# Run from the repository root (the Dockerfile's WORKDIR). Environment, as ClusterFuzzLite
# sets it: OUT (required), SANITIZER. Also:
#   FUZZ_DIR      the cargo-fuzz crate (default: fuzz)
#   FUZZ_TARGETS  which targets (default: in_process; live_server needs MCP_FUZZ_SERVER and
#                 a server process, which ClusterFuzzLite's runner does not provide)
#
# The sanitizer: inside the image the compiler is nightly and cargo-fuzz's default
# (AddressSanitizer) is used, as OSS-Fuzz's Rust projects do. With SANITIZER=none, or on a
# stable compiler (which cannot build sanitizers), it builds with `--sanitizer none`.
fuzz_dir=${FUZZ_DIR:-fuzz}
targets=${FUZZ_TARGETS:-in_process}
flags=(-O)
if [ "${SANITIZER:-}" = none ] || ! rustc --version | grep -q nightly; then
  flags+=(--sanitizer none)
fi
target_dir=${CARGO_TARGET_DIR:-$PWD/$fuzz_dir/target}
for target in $targets; do
  # --fuzz-dir: the crate is found without a Cargo.toml at the root (a server in another
  # language, or a workspace whose root is elsewhere).
  cargo fuzz build --fuzz-dir "$fuzz_dir" "${flags[@]}" "$target"
  cp "$target_dir/x86_64-unknown-linux-gnu/release/$target" "$OUT/"
  # Committed seeds (never written to: libFuzzer grows its first corpus folder, corpus/).
  if [ -d "$fuzz_dir/seeds/$target" ]; then
    # zip where the image has it; Python's zipfile elsewhere (same archive).
    if command -v zip >/dev/null; then
      (cd "$fuzz_dir/seeds/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
    else
      python3 - "$fuzz_dir/seeds/$target" "$OUT/${target}_seed_corpus.zip" <<'PY'
import os, sys, zipfile
src, out = sys.argv[1:3]
with zipfile.ZipFile(out, "w") as z:
    for name in sorted(os.listdir(src)):
        z.write(os.path.join(src, name), name)
PY
    fi
  fi
  # The dictionary: MCP's tokens and the server's own constants (`mcp-conformance fuzz-dict
  # src > fuzz/server.dict`), whichever the crate has, in one file (libFuzzer reads one).
  dicts=()
  for dict in "$fuzz_dir/mcp.dict" "$fuzz_dir/server.dict"; do
    if [ -f "$dict" ]; then dicts+=("$dict"); fi
  done
  if [ ${#dicts[@]} -gt 0 ]; then
    cat "${dicts[@]}" >"$OUT/$target.dict"
  fi
done
