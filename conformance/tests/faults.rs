//! Every check is proven able to fail, and the reference server passes them all.
//!
//! `EXPECTATIONS` is the one table that says, for each fault of the reference server over
//! stdio, which checks must come out `fail` or `warn` (and in which revisions), and
//! `REFERENCE_SKIPS` the skips the reference server's own run may show, each with its
//! why. `common::expect` walks them, as it walks the HTTP tables: a listed check must have
//! exactly its listed status, every other check must pass or skip. A row runs only in the
//! revisions its expectations name (every revision when one says `ALL`). Another test
//! requires every catalog check to appear in the table, so a check that no fault can make
//! fail is caught as a defect.

use std::time::Duration;

mod common;

use common::expect::{
    self, never_notifies, Row, Skip, Table, ALL, LEGACY, NOT_APPLICABLE, R1, R1_R2, R1_R3, R2, R3,
    R3_R4, R3_UP, R4, R4_UP, R5, STDIO,
};
use mcp_conformance::checks::Status;
use mcp_conformance::protocol::SessionConfig;
use mcp_conformance::report::{render_text, render_text_with, Detail, RunReport, TextOptions};

use Status::{Fail, Warn};

/// The stdio faults' table, walked by `common::expect`.
const TABLE: Table = Table {
    transport: STDIO,
    rows: EXPECTATIONS,
    skips: REFERENCE_SKIPS,
    late: SHORT_WAITS,
    waits: session_config,
};

