//! Real third-party servers, run as a server author would run the suite against them.
//!
//! They are installed from their registries by `.ci/install-targets.sh` (once per test
//! binary, on first use; it skips what is already installed). Each server's reviewed
//! outcome is a table here: a listed check must have exactly its listed status, every
//! other check must pass or skip. Why each listed finding is right is written down in
//! `reports/<server>.md`; a change here without a matching note there is a review smell.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use mcp_conformance::checks::Status;
use mcp_conformance::protocol::SessionConfig;
use mcp_conformance::report::{render_surface, render_text, RunReport};
use mcp_conformance::runner::{check_surface, RunConfig};
use mcp_conformance::surface::Snapshot;
use mcp_conformance::transport::ServerCommand;

use Status::{Fail, Warn};

const ALL: &[&str] = &[];
const R1_R2: &[&str] = &["2024-11-05", "2025-03-26"];
const R3_UP: &[&str] = &["2025-06-18", "2025-11-25", "2026-07-28"];
const R4: &[&str] = &["2025-11-25"];

/// (check, status, revisions: `ALL` for every one) a server shows; all else passes or skips.
type Expected = &'static [common::Expect];

/// The TypeScript and Python SDKs drop lines that are not JSON-RPC requests without
/// answering (REQUIREMENTS.md 10 A2: silence is a warning).
const SILENT_ON_MALFORMED: [(&str, Status, &[&str]); 2] = [
    ("rpc-err-parse", Warn, ALL),
    ("rpc-err-invalid-request", Warn, ALL),
];

/// `arguments` that is not an object: the Python SDK reads `null` as "no arguments" and runs
/// the tool; server-everything refuses every wrong type with -32603, not -32602. Both a
/// policy warning (reports/README.md, "arguments of the wrong type").
const ARGUMENTS_TYPE: (&str, Status, &[&str]) = ("tc-err-arguments-type", Warn, ALL);

/// Neither SDK answers a JSON-RPC batch, though both negotiate 2025-03-26, whose
/// implementations "MUST support receiving JSON-RPC batches" (reports/README.md).
const NO_BATCHES: (&str, Status, &[&str]) = ("rpc-batch", Fail, &["2025-03-26"]);

/// reports/server-everything.md explains each line.
const EVERYTHING: Expected = &[
    SILENT_ON_MALFORMED[0],
    SILENT_ON_MALFORMED[1],
    NO_BATCHES,
    ARGUMENTS_TYPE,
    ("pag-invalid-cursor", Warn, ALL),
    ("tc-err-unknown-tool", Warn, ALL),
    ("tc-err-malformed", Warn, ALL),
    ("lc-shutdown-stdio", Warn, ALL),
    // resource_link content sent to 2024-11-05 and 2025-03-26 clients (the property phase
    // meets the same tool again).
    ("tc-content-types", Fail, R1_R2),
    ("schema-server-messages", Fail, R1_R2),
    ("prop-valid-call-result", Fail, R1_R2),
    // Zod validation dumps as error messages (schema: "SHOULD be limited to a concise
    // single sentence").
    ("rpc-error-message", Warn, ALL),
    // A malformed initialize (params left out, ...) gets -32603 with the Zod report, not
    // -32602 (policy LC-INIT-PARAMS-MALFORMED: a warning).
    ("lc-init-params-malformed", Warn, ALL),
    // `simulate-research-query` requires a task and answers a plain call with an isError
    // result, not -32601; `echo` (no task support) called as a task gets -32602.
    ("tc-task-required", Fail, R4),
    ("tc-task-forbidden", Warn, R4),
];

/// reports/python-sdk.md explains each line.
const PYTHON_SDK: Expected = &[
    SILENT_ON_MALFORMED[0],
    SILENT_ON_MALFORMED[1],
    NO_BATCHES,
    ARGUMENTS_TYPE,
    ("pag-invalid-cursor", Warn, ALL),
    ("tc-err-unknown-tool", Warn, ALL),
    ("tc-structured-text-mirror", Warn, R3_UP),
];

