//! Every check is proven able to fail, and the reference server passes them all.
//!
//! `EXPECTATIONS` is the one table that says, for each fault of the reference server,
//! which checks must come out `fail` or `warn` (and in which revisions). The test walks
//! it: a listed check must have exactly its listed status, every other check must pass
//! or skip. A second test requires every catalog check to appear in the table, so a
//! check that no fault can make fail is caught as a defect.

use std::time::Duration;

use conformance::checks::{Status, CATALOG};
use conformance::protocol::{SessionConfig, REVISIONS};
use conformance::report::{render_text, RunReport};
use conformance::runner::{run, RunConfig};
use conformance::transport::ServerCommand;
use reference_server::Fault;

use Status::{Fail, Warn};

/// Revisions a row applies to; `ALL` for every one.
const ALL: &[&str] = &[];

/// (fault, revisions it shows in, [(check, status)]).
type Row = (
    &'static str,
    &'static [&'static str],
    &'static [(&'static str, Status)],
);

const EXPECTATIONS: &[Row] = &[
    ("stdout-log", ALL, &[("rpc-stdio-framing", Fail)]),
    ("invalid-utf8", ALL, &[("rpc-stdio-framing", Fail)]),
    ("jsonrpc-version", ALL, &[("rpc-jsonrpc-version", Fail)]),
    ("result-and-error", ALL, &[("rpc-resp-exclusive", Fail)]),
    ("id-stringified", ALL, &[("rpc-id-echo", Fail)]),
    (
        "error-no-message",
        ALL,
        &[("rpc-error-shape", Fail), ("schema-server-messages", Fail)],
    ),
    ("parse-error-silent", ALL, &[("rpc-err-parse", Warn)]),
    ("parse-error-wrong-code", ALL, &[("rpc-err-parse", Fail)]),
    (
        "invalid-request-wrong-code",
        ALL,
        &[("rpc-err-invalid-request", Fail)],
    ),
    (
        "method-not-found-wrong-code",
        ALL,
        &[("rpc-err-method-not-found", Fail)],
    ),
    ("ping-nonempty", ALL, &[("lc-ping", Fail)]),
    (
        "reply-to-notification",
        ALL,
        &[("lc-initialized-no-reply", Fail)],
    ),
    (
        "no-server-info",
        ALL,
        &[
            ("lc-init-serverinfo", Fail),
            ("schema-server-messages", Fail),
        ],
    ),
    // The tools capability is then undeclared too, so lc-cap-tools sees tools/list work
    // without it.
    (
        "capabilities-null",
        ALL,
        &[
            ("lc-init-result", Fail),
            ("lc-cap-tools", Fail),
            ("schema-server-messages", Fail),
        ],
    ),
    ("no-tools-capability", ALL, &[("lc-cap-tools", Fail)]),
    (
        "version-echo-unsupported",
        ALL,
        &[("lc-version-fallback", Fail)],
    ),
    (
        "version-unsupported-answer",
        &["2025-06-18"],
        &[("lc-version-echo", Fail)],
    ),
    ("version-error", ALL, &[("lc-version-fallback", Warn)]),
    (
        "crash-on-tools-list",
        ALL,
        &[("rpc-response-required", Fail)],
    ),
    (
        "hang-on-tools-list",
        ALL,
        &[("rpc-response-required", Fail)],
    ),
    ("ignore-stdin-eof", ALL, &[("lc-shutdown-stdio", Warn)]),
    (
        "tool-missing-input-schema",
        ALL,
        &[("schema-server-messages", Fail)],
    ),
];