const EXPECTATIONS: &[Row] = &[
    // -- JSON-RPC base and stdio --
    ("stdout-log", &[("rpc-stdio-framing", Fail, ALL)]),
    ("invalid-utf8", &[("rpc-stdio-framing", Fail, LEGACY)]),
    ("jsonrpc-version", &[("rpc-jsonrpc-version", Fail, LEGACY)]),
    ("result-and-error", &[("rpc-resp-exclusive", Fail, ALL)]),
    (
        "id-stringified",
        &[("prop-id-roundtrip", Fail, ALL), ("rpc-id-echo", Fail, ALL)],
    ),
    (
        "error-no-message",
        &[
            ("rpc-error-shape", Fail, ALL),
            ("schema-server-messages", Fail, ALL),
        ],
    ),
    ("error-id-dropped", &[("rpc-error-id", Fail, ALL)]),
    (
        "error-message-multiline",
        &[("rpc-error-message", Warn, ALL)],
    ),
    ("parse-error-silent", &[("rpc-err-parse", Warn, ALL)]),
    ("parse-error-wrong-code", &[("rpc-err-parse", Fail, ALL)]),
    (
        "invalid-request-wrong-code",
        &[("rpc-err-invalid-request", Fail, ALL)],
    ),
    (
        "method-not-found-wrong-code",
        &[
            ("prop-unknown-method", Fail, ALL),
            ("rpc-err-method-not-found", Fail, ALL),
            // ping is an unknown method in 2026-07-28: it gets the same wrong code.
            ("m-ping-gone", Warn, R5),
        ],
    ),
    (
        "crash-on-tools-list",
        &[("rpc-response-required", Fail, ALL)],
    ),
    (
        "hang-on-tools-list",
        &[("rpc-response-required", Fail, ALL)],
    ),
    // A log flood when stdin closes: the shutdown's reading is cut past the bound.
    (
        "flood-on-stdin-eof",
        &[
            ("rpc-traffic-bounded", Warn, ALL),
            // Its flood is log notifications: 2026-07-28 forbids them unasked.
            ("m-loglevel", Fail, R5),
        ],
    ),
    // -- Lifecycle --
    ("ping-nonempty", &[("lc-ping", Fail, LEGACY)]),
    (
        "reply-to-notification",
        &[("lc-initialized-no-reply", Fail, LEGACY)],
    ),
    (
        "no-server-info",
        &[
            ("lc-init-serverinfo", Fail, LEGACY),
            ("schema-server-messages", Fail, LEGACY),
        ],
    ),
    // The tools capability is then undeclared too, so lc-cap-tools sees tools/list work
    // without it, and every Tools check skips.
    (
        "capabilities-null",
        &[
            ("lc-init-result", Fail, LEGACY),
            ("lc-cap-tools", Fail, LEGACY),
            ("schema-server-messages", Fail, LEGACY),
        ],
    ),
    ("no-tools-capability", &[("lc-cap-tools", Fail, LEGACY)]),
    ("tools-list-not-found", &[("lc-cap-tools", Fail, LEGACY)]),
    // A listing that fails with a server error (no network, a backend down) is a
    // legitimate protocol error, not a missing capability: nothing fails.
    ("tools-list-server-error", &[]),
    (
        "version-echo-unsupported",
        &[("lc-version-fallback", Fail, LEGACY)],
    ),
    (
        "version-unsupported-answer",
        &[("lc-version-echo", Fail, R3)],
    ),
    ("version-error", &[("lc-version-fallback", Warn, LEGACY)]),
    ("ignore-stdin-eof", &[("lc-shutdown-stdio", Warn, ALL)]),
    // A crash is shown where it happened: the empty batch's check fails with the batch
    // line, and the shutdown is still judged, on a fresh process, in that revision too.
    ("empty-batch-crash", &[("rpc-batch-response", Fail, R2)]),
    (
        "empty-batch-crash-ignore-eof",
        &[
            ("rpc-batch-response", Fail, R2),
            ("lc-shutdown-stdio", Warn, ALL),
        ],
    ),
    // Operation rule: a SHOULD before 2025-06-18, a MUST from it.
    ("batch-ignored", &[("rpc-batch", Fail, R2)]),
    (
        "roots-request",
        &[
            ("lc-no-undeclared-requests", Warn, R1_R2),
            ("lc-no-undeclared-requests", Fail, R3_R4),
        ],
    ),
    // -- Tools: the listing and names --
    (
        "tool-missing-input-schema",
        &[
            ("tool-inputschema-type", Fail, ALL),
            ("schema-server-messages", Fail, ALL),
        ],
    ),
    (
        "input-schema-not-object",
        &[
            ("tool-inputschema-type", Fail, ALL),
            ("schema-server-messages", Fail, ALL),
        ],
    ),
    // The dialect is unspecified before 2025-11-25 (A8): a warning there, a failure after.
    (
        "input-schema-invalid",
        &[
            ("tool-schema-dialect", Warn, R1_R3),
            ("tool-schema-dialect", Fail, R4),
        ],
    ),
    // add's structuredContent {"sum": 5} cannot match an array schema either.
    (
        "output-schema-not-object",
        &[
            ("prop-valid-call-result", Fail, R3_UP),
            ("tool-outputschema-object", Fail, R3_R4),
            ("schema-server-messages", Fail, R3_R4),
            ("tc-outputschema-conform", Fail, R3_UP),
        ],
    ),
    ("duplicate-tool-name", &[("tool-name-unique", Fail, ALL)]),
    (
        "tool-name-invalid-chars",
        &[("tool-name-charset", Warn, R4_UP)],
    ),
    ("tool-name-too-long", &[("tool-name-length", Warn, R4_UP)]),
    (
        "tool-names-differ-by-case",
        &[("tool-name-case", Warn, R4_UP)],
    ),
    // -- Tools: pagination --
    ("pagination-cycle", &[("pag-terminates", Warn, ALL)]),
    (
        "invalid-cursor-accepted",
        &[("pag-invalid-cursor", Warn, ALL)],
    ),
    // A listing that changes from walk to walk on one process also varies with the
    // requests made before it, which 2026-07-28 forbids.
    (
        "unstable-listing",
        &[("pag-stable", Warn, ALL), ("m-stateless", Fail, R5)],
    ),
    // -- Tools: results --
    (
        "audio-in-2024",
        &[
            ("prop-valid-call-result", Fail, R1),
            ("tc-content-types", Fail, R1),
            ("schema-server-messages", Fail, R1),
        ],
    ),
    ("bad-base64", &[("tc-content-base64", Fail, ALL)]),
    (
        "missing-structured-content",
        &[("tc-outputschema-presence", Fail, R3_UP)],
    ),
    (
        "structured-content-mismatch",
        &[
            ("prop-valid-call-result", Fail, R3_UP),
            ("tc-outputschema-conform", Fail, R3_UP),
        ],
    ),
    (
        "no-text-mirror",
        &[("tc-structured-text-mirror", Warn, R3_UP)],
    ),
    (
        "error-without-explanation",
        &[("tc-error-explained", Warn, ALL)],
    ),
    (
        "is-error-string",
        &[
            ("prop-valid-call-result", Fail, ALL),
            ("schema-server-messages", Fail, ALL),
        ],
    ),
    (
        "tool-result-legacy-shape",
        &[
            ("prop-valid-call-result", Fail, ALL),
            ("schema-server-messages", Fail, ALL),
        ],
    ),
    // -- Tools: error classes --
    (
        "unknown-tool-success",
        &[("tc-err-unknown-tool", Fail, ALL)],
    ),
    (
        "malformed-call-accepted",
        &[("tc-err-malformed", Fail, ALL)],
    ),
    (
        "arguments-not-object-accepted",
        &[("tc-err-arguments-type", Fail, ALL)],
    ),
    // The crash ends the conversation: the probes after it are not sent, and skip.
    (
        "arguments-omitted-refused",
        &[("tc-arguments-omitted", Warn, ALL)],
    ),
    // noop fails every call with a server error: with `arguments` left out as with `{}`,
    // so tc-arguments-omitted does not blame the omission; the warnings are noop's.
    (
        "noop-down",
        &[
            ("prop-invalid-call-rejected", Warn, ALL),
            ("prop-valid-call-accepted", Warn, ALL),
            ("tc-err-arguments-type", Warn, ALL),
            ("tc-err-execution", Warn, ALL),
        ],
    ),
    (
        "arguments-omitted-crash",
        &[
            ("tc-arguments-omitted", Fail, ALL),
            ("rpc-response-required", Fail, ALL),
        ],
    ),
    (
        "invalid-arguments-accepted",
        &[
            ("prop-invalid-call-rejected", Fail, ALL),
            ("tc-err-input-validation", Fail, ALL),
        ],
    ),
    (
        "invalid-arguments-protocol-error",
        &[
            ("prop-invalid-call-rejected", Warn, R4_UP),
            ("tc-err-input-validation", Warn, R4_UP),
        ],
    ),
    (
        "tool-error-as-protocol-error",
        &[
            ("prop-valid-call-accepted", Warn, ALL),
            ("tc-err-execution", Warn, ALL),
        ],
    ),
    // -- Tools: tasks (2025-11-25 tasks.mdx, Tool-Level Negotiation) --
    (
        "task-required-runs-plain",
        &[("tc-task-required", Fail, R4)],
    ),
    (
        "task-forbidden-accepted",
        &[("tc-task-forbidden", Warn, R4)],
    ),
    ("task-create-plain-result", &[("tc-task-create", Fail, R4)]),
    (
        "task-support-undeclared",
        &[("tool-task-support-declared", Warn, R4)],
    ),
    // -- Tools: list_changed (A12: a warning before 2025-06-18, a failure from it) --
    (
        "list-changed-undeclared",
        &[
            ("lcn-not-undeclared", Warn, R1_R2),
            ("lcn-not-undeclared", Fail, R3_R4),
        ],
    ),
    (
        "list-changed-malformed",
        &[
            ("lcn-shape", Fail, LEGACY),
            ("schema-server-messages", Fail, LEGACY),
        ],
    ),
    // -- Generated cases and sequences: each fault shows only on some inputs --
    ("crash-on-astral", &[("prop-server-survives", Fail, LEGACY)]),
    // The exit comes after the answer: it shows on the next request, and the walk must
    // still pin it on the case that caused it (no liveness request follows an answer).
    ("crash-after-answer", &[("prop-server-survives", Fail, ALL)]),
    (
        "stall-on-long-string",
        &[("prop-server-survives", Fail, LEGACY)],
    ),
    // A tool that answers late, with ping answered meanwhile, is slow, not stalled: a
    // warning with the time it took, never a failure (issue 12, server-everything).
    ("slow-tool", &[("prop-server-survives", Warn, LEGACY)]),
    // A stall that does not recur alone in a fresh process (a rate limiter delays the
    // 41st call) is a warning, never a failure (issue 52).
    ("rate-limit", &[("prop-server-survives", Warn, ALL)]),
    // Every tool answers invalid arguments in the wrong class: the first cases of the
    // kind are shrunk and confirmed, the rest named (see thirty_tools_cost_few_processes).
    (
        "thirty-tools-wrong-class",
        &[
            ("prop-invalid-call-rejected", Warn, ALL),
            ("tc-err-input-validation", Warn, ALL),
        ],
    ),
    (
        "nested-wrong-class",
        &[("prop-invalid-call-rejected", Fail, LEGACY)],
    ),
    (
        "negative-id-stringified",
        &[("prop-id-roundtrip", Fail, LEGACY)],
    ),
    (
        "long-method-answered",
        &[("prop-unknown-method", Fail, LEGACY)],
    ),
    (
        "long-cursor-crash",
        &[("prop-server-survives", Fail, LEGACY)],
    ),
    // Answered, then the process ends: the case before the next one is to blame, and the
    // cursors property (no tool) gets no more cases after it.
    (
        "long-cursor-exit-after-answer",
        &[("prop-server-survives", Fail, ALL)],
    ),
    (
        "long-cursor-internal-error",
        &[("prop-random-cursor", Warn, LEGACY)],
    ),
    ("pipelined-drop", &[("seq-pipelined", Fail, ALL)]),
    // The scripted cancellation of a request already answered crashes it too; the ping
    // behind that cancellation then goes unanswered.
    (
        "cancel-crash",
        &[
            ("seq-cancel", Fail, ALL),
            ("cancel-ignore-invalid", Fail, ALL),
            ("rpc-response-required", Fail, ALL),
        ],
    ),
    // -- Inputs a client may legally send (issue 12 sweep) --
    (
        "list-meta-rejected",
        &[("tl-params-optional", Fail, LEGACY)],
    ),
    (
        "progress-token-changed",
        &[("prog-token-active", Fail, ALL)],
    ),
    ("progress-decreasing", &[("prog-increasing", Fail, ALL)]),
    ("progress-after-response", &[("prog-stop", Fail, ALL)]),
    // -- 2026-07-28 (modern): each fault acts on modern requests only, so legacy
    // revisions are untouched and the row runs in 2026-07-28 alone.
    (
        "discover-no-cache-hints",
        &[
            ("m-discover", Fail, R5),
            ("schema-server-messages", Fail, R5),
        ],
    ),
    ("no-server-info-modern", &[("m-serverinfo", Warn, R5)]),
    ("meta-not-required", &[("m-meta-required", Fail, R5)]),
    (
        "clientinfo-required",
        &[("m-clientinfo-optional", Warn, R5)],
    ),
    (
        "unsupported-version-wrong-code",
        &[("m-version-unsupported", Fail, R5)],
    ),
    (
        "no-result-type",
        &[
            ("m-resulttype", Fail, R5),
            ("schema-server-messages", Fail, R5),
            ("prop-valid-call-result", Fail, R5),
        ],
    ),
    (
        "list-no-cache-hints",
        &[
            ("tl-cache-hints", Fail, R5),
            ("schema-server-messages", Fail, R5),
        ],
    ),
    (
        "list-order-unstable",
        &[("tl-deterministic-order", Warn, R5)],
    ),
    ("stateful", &[("m-stateless", Fail, R5)]),
    ("ping-answered-modern", &[("m-ping-gone", Warn, R5)]),
    // Implies --era modern: the server refuses initialize, naming no version.
    ("init-reject-unnamed", &[("m-init-reject", Warn, R5)]),
    (
        "server-request-modern",
        &[("m-no-server-requests", Fail, R5)],
    ),
    ("log-without-level", &[("m-loglevel", Fail, R5)]),
    ("capability-not-required", &[("m-clientcap", Fail, R5)]),
    (
        "input-required-malformed",
        &[
            ("tc-mrtr-shape", Fail, R5),
            ("schema-server-messages", Fail, R5),
        ],
    ),
    ("subscription-no-ack", &[("lcn-subscription", Fail, R5)]),
    // The unknown tool gets -32050 instead of -32602: policy A10 warns on the code too.
    (
        "reserved-error-code",
        &[
            ("rpc-err-range", Fail, R5),
            ("tc-err-unknown-tool", Warn, R5),
        ],
    ),
    ("message-after-cancel-modern", &[("cancel-r5", Fail, R5)]),
    // -- Edge inputs (issue 12 sweep): policy warnings where the spec gives no level --
    (
        "init-params-accepted",
        &[("lc-init-params-malformed", Warn, LEGACY)],
    ),
    (
        "ping-before-initialized-refused",
        &[("lc-ping-before-initialized", Warn, LEGACY)],
    ),
    ("batch-empty-array", &[("rpc-batch-response", Fail, R2)]),
    (
        "cancel-malformed-answered",
        &[("cancel-ignore-invalid", Fail, ALL)],
    ),
    ("meta-key-invalid", &[("meta-key-format", Fail, R3_UP)]),
    ("digit-string-id-parsed", &[("rpc-id-echo", Fail, ALL)]),
    // It answers a boolean-id ping: 2026-07-28 has no ping (its probe is server/discover).
    (
        "bad-id-answered",
        &[("rpc-err-invalid-request", Fail, LEGACY)],
    ),
];

