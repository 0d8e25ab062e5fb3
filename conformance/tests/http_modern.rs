//! 2026-07-28 over Streamable HTTP: the reference server's HTTP mode (dual-era, and
//! `--era modern`) passes every check of the revision, each modern HTTP fault fails exactly
//! its check, and every `http-m-*` check is proven able to fail here (tests/http.rs leaves
//! them to this file, as tests/faults.rs leaves every `http-` id to tests/http.rs).
//!
//! A table like `faults.rs`'s, for the faults of `reference_server::HttpFault` whose names
//! start with `http-m-`. They run against a modern-only server: `http-m-legacy-traffic`
//! binds only those, and `http-m-headers` judges a request without `MCP-Protocol-Version`
//! only there.

use std::time::Instant;

mod common;

use common::Expect;
use mcp_conformance::checks::Status;
use mcp_conformance::protocol::{Revision, SessionConfig};
use mcp_conformance::report::{render_text, RunReport};
use mcp_conformance::runner::RunConfig;
use mcp_conformance::transport::{HttpTarget, ServerCommand};
use reference_server::HttpFault;

use Status::{Fail, Warn};

const MODERN: &str = "2026-07-28";
/// The prefix of the modern HTTP faults and checks.
const PREFIX: &str = "http-m-";

type Row = (&'static str, &'static [Expect]);

const EXPECTATIONS: &[Row] = &[
    ("http-m-headers-ignored", &[("http-m-headers", Fail, &[])]),
    ("http-m-unknown-200", &[("http-m-404", Fail, &[])]),
    ("http-m-error-200", &[("http-m-status", Fail, &[])]),
    (
        "http-m-param-ignored",
        &[("http-m-param-header", Fail, &[])],
    ),
    (
        "http-m-session-minted",
        &[("http-m-legacy-traffic", Warn, &[])],
    ),
];

/// Skips the reference server may show in 2026-07-28 over HTTP, each with its reason.
const REFERENCE_SKIPS: &[&str] = &[
    // Checks of other revisions.
    "applies to revisions",
    // Its tool list never changes.
    "sent no notifications/tools/list_changed",
    // lc-shutdown-stdio.
    "applies to servers on stdio only",
    // cancel-r5, cancel-ignore-invalid: closing the stream is the cancellation.
    "notifications/cancelled is not sent",
    // m-init-reject and http-m-legacy-traffic, for the dual-era server only.
    "initialize succeeded: a dual-era server",
    "the server also speaks the initialize-based revisions",
];

use common::free_port;

