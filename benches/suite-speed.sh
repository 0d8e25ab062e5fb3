#!/usr/bin/env bash
# A whole default run of the suite against real servers next to the physical floor (a bare
# client replaying the same lines), issue 12's speed targets; figures go in reports/bench.md.
# Builds the release binary and the rmcp fixture server; installs the third-party servers
# (npm server-everything, PyPI mcp) when node and python3 are there. Usage:
#   benches/suite-speed.sh [TARGET...]    (reference rmcp python-sdk everything everything-confined stall)
# A target that is not installed is skipped with the reason.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "load before: $(cat /proc/loadavg)"
cargo build --release -p mcp-conformance -q
if command -v cargo >/dev/null; then
  cargo build --release -q --manifest-path fixtures/rmcp-server/Cargo.toml ||
    echo "suite-speed: the rmcp fixture did not build; its target will be skipped" >&2
fi
if command -v node >/dev/null && command -v python3 >/dev/null; then
  .ci/install-targets.sh target/third-party >/dev/null ||
    echo "suite-speed: installing the third-party servers failed; they will be skipped" >&2
fi
cargo bench -q -p mcp-conformance --bench suite_speed -- "$@"