/// reports/python-sdk.md: the low-level server paginates and handles cursors itself.
const PYTHON_SDK_PAGINATED: Expected = &[
    SILENT_ON_MALFORMED[0],
    SILENT_ON_MALFORMED[1],
    NO_BATCHES,
    ARGUMENTS_TYPE,
];

/// reports/mcp-server-time.md explains each line.
/// The fixture server on crates.io rmcp 3.9 (`fixtures/rmcp-server`, reports/rmcp-server.md).
const RMCP: Expected = &[
    ("rpc-err-parse", Warn, ALL),
    NO_BATCHES,
    ARGUMENTS_TYPE,
    ("rpc-error-id", Fail, ALL),
    ("pag-invalid-cursor", Warn, ALL),
    ("tc-err-malformed", Warn, ALL),
    ("m-serverinfo", Warn, &["2026-07-28"]),
];

const TIME: Expected = &[
    SILENT_ON_MALFORMED[0],
    SILENT_ON_MALFORMED[1],
    NO_BATCHES,
    ARGUMENTS_TYPE,
    ("pag-invalid-cursor", Warn, ALL),
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Installs the servers once; panics with the installer's output when it cannot. Says
/// so first, on the real stderr (not the test's captured output): the first run downloads
/// from npm, PyPI and crates.io, and a silent minute reads as a hang.
fn third_party() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = workspace().join("target/third-party");
        let _ = writeln!(
            std::io::stderr(),
            "third_party: installing the third-party servers into {} (npm, PyPI, crates.io; \
             nothing is fetched when they are there already)",
            dir.display()
        );
        let out = std::process::Command::new("bash")
            .arg(workspace().join(".ci/install-targets.sh"))
            .arg(&dir)
            .output()
            .expect("bash runs");
        assert!(
            out.status.success(),
            "installing the third-party servers failed (needs node, npm, python3 and the \
             npm and PyPI registries):\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        dir
    })
}

fn run_server(program: PathBuf, args: &[&str], deny: &[&str]) -> RunReport {
    let args = args.iter().map(|a| a.to_string());
    let mut config = RunConfig::new(ServerCommand::new(program.to_string_lossy(), args));
    config.call_policy.deny = deny
        .iter()
        .map(|g| glob::Pattern::new(g).unwrap())
        .collect();
    config.command.cwd = Some(workspace());
    config.session = SessionConfig {
        timeout: Duration::from_secs(20),
        ..SessionConfig::default()
    };
    config.surface = true;
    common::run_blocking(&config)
}

/// The tools the run listed are the committed snapshot's (reports/surface/NAME.snapshot.json,
/// written by `mcp-conformance snapshot`): the run's walks and the command's agree, and the
/// snapshot still is what the pinned server lists.
fn assert_surface(report: &RunReport, name: &str) {
    let path = workspace().join(format!("reports/surface/{name}.snapshot.json"));
    let recorded = Snapshot::load(&path).expect("the committed snapshot reads");
    let live = report
        .live_surface
        .as_ref()
        .expect("the run kept its tool surface");
    let checked = check_surface(&path, &recorded, live, false);
    assert!(
        checked.changes.is_empty(),
        "{}",
        render_surface(&checked, false)
    );
}

fn assert_outcome(report: &RunReport, expected: Expected) {
    let wrong = common::mismatches(report, expected);
    assert!(
        wrong.is_empty(),
        "{}\n\n{}",
        wrong.join("\n"),
        render_text(report)
    );
}

fn node() -> PathBuf {
    PathBuf::from("node")
}

