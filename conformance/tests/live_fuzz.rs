//! The live-server fuzz target, driven without libFuzzer: no finding on the conformant
//! reference server (in every revision, and in 2026-07-28 on the modern-only server too),
//! the reference server's input-dependent faults found from pseudo-random inputs (in
//! 2025-11-25 and, without a handshake, in 2026-07-28), and the saved crash inputs of
//! `fuzz/artifacts/` as named regression tests (each still found against its fault, none
//! against the conformant server), their case files replayed by `mcp-conformance replay`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use mcp_conformance::fuzzing::{Finding, LiveConfig, LiveTarget};
use mcp_conformance::protocol::{Revision, REVISIONS};
use mcp_conformance::rules::FailureKind;
use mcp_conformance::scenarios::CallPolicy;
use mcp_conformance::transport::ServerCommand;

fn reference(fault: Option<&str>) -> ServerCommand {
    reference_in(fault, &[])
}

/// The reference server with `fault`, and `extra` arguments (`--era modern`).
fn reference_in(fault: Option<&str>, extra: &[&str]) -> ServerCommand {
    let mut args = vec!["reference-server".to_string()];
    args.extend(extra.iter().map(|a| a.to_string()));
    if let Some(f) = fault {
        args.extend(["--fault".to_string(), f.to_string()]);
    }
    ServerCommand::new(env!("CARGO_BIN_EXE_mcp-conformance"), args)
}

fn target(fault: Option<&str>, revision: &'static Revision, cases: Option<PathBuf>) -> LiveTarget {
    target_of(reference(fault), revision, cases)
}

fn target_of(
    command: ServerCommand,
    revision: &'static Revision,
    cases: Option<PathBuf>,
) -> LiveTarget {
    LiveTarget::start(LiveConfig {
        command,
        revision,
        timeout: Duration::from_secs(2),
        policy: CallPolicy::default(),
        cases_dir: cases,
        interrupt: None,
        ignore: Vec::new(),
    })
    .expect("the reference server starts")
}

/// Deterministic pseudo-random inputs (an LCG), as libFuzzer's first ones would be.
fn inputs(seed: u64, count: usize) -> impl Iterator<Item = Vec<u8>> {
    let mut state = seed;
    (0..count).map(move |i| {
        let len = 8 + (i * 7) % 120;
        (0..len)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (state >> 56) as u8
            })
            .collect()
    })
}

fn first_finding(target: &mut LiveTarget, seed: u64, count: usize) -> Option<(Vec<u8>, Finding)> {
    inputs(seed, count).find_map(|data| target.run(&data).map(|f| (data, f)))
}

#[test]
fn conformant_reference_server_gives_no_finding_in_any_revision() {
    for revision in REVISIONS {
        let mut t = target(None, revision, None);
        assert!(!t.tools().is_empty(), "the reference server lists tools");
        if let Some((data, finding)) = first_finding(&mut t, 7, 600) {
            panic!(
                "{}: false alarm on input {data:?}\n{}",
                revision.id,
                finding.report()
            );
        }
        assert_eq!(t.execs, 600);
    }
}

/// A modern-only server refuses `initialize`: the live target opens a 2026-07-28 session
/// without a handshake, asks `server/discover` where it pinged, and finds nothing on the
/// conformant server.
#[test]
fn conformant_modern_only_reference_server_gives_no_finding_in_2026_07_28() {
    let revision = Revision::find(R5).unwrap();
    let mut t = target_of(reference_in(None, &["--era", "modern"]), revision, None);
    assert!(!t.tools().is_empty(), "the modern-only server lists tools");
    if let Some((data, finding)) = first_finding(&mut t, 7, 600) {
        panic!("false alarm on input {data:?}\n{}", finding.report());
    }
    assert_eq!(t.execs, 600);
}

/// Faults that only some inputs trigger, the check the target must report, and the
/// failure kind.
const RARE: &[(&str, &str, FailureKind)] = &[
    (
        "crash-on-astral",
        "prop-server-survives",
        FailureKind::Crash,
    ),
    ("cancel-crash", "prop-server-survives", FailureKind::Crash),
    (
        "negative-id-stringified",
        "rpc-id-echo",
        FailureKind::IdNotEchoed,
    ),
    // Replays judge results and envelopes too.
    (
        "structured-content-mismatch",
        "tc-outputschema-conform",
        FailureKind::InvalidResult,
    ),
    (
        "is-error-string",
        "schema-server-messages",
        FailureKind::InvalidResult,
    ),
    (
        "jsonrpc-version",
        "rpc-jsonrpc-version",
        FailureKind::InvalidMessage,
    ),
];

