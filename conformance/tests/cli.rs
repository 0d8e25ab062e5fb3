//! The binary's documented exit codes, output and report files (README, "Exit codes"), as
//! one table: each case runs its steps in a fresh folder of its own (also the working
//! directory), and each step states its arguments, exit code, and what stdout and stderr
//! must contain. Ctrl-C (130) needs a signal sent mid-run and has tests of its own below.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

const EXE: &str = env!("CARGO_BIN_EXE_mcp-conformance");

/// A crash input of the cargo-fuzz `live_server` target, saved against `crash-on-astral`.
const CRASH_INPUT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../fuzz/artifacts/live_server/crash-on-astral"
);

/// One invocation: arguments, exit code, what stdout must contain, what stderr must
/// contain. In arguments and files, `{exe}` is this binary (whose `reference-server`
/// is the conformant server, or a faulty one with `--fault`), `{dir}` the case's folder,
/// `{case}` the first file under `{dir}/cases`, `{crash}` the saved crash input, `{port}`
/// a port free when the step starts (for a server over HTTP).
type Step = (
    &'static [&'static str],
    i32,
    &'static [&'static str],
    &'static [&'static str],
);

/// Steps that share a folder, run in order, after `files` are written into it; then
/// `check`, for what a step must have written.
struct Case {
    name: &'static str,
    files: &'static [(&'static str, &'static str)],
    steps: &'static [Step],
    check: Option<fn(&Path, &[Output])>,
}

const BASELINE: (&str, &str) = (
    "baseline.toml",
    "[[expected]]\ncheck = \"lc-ping\"\nreason = \"known, fixed in 2.0\"\n",
);

const CONFIG: (&str, &str) = (
    "mcp-conformance.toml",
    "[server]\ncommand = \"{exe}\"\nargs = [\"reference-server\"]\n\n[run]\nrevisions = [\"2025-11-25\"]\ncases = 4\nformats = [\"junit\", \"sarif\", \"markdown\", \"json\"]\noutput_dir = \"out\"\n",
);

/// A config file whose server needs `MCPX=yes` (else it exits at once), logs every line
/// it is sent to `in.log` in its working directory (through a process substitution, so
/// that its stdout is its own and a crash is seen as one), and crashes on an astral
/// character in a tool's arguments; `echo` is denied.
const FUZZ_CONFIG: (&str, &str) = (
    "mcp-conformance.toml",
    "[server]\ncommand = \"bash\"\nargs = [\"-c\", \"test \\\"$MCPX\\\" = yes || exit 3; exec '{exe}' reference-server --fault crash-on-astral < <(exec tee -a in.log)\"]\n\n[run]\ndeny_tool = [\"echo\"]\ncases_dir = \"cases\"\n",
);

/// The gate runs of the baseline cases: one revision, few generated cases.
macro_rules! gate {
    ($fault:literal $(, $extra:literal)*) => {
        &["run", "--revision", "2025-06-18", "--cases", "4" $(, $extra)*,
          "--", "{exe}", "reference-server", "--fault", $fault]
    };
}

