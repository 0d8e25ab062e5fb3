#!/usr/bin/env bash
# Find or install cargo-nextest for CI, and print the folder to put on PATH.
#
#   usage: .ci/install-nextest.sh DIR        (e.g. target/ci-tools)
#
# The CI machine's image carries a cargo-nextest; when one is on PATH it is used as is
# (the step proves that the libtest harness runs under nextest, whatever its version).
# Otherwise the pinned version is built from crates.io (the registries this machine kind
# reaches are crates.io, PyPI, Debian's and npm; get.nexte.st's pre-built archives are
# out of reach), which costs a few minutes once and is then reused from DIR.
set -euo pipefail

NEXTEST_VERSION="0.9.143"

if [[ $# -ne 1 || -z "$1" ]]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
mkdir -p "$1/bin"
DIR="$(cd "$1" && pwd)"
BIN="$DIR/bin"

if [[ -x "$BIN/cargo-nextest" ]]; then
  echo "install-nextest: using $BIN/cargo-nextest" >&2
elif found="$(command -v cargo-nextest 2>/dev/null)"; then
  echo "install-nextest: using $found ($("$found" nextest --version 2>/dev/null | head -1))" >&2
  ln -sf "$found" "$BIN/cargo-nextest"
else
  echo "install-nextest: building cargo-nextest $NEXTEST_VERSION from crates.io into $DIR" >&2
  cargo install --quiet --locked --root "$DIR" "cargo-nextest@$NEXTEST_VERSION"
fi
echo "$BIN"
