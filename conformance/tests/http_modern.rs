//! 2026-07-28 over Streamable HTTP: the reference server's HTTP mode (dual-era, and
//! `--era modern`) passes every check of the revision, each modern HTTP fault fails exactly
//! its check, and every `http-m-*` check is proven able to fail here (tests/http.rs leaves
//! them to this file, as tests/faults.rs leaves every `http-` id to tests/http.rs).
//!
//! A table like `faults.rs`'s, walked by the same machinery (`common::expect`), for the
//! faults of `reference_server::HttpFault` whose names start with `http-m-`. They run
//! against a modern-only server: `http-m-legacy-traffic` binds only those, and
//! `http-m-headers` judges a request without `MCP-Protocol-Version` only there.

mod common;

use common::expect::{
    self, never_notifies, Row, Skip, Table, Transport, ALL, HTTP_2026, NOT_APPLICABLE,
    NO_STDIN_OVER_HTTP,
};
use mcp_conformance::checks::Status;
use mcp_conformance::protocol::SessionConfig;

use Status::{Fail, Warn};

const MODERN: &str = "2026-07-28";

/// The 2026-07-28 HTTP faults' table, walked by `common::expect` against a modern-only
/// server.
const TABLE: Table = Table {
    transport: HTTP_2026,
    rows: EXPECTATIONS,
    skips: REFERENCE_SKIPS,
    late: &[],
    waits: expect::default_waits,
};

/// `ALL`: 2026-07-28, the one revision run.
const EXPECTATIONS: &[Row] = &[
    ("http-m-headers-ignored", &[("http-m-headers", Fail, ALL)]),
    ("http-m-unknown-200", &[("http-m-404", Fail, ALL)]),
    ("http-m-header-case", &[("http-m-header-case", Fail, ALL)]),
    (
        "http-m-name-untrimmed",
        &[("http-m-name-whitespace", Fail, ALL)],
    ),
    ("http-m-error-200", &[("http-m-status", Fail, ALL)]),
    (
        "http-m-param-ignored",
        &[("http-m-param-header", Fail, ALL)],
    ),
    (
        "http-m-session-minted",
        &[("http-m-legacy-traffic", Warn, ALL)],
    ),
];

/// The skips the reference server's own run shows in 2026-07-28 over HTTP, each with its
/// reason.
const REFERENCE_SKIPS: &[Skip] = &[
    NOT_APPLICABLE,
    never_notifies("lcn-shape", ALL),
    NO_STDIN_OVER_HTTP,
    Skip {
        check: "cancel-r5",
        revisions: ALL,
        matching: "notifications/cancelled is not sent",
        why: "over HTTP, closing the request's stream is the cancellation",
    },
    Skip {
        check: "cancel-ignore-invalid",
        revisions: ALL,
        matching: "notifications/cancelled is not sent",
        why: "over HTTP, closing the request's stream is the cancellation",
    },
];

/// The skips a dual-era reference server shows besides [`REFERENCE_SKIPS`].
const DUAL_ERA_SKIPS: &[Skip] = &[
    Skip {
        check: "m-init-reject",
        revisions: ALL,
        matching: "initialize succeeded: a dual-era server",
        why: "the rule binds modern-only servers",
    },
    Skip {
        check: "http-m-legacy-traffic",
        revisions: ALL,
        matching: "the server also speaks the initialize-based revisions",
        why: "the rule binds modern-only servers",
    },
];

use common::free_port;

/// The transport against the reference server of `era` (`dual`, `modern`, `legacy`).
fn era(era: &'static str) -> Transport {
    Transport {
        era: Some(era),
        ..HTTP_2026
    }
}

/// The modern HTTP checks were judged, not skipped (the legacy-traffic one only binds a
/// modern-only server).
#[test]
fn dual_era_reference_server_passes_2026_07_28_over_http() {
    let skips = [REFERENCE_SKIPS, DUAL_ERA_SKIPS].concat();
    expect::reference_passes(&Table {
        transport: era("dual"),
        skips: &skips,
        ..TABLE
    });
}

#[test]
fn modern_only_reference_server_passes_2026_07_28_over_http() {
    expect::reference_passes(&TABLE);
}

/// A legacy-only server answers the opening modern POST with an HTTP error: the revision
/// is not spoken, found from that answer (not by waiting out a timeout).
#[test]
fn a_legacy_only_server_does_not_speak_2026_07_28_over_http() {
    let report = expect::run(&era("legacy"), None, ALL, SessionConfig::default());
    let reason = report.not_spoken(MODERN).expect("not spoken");
    assert!(reason.contains("was answered with the error"), "{reason}");
    assert!(common::mismatches(&report, &[]).is_empty());
}

#[test]
fn each_modern_http_fault_fails_exactly_its_check() {
    expect::faults_fail_exactly_their_checks(&TABLE);
}

#[test]
fn the_table_names_every_modern_http_fault() {
    expect::table_names_every_fault(&TABLE);
}

/// Every 2026-07-28 Streamable HTTP check (`http-m-*`) is made to fail by a fault here.
#[test]
fn every_modern_http_check_can_fail() {
    expect::every_check_can_fail(&TABLE);
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
