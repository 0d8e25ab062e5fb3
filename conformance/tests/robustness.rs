//! The harness never hangs, panics or leaks on a hostile server: it crashes, stalls,
//! prints garbage, forks children. Each case ends with findings and no process left.

mod common;

use common::is_gone;

use std::time::Duration;

use mcp_conformance::checks::Status;
use mcp_conformance::protocol::{Revision, SessionConfig};
use mcp_conformance::report::RunReport;
use mcp_conformance::runner::RunConfig;
use mcp_conformance::transport::ServerCommand;

fn run_sh(script: &str) -> RunReport {
    let mut config = RunConfig::new(ServerCommand::new(
        "sh",
        [
            "-c".to_string(),
            script.to_string(),
            env!("CARGO_BIN_EXE_mcp-conformance").to_string(),
        ],
    ));
    config.revisions = vec![Revision::find("2025-06-18").unwrap()];
    config.session = SessionConfig {
        timeout: Duration::from_millis(1500),
        shutdown_grace: Duration::from_millis(500),
        max_line: 1024,
    };
    common::run_blocking(&config)
}

/// Waits up to 5 s for the process whose pid `pidfile` holds to be gone; `what` names it
/// in the failure (`{}` is its pid).
fn assert_gone_soon(pidfile: &std::path::Path, what: &str) {
    let pid: u32 = std::fs::read_to_string(pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while !is_gone(pid) && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(is_gone(pid), "{}", what.replace("{}", &pid.to_string()));
}

fn status(report: &RunReport, check: &str) -> Status {
    report
        .result("2025-06-18", check)
        .map(|r| r.status)
        .expect("check present")
}

#[test]
fn garbage_then_exit_is_a_finding_with_exit_status_and_stderr() {
    let report = run_sh(
        r#"echo 'hello from a server'; printf '\377\376\n'; echo 'fatal: bad config' >&2; exit 3"#,
    );
    assert_eq!(status(&report, "lc-init-result"), Status::Fail);
    assert_eq!(status(&report, "rpc-stdio-framing"), Status::Fail);
    let init = report.result("2025-06-18", "lc-init-result").unwrap();
    assert!(init.message.contains("exit status 3"), "{}", init.message);
    assert!(
        init.evidence
            .iter()
            .any(|e| e.text.contains("fatal: bad config")),
        "{:?}",
        init.evidence
    );
}

#[test]
fn a_server_that_never_answers_times_out_without_hanging() {
    let report = run_sh("exec sleep 30");
    let init = report.result("2025-06-18", "lc-init-result").unwrap();
    assert_eq!(init.status, Status::Fail);
    assert!(
        init.message.contains("no response within"),
        "{}",
        init.message
    );
}

#[test]
fn an_over_long_line_is_a_framing_finding() {
    let report = run_sh(r#"head -c 5000 /dev/zero | tr '\0' x; echo; exec "$0" reference-server"#);
    let framing = report.result("2025-06-18", "rpc-stdio-framing").unwrap();
    assert_eq!(framing.status, Status::Fail);
    assert!(
        framing.message.contains("over the line cap"),
        "{}",
        framing.message
    );
    assert_eq!(status(&report, "lc-init-result"), Status::Pass);
}

#[test]
fn children_of_the_server_are_killed_with_it() {
    let dir = std::env::temp_dir().join(format!("mcp-conformance-leak-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pidfile = dir.join("child.pid");
    // The server forks a long sleeper and then ignores stdin EOF, so only the harness's
    // process-group kill can end both.
    let script = format!(
        r#"sleep 300 & echo $! > '{}'; exec "$0" reference-server --fault ignore-stdin-eof"#,
        pidfile.display()
    );
    let report = run_sh(&script);
    assert_eq!(status(&report, "lc-shutdown-stdio"), Status::Warn);
    assert_gone_soon(&pidfile, "the server's child {} outlived the run");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_grandchild_that_left_the_process_group_is_killed_too() {
    let dir = std::env::temp_dir().join(format!("mcp-conformance-setsid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pidfile = dir.join("daemon.pid");
    // `setsid` puts the sleeper in a session (and group) of its own: a group kill cannot
    // reach it, the marker in its inherited environment does.
    let script = format!(
        r#"setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! > '{}'; exec "$0" reference-server"#,
        pidfile.display()
    );
    let report = run_sh(&script);
    assert_eq!(status(&report, "lc-init-result"), Status::Pass);
    assert_gone_soon(
        &pidfile,
        "the server's setsid grandchild {} outlived the run",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A server that answers initialize, then exits leaving a grandchild that holds its stdout
/// open: the exit is seen at once (not after a timeout per request), reported as an exit,
/// not as a clean shutdown, and the grandchild is ended with the run.
#[test]
fn an_exit_is_seen_while_a_grandchild_holds_stdout() {
    let server = r#"
import json, subprocess, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("method") == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "h", "version": "1"}}
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
    elif msg.get("method") == "notifications/initialized":
        subprocess.Popen(["sh", "-c", "exec sleep 301"])
        sys.exit(0)
"#;
    let mut config = RunConfig::new(ServerCommand::new(
        "python3",
        ["-c".to_string(), server.to_string()],
    ));
    config.revisions = vec![Revision::find("2025-06-18").unwrap()];
    config.properties = None;
    config.session = SessionConfig {
        timeout: Duration::from_secs(30),
        shutdown_grace: Duration::from_millis(500),
        max_line: 1024,
    };
    let started = std::time::Instant::now();
    let report = common::run_blocking(&config);
    // A hang check, not a speed target: before the fix every request waited the 30 s.
    assert!(
        started.elapsed() < Duration::from_secs(25),
        "{:?}",
        started.elapsed()
    );
    let ping = report.result("2025-06-18", "lc-ping").unwrap();
    assert_eq!(ping.status, Status::Fail);
    assert!(
        ping.evidence
            .iter()
            .any(|e| e.text.contains("the server exited")),
        "{:?}",
        ping.evidence
    );
    assert_eq!(status(&report, "lc-shutdown-stdio"), Status::Skip);
    let left = std::process::Command::new("pgrep")
        .args(["-f", "sleep 301"])
        .output()
        .map(|o| o.stdout)
        .unwrap_or_default();
    assert!(left.is_empty(), "the grandchild outlived the run");
}

/// A response nested 100,000 levels deep is refused by the depth bound at once and named
/// for what it is, not "not JSON".
#[test]
fn deep_json_is_named_as_such() {
    let server = r#"
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("method") == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {},
                  "serverInfo": {"name": "h", "version": "1"}}
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
    elif "id" in msg and msg.get("method") == "ping":
        deep = "[" * 100000 + "]" * 100000
        sys.stdout.write('{"jsonrpc":"2.0","id":%s,"result":{"x":%s}}\n' % (json.dumps(msg["id"]), deep))
        sys.stdout.flush()
"#;
    let mut config = RunConfig::new(ServerCommand::new(
        "python3",
        ["-c".to_string(), server.to_string()],
    ));
    config.revisions = vec![Revision::find("2025-06-18").unwrap()];
    config.properties = None;
    config.session = SessionConfig {
        timeout: Duration::from_secs(3),
        ..SessionConfig::default()
    };
    let report = common::run_blocking(&config);
    let framing = report.result("2025-06-18", "rpc-stdio-framing").unwrap();
    assert_eq!(framing.status, Status::Fail);
    assert!(
        framing.message.contains("nested deeper than 128 levels"),
        "{}",
        framing.message
    );
}
