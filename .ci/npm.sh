#!/usr/bin/env bash
# The npm packages (issue 31): the launcher and the per-platform packages of npm/, stamped
# with the Cargo version.
#
#   .ci/npm.sh BINARY THIRD_PARTY_DIR
#       As a user meets them: the launcher and this platform's package (holding BINARY),
#       `npm pack`ed, installed from the tarballs into a scratch project, and run with `npx`
#       against the bundled reference server and the Python SDK's server (CI).
#   .ci/npm.sh --pack-only BINARY OUT_DIR PLATFORM    one platform's package, into OUT_DIR
#   .ci/npm.sh --pack-only - OUT_DIR launcher         the launcher, into OUT_DIR
#       (the release workflow).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$repo/Cargo.toml" | head -1)"

# The `os` and `cpu` of an npm platform name.
os_cpu() {
  case "$1" in
    linux-x64) echo "linux x64" ;;
    linux-arm64) echo "linux arm64" ;;
    darwin-x64) echo "darwin x64" ;;
    darwin-arm64) echo "darwin arm64" ;;
    *) echo "unknown npm platform $1" >&2; return 1 ;;
  esac
}

# stamp FILE [PLATFORM OS CPU]: the Cargo version into a package.json (and its
# optionalDependencies), and a platform package's name, description, os and cpu.
stamp() {
  FILE="$1" VERSION="$version" PLATFORM="${2:-}" OS="${3:-}" CPU="${4:-}" node -e '
const fs = require("node:fs");
const { FILE, VERSION, PLATFORM, OS, CPU } = process.env;
const p = JSON.parse(fs.readFileSync(FILE, "utf8"));
p.version = VERSION;
if (p.optionalDependencies) {
  for (const name of Object.keys(p.optionalDependencies)) p.optionalDependencies[name] = VERSION;
}
if (PLATFORM) {
  p.name = p.name.replace("PLATFORM", PLATFORM);
  p.description = p.description.replace("PLATFORM", PLATFORM);
  p.os = [OS];
  p.cpu = [CPU];
}
fs.writeFileSync(FILE, JSON.stringify(p, null, 2) + "\n");
'
}

# pack_launcher OUT_DIR
pack_launcher() {
  local stage
  stage="$(mktemp -d)"
  cp -r "$repo/npm/mcp-conformance/." "$stage/"
  cp "$repo/README.md" "$stage/README.md"
  stamp "$stage/package.json"
  (cd "$stage" && npm pack --silent --pack-destination "$1" >/dev/null)
  rm -rf "$stage"
}

# pack_platform BINARY OUT_DIR PLATFORM
pack_platform() {
  local stage os cpu
  read -r os cpu < <(os_cpu "$3")
  stage="$(mktemp -d)"
  mkdir -p "$stage/bin"
  cp "$repo/npm/platform/package.json" "$stage/"
  cp "$1" "$stage/bin/mcp-conformance"
  chmod +x "$stage/bin/mcp-conformance"
  stamp "$stage/package.json" "$3" "$os" "$cpu"
  (cd "$stage" && npm pack --silent --pack-destination "$2" >/dev/null)
  rm -rf "$stage"
}

# An absolute path, portably (macOS's realpath has no -m).
absolute() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }

if [ "${1:-}" = --pack-only ]; then
  mkdir -p "$3"
  out="$(cd "$3" && pwd)"
  if [ "$4" = launcher ]; then pack_launcher "$out"; else pack_platform "$(absolute "$2")" "$out" "$4"; fi
  exit 0
fi

binary="$(absolute "$1")"
third_party="$(absolute "$2")"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  Darwin-x86_64) platform=darwin-x64 ;;
  Darwin-arm64) platform=darwin-arm64 ;;
  *) echo "no npm package for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
pack_launcher "$work"
pack_platform "$binary" "$work" "$platform"
ls -l "$work"/*.tgz

# A scratch project installs both tarballs (the registry's other platforms are optional:
# left out, as npm does for a platform that does not match).
mkdir "$work/project"
cd "$work/project"
started=$(date +%s.%N)
npm init -y >/dev/null
npm install --silent --no-audit --no-fund --omit=optional \
  "$work/mcp-conformance-$version.tgz" "$work/mcp-conformance-$platform-$version.tgz"
npx --no-install mcp-conformance run --format json --output first.json >/dev/null
finished=$(date +%s.%N)
printf 'an empty project to a first report with npx: %.1f s\n' "$(echo "$finished - $started" | bc)"
npx --no-install mcp-conformance --version
python3 - <<'PY'
import json
s = json.load(open("first.json"))["summary"]
assert s["fail"] == 0 and s["pass"] > 0, s
print("npx, reference server:", s)
PY
code=0
npx --no-install mcp-conformance run --revision 2025-06-18 --format json --output sdk.json \
  -- "$third_party/venv/bin/python" "$repo/fixtures/python/sdk_server.py" >/dev/null || code=$?
[ "$code" -le 1 ] || { echo "npx's run of the Python SDK server could not run (exit $code)" >&2; exit 1; }
python3 - <<'PY'
import json
s = json.load(open("sdk.json"))["summary"]
assert s["pass"] > 0, s
print("npx, Python SDK server:", s)
PY
# A usage error keeps its exit code through the launcher.
code=0
npx --no-install mcp-conformance rn 2>/dev/null || code=$?
[ "$code" -eq 2 ] || { echo "the launcher changed exit 2 to $code" >&2; exit 1; }
# A SIGTERM sent to npx alone (what a CI timeout sends) reaches the binary through the
# launcher: the run is cut, its server ended, and the exit status is 128 + 15.
code=0
timeout --preserve-status -s TERM 3 npx --no-install mcp-conformance run --revision 2025-06-18 \
  -- sh -c 'exec sleep 57' >/dev/null 2>&1 || code=$?
[ "$code" -eq 143 ] || { echo "a SIGTERM to npx gave exit $code, not 143" >&2; exit 1; }
sleep 0.5
if pgrep -f 'sleep 57' >/dev/null; then
  echo "the server outlived a SIGTERM to npx" >&2
  exit 1
fi
echo "npx: usage errors keep exit 2, a SIGTERM to npx ends the run and its server (143)"