#[rustfmt::skip]
const CASES: &[Case] = &[
    Case {
        name: "the reference server passes (0) and the JSON report has its stable shape",
        files: &[],
        steps: &[(&["run", "--revision", "2025-11-25", "--format", "json", "--output", "{dir}/report.json"],
                  0, &["== 2025-11-25"], &[])],
        check: Some(json_report_shape),
    },
    Case {
        name: "a failing server fails the run (1), with the evidence",
        files: &[],
        steps: &[(&["run", "--revision", "2024-11-05", "--", "{exe}", "reference-server", "--fault", "ping-nonempty"],
                  1, &["FAIL lc-ping (2024-11-05) [MUST LC-PING", "<- {\"jsonrpc\":\"2.0\",\"id\":"], &["1 check failed"])],
        check: None,
    },
    Case {
        name: "--max-time cuts a stalled run (1): what finished is reported, marked incomplete",
        files: &[],
        steps: &[(&["run", "--revision", "2025-06-18", "--revision", "2025-11-25", "--jobs", "2", "--timeout", "60",
                    "--max-time", "3", "--format", "json", "--output", "{dir}/report.json",
                    "--", "{exe}", "reference-server", "--fault", "hang-on-tools-list"],
                  1, &["INCOMPLETE: --max-time of 3 s reached; not finished, so not reported: 2025-06-18, 2025-11-25"],
                  &["the run is incomplete"])],
        check: Some(incomplete_json_report),
    },
    Case {
        name: "--jobs does not change the report (0)",
        files: &[],
        steps: &[
            (&["run", "--jobs", "1", "--cases", "4", "--format", "json", "--output", "{dir}/one.json"], 0, &[], &[]),
            (&["run", "--jobs", "3", "--cases", "4", "--format", "json", "--output", "{dir}/three.json"], 0, &[], &[]),
        ],
        check: Some(same_report_for_any_jobs),
    },
    Case {
        name: "a server that cannot be spawned is a setup error (2)",
        files: &[],
        steps: &[(&["run", "--", "/nonexistent/mcp-server"], 2, &[], &["failed to spawn server command"])],
        check: None,
    },
    Case {
        name: "a URL nothing listens on, with no command, or a wrong path, is a setup error (2), said at once",
        files: &[],
        steps: &[
            (&["run", "--url", "http://127.0.0.1:{port}/mcp"], 2, &[], &["nothing accepts connections at 127.0.0.1:", "start the server first"]),
            (&["fuzz", "--url", "http://127.0.0.1:{port}/mcp", "--time", "5"], 2, &[], &["nothing accepts connections at 127.0.0.1:"]),
            // A wrong path (the reference server serves /mcp): 404 to everything.
            (&["run", "--url", "http://127.0.0.1:{port}/wrong", "--", "{exe}", "reference-server", "--http", "{port}"], 2, &[],
             &["it answered 404 Not Found to a POST of initialize and to a GET: nothing serves MCP at that path; is the path right?"]),
            (&["fuzz", "--live", "--time", "2", "--url", "http://127.0.0.1:{port}/wrong", "--", "{exe}", "reference-server", "--http", "{port}"], 2, &[],
             &["it answered 404 Not Found to a POST of initialize and to a GET"]),
        ],
        check: None,
    },
    Case {
        // After `init -- CMD`, `run --url URL` started CMD too, silently.
        name: "--url does not start the config file's stdio command, and says so (2: nothing listens there)",
        files: &[CONFIG],
        steps: &[
            (&["run", "--url", "http://127.0.0.1:{port}/mcp"], 2, &[],
             &["mcp-conformance.toml's [server] command `", "` is not started: it has no url", "nothing accepts connections at 127.0.0.1:"]),
            (&["run", "--revision", "2025-11-25", "--cases", "0"], 0, &[], &["the server command is ", "mcp-conformance.toml's [server]: "]),
        ],
        check: None,
    },
    Case {
        name: "usage errors (2)",
        files: &[],
        steps: &[
            (&["run", "--revision", "2023-01-01"], 2, &[], &["failed to select a revision: unknown revision `2023-01-01`"]),
            (&["run", "--no-such-flag"], 2, &[], &["unexpected argument '--no-such-flag'"]),
            (&["explain", "no-such-check"], 2, &[], &["unknown check `no-such-check`"]),
            // The nearest visible subcommand, never the hidden reference-server.
            (&["rn"], 2, &[], &["tip: a similar subcommand exists: 'run'\n"]),
        ],
        check: None,
    },
    Case {
        // A typo'd revision must not select nothing: did you mean, on the command line,
        // in the config file, in a baseline, for `explain` and for --check.
        name: "a misspelt revision or check id is an error (2) naming the nearest one",
        files: &[("c.toml", "[run]\nrevisions = [\"2025-06-19\"]\n"),
                 ("b.toml", "[[expected]]\ncheck = \"lc-pign\"\nreason = \"x\"\n")],
        steps: &[
            (&["run", "--revision", "2025-06-19"], 2, &[], &["unknown revision `2025-06-19`; did you mean `2025-06-18`?"]),
            (&["run", "--config", "{dir}/c.toml"], 2, &[], &["unknown revision `2025-06-19`; did you mean `2025-06-18`?"]),
            (&["run", "--revision", "draf"], 2, &[], &["unknown revision `draf`; did you mean `draft`? (known: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28, draft)"]),
            (&["run", "--revision", "2025-06-18", "--baseline", "{dir}/b.toml"], 2, &[], &["unknown check `lc-pign`; did you mean `lc-ping`?"]),
            (&["explain", "lc-inti-result"], 2, &[], &["unknown check `lc-inti-result`; did you mean `lc-init-result`?"]),
            (&["run", "--check", "lc-inti-result"], 2, &[], &["unknown check `lc-inti-result`; did you mean `lc-init-result`?"]),
            (&["run", "--skip-check", "nope-*"], 2, &[], &["no check id matches `nope-*`"]),
        ],
        check: None,
    },
    Case {
        name: "--check and --skip-check select the checks reported (0; 1 when a selected one fails)",
        files: &[],
        steps: &[
            (&["run", "-v", "--revision", "2025-06-18", "--cases", "0", "--check", "lc-*", "--skip-check", "lc-ping*",
               "--", "{exe}", "reference-server", "--fault", "ping-nonempty"], 0, &["pass lc-init-result"], &[]),
            (&["run", "--revision", "2025-06-18", "--cases", "0", "--check", "lc-ping",
               "--", "{exe}", "reference-server", "--fault", "ping-nonempty"], 1, &["FAIL lc-ping"], &[]),
        ],
        check: Some(only_lc_checks),
    },
    Case {
        // A missing module or script gave a dozen FAILs and exit 1.
        name: "a server that exits before answering initialize is one setup error (2) with its stderr",
        files: &[],
        steps: &[
            (&["run", "--revision", "2025-06-18", "--", "sh", "-c", "echo 'ModuleNotFoundError: no module named srv' >&2; exit 1"],
             2, &[], &["failed to start the server `sh -c", "it exited before answering initialize (exit status 1)", "ModuleNotFoundError: no module named srv"]),
            (&["run", "--", "sh", "{dir}/missing-script.sh"], 2, &[], &["it exited before answering initialize (exit status ", "missing-script.sh"]),
        ],
        check: Some(no_findings_printed),
    },
    Case {
        name: "init writes a commented config (0) that run reads, and refuses to overwrite it (2) without --force (0)",
        files: &[],
        steps: &[
            (&["init", "--", "{exe}", "reference-server"], 0, &[], &["wrote mcp-conformance.toml"]),
            (&["init"], 2, &[], &["already exists; --force overwrites it"]),
            (&["run", "--revision", "2025-11-25", "--cases", "0"], 0, &["Summary: PASSED: no findings"], &[]),
            (&["init", "--force"], 0, &[], &["name your server under [server]"]),
        ],
        check: None,
    },
    Case {
        // The written baseline is the run's from then on: its exit code and headline are
        // what a run with it gives.
        name: "--write-baseline writes the failures and passes with them (0), as a run with that baseline does, strictly too",
        files: &[],
        steps: &[
            (&["run", "--revision", "2025-06-18", "--revision", "2025-11-25", "--cases", "4", "--write-baseline", "{dir}/b.toml",
               "--", "{exe}", "reference-server", "--fault", "ping-nonempty"], 0, &["Summary: PASSED, 1 baselined: 1 distinct failure,"], &["wrote 1 baseline entry to"]),
            (&["run", "--revision", "2025-06-18", "--revision", "2025-11-25", "--cases", "4", "--baseline", "{dir}/b.toml", "--strict-baseline",
               "--", "{exe}", "reference-server", "--fault", "ping-nonempty"], 0, &["Summary: PASSED, 1 baselined:"], &[]),
        ],
        check: Some(baseline_written),
    },
    Case {
        name: "--format badge writes a shields.io endpoint JSON: each revision spoken with its verdict (0, 1)",
        files: &[],
        steps: &[
            (&["run", "--revision", "2025-11-25", "--cases", "0", "--format", "badge"], 0,
             &["\"schemaVersion\": 1", "\"message\": \"2025-11-25 passed\"", "\"color\": \"brightgreen\""], &[]),
            (&["run", "--revision", "2025-11-25", "--cases", "0", "--format", "badge", "--", "{exe}", "reference-server", "--fault", "ping-nonempty"], 1,
             &["\"message\": \"2025-11-25 1 failed\"", "\"color\": \"red\""], &[]),
        ],
        check: None,
    },
    Case {
        name: "two formats to stdout would be glued together: a usage error (2), before the run (one format to --output too)",
        files: &[],
        steps: &[
            (&["run", "--format", "json", "--format", "junit"], 2, &[], &["several --format values need --output-dir (on stdout they would run together)"]),
            (&["run", "--format", "json", "--format", "junit", "--output", "{dir}/r"], 2, &[], &["--output takes one --format; use --output-dir for several"]),
        ],
        check: None,
    },
    Case {
        // CI in the wrong folder tested our own server and passed, silently.
        name: "run with no server named says it tests the bundled reference server (0)",
        files: &[],
        steps: &[(&["run", "--revision", "2025-11-25", "--cases", "0"], 0, &[],
                  &["no server named (no command after `--`, no [server] in a config file): testing the bundled reference server"])],
        check: None,
    },
    Case {
        name: "--reference asks for the bundled reference server (0), over a config file's server; not with a command (2)",
        files: &[("mcp-conformance.toml", "[server]\ncommand = \"/nonexistent/mcp-server\"\n")],
        steps: &[
            (&["run", "--reference", "--revision", "2025-11-25", "--cases", "0"], 0, &["Summary: PASSED: no findings"],
             &["testing the bundled reference server (--reference)"]),
            (&["run", "--reference", "--", "{exe}", "reference-server"], 2, &[], &["cannot be used with"]),
        ],
        check: None,
    },
    Case {
        name: "-q prints the summary line alone (1 when it fails)",
        files: &[],
        steps: &[(&["run", "-q", "--revision", "2025-11-25", "--cases", "0", "--", "{exe}", "reference-server", "--fault", "ping-nonempty"],
                  1, &["Summary: FAILED: 1 distinct failure, 0 distinct warnings"], &[])],
        check: Some(one_line),
    },
    Case {
        name: "list prints every check (0)",
        files: &[],
        steps: &[(&["list"], 0, &[], &[])],
        check: Some(lists_every_check),
    },
    Case {
        // The stdout is the dictionary (libFuzzer's -dict format); a path that is not
        // there is a setup error naming it.
        name: "fuzz-dict prints a server's constants as the fuzz input carries them (0; 2 for a missing path)",
        files: &[("src/lib.rs", "// \"a comment\"\nconst CODE: u32 = 0x5EED_C0DE;\nfn f(t: &str) -> bool { t.starts_with(\"MCP!\") }\n"),
                 ("target/gen.rs", "const SKIPPED: &str = \"in target\";\n")],
        steps: &[
            (&["fuzz-dict", "{dir}"], 0, &["\"^\\xED\\xC0\\xDE\"", "\"MCP!\""], &[]),
            (&["fuzz-dict", "{dir}/no-such-src"], 2, &[], &["failed to read the server's source", "no-such-src"]),
        ],
        check: Some(dictionary_skips_comments_and_target),
    },
    Case {
        name: "explain prints the requirement and the fix (0)",
        files: &[],
        steps: &[(&["explain", "rpc-id-echo"], 0, &["RPC-ID-ECHO", "What is required", "Why it matters", "How to fix"], &[])],
        check: None,
    },
    // The gate: baselined failures pass, a stale entry fails only with --strict-baseline,
    // warnings fail only with --strict.
    Case {
        name: "an unexpected failure fails the run (1)",
        files: &[],
        steps: &[(gate!("ping-nonempty"), 1, &["Summary: FAILED: 1 distinct failure,"], &["1 check failed"])],
        check: None,
    },
    Case {
        name: "only baselined failures pass (0), --strict-baseline too",
        files: &[BASELINE],
        steps: &[
            (gate!("ping-nonempty", "--baseline", "{dir}/baseline.toml"), 0, &[], &[]),
            (gate!("ping-nonempty", "--baseline", "{dir}/baseline.toml", "--strict-baseline"), 0, &[], &[]),
        ],
        check: None,
    },
    Case {
        // The same baseline against a server that no longer fails lc-ping.
        name: "a stale baseline entry is reported, not fatal (0), unless --strict-baseline (1)",
        files: &[BASELINE],
        steps: &[
            (gate!("ignore-stdin-eof", "--baseline", "{dir}/baseline.toml"), 0, &[], &[]),
            (gate!("ignore-stdin-eof", "--baseline", "{dir}/baseline.toml", "--strict-baseline"),
             1, &[], &["stale baseline entry, and --strict-baseline makes them fail"]),
        ],
        check: None,
    },
    Case {
        // ignore-stdin-eof only warns: fine unless --strict.
        name: "warnings fail under --strict (1)",
        files: &[],
        steps: &[(gate!("ignore-stdin-eof", "--strict"), 1, &[], &["--strict makes warnings fail"])],
        check: None,
    },
    Case {
        name: "a config file drives the run (0) and writes every format it names",
        files: &[CONFIG],
        steps: &[(&["run"], 0, &[], &[])],
        check: Some(config_reports_written),
    },
    Case {
        name: "a typo in the config file is a setup error (2), not silently ignored",
        files: &[("mcp-conformance.toml", "[run]\ntimout = 3\n")],
        steps: &[(&["run"], 2, &[], &["timout"])],
        check: None,
    },
    Case {
        name: "a failing generated case is saved (1) and replays: reproduced (1), not against the fixed server (0)",
        files: &[],
        steps: &[
            (&["run", "--revision", "2025-11-25", "--cases-dir", "{dir}/cases", "--", "{exe}", "reference-server", "--fault", "crash-on-astral"],
             1, &["replay: mcp-conformance replay"], &[]),
            (&["replay", "{case}"], 1, &["reproduced"], &[]),
            (&["replay", "{case}", "--", "{exe}", "reference-server"], 0, &["not reproduced"], &[]),
            // The same case against the conformant server reached over HTTP, started by
            // replay and stopped at the end.
            (&["replay", "{case}", "--url", "http://127.0.0.1:{port}/mcp", "--header", "Authorization: Bearer x", "--", "{exe}", "reference-server", "--http", "{port}"],
             0, &["not reproduced", "HTTP POST /mcp"], &[]),
        ],
        check: None,
    },
    Case {
        name: "replay against the config file's server, not the recorded one: a not-reproduced verdict names both (0)",
        files: &[("mcp-conformance.toml", "[server]\ncommand = \"{exe}\"\nargs = [\"reference-server\"]\n")],
        steps: &[
            (&["run", "--revision", "2025-11-25", "--cases-dir", "{dir}/cases", "--", "{exe}", "reference-server", "--fault", "crash-on-astral"],
             1, &["replay: mcp-conformance replay"], &[]),
            (&["replay", "{case}"], 0,
             &["not reproduced against the server of mcp-conformance.toml (the case recorded `"], &["replaying against the server of"]),
        ],
        check: None,
    },
    Case {
        name: "2026-07-28: the property phase runs on the modern-only server (0); a failing generated case is saved without a handshake (1) and replays: reproduced (1), not against the fixed server (0)",
        files: &[],
        steps: &[
            (&["run", "-v", "--revision", "2026-07-28", "--", "{exe}", "reference-server", "--era", "modern"],
             0, &["pass prop-server-survives: the server survived all", "or server/discover after it"], &[]),
            (&["run", "--revision", "2026-07-28", "--cases-dir", "{dir}/cases", "--", "{exe}", "reference-server", "--era", "modern", "--fault", "negative-id-stringified"],
             1, &["FAIL prop-id-roundtrip (2026-07-28)", "replay: mcp-conformance replay"], &[]),
            (&["replay", "{case}"], 1, &["reproduced"], &[]),
            (&["replay", "{case}", "--", "{exe}", "reference-server", "--era", "modern"], 0, &["not reproduced"], &[]),
        ],
        check: Some(modern_case_file),
    },
    Case {
        name: "fuzz finds a rare crash (1) with a minimal input, and nothing on the conformant server (0)",
        files: &[],
        steps: &[
            (&["fuzz", "--time", "3", "--timeout", "2", "--", "{exe}", "reference-server", "--fault", "crash-on-astral"],
             1, &["FAIL prop-server-survives", "minimal input"], &[]),
            (&["fuzz", "--time", "2", "--", "{exe}", "reference-server"], 0, &["0 distinct failures"], &[]),
        ],
        check: None,
    },
    Case {
        name: "fuzz --live finds a rare crash (1), and nothing on the conformant server (0)",
        files: &[],
        steps: &[
            (&["fuzz", "--live", "--time", "3", "--cases-dir", "{dir}/cases", "--", "{exe}", "reference-server", "--fault", "crash-on-astral"],
             1, &["FAIL prop-server-survives (Crash)"], &["mcp-conformance: 1 case file written to ", "/cases for 1 distinct failure;"]),
            (&["fuzz", "--live", "--time", "2", "--", "{exe}", "reference-server"], 0, &["0 distinct failures"], &["no case file written"]),
            // Over HTTP: the server started by fuzz, reached at its URL.
            (&["fuzz", "--live", "--time", "2", "--url", "http://127.0.0.1:{port}/mcp", "--", "{exe}", "reference-server", "--http", "{port}"],
             0, &["0 distinct failures"], &["no case file written"]),
        ],
        check: None,
    },
    Case {
        name: "fuzz and replay read ./mcp-conformance.toml as run does: its server (2 without the --env it needs), its deny_tool (never called by fuzz --live), its cases_dir; replay refuses a case calling a denied tool (2) unless --call-denied; --cwd reaches the server",
        files: &[FUZZ_CONFIG, ("sub/keep", "")],
        steps: &[
            (&["fuzz", "--live", "--time", "1"], 2, &[], &["start the server `bash -c", "exited (exit status 3)"]),
            // The command line's server wins over the file's; the file's deny_tool stays.
            (&["fuzz", "--live", "--time", "2", "--", "bash", "-c", "exec '{exe}' reference-server < <(exec tee -a in.log)"],
             0, &["0 distinct failures"], &[]),
            (&["fuzz", "--time", "1", "--call", "none", "--env", "MCPX=yes"], 0, &["0 distinct failures"], &[]),
            (&["fuzz", "--live", "--time", "3", "--env", "MCPX=yes"],
             1, &["FAIL prop-server-survives (Crash)"], &["1 case file written to cases for 1 distinct failure;"]),
            (&["replay", "{case}", "--env", "MCPX=yes", "--cwd", "{dir}/sub"], 1, &["reproduced"], &[]),
            (&["replay", "{case}", "--env", "MCPX=yes", "--deny-tool", "*"], 2, &[], &["which is ruled out (not called: --deny-tool *); --call-denied replays it anyway"]),
            (&["replay", "{case}", "--env", "MCPX=yes", "--deny-tool", "*", "--call-denied"], 1, &["reproduced"], &["anyway (--call-denied"]),
        ],
        check: Some(denied_tool_never_called),
    },
    Case {
        name: "a saved crash input becomes a case file (1) that replays the crash (1) and passes the fixed server (0)",
        files: &[],
        steps: &[
            (&["fuzz", "--input", "{crash}", "--cases-dir", "{dir}/cases", "--", "{exe}", "reference-server", "--fault", "crash-on-astral"],
             1, &["input "], &[]),
            (&["replay", "{case}", "--", "{exe}", "reference-server", "--fault", "crash-on-astral"], 1, &["reproduced"], &[]),
            (&["replay", "{case}", "--", "{exe}", "reference-server"], 0, &["not reproduced"], &[]),
        ],
        check: None,
    },
    Case {
        name: "shell completions come from the command line's own definition (0); explain links the spec page (0)",
        files: &[],
        steps: &[
            (&["completions", "bash"], 0, &["mcp-conformance", "--deny-tool", "--skip-check"], &[]),
            // explain links the check's spec page.
            (&["explain", "tc-err-unknown-tool"], 0,
             &["Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools"], &[]),
        ],
        check: None,
    },
];