/// The faults whose rows wait out the response timeout or the shutdown grace by design:
/// a request never answered, a call that stalls, a call answered late, a pipelined reply
/// dropped, a server that ignores the end of its stdin. They run with short waits (2 s, 1 s), which their
/// snapshots show, and pay them once per wait. Every other run, the reference server's
/// own included, never waits them out: it gets the suite's default waits, which cost it
/// nothing and keep a loaded machine from turning a slow answer into a finding.
const SHORT_WAITS: &[&str] = &[
    "hang-on-tools-list",
    "stall-on-long-string",
    "slow-tool",
    "pipelined-drop",
    "ignore-stdin-eof",
    "empty-batch-crash-ignore-eof",
    "rate-limit",
];

/// The waits for one fault's run: short for the faults in [`SHORT_WAITS`], the defaults
/// else (the reference server's own run gets the defaults too).
fn session_config(fault: &str) -> SessionConfig {
    // The flood comes as stdin closes: the row is about the flood, so the grace for the
    // server to write it out and exit is long enough for a loaded machine.
    if fault == "flood-on-stdin-eof" {
        return SessionConfig {
            shutdown_grace: Duration::from_secs(30),
            ..SessionConfig::default()
        };
    }
    if SHORT_WAITS.contains(&fault) {
        SessionConfig {
            timeout: Duration::from_secs(2),
            shutdown_grace: Duration::from_secs(1),
            ..SessionConfig::default()
        }
    } else {
        SessionConfig::default()
    }
}