/// A run of 2026-07-28 against the reference server's HTTP mode, started by the runner.
fn run_reference(era: &str, http_fault: Option<&str>) -> RunReport {
    let port = free_port();
    let mut args: Vec<String> = [
        "reference-server",
        "--http",
        &port.to_string(),
        "--era",
        era,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if let Some(f) = http_fault {
        args.extend(["--http-fault".to_string(), f.to_string()]);
    }
    let mut command = ServerCommand::new(env!("CARGO_BIN_EXE_mcp-conformance"), args);
    command.http = Some(HttpTarget {
        url: format!("http://127.0.0.1:{port}/mcp"),
        headers: vec![("Authorization".into(), "Bearer test-secret".into())],
        ca_certs: Vec::new(),
    });
    let mut config = RunConfig::new(command);
    config.session = SessionConfig::default();
    config.jobs = 1;
    config.reference = true;
    config.revisions = vec![Revision::named(MODERN).expect("2026-07-28 is known")];
    common::run_blocking(&config)
}

fn assert_passes(era: &str) {
    let started = Instant::now();
    let report = run_reference(era, None);
    eprintln!(
        "reference server ({era}) over HTTP, 2026-07-28: {:.2} s",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(report.target.transport, "streamable-http");
    assert_eq!(report.revisions.len(), 1);
    assert!(
        report.not_spoken(MODERN).is_none(),
        "{}",
        render_text(&report)
    );
    let bad: Vec<String> = report.revisions[0]
        .results
        .iter()
        .filter(|c| match c.status {
            Status::Pass => false,
            Status::Skip => !REFERENCE_SKIPS.iter().any(|why| c.message.contains(why)),
            Status::Fail | Status::Warn => true,
        })
        .map(|c| format!("{} {:?}: {}", c.check, c.status, c.message))
        .collect();
    assert!(
        bad.is_empty(),
        "{}\n{}",
        bad.join("\n"),
        render_text(&report)
    );
    // The modern HTTP checks were judged, not skipped (the legacy-traffic one only binds
    // a modern-only server).
    for (_, expected) in EXPECTATIONS {
        for (id, _, _) in *expected {
            let result = report.revisions[0]
                .results
                .iter()
                .find(|c| c.check == *id)
                .unwrap();
            let judged = era == "modern" || *id != "http-m-legacy-traffic";
            if judged {
                assert_eq!(result.status, Status::Pass, "{id}: {}", result.message);
            }
        }
    }
    let text = render_text(&report);
    assert!(
        !text.contains("test-secret"),
        "a header value leaked:\n{text}"
    );
}

#[test]
fn dual_era_reference_server_passes_2026_07_28_over_http() {
    assert_passes("dual");
}

#[test]
fn modern_only_reference_server_passes_2026_07_28_over_http() {
    assert_passes("modern");
}

/// A legacy-only server answers the opening modern POST with an HTTP error: the revision
/// is not spoken, found from that answer (not by waiting out a timeout).
#[test]
fn a_legacy_only_server_does_not_speak_2026_07_28_over_http() {
    let report = run_reference("legacy", None);
    let reason = report.not_spoken(MODERN).expect("not spoken");
    assert!(reason.contains("was answered with the error"), "{reason}");
    assert!(common::mismatches(&report, &[]).is_empty());
}

#[test]
fn each_modern_http_fault_fails_exactly_its_check() {
    let handles: Vec<_> = EXPECTATIONS
        .iter()
        .map(|row| std::thread::spawn(move || (row, run_reference("modern", Some(row.0)))))
        .collect();
    let mut problems = Vec::new();
    for handle in handles {
        let (row, report) = handle.join().expect("fault thread");
        let found = common::mismatches(&report, row.1);
        if !found.is_empty() || report.not_spoken(MODERN).is_some() {
            problems.extend(found.into_iter().map(|m| format!("{}: {m}", row.0)));
            problems.push(render_text(&report));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_table_names_every_modern_http_fault() {
    let mut in_table: Vec<&str> = EXPECTATIONS.iter().map(|r| r.0).collect();
    let mut faults: Vec<&str> = HttpFault::ALL
        .iter()
        .map(|f| f.name())
        .filter(|n| n.starts_with(PREFIX))
        .collect();
    in_table.sort_unstable();
    faults.sort_unstable();
    assert_eq!(in_table, faults);
    for (_, expected) in EXPECTATIONS {
        for (id, _, _) in *expected {
            assert!(
                mcp_conformance::checks::find(id).is_some(),
                "unknown check {id}"
            );
        }
    }
}

/// Every 2026-07-28 Streamable HTTP check (`http-m-*`) is made to fail by a fault here.
#[test]
fn every_modern_http_check_can_fail() {
    let proven: Vec<&str> = EXPECTATIONS
        .iter()
        .flat_map(|(_, expected)| expected.iter().map(|(id, _, _)| *id))
        .collect();
    let unproven: Vec<&str> = mcp_conformance::checks::CATALOG
        .iter()
        .map(|c| c.id.as_str())
        .filter(|id| id.starts_with(PREFIX) && !proven.contains(id))
        .collect();
    assert!(
        unproven.is_empty(),
        "modern HTTP checks no fault makes fail: {unproven:?}"
    );
}

/// A case of `confirm_action` (whose `action` argument the reference server annotates
/// with `x-mcp-header: Action`) as a 2026-07-28 run over HTTP saves it, with or without
/// the annotations that run learned from `tools/list`.
fn param_case(with_annotations: bool) -> serde_json::Value {
    let mut case = serde_json::json!({
        "mcp_conformance_case": 1,
        "check": "prop-valid-call",
        "revision": MODERN,
        "seed": 0,
        "description": "confirm_action, its argument mirrored into Mcp-Param-Action",
        "kind": "protocol-error-on-valid",
        "command": {"program": "", "args": [], "env": [], "cwd": null},
        "messages": [
            {"send": {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "confirm_action", "arguments": {"action": "deploy"}}}},
            {"send": {"jsonrpc": "2.0", "id": 3, "method": "server/discover"}}
        ]
    });
    if with_annotations {
        case["tool_headers"] =
            serde_json::json!({"confirm_action": [{"header": "Action", "path": ["action"]}]});
    }
    case
}

/// `mcp-conformance replay CASE --url URL -- reference-server` in a fresh process: its
/// stdout (the transcript, with each POST's headers).
fn replay_over_http(case: &serde_json::Value) -> String {
    let dir = std::env::temp_dir().join(format!(
        "mcp-param-replay-{}-{}",
        std::process::id(),
        case.get("tool_headers").is_some()
    ));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let file = dir.join("case.json");
    std::fs::write(&file, case.to_string()).expect("write the case");
    let exe = env!("CARGO_BIN_EXE_mcp-conformance");
    let port = free_port().to_string();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let output = std::process::Command::new(exe)
        .arg("replay")
        .arg(&file)
        .args([
            "--url",
            &url,
            "--",
            exe,
            "reference-server",
            "--http",
            &port,
        ])
        .args(["--era", "modern"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run replay");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "a verdict, not a harness error\n{stdout}\n{stderr}"
    );
    stdout
}

/// Regression: `replay` of a 2026-07-28 `tools/call` over HTTP sent no `Mcp-Param-*`
/// header (a fresh process had listed no tools), so a conforming server refused it with
/// -32020 and the replay judged something the run never sent.
#[test]
fn replay_sends_the_param_headers_the_run_learned() {
    let replayed = replay_over_http(&param_case(true));
    assert!(replayed.contains("Mcp-Param-Action: deploy"), "{replayed}");
    assert!(!replayed.contains("-32020"), "{replayed}");
    // The annotations came from the case file: no tools/list was sent.
    assert!(!replayed.contains("(tools/list)"), "{replayed}");
}

/// Regression: a case file written before `tool_headers` existed replayed a 2026-07-28
/// `tools/call` without its `Mcp-Param-*` headers (the server refused it with -32020).
/// The replay now lists the tools first, learns the annotations as a client would, and
/// says so in the transcript.
#[test]
fn replay_of_a_case_file_without_tool_headers_learns_them_from_tools_list() {
    let replayed = replay_over_http(&param_case(false));
    assert!(
        replayed.contains("the case file has no tool_headers (written before the field existed)"),
        "{replayed}"
    );
    assert!(
        replayed
            .contains("tool parameter headers from tools/list: confirm_action: Mcp-Param-Action"),
        "{replayed}"
    );
    let listed = replayed.find("(tools/list)").expect("tools/list was sent");
    let called = replayed
        .find("Mcp-Param-Action: deploy")
        .expect("the call carries its header");
    assert!(listed < called, "{replayed}");
    assert!(!replayed.contains("-32020"), "{replayed}");
}