/// Every case, on as many threads as there are cores; then, one at a time, the cases that
/// fuzz for a fixed `--time` (beside other cases on a loaded machine they find less).
/// Every mismatch is reported.
#[test]
fn exit_codes_and_output() {
    let timed = |case: &Case| case.steps.iter().any(|(args, ..)| args.contains(&"--time"));
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let record = |index: usize, case: &Case| {
        if let Err(e) = run_case(index, case) {
            failures.lock().unwrap().push(format!("{}: {e}", case.name));
        }
    };
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                let Some(case) = CASES.get(index) else { break };
                if !timed(case) {
                    record(index, case);
                }
            });
        }
    });
    for (index, case) in CASES.iter().enumerate().filter(|(_, c)| timed(c)) {
        record(index, case);
    }
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

fn run_case(index: usize, case: &Case) -> Result<(), String> {
    let dir = temp_dir(&format!("cli-{index}"));
    let fill = |text: &str| {
        text.replace("{exe}", EXE)
            .replace("{dir}", &dir.to_string_lossy())
            .replace("{crash}", CRASH_INPUT)
    };
    for (name, text) in case.files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, fill(text)).unwrap();
    }
    let mut outputs = Vec::new();
    for (args, code, stdout, stderr) in case.steps {
        // Chosen for each step, just before it runs (the server binds it at once).
        let port = common::free_port().to_string();
        let args: Vec<String> = args
            .iter()
            .map(|a| match *a {
                "{case}" => first_file(&dir.join("cases"))
                    .to_string_lossy()
                    .into_owned(),
                a => fill(a).replace("{port}", &port),
            })
            .collect();
        let out = Command::new(EXE)
            .args(&args)
            .current_dir(&dir)
            .output()
            .unwrap();
        let (out_text, err_text) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        let missing: Vec<_> = (stdout.iter().filter(|s| !out_text.contains(*s)))
            .chain(stderr.iter().filter(|s| !err_text.contains(*s)))
            .collect();
        if out.status.code() != Some(*code) || !missing.is_empty() {
            return Err(format!(
                "`mcp-conformance {}` exited {:?} (expected {code}), missing {missing:?}\n\
                 stdout: {}\nstderr: {}",
                args.join(" "),
                out.status.code(),
                tail(&out_text),
                tail(&err_text)
            ));
        }
        outputs.push(out);
    }
    if let Some(check) = case.check {
        check(&dir, &outputs);
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// `-q`: the last step's stdout is one line.
fn one_line(_: &Path, outputs: &[Output]) {
    let text = String::from_utf8_lossy(&outputs.last().unwrap().stdout);
    assert_eq!(text.lines().count(), 1, "{text}");
}

/// `mcp-conformance list | head` and `run ... | head` panicked on the closed pipe (exit
/// 101). Stdout here is a pipe whose reader is already gone, so every write fails.
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    let cases: &[(&[&str], i32)] = &[
        (&["list"], 0),
        (&["explain", "rpc-id-echo"], 0),
        (
            &[
                "run",
                "--reference",
                "--revision",
                "2025-11-25",
                "--cases",
                "0",
            ],
            0,
        ),
        (
            &[
                "run",
                "--revision",
                "2025-11-25",
                "--cases",
                "0",
                "--",
                EXE,
                "reference-server",
                "--fault",
                "ping-nonempty",
            ],
            1,
        ),
    ];
    let dir = temp_dir("closed-pipe");
    for (args, code) in cases {
        let (reader, writer) = nix::unistd::pipe().unwrap();
        drop(reader);
        let out = Command::new(EXE)
            .args(*args)
            .current_dir(&dir)
            .stdout(std::process::Stdio::from(writer))
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(*code), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("panicked") && !stderr.contains("failed to"),
            "{args:?}: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A 2026-07-28 case file has no handshake, and every request carries the per-request
/// `_meta` and no `ping` (that revision removed it).
fn modern_case_file(dir: &Path, _: &[Output]) {
    let case: serde_json::Value =
        serde_json::from_slice(&std::fs::read(first_file(&dir.join("cases"))).unwrap()).unwrap();
    assert_eq!(case["revision"], "2026-07-28");
    let messages = case["messages"].as_array().unwrap();
    assert!(!messages.is_empty());
    for m in messages
        .iter()
        .map(|m| &m["send"])
        .filter(|m| m.get("id").is_some())
    {
        assert!(m["method"] != "initialize" && m["method"] != "ping", "{m}");
        assert_eq!(
            m["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28",
            "{m}"
        );
    }
}

fn incomplete_json_report(dir: &Path, _: &[Output]) {
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("report.json")).unwrap()).unwrap();
    let cut = &json["incomplete"];
    assert_eq!(cut["reason"], "--max-time of 3 s reached", "{json}");
    assert_eq!(
        cut["not_run"],
        serde_json::json!(["2025-06-18", "2025-11-25"])
    );
    assert_eq!(cut["negotiation_ran"], false);
    assert_eq!(json["revisions"], serde_json::json!([]));
}

/// Two runs at different `--jobs` give the same JSON report, apart from the measured
/// timing section, which must be there and count the work done.
fn same_report_for_any_jobs(dir: &Path, _: &[Output]) {
    let read = |name: &str| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(dir.join(name)).unwrap()).unwrap()
    };
    let (mut one, mut three) = (read("one.json"), read("three.json"));
    let timing = one["timing"].take();
    assert_eq!(timing["jobs"], 1);
    assert_eq!(three["timing"].take()["jobs"], 3);
    assert_eq!(
        timing["revisions"].as_array().map(Vec::len),
        Some(mcp_conformance::protocol::REVISIONS.len()),
        "{timing}"
    );
    let processes = timing["processes"].as_u64().unwrap();
    assert!(
        processes >= 6,
        "four revisions and the negotiation probes: {timing}"
    );
    assert!(timing["requests"].as_u64().unwrap() > 4 * 10, "{timing}");
    // Over stdio, no process is started where a healthy one can go on: per handshake
    // revision the scripted session's and the edge probes' (the property phase starts on
    // the latter, the sequences go on it); in 2026-07-28 also the `initialize` probe's.
    for revision in timing["revisions"].as_array().unwrap() {
        let want = if revision["revision"] == "2026-07-28" {
            3
        } else {
            2
        };
        assert_eq!(revision["processes"], want, "{revision}");
    }
    assert_eq!(one, three);
}