fn run_reference(fault: Option<&str>) -> RunReport {
    let mut args = vec!["reference-server".to_string()];
    if let Some(f) = fault {
        args.extend(["--fault".to_string(), f.to_string()]);
    }
    let mut config = RunConfig::new(ServerCommand::new(
        env!("CARGO_BIN_EXE_mcp-conformance"),
        args,
    ));
    config.reference = true;
    // Short waits: the hang and ignore-stdin faults wait these out once per revision.
    config.session = SessionConfig {
        timeout: Duration::from_secs(2),
        shutdown_grace: Duration::from_secs(1),
        ..SessionConfig::default()
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime
        .block_on(run(&config, |_| {}))
        .expect("the harness runs")
}

/// The mismatches between a report and a row, empty when the row holds.
fn mismatches(report: &RunReport, row: &Row) -> Vec<String> {
    let (fault, revisions, expected) = row;
    let mut out = Vec::new();
    for rev in &report.revisions {
        let shows_here = revisions.is_empty() || revisions.contains(&rev.revision);
        for result in &rev.results {
            let want = expected
                .iter()
                .find(|(id, _)| *id == result.check)
                .filter(|_| shows_here)
                .map(|(_, s)| *s);
            let ok = match want {
                Some(status) => result.status == status,
                None => matches!(result.status, Status::Pass | Status::Skip),
            };
            if !ok {
                out.push(format!(
                    "{fault}: {} {} is {:?}, expected {}: {}",
                    rev.revision,
                    result.check,
                    result.status,
                    want.map_or("pass or skip".to_string(), |s| format!("{s:?}")),
                    result.message
                ));
            }
        }
    }
    out
}

#[test]
fn reference_server_passes_every_check_in_every_revision() {
    let report = run_reference(None);
    assert_eq!(report.revisions.len(), REVISIONS.len());
    let bad: Vec<_> = report
        .revisions
        .iter()
        .flat_map(|r| r.results.iter().map(move |c| (r.revision, c)))
        .filter(|(_, c)| c.status != Status::Pass)
        .map(|(rev, c)| format!("{rev} {} {:?}: {}", c.check, c.status, c.message))
        .collect();
    assert!(
        bad.is_empty(),
        "{}\n{}",
        bad.join("\n"),
        render_text(&report)
    );
    assert_eq!(report.summary.pass, REVISIONS.len() * CATALOG.len());
}

#[test]
fn each_fault_fails_exactly_its_checks() {
    // Faults run in parallel threads: most take a fraction of a second, the hang and
    // ignore-stdin ones wait out their timeouts.
    let handles: Vec<_> = EXPECTATIONS
        .iter()
        .map(|row| std::thread::spawn(move || (row, run_reference(Some(row.0)))))
        .collect();
    let mut problems = Vec::new();
    for handle in handles {
        let (row, report) = handle.join().expect("fault thread");
        let found = mismatches(&report, row);
        if !found.is_empty() {
            problems.extend(found);
            problems.push(render_text(&report));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_table_names_every_fault_and_only_real_ones() {
    let mut in_table: Vec<&str> = EXPECTATIONS.iter().map(|r| r.0).collect();
    let mut faults: Vec<&str> = Fault::ALL.iter().map(|f| f.name()).collect();
    in_table.sort_unstable();
    faults.sort_unstable();
    assert_eq!(in_table, faults, "EXPECTATIONS and Fault::ALL disagree");
    for (_, revisions, expected) in EXPECTATIONS {
        assert!(!expected.is_empty());
        for rev in *revisions {
            assert!(
                REVISIONS.iter().any(|r| r.id == *rev),
                "unknown revision {rev}"
            );
        }
        for (id, _) in *expected {
            assert!(
                conformance::checks::find(id).is_some(),
                "unknown check {id}"
            );
        }
    }
}

#[test]
fn every_check_can_fail() {
    let proven: Vec<&str> = EXPECTATIONS
        .iter()
        .flat_map(|(_, _, expected)| expected.iter().map(|(id, _)| *id))
        .collect();
    let unproven: Vec<&str> = CATALOG
        .iter()
        .map(|c| c.id)
        .filter(|id| !proven.contains(id))
        .collect();
    assert!(
        unproven.is_empty(),
        "checks no fault makes fail: {unproven:?}"
    );
}