#[test]
fn server_everything() {
    let entry = third_party()
        .join("npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    // Its long-running demo tool sleeps 10 s by default: a warning each revision, and 40 s
    // of CI time (reports/server-everything.md).
    let report = run_server(
        node(),
        &[entry.to_str().unwrap(), "stdio"],
        &["trigger-long-running-operation"],
    );
    assert_outcome(&report, EVERYTHING);
    assert_eq!(report.era, Some("legacy-only"), "{}", render_text(&report));
    assert_surface(&report, "server-everything");
}

#[test]
fn python_sdk_server() {
    let python = third_party().join("venv/bin/python");
    let report = run_server(python, &["fixtures/python/sdk_server.py"], &[]);
    assert_outcome(&report, PYTHON_SDK);
    // The `mcp` 2.3 SDK speaks both eras (2026-07-28 versioning.mdx, Compatibility Matrix).
    assert_eq!(report.era, Some("dual-era"), "{}", render_text(&report));
    assert_surface(&report, "python-sdk");
}

#[test]
fn python_sdk_server_paginated() {
    let python = third_party().join("venv/bin/python");
    let report = run_server(python, &["fixtures/python/sdk_server_paginated.py"], &[]);
    assert_outcome(&report, PYTHON_SDK_PAGINATED);
}

#[test]
fn rmcp_server() {
    let exe = third_party().join("rmcp/release/mcp-rmcp-server");
    let report = run_server(exe, &[], &[]);
    assert_outcome(&report, RMCP);
    // rmcp 3.9 speaks both eras (2026-07-28 versioning.mdx, Compatibility Matrix).
    assert_eq!(report.era, Some("dual-era"), "{}", render_text(&report));
    assert_surface(&report, "rmcp-server");
}

#[test]
fn mcp_server_time() {
    let exe = third_party().join("venv/bin/mcp-server-time");
    let report = run_server(exe.clone(), &["--local-timezone", "UTC"], &[]);
    assert_outcome(&report, TIME);
    assert_eq!(report.era, Some("dual-era"), "{}", render_text(&report));
    // It rejects every generated time zone: the report says so at the top, with the checks
    // that cost, in every revision that has them.
    let noted: Vec<(&str, Vec<&str>)> = report
        .coverage
        .iter()
        .map(|n| {
            (
                n.revision,
                n.tools.iter().map(|t| t.tool.as_str()).collect(),
            )
        })
        .collect();
    let both = vec!["get_current_time", "convert_time"];
    assert_eq!(
        noted,
        [
            ("2025-06-18", both.clone()),
            ("2025-11-25", both.clone()),
            ("2026-07-28", both)
        ],
        "{}",
        render_text(&report)
    );
    assert!(report.coverage[0]
        .checks_skipped
        .contains(&"tc-outputschema-conform"));

    // Given arguments (`--tool-args`), the same checks run, and pass.
    let mut config = RunConfig::new(ServerCommand::new(
        exe.to_string_lossy(),
        ["--local-timezone".to_string(), "UTC".to_string()],
    ));
    config.revisions = vec![&mcp_conformance::protocol::REVISIONS[2]];
    config.properties = None;
    config.call_policy.arguments = [
        ("get_current_time", serde_json::json!({"timezone": "UTC"})),
        (
            "convert_time",
            serde_json::json!({"source_timezone": "UTC", "time": "12:00", "target_timezone": "Europe/Paris"}),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let given = common::run_blocking(&config);
    assert!(given.coverage.is_empty(), "{}", render_text(&given));
    let conform = given
        .result("2025-06-18", "tc-outputschema-conform")
        .unwrap();
    assert_eq!(conform.status, Status::Pass, "{}", render_text(&given));
}

// -- Over Streamable HTTP (issue 14) --

/// The Streamable HTTP revisions before 2026-07-28 (2024-11-05 has HTTP+SSE instead).
const HTTP_LEGACY: &[&str] = &["2025-03-26", "2025-06-18", "2025-11-25"];
/// Every revision that has Streamable HTTP: a dual-era server is judged in all four.
const HTTP_ALL: &[&str] = &["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];

use common::free_port;

/// `program args` started by the runner with `env`, reached at
/// `http://127.0.0.1:port/mcp`, judged in `revisions`.
fn run_http_server(
    program: PathBuf,
    args: &[&str],
    env: &[(&str, String)],
    port: u16,
    deny: &[&str],
    revisions: &[&str],
) -> RunReport {
    let args = args.iter().map(|a| a.to_string());
    let mut command = ServerCommand::new(program.to_string_lossy(), args);
    command.env = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    command.cwd = Some(workspace());
    command.http = Some(mcp_conformance::transport::HttpTarget {
        url: format!("http://127.0.0.1:{port}/mcp"),
        headers: Vec::new(),
        ca_certs: Vec::new(),
    });
    let mut config = RunConfig::new(command);
    config.call_policy.deny = deny
        .iter()
        .map(|g| glob::Pattern::new(g).unwrap())
        .collect();
    config.revisions = mcp_conformance::protocol::REVISIONS
        .iter()
        .filter(|r| revisions.contains(&r.id))
        .collect();
    config.session = SessionConfig {
        timeout: Duration::from_secs(20),
        ..SessionConfig::default()
    };
    let report = common::run_blocking(&config);
    assert_eq!(report.target.transport, "streamable-http");
    let run: Vec<&str> = report.revisions.iter().map(|r| r.revision).collect();
    assert_eq!(run, revisions, "{}", render_text(&report));
    report
}

/// A request object without `method` (readable id 900001): over HTTP both SDKs' transports
/// answer it themselves, with another code than -32600 and `id: null` (over stdio they are
/// silent: a warning); the Python SDK's 2026-07-28 transport answers -32600, still with
/// `id: null`. reports/server-everything-http.md, reports/python-sdk-http.md.
const HTTP_INVALID_REQUEST: [(&str, Status, &[&str]); 2] = [
    ("rpc-err-invalid-request", Fail, HTTP_LEGACY),
    ("rpc-error-id", Fail, ALL),
];

/// reports/server-everything-http.md explains each line (the rest as over stdio).
const EVERYTHING_HTTP: Expected = &[
    HTTP_INVALID_REQUEST[0],
    HTTP_INVALID_REQUEST[1],
    // A request in a session it DELETEd gets 400, not 404 (transports.mdx MUST).
    ("http-session-unknown", Fail, ALL),
    // A request from Origin http://mcp-conformance.invalid is served (200) on 127.0.0.1:
    // transports.mdx, Security Warning: servers MUST validate Origin (2025-11-25: 403).
    ("http-origin", Fail, ALL),
    // An empty batch gets 202 and no body (policy A2: no -32600, a warning).
    ("rpc-batch-response", Warn, &["2025-03-26"]),
    ARGUMENTS_TYPE,
    ("pag-invalid-cursor", Warn, ALL),
    ("tc-err-unknown-tool", Warn, ALL),
    ("tc-err-malformed", Warn, ALL),
    ("tc-content-types", Fail, R1_R2),
    ("schema-server-messages", Fail, R1_R2),
    ("prop-valid-call-result", Fail, R1_R2),
    ("rpc-error-message", Warn, ALL),
    ("lc-init-params-malformed", Warn, ALL),
    ("tc-task-required", Fail, R4),
    ("tc-task-forbidden", Warn, R4),
];

/// reports/python-sdk-http.md explains each line (the rest as over stdio).
const PYTHON_SDK_HTTP: Expected = &[
    HTTP_INVALID_REQUEST[0],
    HTTP_INVALID_REQUEST[1],
    // The -32602 for the request without `method` carries a 13-line pydantic report.
    ("rpc-error-message", Warn, HTTP_LEGACY),
    NO_BATCHES,
    ARGUMENTS_TYPE,
    ("pag-invalid-cursor", Warn, ALL),
    ("tc-err-unknown-tool", Warn, ALL),
    ("tc-structured-text-mirror", Warn, R3_UP),
    // Its SSE streams open with a message, not a priming event (an event id and empty
    // data): the SDK primes only with an event store, which the fixture has none of.
    ("http-sse-priming", Warn, R4),
];

#[test]
fn server_everything_over_http() {
    let entry = third_party()
        .join("npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    // It binds every interface on PORT: a free port, reached on 127.0.0.1 only.
    let port = free_port();
    let report = run_http_server(
        node(),
        &[entry.to_str().unwrap(), "streamableHttp"],
        &[("PORT", port.to_string())],
        port,
        &["trigger-long-running-operation"],
        HTTP_LEGACY,
    );
    // The era is told by a modern revision, which did not run.
    assert_eq!(report.era, None, "{}", render_text(&report));
    assert_outcome(&report, EVERYTHING_HTTP);
}

#[test]
fn python_sdk_server_over_http() {
    let python = third_party().join("venv/bin/python");
    let port = free_port();
    let report = run_http_server(
        python,
        &["fixtures/python/sdk_server.py", "--http", &port.to_string()],
        &[],
        port,
        &[],
        HTTP_ALL,
    );
    // Both eras over HTTP too (2026-07-28 versioning.mdx, Compatibility Matrix).
    assert_eq!(report.era, Some("dual-era"), "{}", render_text(&report));
    assert_outcome(&report, PYTHON_SDK_HTTP);
}

/// server-everything over 2024-11-05's HTTP+SSE transport (`node index.js sse`, `PORT=N`; it
/// binds every interface, so only 127.0.0.1 is contacted). Only 2024-11-05 runs; its
/// verdicts are the stdio ones of 2024-11-05 (reports/server-everything-sse.md), less
/// `lc-shutdown-stdio`, which does not apply over HTTP, plus `http-origin`: a GET of `/sse`
/// from Origin http://mcp-conformance.invalid opens a stream and a POST from it is
/// accepted (202) on 127.0.0.1 (2024-11-05 transports.mdx, Security Warning: servers MUST
/// validate Origin on all incoming connections).
#[test]
fn server_everything_sse() {
    let entry = third_party()
        .join("npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    let port = common::free_port();
    let mut command = ServerCommand::new(
        node().to_string_lossy(),
        [entry.to_string_lossy().into_owned(), "sse".to_string()],
    );
    command.env = vec![("PORT".into(), port.to_string())];
    command.cwd = Some(workspace());
    command.http = Some(mcp_conformance::transport::HttpTarget {
        url: format!("http://127.0.0.1:{port}/sse"),
        headers: Vec::new(),
        ca_certs: Vec::new(),
    });
    command.http_kind = mcp_conformance::transport::HttpKind::Sse;
    let mut config = RunConfig::new(command);
    config.revisions = mcp_conformance::protocol::REVISIONS
        .iter()
        .filter(|r| r.runs_over(mcp_conformance::protocol::TransportKind::HttpSse))
        .collect();
    config.call_policy.deny = vec![glob::Pattern::new("trigger-long-running-operation").unwrap()];
    config.session = SessionConfig {
        timeout: Duration::from_secs(20),
        ..SessionConfig::default()
    };
    let report = common::run_blocking(&config);
    assert_eq!(report.target.transport, "sse");
    assert_eq!(report.revisions.len(), 1, "{}", render_text(&report));
    assert_eq!(report.revisions[0].revision, "2024-11-05");
    let endpoint = report.result("2024-11-05", "sse-endpoint-event").unwrap();
    assert_eq!(endpoint.status, Status::Pass, "{}", render_text(&report));
    let messages = report.result("2024-11-05", "sse-message-event").unwrap();
    assert_eq!(messages.status, Status::Pass, "{}", render_text(&report));
    let stdio_only: Vec<common::Expect> = EVERYTHING
        .iter()
        .copied()
        .filter(|(id, _, _)| *id != "lc-shutdown-stdio")
        .chain([("http-origin", Fail, ALL)])
        .collect();
    let wrong = common::mismatches(&report, &stdio_only);
    assert!(
        wrong.is_empty(),
        "{}\n\n{}",
        wrong.join("\n"),
        render_text(&report)
    );
}