fn json_report_shape(dir: &Path, _: &[Output]) {
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["schema_version"], 1);
    assert_eq!(json["tool"]["name"], "mcp-conformance");
    assert_eq!(json["revisions"][0]["revision"], "2025-11-25");
    assert_eq!(json["revisions"][0]["negotiated"], "2025-11-25");
    assert_eq!(json["summary"]["fail"], 0);
    let first = &json["revisions"][0]["results"][0];
    for key in ["check", "level", "status", "message", "evidence"] {
        assert!(first.get(key).is_some(), "result lacks {key}: {first}");
    }
}

fn dictionary_skips_comments_and_target(_: &Path, outputs: &[Output]) {
    let dict = String::from_utf8_lossy(&outputs[0].stdout);
    assert!(
        !dict.contains("a comment") && !dict.contains("in target"),
        "{dict}"
    );
}

fn lists_every_check(_: &Path, outputs: &[Output]) {
    let text = String::from_utf8_lossy(&outputs[0].stdout);
    for check in mcp_conformance::checks::CATALOG {
        assert!(
            text.contains(check.id.as_str()),
            "{} missing from list",
            check.id
        );
    }
}

fn config_reports_written(dir: &Path, _: &[Output]) {
    for file in [
        "mcp-conformance.junit.xml",
        "mcp-conformance.sarif",
        "mcp-conformance.md",
        "mcp-conformance.json",
    ] {
        assert!(dir.join("out").join(file).is_file(), "{file} written");
    }
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("out/mcp-conformance.json")).unwrap())
            .unwrap();
    assert_eq!(json["revisions"].as_array().unwrap().len(), 1);
}