/// Faults the live target finds in 2026-07-28, whose case files (no handshake, every
/// request with its `_meta`) replay in a modern session.
const RARE_MODERN: &[(&str, &str, FailureKind)] = &[
    (
        "crash-on-astral",
        "prop-server-survives",
        FailureKind::Crash,
    ),
    (
        "negative-id-stringified",
        "rpc-id-echo",
        FailureKind::IdNotEchoed,
    ),
    (
        "no-result-type",
        "schema-server-messages",
        FailureKind::InvalidResult,
    ),
];

#[test]
fn input_dependent_faults_are_found_confirmed_and_saved() {
    rare_faults(R4, RARE);
}

#[test]
fn input_dependent_faults_are_found_and_replayed_in_2026_07_28() {
    rare_faults(R5, RARE_MODERN);
    // A modern case file has no handshake and stamps every request.
    let dir = tempdir("modern-case");
    let mut t = target(
        Some("no-result-type"),
        Revision::find(R5).unwrap(),
        Some(dir),
    );
    let (_, finding) = first_finding(&mut t, 11, 5000).expect("found");
    let messages = &finding.case.messages;
    assert!(messages.iter().all(|m| m.send["method"] != "initialize"));
    for m in messages.iter().filter(|m| m.send.get("id").is_some()) {
        assert_eq!(
            m.send["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], R5,
            "{}",
            m.send
        );
        assert_ne!(m.send["method"], "ping", "{}", m.send);
    }
}

fn rare_faults(revision: &str, rows: &[(&str, &str, FailureKind)]) {
    let revision = Revision::find(revision).unwrap();
    let dir = tempdir(&format!("rare-{}", revision.id));
    for (fault, check, kind) in rows {
        let mut t = target(Some(fault), revision, Some(dir.clone()));
        let (_, finding) = first_finding(&mut t, 11, 5000)
            .unwrap_or_else(|| panic!("{fault}: not found in 5000 inputs"));
        assert_eq!(
            (finding.check.as_str(), &finding.kind),
            (*check, kind),
            "{fault}\n{}",
            finding.report()
        );
        assert!(
            finding.reproduced,
            "{fault}: not confirmed\n{}",
            finding.report()
        );
        let saved = finding.saved.as_ref().expect("case file written");
        assert!(finding.report().contains(&saved.display().to_string()));
        // The case file replays: the failure shows again (exit 1), and not against the
        // conformant server (exit 0).
        assert_eq!(
            replay(saved, Some(fault)),
            Some(1),
            "{fault}: replay against the fault"
        );
        assert_eq!(
            replay(saved, None),
            Some(0),
            "{fault}: replay against the conformant server"
        );
    }
}

fn replay(case: &Path, fault: Option<&str>) -> Option<i32> {
    let server = reference(fault);
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-conformance"))
        .arg("replay")
        .arg(case)
        .arg("--")
        .arg(&server.program)
        .args(&server.args)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("replay runs");
    status.code()
}

fn tempdir(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "mcp-conformance-live-{label}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What the live target finds against each reference-server fault in 3000 inputs: the
/// check and the kind, or nothing (the fault breaks a rule outside the live oracle, such as
/// an error class or the handshake, which the scripted suite judges). A fault missing here
/// fails the test, so a new fault gets a considered row.
const LIVE: &[LiveRow] = &[
    ("stdout-log", R4, None),
    (
        "invalid-utf8",
        R4,
        Some(("rpc-stdio-framing", FailureKind::InvalidMessage)),
    ),
    (
        "jsonrpc-version",
        R4,
        Some(("rpc-jsonrpc-version", FailureKind::InvalidMessage)),
    ),
    (
        "result-and-error",
        R4,
        Some(("rpc-resp-exclusive", FailureKind::InvalidMessage)),
    ),
    (
        "id-stringified",
        R4,
        Some(("rpc-id-echo", FailureKind::IdNotEchoed)),
    ),
    (
        "error-no-message",
        R4,
        Some(("rpc-error-shape", FailureKind::InvalidMessage)),
    ),
    (
        "error-id-dropped",
        R4,
        Some(("rpc-error-id", FailureKind::IdNotEchoed)),
    ),
    ("error-message-multiline", R4, None),
    ("parse-error-silent", R4, None),
    ("parse-error-wrong-code", R4, None),
    ("invalid-request-wrong-code", R4, None),
    ("method-not-found-wrong-code", R4, None),
    ("ping-nonempty", R4, None),
    (
        "reply-to-notification",
        R4,
        Some(("lc-initialized-no-reply", FailureKind::InvalidMessage)),
    ),
    ("no-server-info", R4, None),
    ("capabilities-null", R4, None),
    ("no-tools-capability", R4, None),
    ("version-echo-unsupported", R4, None),
    ("version-unsupported-answer", R4, None),
    ("version-error", R4, None),
    (
        "crash-on-tools-list",
        R4,
        Some(("prop-server-survives", FailureKind::Crash)),
    ),
    (
        "hang-on-tools-list",
        R4,
        Some(("prop-server-survives", FailureKind::Stall)),
    ),
    ("ignore-stdin-eof", R4, None),
    ("flood-on-stdin-eof", R4, None),
    (
        "tool-missing-input-schema",
        R4,
        Some(("schema-server-messages", FailureKind::InvalidResult)),
    ),
    (
        "input-schema-not-object",
        R4,
        Some(("schema-server-messages", FailureKind::InvalidResult)),
    ),
    ("input-schema-invalid", R4, None),
    (
        "output-schema-not-object",
        R4,
        Some(("tc-outputschema-conform", FailureKind::InvalidResult)),
    ),
    ("duplicate-tool-name", R4, None),
    ("tool-name-invalid-chars", R4, None),
    ("tool-name-too-long", R4, None),
    ("tool-names-differ-by-case", R4, None),
    ("pagination-cycle", R4, None),
    ("invalid-cursor-accepted", R4, None),
    ("unstable-listing", R4, None),
    ("audio-in-2024", R4, None),
    (
        "audio-in-2024",
        R1,
        Some(("schema-server-messages", FailureKind::InvalidResult)),
    ),
    ("bad-base64", R4, None),
    (
        "missing-structured-content",
        R4,
        Some(("tc-outputschema-presence", FailureKind::InvalidResult)),
    ),
    (
        "structured-content-mismatch",
        R4,
        Some(("tc-outputschema-conform", FailureKind::InvalidResult)),
    ),
    ("no-text-mirror", R4, None),
    ("error-without-explanation", R4, None),
    ("unknown-tool-success", R4, None),
    ("malformed-call-accepted", R4, None),
    (
        "arguments-not-object-accepted",
        R4,
        Some(("tc-err-arguments-type", FailureKind::InvalidAccepted)),
    ),
    (
        "arguments-omitted-crash",
        R4,
        Some(("tc-arguments-omitted", FailureKind::Crash)),
    ),
    ("invalid-arguments-accepted", R4, None),
    ("invalid-arguments-protocol-error", R4, None),
    ("tool-error-as-protocol-error", R4, None),
    // Task negotiation needs task-augmented calls, which the live target never sends;
    // a plain call of the tool that requires a task is refused the same way faulty or not
    // but for task-required-runs-plain, whose isError result breaks no MUST it judges.
    ("task-required-runs-plain", R4, None),
    ("task-forbidden-accepted", R4, None),
    ("task-create-plain-result", R4, None),
    ("task-support-undeclared", R4, None),
    ("list-changed-undeclared", R4, None),
    (
        "list-changed-malformed",
        R4,
        Some(("schema-server-messages", FailureKind::InvalidResult)),
    ),
    (
        "is-error-string",
        R4,
        Some(("schema-server-messages", FailureKind::InvalidResult)),
    ),
    (
        "tool-result-legacy-shape",
        R4,
        Some(("schema-server-messages", FailureKind::InvalidResult)),
    ),
    ("roots-request", R4, None),
    ("batch-ignored", R4, None),
    (
        "crash-on-astral",
        R4,
        Some(("prop-server-survives", FailureKind::Crash)),
    ),
    (
        "crash-after-answer",
        R4,
        Some(("prop-server-survives", FailureKind::Crash)),
    ),
    // A tool that never answers while the server answers ping may be a slow tool: the
    // live target stops calling it and reports nothing (the property phase judges it).
    ("stall-on-long-string", R4, None),
    // A slow answer is not a MUST broken: the live target notes the tool and moves on.
    ("slow-tool", R4, None),
    // A rate limiter's late answers are slow answers: noted, no finding.
    ("rate-limit", R4, None),
    // Warning-grade answers and faults of probes the live target does not send (an empty
    // batch exists in 2025-03-26 only; it closes no stdin).
    ("thirty-tools-wrong-class", R4, None),
    ("arguments-omitted-refused", R4, None),
    ("noop-down", R4, None),
    ("tools-list-server-error", R4, None),
    ("tools-list-not-found", R4, None),
    ("empty-batch-crash", R4, None),
    ("empty-batch-crash-ignore-eof", R4, None),
    ("nested-wrong-class", R4, None),
    (
        "negative-id-stringified",
        R4,
        Some(("rpc-id-echo", FailureKind::IdNotEchoed)),
    ),
    ("long-method-answered", R4, None),
    (
        "long-cursor-crash",
        R4,
        Some(("prop-server-survives", FailureKind::Crash)),
    ),
    (
        "long-cursor-exit-after-answer",
        R4,
        Some(("prop-server-survives", FailureKind::Crash)),
    ),
    ("long-cursor-internal-error", R4, None),
    (
        "pipelined-drop",
        R4,
        Some(("prop-server-survives", FailureKind::Stall)),
    ),
    (
        "cancel-crash",
        R4,
        Some(("prop-server-survives", FailureKind::Crash)),
    ),
    // Scripted-only: the live target sends no progressToken on tools/call, and an error
    // to tools/list with _meta is judged by the scripted suite only.
    ("list-meta-rejected", R4, None),
    ("progress-token-changed", R4, None),
    ("progress-decreasing", R4, None),
    ("progress-after-response", R4, None),
    // 2026-07-28, fuzzed without a handshake. The modern faults break rules the live
    // oracle judges only where the schema says so (a required member missing); the rest
    // are the scripted suite's (m-* checks).
    (
        "discover-no-cache-hints",
        R5,
        Some(("schema-server-messages", FailureKind::InvalidResult)),
    ),
    ("no-server-info-modern", R5, None),
    ("meta-not-required", R5, None),
    ("clientinfo-required", R5, None),
    ("unsupported-version-wrong-code", R5, None),
    (
        "no-result-type",
        R5,
        Some(("schema-server-messages", FailureKind::InvalidResult)),
    ),
    (
        "list-no-cache-hints",
        R5,
        Some(("schema-server-messages", FailureKind::InvalidResult)),
    ),
    ("list-order-unstable", R5, None),
    ("stateful", R5, None),
    ("ping-answered-modern", R5, None),
    ("init-reject-unnamed", R5, None),
    ("server-request-modern", R5, None),
    ("log-without-level", R5, None),
    ("capability-not-required", R5, None),
    ("input-required-malformed", R5, None),
    ("subscription-no-ack", R5, None),
    ("reserved-error-code", R5, None),
    ("message-after-cancel-modern", R5, None),
    // Legacy faults the modern oracle finds the same way, and one it cannot see: ping is
    // gone in 2026-07-28, so a ping answered with jsonrpc 1.0 is never provoked.
    (
        "crash-on-astral",
        R5,
        Some(("prop-server-survives", FailureKind::Crash)),
    ),
    (
        "error-id-dropped",
        R5,
        Some(("rpc-error-id", FailureKind::IdNotEchoed)),
    ),
    (
        "pipelined-drop",
        R5,
        Some(("prop-server-survives", FailureKind::Stall)),
    ),
    ("jsonrpc-version", R5, None),
    // Scripted-only edge probes: the live target sends none of these inputs.
    ("init-params-accepted", R4, None),
    ("ping-before-initialized-refused", R4, None),
    ("batch-empty-array", R4, None),
    ("cancel-malformed-answered", R4, None),
    ("meta-key-invalid", R4, None),
    ("digit-string-id-parsed", R4, None),
    ("bad-id-answered", R4, None),
];
/// Faults that make the server modern-only: it refuses `initialize`, so the live target
/// cannot start against it in a handshake revision, and says so (in 2026-07-28 it can).
const NO_HANDSHAKE: &[&str] = &["init-reject-unnamed"];
/// Faults that depend on how the server's reads split the input: a fresh process may read
/// the same write in two pieces and behave, so their confirmation is not required.
const TIMING: &[&str] = &["pipelined-drop"];

/// A fault, the revision it is fuzzed in, and the check and kind the target must report.
type LiveRow = (
    &'static str,
    &'static str,
    Option<(&'static str, FailureKind)>,
);
const R1: &str = "2024-11-05";
const R4: &str = "2025-11-25";
const R5: &str = "2026-07-28";

#[test]
fn every_fault_meets_its_live_expectation() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-conformance"))
        .args(["reference-server", "--list-faults"])
        .output()
        .expect("the fault list");
    let faults: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split('\t').next().map(str::to_string))
        .collect();
    for fault in &faults {
        assert!(
            LIVE.iter().any(|(f, _, _)| f == fault),
            "fault {fault} has no row in LIVE"
        );
    }
    // Every check the live oracle reports is proven able to fail by some fault.
    for check in mcp_conformance::rules::CheckId::live_checks() {
        assert!(
            mcp_conformance::checks::find(check.as_str()).is_some(),
            "{check} is not in the catalog"
        );
        assert!(
            LIVE.iter()
                .any(|(_, _, e)| e.as_ref().is_some_and(|(c, _)| *c == check.as_str())),
            "no fault proves the live check {check}"
        );
    }
    let rows: Vec<_> = LIVE.iter().collect();
    let problems: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = rows
            .chunks(rows.len().div_ceil(4))
            .map(|chunk| {
                scope.spawn(move || {
                    let mut problems = Vec::new();
                    for (fault, revision, expected) in chunk {
                        let revision = Revision::find(revision).unwrap();
                        let started = LiveTarget::start(LiveConfig {
                            command: reference(Some(fault)),
                            revision,
                            timeout: Duration::from_secs(1),
                            policy: CallPolicy::default(),
                            cases_dir: None,
                            interrupt: None,
                            ignore: Vec::new(),
                        });
                        if NO_HANDSHAKE.contains(fault) && !revision.modern() {
                            if started.is_ok() {
                                problems.push(format!("{fault}: the live target started"));
                            }
                            continue;
                        }
                        let mut t = started.expect("the reference server starts");
                        let found = first_finding(&mut t, 11, 3000);
                        let got = found.as_ref().map(|(_, f)| (f.check.as_str(), f.kind));
                        let want = expected.as_ref().map(|(c, k)| (*c, *k));
                        if got != want {
                            problems.push(format!(
                                "{fault} ({}): expected {want:?}, got {got:?}{}",
                                revision.id,
                                found
                                    .map(|(_, f)| format!("\n{}", f.report()))
                                    .unwrap_or_default()
                            ));
                        } else if let Some((_, f)) = found {
                            if !f.reproduced && !TIMING.contains(fault) {
                                problems.push(format!("{fault}: not confirmed on a fresh process"));
                            }
                        }
                    }
                    problems
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A modern-only server refuses `initialize`: the live target, asked for a handshake
/// revision, does not start (a clean error, not a hang).
#[test]
fn a_modern_only_server_cannot_be_fuzzed_in_a_handshake_revision() {
    for fault in NO_HANDSHAKE {
        let started = LiveTarget::start(LiveConfig {
            command: reference(Some(fault)),
            revision: Revision::find("2025-11-25").unwrap(),
            timeout: Duration::from_secs(1),
            policy: CallPolicy::default(),
            cases_dir: None,
            interrupt: None,
            ignore: Vec::new(),
        });
        assert!(started.is_err(), "{fault}: the live target started");
    }
}

/// The folder of saved live-target inputs (libFuzzer's crash files, named after the
/// reference-server fault they were found against).
fn artifacts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/artifacts/live_server")
}

/// A saved input still finds its fault, with the check and kind the fault table names,
/// and finds nothing on the conformant server.
fn regression(fault: &str) {
    let data = std::fs::read(artifacts().join(fault)).expect("the saved input");
    // The revision the inputs were found in (the bytes decode to the same case in
    // 2026-07-28 but for ping, which that revision removed).
    let revision = Revision::find(R4).unwrap();
    let (_, _, expected) = LIVE
        .iter()
        .find(|(f, r, _)| *f == fault && *r == revision.id)
        .expect("a row in LIVE");
    let (check, kind) = expected
        .as_ref()
        .expect("the fault is one the live target finds");
    let finding = target(Some(fault), revision, None)
        .run(&data)
        .unwrap_or_else(|| panic!("{fault}: the saved input no longer finds it"));
    assert_eq!(
        (finding.check.as_str(), &finding.kind),
        (*check, kind),
        "{}",
        finding.report()
    );
    assert!(
        finding.reproduced || TIMING.contains(&fault),
        "{}",
        finding.report()
    );
    if let Some(f) = target(None, revision, None).run(&data) {
        panic!(
            "{fault}: the saved input raises a false alarm\n{}",
            f.report()
        );
    }
}

/// Named regression tests, one per saved input; a saved input without one fails
/// `every_saved_input_has_a_named_regression_test`.
const REGRESSIONS: &[&str] = &[
    "crash-on-astral",
    "long-cursor-crash",
    "cancel-crash",
    "negative-id-stringified",
    "pipelined-drop",
    "invalid-utf8",
    "structured-content-mismatch",
    "jsonrpc-version",
    "error-no-message",
    "reply-to-notification",
];

/// The reference server linked in-process: every saved input finds its fault with the
/// same check and kind as against the spawned server, and its case file replays against
/// the built binary (but for the faults whose failure is a matter of timing); the
/// conformant server gives no finding on pseudo-random inputs.
#[test]
fn saved_inputs_find_their_faults_in_process_too() {
    let revision = Revision::find(R4).unwrap();
    let in_process = |fault: Option<&str>| {
        let fault = fault.map(|f| f.parse().expect("a fault"));
        let server = mcp_conformance::reference::in_process(fault, Default::default());
        target_of(ServerCommand::in_process(server), revision, None)
    };
    let mut problems = Vec::new();
    let dir = tempdir("in-process");
    for fault in REGRESSIONS {
        let data = std::fs::read(artifacts().join(fault)).expect("the saved input");
        let expected = LIVE
            .iter()
            .find(|(f, r, _)| f == fault && *r == revision.id)
            .and_then(|(_, _, expected)| expected.as_ref())
            .expect("a row in LIVE that finds it");
        match in_process(Some(fault)).run(&data) {
            Some(mut f) if (f.check.as_str(), &f.kind) == (expected.0, &expected.1) => {
                // Its case file replays against the built binary: found there too.
                let saved = f.save(&dir).expect("the case file is written");
                if !TIMING.contains(fault) && replay(&saved, Some(fault)) != Some(1) {
                    problems.push(format!("{fault}: its case does not replay on the binary"));
                }
            }
            Some(f) => problems.push(format!("{fault}: found otherwise\n{}", f.report())),
            None => problems.push(format!("{fault}: not found in-process")),
        }
    }
    let mut conformant = in_process(None);
    if let Some((data, finding)) = first_finding(&mut conformant, 7, 600) {
        problems.push(format!("false alarm on {data:?}\n{}", finding.report()));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_saved_input_has_a_named_regression_test() {
    for entry in std::fs::read_dir(artifacts()).expect("fuzz/artifacts/live_server") {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            REGRESSIONS.contains(&name.as_str()),
            "{name} has no regression test"
        );
    }
}

#[test]
fn regression_a_character_above_u_ffff_in_arguments_crashes() {
    regression("crash-on-astral");
}

#[test]
fn regression_a_cursor_longer_than_64_characters_crashes() {
    regression("long-cursor-crash");
}

#[test]
fn regression_a_cancellation_crashes() {
    regression("cancel-crash");
}

#[test]
fn regression_a_negative_id_comes_back_as_a_string() {
    regression("negative-id-stringified");
}

#[test]
fn regression_a_pipelined_tools_list_is_dropped() {
    regression("pipelined-drop");
}

#[test]
fn regression_initialized_makes_the_server_write_invalid_utf8() {
    regression("invalid-utf8");
}

#[test]
fn regression_structured_content_breaks_the_output_schema() {
    regression("structured-content-mismatch");
}

#[test]
fn regression_ping_is_answered_with_jsonrpc_1_0() {
    regression("jsonrpc-version");
}

#[test]
fn regression_an_error_has_no_message() {
    regression("error-no-message");
}

#[test]
fn regression_initialized_is_answered() {
    regression("reply-to-notification");
}

/// A reader that hands the server each line as `filter` rewrites it (a line it empties is
/// skipped).
struct EachLine<R, F> {
    inner: std::io::BufReader<R>,
    filter: F,
    line: Vec<u8>,
    at: usize,
}

impl<R: std::io::Read, F: FnMut(Vec<u8>) -> Vec<u8>> EachLine<R, F> {
    fn new(inner: R, filter: F) -> Self {
        Self {
            inner: std::io::BufReader::new(inner),
            filter,
            line: Vec::new(),
            at: 0,
        }
    }
}

impl<R: std::io::Read, F: FnMut(Vec<u8>) -> Vec<u8>> std::io::Read for EachLine<R, F> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use std::io::BufRead;
        while self.at == self.line.len() {
            let mut line = Vec::new();
            if self.inner.read_until(b'\n', &mut line)? == 0 {
                return Ok(0);
            }
            self.line = (self.filter)(line);
            self.at = 0;
        }
        let n = buf.len().min(self.line.len() - self.at);
        buf[..n].copy_from_slice(&self.line[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Each line with `"method":"tools/call"` spelt `"xethod":"tools/call"`: to the reference
/// server with `error-id-dropped`, a request object without method, answered with a -32600
/// error and no id. The harness sent a well-formed request whose id was readable.
fn calls_without_method(line: Vec<u8>) -> Vec<u8> {
    String::from_utf8_lossy(&line)
        .replace("\"method\":\"tools/call\"", "\"xethod\":\"tools/call\"")
        .into_bytes()
}

/// Each `tools/call/extra` request without its method (so answered with an error and no
/// id, as [`calls_without_method`]), and a line that is not JSON passed over unanswered (as
/// a server may pass over a frame it cannot read).
fn unreadable_unanswered(line: Vec<u8>) -> Vec<u8> {
    if serde_json::from_slice::<serde_json::Value>(&line).is_err() {
        return Vec::new();
    }
    String::from_utf8_lossy(&line)
        .replace(
            "\"method\":\"tools/call/extra\"",
            "\"xethod\":\"tools/call/extra\"",
        )
        .into_bytes()
}

/// The live target on the reference server in-process, whose every tools/call is answered
/// with an error without its id, passing over `ignore`.
fn calls_answered_without_id(ignore: Vec<mcp_conformance::rules::CheckId>) -> LiveTarget {
    calls_answered_without_id_by(ignore, calls_without_method)
}

/// [`calls_answered_without_id`] with each line as `filter` rewrites it.
fn calls_answered_without_id_by(
    ignore: Vec<mcp_conformance::rules::CheckId>,
    filter: fn(Vec<u8>) -> Vec<u8>,
) -> LiveTarget {
    use reference_server::{serve_shared, Era, Fault, ServeEnd};
    let server =
        mcp_conformance::InProcessServer::blocking("calls-without-id", move |input, output| {
            let input = EachLine::new(input, filter);
            match serve_shared(input, output, Some(Fault::ErrorIdDropped), Era::default())? {
                ServeEnd::Crash { reason, .. } => Err(reason.into()),
                _ => Ok(()),
            }
        });
    LiveTarget::start(LiveConfig {
        command: ServerCommand::in_process(server),
        revision: Revision::find(R4).unwrap(),
        timeout: Duration::from_millis(500),
        policy: CallPolicy::default(),
        cases_dir: None,
        interrupt: None,
        ignore,
    })
    .expect("the reference server starts")
}

/// A request answered by an error without its id (rmcp 3.11 answers a request whose
/// `_meta` is not an object so) is `rpc-error-id`, not a stall, although no response
/// carries the request's id; passing over rpc-error-id (`MCP_FUZZ_IGNORE`) passes over it.
#[test]
fn an_error_without_the_id_of_a_readable_request_is_rpc_error_id_not_a_stall() {
    let mut target = calls_answered_without_id(Vec::new());
    let data = calling_case(&target, "tools/call");
    let finding = target.run(&data).expect("a finding");
    assert_eq!(
        (finding.check.as_str(), &finding.kind),
        ("rpc-error-id", &FailureKind::IdNotEchoed),
        "{}",
        finding.report()
    );
    assert!(
        finding.report().contains("tools/call"),
        "{}",
        finding.report()
    );
    // The same after a case whose malformed frame (not JSON: no id to read) got its
    // error: no unreadable frame waits for one, so the id-less error is the call's.
    let mut after_raw = calls_answered_without_id(Vec::new());
    pass_an_unreadable_frame(&mut after_raw);
    let again = after_raw.run(&data).expect("a finding after the raw case");
    assert_eq!(again.check.as_str(), "rpc-error-id", "{}", again.report());
    let mut ignoring = calls_answered_without_id(vec![finding.check]);
    assert!(
        ignoring.run(&data).is_none(),
        "passed over, the same case is no finding"
    );
}

/// A case of well-formed messages only, one of them a tools/call: no frame whose id could
/// not be read, so an id-less error after it can only answer the call.
fn calling_case(target: &LiveTarget, method: &str) -> Vec<u8> {
    use mcp_conformance::protocol::Line;
    inputs(7, 20_000)
        .find(|data| {
            let lines = target.lines(data);
            lines.iter().all(|l| matches!(l, Line::Message(_)))
                && lines.iter().any(|l| {
                    matches!(l, Line::Message(m) if m["method"] == method && m.get("id").is_some())
                })
        })
        .expect("a well-formed case with the method")
}

/// Runs cases until one holding a frame that is not JSON (and no tools/call) passes.
fn pass_an_unreadable_frame(target: &mut LiveTarget) {
    use mcp_conformance::protocol::Line;
    let unreadable = |data: &Vec<u8>| {
        let lines = target.lines(data);
        lines.iter().any(|l| {
            matches!(l, Line::Raw(bytes) if serde_json::from_slice::<serde_json::Value>(bytes).is_err())
        }) && lines.iter().all(|l| match l {
            Line::Message(m) => m["method"] != "tools/call",
            Line::Raw(bytes) => !String::from_utf8_lossy(bytes).contains("tools/call"),
        })
    };
    let candidates: Vec<Vec<u8>> = inputs(11, 3000).filter(unreadable).take(50).collect();
    let passed = candidates.iter().any(|raw| target.run(raw).is_none());
    assert!(passed, "a case with an unreadable frame that passes");
}

/// An error without an id after a case whose unreadable frame the server passed over
/// unanswered: that frame may own the error, so which request it answers cannot be told,
/// and the call is neither `rpc-error-id` nor a stall (the in-process fuzzer judged such a
/// case a stall after three more timeouts, which a fresh process did not reproduce).
#[test]
fn an_error_without_an_id_an_unanswered_frame_may_own_is_no_finding() {
    let mut target = calls_answered_without_id_by(Vec::new(), unreadable_unanswered);
    // tools/call/extra runs no user code: unanswered, it would be judged a stall.
    let data = calling_case(&target, "tools/call/extra");
    pass_an_unreadable_frame(&mut target);
    let judged = target.run(&data);
    assert!(
        judged.is_none(),
        "{}",
        judged.map(|f| f.report()).unwrap_or_default()
    );
    // On a fresh process the same case is the call's rpc-error-id.
    let mut fresh = calls_answered_without_id_by(Vec::new(), unreadable_unanswered);
    let finding = fresh.run(&data).expect("a finding on a fresh process");
    assert_eq!(
        finding.check.as_str(),
        "rpc-error-id",
        "{}",
        finding.report()
    );
}

/// A `tools/call` holding a character above U+FFFF is swallowed and a thread of the
/// server's panics instead: as rmcp's handler task panics, leaving the call unanswered and
/// the server serving.
fn panics_on_astral_call(line: Vec<u8>) -> Vec<u8> {
    let text = String::from_utf8_lossy(&line);
    if text.contains("tools/call") && text.chars().any(|c| c > '\u{FFFF}') {
        let handler = std::thread::spawn(|| panic!("planted: an astral character"));
        let _ = handler.join();
        return Vec::new();
    }
    line
}

/// A panic on a thread of an in-process server is reported with the case under way, whose
/// file is written for `mcp-conformance replay` (libFuzzer's hook would abort next; here
/// the default hook lets the thread end): the file replays against a binary that fails the
/// same input (the reference server's `crash-on-astral` exits on it), not against the
/// conformant one.
#[test]
fn a_server_panic_in_process_writes_the_case_under_way() {
    use reference_server::{serve_shared, Era, ServeEnd};
    let server = mcp_conformance::InProcessServer::blocking("panics", |input, output| {
        let input = EachLine::new(input, panics_on_astral_call);
        match serve_shared(input, output, None, Era::default())? {
            ServeEnd::Crash { reason, .. } => Err(reason.into()),
            _ => Ok(()),
        }
    });
    let dir = tempdir("server-panic");
    let mut target = target_of(
        ServerCommand::in_process(server),
        Revision::find(R4).unwrap(),
        Some(dir.clone()),
    );
    target.watch_panics("test");
    let written = || std::fs::read_dir(&dir).unwrap().count();
    let ran = inputs(11, 5000).take_while(|data| {
        let _ = target.run(data);
        written() == 0
    });
    assert!(ran.count() < 5000, "no server panic in 5000 inputs");
    let files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let case: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    assert_eq!(case["check"], "prop-server-survives", "{case:#}");
    assert!(
        case["messages"].to_string().contains("tools/call"),
        "{case:#}"
    );
    assert_eq!(replay(&files[0], Some("crash-on-astral")), Some(1));
    assert_eq!(replay(&files[0], None), Some(0));
}
