#!/usr/bin/env bash
# Minimal counterexamples (issue 27), measured as a user meets them: a release build, the
# text of the JSON report. Writes the tables of reports/shrink.md to stdout:
#   1. every input-dependent fault of the reference server in 2025-11-25: its trigger, the
#      reported minimal case, shrink steps, wall time of the run;
#   2. default runs (every revision) against a long-string stall: the reference server's
#      fault and a Python stdlib server (fixtures/python/hostile_server.py), and the
#      Python servers that exit on an astral character and divide by zero;
#   3. the same seed with --jobs 1 and --jobs 4: the same report (timing aside).
#   usage: conformance/benches/shrink.sh   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p mcp-conformance
BIN="$PWD/target/release/mcp-conformance"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

# The minimal case and steps of every property failure in a JSON report, one per line.
minimal() {
  python3 - "$1" <<'PY'
import json, re, sys
report = json.load(open(sys.argv[1]))
for rev in report["revisions"]:
    for r in rev["results"]:
        ev = r.get("evidence") or []
        for i, e in enumerate(ev):
            m = re.match(r"(minimal input after (\d+) shrink step\(s\)|same minimal case as (\S+)).*?, (\d+) bytes:", e["text"])
            if m and i + 1 < len(ev):
                steps = m.group(2) if m.group(2) is not None else "same as " + m.group(3)
                case = ev[i + 1]["text"]
                shown = case if len(case) <= 80 else "%s… (%d bytes)" % (case[:60], len(case))
                print("%s | %s | %s | `%s`" % (rev["revision"], r["check"], steps, shown.replace("|", "\\|")))
PY
}

timed_run() { # OUTPUT ARGS...: the run's wall time in seconds
  local out="$1"; shift
  local start end
  start=$(date +%s.%N)
  "$BIN" run --format json --output "$out" "$@" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.1f}')"
}

echo "## The reference server's input-dependent faults, 2025-11-25"
echo
echo "| fault | trigger | wall | revision | check | shrink steps | minimal case |"
echo "|---|---|---|---|---|---|---|"
while IFS='|' read -r fault trigger; do
  took=$(timed_run "$OUT/$fault.json" --revision 2025-11-25 -- "$BIN" reference-server --fault "$fault")
  minimal "$OUT/$fault.json" | while IFS= read -r line; do
    echo "| $fault | $trigger | $took s | $line |"
  done
done <<'FAULTS'
crash-on-astral|any string argument with a character above U+FFFF
stall-on-long-string|any string argument over 1000 characters
nested-wrong-class|a nested argument of the wrong type
negative-id-stringified|a negative request id
long-method-answered|an unknown method over 24 characters
long-cursor-crash|a cursor over 64 characters
long-cursor-internal-error|a cursor over 100 characters
FAULTS

echo
echo "## Default runs, every revision"
echo
echo "| server | wall | revision | check | shrink steps | minimal case |"
echo "|---|---|---|---|---|---|"
run_all() { # NAME ARGS...
  local name="$1"; shift
  local took
  took=$(timed_run "$OUT/all.json" -- "$@")
  minimal "$OUT/all.json" | while IFS= read -r line; do
    echo "| $name | $took s | $line |"
  done
}
run_all "reference --fault stall-on-long-string" "$BIN" reference-server --fault stall-on-long-string
run_all "python stall-long-string (1000)" python3 fixtures/python/hostile_server.py stall-long-string
run_all "python exit-on-astral" python3 fixtures/python/hostile_server.py exit-on-astral
took=$(timed_run "$OUT/divide.json" -- python3 fixtures/python/hostile_server.py divide)
python3 - "$OUT/divide.json" "$took" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
for rev in report["revisions"]:
    for r in rev["results"]:
        if r["check"] == "tc-error-explained":
            print("| python divide (b = 0 is a tool error) | %s s | %s | tc-error-explained | %s: %s | |" % (sys.argv[2], rev["revision"], r["status"], r["message"]))
PY

echo
echo "## Same seed, any --jobs"
echo
for jobs in 1 4; do
  "$BIN" run --jobs "$jobs" --seed 7 --format json --output "$OUT/jobs$jobs.json" -- \
    "$BIN" reference-server --fault crash-on-astral >/dev/null 2>&1 || true
done
python3 - "$OUT/jobs1.json" "$OUT/jobs4.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for r in (a, b):
    r.pop("timing", None)
same = json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
print("crash-on-astral, seed 7: the JSON reports of --jobs 1 and --jobs 4 are %s." % ("identical" if same else "DIFFERENT"))
PY