/// The `--check lc-* --skip-check lc-ping*` run reports no other check, and not lc-ping.
fn only_lc_checks(_: &Path, outputs: &[Output]) {
    let stdout = String::from_utf8_lossy(&outputs[0].stdout);
    for line in stdout.lines() {
        let id = line
            .strip_prefix("pass ")
            .or_else(|| line.strip_prefix("skip "))
            .and_then(|l| l.split(':').next());
        if let Some(id) = id {
            assert!(
                id.starts_with("lc-") && !id.starts_with("lc-ping"),
                "{line}"
            );
        }
    }
}

/// A server dead on start prints no report, only the one error.
fn no_findings_printed(_: &Path, outputs: &[Output]) {
    for output in outputs {
        assert!(
            output.stdout.is_empty(),
            "{}",
            String::from_utf8_lossy(&output.stdout)
        );
    }
}

/// `fuzz --live` called tools, but never the denied `echo`; replay ran in `--cwd`.
fn denied_tool_never_called(dir: &Path, _: &[Output]) {
    let log = std::fs::read(dir.join("in.log")).unwrap();
    let called: Vec<String> = String::from_utf8_lossy(&log)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["method"] == "tools/call")
        .filter_map(|m| m["params"]["name"].as_str().map(str::to_string))
        .collect();
    assert!(
        called.iter().filter(|n| *n == "add").count() > 10,
        "tools were called"
    );
    assert!(!called.iter().any(|n| n == "echo"), "echo is denied");
    assert!(dir.join("sub/in.log").is_file(), "replay ran in --cwd");
}