/// The skips the reference server's own run shows over stdio, each with its reason.
const REFERENCE_SKIPS: &[Skip] = &[
    NOT_APPLICABLE,
    never_notifies("lcn-shape", ALL),
    never_notifies("lcn-not-undeclared", LEGACY),
    Skip {
        check: "m-init-reject",
        revisions: R5,
        matching: "a dual-era server, which the rule does not bind",
        why: "the reference server is dual-era by default; the rule binds modern-only servers",
    },
];

/// The text report with what differs between machines and releases replaced by
/// placeholders (the binary's path, the crate version), so snapshots never flap.
fn redacted(report: &RunReport) -> String {
    redact(&render_text(&loadless(report)))
}

/// The report without its stretched waits: the load note comes and goes with the
/// machine's load, never with the server.
fn loadless(report: &RunReport) -> RunReport {
    let mut report = report.clone();
    if let Some(timing) = report.timing.as_mut() {
        timing.stretched = 0;
    }
    report
}

fn redact(text: &str) -> String {
    let text = text
        .replace(env!("CARGO_BIN_EXE_mcp-conformance"), "[mcp-conformance]")
        .replace(env!("CARGO_PKG_VERSION"), "[version]");
    redact_unsent(&redact_measured(&text))
}

/// A request written just as the server exits is either sent (`-> X`, then the exit) or,
/// when the harness saw the exit first, not (`** not sent (the server exited ...): X`):
/// which one depends on the scheduler, never on the server. The snapshot shows both as
/// sent; the report keeps what happened.
fn redact_unsent(text: &str) -> String {
    const MARK: &str = "** not sent (";
    text.lines()
        .map(|line| match line.find(MARK) {
            Some(at) => match line[at..].find("): ") {
                Some(end) => format!("{}-> {}", &line[..at], &line[at + end + 3..]),
                None => line.to_string(),
            },
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        + if text.ends_with('\n') { "\n" } else { "" }
}

/// A slow answer's measured time ("only after 2.50 s") and the shutdown grace (scaled to
/// the server's measured start-up on a loaded machine) depend on the machine.
fn redact_measured(text: &str) -> String {
    ["only after ", "server still running "]
        .iter()
        .fold(text.to_string(), |text, mark| redact_after(&text, mark))
}

fn redact_after(text: &str, mark: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(mark) {
        let (head, tail) = rest.split_at(at + mark.len());
        out.push_str(head);
        let number = tail
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(tail.len());
        if number > 0 && tail[number..].starts_with(" s") {
            out.push_str("[time]");
            rest = &tail[number..];
        } else {
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// Snapshots live in `reports/snapshots/`, reviewed like code (`cargo insta review`).
fn snapshot_settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../reports/snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings
}

#[test]
fn reference_server_passes_every_check_in_every_revision() {
    let report = expect::reference_passes(&TABLE);
    snapshot_settings().bind(|| {
        // Verbose: every pass and not-applicable line, so that a changed pass message is
        // reviewed too (the default report shows findings only).
        let verbose = TextOptions {
            detail: Detail::Verbose,
            color: false,
        };
        insta::assert_snapshot!(
            "reference-server",
            redact(&render_text_with(&loadless(&report), verbose))
        );
        // The timing section is measured: it is left out of the snapshot (tests/cli.rs
        // checks that it is there and counts the work).
        let mut timeless = report.clone();
        assert!(timeless.timing.take().is_some());
        let json = mcp_conformance::report::to_json(&timeless).unwrap();
        insta::assert_snapshot!("reference-server-json", redact(&json));
    });
}

/// Each row runs only in the revisions its expectations name: a row whose expectations
/// all name revisions (`R4`, `R3_UP`, ...) runs in those, a row with an `ALL` expectation
/// in every revision. That is a trade, accepted to keep the test fast: "every check not
/// listed passes or skips" is then asserted only in the revisions run, so a fault that
/// also broke an unlisted check in a revision its row does not run would go unnoticed
/// here. The reference server's own run (above) still covers every revision, and so do
/// the rows with `ALL`. Each fault's snapshot likewise shows the revisions run.
///
/// Faults run in parallel threads: most take a second or two of CPU (the property
/// phase). The SHORT_WAITS ones wait out short timeouts, so they run after the others,
/// on an idle machine: next to seventy busy runs on two cores, their 2 s waits were
/// outlasted by a server merely waiting for the CPU.
#[test]
fn each_fault_fails_exactly_its_checks() {
    let _alone = ALL_FAULTS.lock().unwrap_or_else(|e| e.into_inner());
    let reports = expect::faults_fail_exactly_their_checks(&TABLE);
    // Only once every status is right are the whole reports compared with their snapshots.
    for (row, report) in &reports {
        snapshot_settings()
            .bind(|| insta::assert_snapshot!(format!("fault-{}", row.0), redacted(report)));
    }
}

/// Held by the tests that run every fault: one such run at a time keeps the late rows'
/// short waits on a machine no busier than one run makes it.
static ALL_FAULTS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The reference server linked in-process gives the spawned server's verdicts, fault for
/// fault: the same table, less the checks of rules about a process, which skip there.
/// (Its reports are not snapshots: they differ from stdio's only in what the table says.)
#[test]
fn in_process_reference_gives_the_spawned_verdicts() {
    let _alone = ALL_FAULTS.lock().unwrap_or_else(|e| e.into_inner());
    let table = expect::in_process(&TABLE);
    expect::reference_passes(&table);
    expect::faults_fail_exactly_their_checks(&table);
}

#[test]
fn the_table_names_every_fault_and_only_real_ones() {
    expect::table_names_every_fault(&TABLE);
}

/// The Streamable HTTP and HTTP+SSE checks are proven by their own faults, in
/// tests/http.rs, http_sse.rs and http_modern.rs.
#[test]
fn every_check_can_fail() {
    expect::every_check_can_fail(&TABLE);
}

#[test]
fn schema_failures_carry_a_hint_for_common_mistakes() {
    for (fault, hint) in [
        (
            "tool-result-legacy-shape",
            "`toolResult` is the pre-2024-11-05 draft shape",
        ),
        ("is-error-string", "`isError` is a JSON boolean"),
        (
            "tool-missing-input-schema",
            "every tool needs an inputSchema",
        ),
        ("no-server-info", "serverInfo"),
    ] {
        // Only 2025-11-25 is read.
        let report = expect::run_fault(&TABLE, fault, R4);
        let result = report
            .result("2025-11-25", "schema-server-messages")
            .unwrap();
        assert!(
            result.evidence.iter().any(|e| e.text.contains(hint)),
            "{fault}: no hint {hint:?} in {:?}",
            result.evidence
        );
    }
}

/// A server whose thirty-odd tools all answer invalid arguments in the wrong class costs
/// a handful of processes per revision, not one per tool: the first cases of the kind are
/// shrunk (a warning-grade kind in at most 16 steps) and confirmed in a fresh process, the
/// rest are named as drawn (issue 52: 27 tools once cost 1,139 processes).
#[test]
fn thirty_tools_cost_few_processes() {
    let report = expect::run_fault(&TABLE, "thirty-tools-wrong-class", R3);
    let result = report
        .result("2025-06-18", "prop-invalid-call-rejected")
        .unwrap();
    assert_eq!(result.status, Warn, "{}", result.message);
    let texts: Vec<&str> = result.evidence.iter().map(|e| e.text.as_str()).collect();
    let shrunk = texts
        .iter()
        .filter(|t| t.contains("shrink step(s)"))
        .count();
    assert_eq!(
        shrunk,
        mcp_conformance::records::SHRUNK_PER_KIND,
        "{texts:#?}"
    );
    for t in texts.iter().filter(|t| t.contains("shrink step(s)")) {
        let steps: u32 = t
            .split("after ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no step count in {t:?}"));
        assert!(steps <= 16, "{t}");
    }
    assert!(
        texts
            .iter()
            .any(|t| t.contains("more case(s) failed as the first")),
        "{texts:#?}"
    );
    let timing = report.timing.as_ref().expect("timing");
    let revision = &timing.revisions[0];
    assert!(
        revision.total.processes <= 12,
        "{} processes for one revision",
        revision.total.processes
    );
}
