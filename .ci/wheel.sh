#!/usr/bin/env bash
# The PyPI wheel (issue 31), as a user meets it: built with maturin (`pyproject.toml`), from
# the test build's profile so the crates the tests built are reused (a release wheel is the
# release workflow's); installed with pip into a fresh venv; run from an empty directory
# against the bundled reference server and against the Python SDK's server. Prints the
# seconds from the empty directory to the first report (venv, install and run).
#
# usage: .ci/wheel.sh TOOLS_DIR THIRD_PARTY_DIR
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
tools="$(realpath -m "$1")"
third_party="$(realpath -m "$2")"
MATURIN_VERSION=1.16.0

python3 -m venv "$tools/maturin"
"$tools/maturin/bin/pip" install --quiet --disable-pip-version-check "maturin==$MATURIN_VERSION"
rm -rf "$repo/target/wheels"
(cd "$repo" && "$tools/maturin/bin/maturin" build --locked --profile dev --out target/wheels)
wheel="$(ls "$repo"/target/wheels/mcp_conformance-*.whl)"
echo "wheel: $(basename "$wheel") ($(du -h "$wheel" | cut -f1))"

empty="$(mktemp -d)"
trap 'rm -rf "$empty"' EXIT
cd "$empty"
started=$(date +%s.%N)
python3 -m venv venv
venv/bin/pip install --quiet --disable-pip-version-check "$wheel"
venv/bin/mcp-conformance run --format json --output first.json >/dev/null
finished=$(date +%s.%N)
printf 'an empty directory to a first report with the wheel: %.1f s\n' "$(echo "$finished - $started" | bc)"
python3 - <<'PY'
import json
s = json.load(open("first.json"))["summary"]
assert s["fail"] == 0 and s["pass"] > 0, s
print("wheel, reference server:", s)
PY

# The Python SDK's server: its known findings fail the run (exit 1), a setup error is 2.
code=0
venv/bin/mcp-conformance run --revision 2025-06-18 --format json --output sdk.json \
  -- "$third_party/venv/bin/python" "$repo/fixtures/python/sdk_server.py" >/dev/null || code=$?
[ "$code" -le 1 ] || { echo "the wheel's run of the Python SDK server could not run (exit $code)" >&2; exit 1; }
python3 - <<'PY'
import json
s = json.load(open("sdk.json"))["summary"]
assert s["pass"] > 0, s
print("wheel, Python SDK server:", s)
PY