/// The written baseline has one entry with a reason to fill in.
fn baseline_written(dir: &Path, _: &[Output]) {
    let text = std::fs::read_to_string(dir.join("b.toml")).unwrap();
    assert_eq!(text.matches("[[expected]]").count(), 1, "{text}");
    assert!(text.contains("reason = \"TODO: "), "{text}");
}

fn first_file(dir: &Path) -> PathBuf {
    std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .next()
        .expect("a saved case")
        .unwrap()
        .path()
}

/// The last 2000 bytes or so, for a failure message.
fn tail(text: &str) -> &str {
    let mut start = text.len().saturating_sub(2000);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-conformance-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Ctrl-C ends the run with 130 and kills the server's whole process group first.
#[test]
fn interrupt_exits_130_and_leaves_no_server_behind() {
    interrupted_with_no_server_behind(&["run", "--timeout", "60"], "int");
}

/// SIGTERM (what `timeout` and a cancelled CI job send) and SIGHUP end the run the same
/// way, with 128 + the signal's number.
#[test]
fn sigterm_and_sighup_end_the_servers_first() {
    use nix::sys::signal::Signal;
    signalled_with_no_server_behind(&["run", "--timeout", "60"], "term", Signal::SIGTERM, 143);
    signalled_with_no_server_behind(&["run", "--timeout", "60"], "hup", Signal::SIGHUP, 129);
}

/// SIGTERM while the property phase builds the strategies of heavy schemas (issue 48):
/// the builders ask, at every schema node, the interrupt the signal handler raises, so
/// the run ends with the report of what finished instead of finishing the build first.
/// Told by CPU time, which load does not stretch: a run left alone spends some seconds of
/// CPU, nearly all of it building (the scripted conversation takes a fraction of one);
/// signalled at a third of that, the run may spend little more before it exits.
#[test]
fn sigterm_during_strategy_building_ends_the_run_at_once() {
    let alone = heavy_run("build-alone", RUN_HEAVY, None);
    assert_eq!(alone.code, Some(1), "two checks fail on heavy-schemas");
    let at = alone.cpu_at_exit / 3;
    assert!(
        at >= std::time::Duration::from_secs(1),
        "the build is too quick ({:?} of CPU in all) to be signalled in: raise its size",
        alone.cpu_at_exit
    );
    let cut = heavy_run("build-cut", RUN_HEAVY, Some(at));
    assert_eq!(cut.code, Some(143));
    let after = cut.cpu_at_exit.saturating_sub(cut.cpu_at_signal);
    assert!(
        after < alone.cpu_at_exit / 4,
        "{after:?} of CPU after SIGTERM, of {:?} for the whole run",
        alone.cpu_at_exit
    );
    assert!(
        cut.stdout.contains("INCOMPLETE: interrupted by SIGTERM"),
        "{}",
        cut.stdout
    );
}

/// The same in `fuzz` (the property generators round after round): the strategies of the
/// first round are built for seconds of CPU; SIGTERM a second into it ends the session
/// (143, every server gone) within a fraction of that, where the signal's default action
/// used to end the process (no exit code, nothing said of what was found).
#[test]
fn sigterm_during_strategy_building_ends_fuzz_at_once() {
    let at = std::time::Duration::from_secs(1);
    let cut = heavy_run("fuzz-build-cut", FUZZ_HEAVY, Some(at));
    assert_eq!(cut.code, Some(143), "{}", cut.stdout);
    let after = cut.cpu_at_exit.saturating_sub(cut.cpu_at_signal);
    assert!(
        after < std::time::Duration::from_millis(750),
        "{after:?} of CPU after SIGTERM"
    );
}

/// `run` on one revision, for [`heavy_run`].
const RUN_HEAVY: &[&str] = &["run", "--revision", "2025-06-18", "--timeout", "10"];
/// `fuzz` on one revision for far longer than the test, for [`heavy_run`].
const FUZZ_HEAVY: &[&str] = &[
    "fuzz",
    "--revision",
    "2025-06-18",
    "--timeout",
    "10",
    "--time",
    "600",
];

/// What [`heavy_run`] saw.
struct HeavyRun {
    code: Option<i32>,
    cpu_at_signal: std::time::Duration,
    cpu_at_exit: std::time::Duration,
    stdout: String,
}

/// One run of the subcommand `args` against hostile `heavy-schemas` at size 16, sent
/// SIGTERM once it has spent `signal_at` of CPU, if given; every server it started is
/// gone after it.
fn heavy_run(label: &str, args: &[&str], signal_at: Option<std::time::Duration>) -> HeavyRun {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    use std::io::Read;
    use std::time::{Duration, Instant};

    let dir = temp_dir(label);
    let started = dir.join("started");
    let server = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/python/hostile_server.py"
    );
    let mut harness = Command::new(EXE)
        .args(args)
        .args(["--", "python3", server, "heavy-schemas", "16"])
        .env("HOSTILE_STARTED", &started)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = harness.id();
    let mut stdout = harness.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    // A hang guard, not a measure.
    let deadline = Instant::now() + Duration::from_secs(300);
    let mut cpu_at_signal = Duration::ZERO;
    if let Some(at) = signal_at {
        loop {
            let (cpu, ended) = cpu_spent(pid);
            assert!(!ended, "the run ended before it spent {at:?} of CPU");
            assert!(Instant::now() < deadline, "the run hung");
            if cpu >= at {
                cpu_at_signal = cpu;
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        kill(Pid::from_raw(pid as i32), Signal::SIGTERM).unwrap();
    }
    // Its CPU time is still readable once it has exited and before it is reaped.
    let cpu_at_exit = loop {
        let (cpu, ended) = cpu_spent(pid);
        if ended {
            break cpu;
        }
        assert!(Instant::now() < deadline, "the run hung");
        std::thread::sleep(Duration::from_millis(20));
    };
    let code = harness.wait().unwrap().code();
    let stdout = reader.join().unwrap();
    assert_servers_gone(&started, label);
    let _ = std::fs::remove_dir_all(&dir);
    HeavyRun {
        code,
        cpu_at_signal,
        cpu_at_exit,
        stdout,
    }
}

/// User and system CPU time process `pid` has spent, from `/proc/PID/stat` (in clock
/// ticks of 1/100 s, Linux's USER_HZ), and whether it has exited (a zombie not yet
/// reaped, whose times still read).
fn cpu_spent(pid: u32) -> (std::time::Duration, bool) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command's closing parenthesis: the state is the first, utime
    // the 12th and stime the 13th.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
    let total = ticks(11).unwrap_or(0) + ticks(12).unwrap_or(0);
    let ended = fields
        .first()
        .is_none_or(|state| *state == "Z" || *state == "X");
    (std::time::Duration::from_millis(total * 10), ended)
}

/// The same for the live fuzz mode, stuck in the handshake of a server that never answers.
#[test]
fn live_fuzz_interrupt_exits_130_and_leaves_no_server_behind() {
    interrupted_with_no_server_behind(&["fuzz", "--live", "--timeout", "60"], "int-live");
}

/// SIGTERM and SIGHUP end `fuzz --live` and `fuzz --coverage` as they end `run`: servers
/// first, then 128 + the signal. Both used to catch SIGINT only, so SIGTERM (a cancelled
/// CI job) ended the process by its default action, its servers left to the reaper.
#[test]
fn live_and_coverage_fuzz_heed_sigterm_and_sighup() {
    use nix::sys::signal::Signal;
    let live = &["fuzz", "--live", "--timeout", "60"];
    signalled_with_no_server_behind(live, "term-live", Signal::SIGTERM, 143);
    signalled_with_no_server_behind(live, "hup-live", Signal::SIGHUP, 129);
    // A Python server, so that the coverage agent loads; it never answers the handshake.
    let coverage = &["fuzz", "--coverage", "--timeout", "60", "--time", "600"];
    let silent = |pidfile: &Path| {
        let code = format!(
            "import os, time\nwith open({:?}, 'a') as f: f.write(f'{{os.getpid()}}\\n')\ntime.sleep(300)",
            pidfile.display().to_string()
        );
        vec!["python3".to_string(), "-c".to_string(), code]
    };
    signalled_server_gone(coverage, &silent, "term-cov", Signal::SIGTERM, 143);
}

fn interrupted_with_no_server_behind(args: &[&str], label: &str) {
    signalled_with_no_server_behind(args, label, nix::sys::signal::Signal::SIGINT, 130);
}

fn signalled_with_no_server_behind(
    args: &[&str],
    label: &str,
    signal: nix::sys::signal::Signal,
    code: i32,
) {
    // Several servers may start at once (revisions run concurrently, and the version
    // probe beside them): each appends its pid, one line each.
    let silent = |pidfile: &Path| {
        let script = format!("echo $$ >> '{}'; exec sleep 300", pidfile.display());
        vec!["sh".to_string(), "-c".to_string(), script]
    };
    signalled_server_gone(args, &silent, label, signal, code);
}

/// `args` against the server `server(pidfile)` (one that appends its pid to `pidfile`
/// and never answers), sent `signal` once it started: the exit code is `code` and every
/// server is gone.
fn signalled_server_gone(
    args: &[&str],
    server: &dyn Fn(&Path) -> Vec<String>,
    label: &str,
    signal: nix::sys::signal::Signal,
    code: i32,
) {
    use nix::sys::signal::kill;
    use nix::unistd::Pid;
    use std::time::{Duration, Instant};

    let dir = temp_dir(label);
    let pidfile = dir.join("server.pid");
    let harness = Command::new(EXE)
        .args(args)
        .arg("--")
        .args(server(&pidfile))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let started = || std::fs::read_to_string(&pidfile).is_ok_and(|t| t.ends_with('\n'));
    while !started() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    kill(Pid::from_raw(harness.id() as i32), signal).unwrap();
    let output = harness.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(code), "{signal:?}");
    if args[0] == "run" {
        // The report of what finished is still written, marked incomplete.
        let stdout = String::from_utf8_lossy(&output.stdout);
        let name = format!("{signal:?}");
        assert!(
            stdout.contains(&format!("INCOMPLETE: interrupted by {name}")),
            "{stdout}"
        );
    }
    assert_servers_gone(&pidfile, label);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every server that got as far as writing its pid to `pidfile` (one per line, complete
/// lines only) is gone within a few seconds of the run's end; there was at least one.
fn assert_servers_gone(pidfile: &Path, label: &str) {
    use std::time::{Duration, Instant};
    let servers: Vec<u32> = std::fs::read_to_string(pidfile)
        .unwrap()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    assert!(!servers.is_empty());
    let deadline = Instant::now() + Duration::from_secs(5);
    while !servers.iter().all(|&pid| common::is_gone(pid)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    for pid in servers {
        assert!(
            common::is_gone(pid),
            "{label}: server {pid} survived the run"
        );
    }
}
