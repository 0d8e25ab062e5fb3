//! Real third-party servers, run as a server author would run the suite against them.
//!
//! They are installed from their registries by `.ci/install-targets.sh` (once per test
//! binary, on first use; it skips what is already installed). Each server's reviewed
//! outcome is a table here: a listed check must have exactly its listed status, every
//! other check must pass or skip. Why each listed finding is right is written down in
//! `reports/<server>.md`; a change here without a matching note there is a review smell.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use conformance::checks::Status;
use conformance::protocol::SessionConfig;
use conformance::report::{render_text, RunReport};
use conformance::runner::{run, RunConfig};
use conformance::transport::ServerCommand;

use Status::Warn;

/// (check, status) that every revision shows for a server; all else passes or skips.
type Expected = &'static [(&'static str, Status)];

/// The TypeScript and Python SDKs both drop lines that are not JSON-RPC requests without
/// answering (REQUIREMENTS.md 10 A2: silence is a warning). See reports/*.md.
const SDK_SILENCE: Expected = &[("rpc-err-parse", Warn), ("rpc-err-invalid-request", Warn)];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Installs the servers once; panics with the installer's output when it cannot.
fn third_party() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = workspace().join("target/third-party");
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

fn run_server(program: PathBuf, args: &[&str]) -> RunReport {
    let args = args.iter().map(|a| a.to_string());
    let mut config = RunConfig::new(ServerCommand::new(program.to_string_lossy(), args));
    config.command.cwd = Some(workspace());
    config.session = SessionConfig {
        timeout: Duration::from_secs(20),
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

fn assert_outcome(report: &RunReport, expected: Expected) {
    let mut wrong = Vec::new();
    for rev in &report.revisions {
        for r in &rev.results {
            let want = expected
                .iter()
                .find(|(id, _)| *id == r.check)
                .map(|(_, s)| *s);
            let ok = match want {
                Some(s) => r.status == s,
                None => matches!(r.status, Status::Pass | Status::Skip),
            };
            if !ok {
                wrong.push(format!(
                    "{} {} is {:?} ({})",
                    rev.revision, r.check, r.status, r.message
                ));
            }
        }
    }
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
    let report = run_server(node(), &[entry.to_str().unwrap(), "stdio"]);
    assert_outcome(&report, SDK_SILENCE);
}

#[test]
fn python_sdk_server() {
    let python = third_party().join("venv/bin/python");
    let report = run_server(python, &["fixtures/python/sdk_server.py"]);
    assert_outcome(&report, SDK_SILENCE);
}

#[test]
fn python_sdk_server_paginated() {
    let python = third_party().join("venv/bin/python");
    let report = run_server(python, &["fixtures/python/sdk_server_paginated.py"]);
    assert_outcome(&report, SDK_SILENCE);
}

#[test]
fn mcp_server_time() {
    let exe = third_party().join("venv/bin/mcp-server-time");
    let report = run_server(exe, &["--local-timezone", "UTC"]);
    assert_outcome(&report, SDK_SILENCE);
}
