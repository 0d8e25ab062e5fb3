//! The other entry points against hostile servers (issue 11): `mcp-conformance replay`,
//! the live fuzz target and the libtest harness each meet a server that exits after
//! initialize with a grandchild holding stdout, one that floods stdout, and one that
//! stalls. Each row asserts a bounded wall time (a generous hang guard, not a speed
//! target), a finding or a clean error, and that nothing the server started is left
//! (found by a marker in the environment the server and its descendants inherit).

mod common;
#[allow(dead_code)] // the runner of robustness.rs is not used here
#[path = "common/hostile.rs"]
mod hostile;

use std::time::{Duration, Instant};

use serde_json::json;

use mcp_conformance::fuzzing::{LiveConfig, LiveTarget};
use mcp_conformance::protocol::Revision;
use mcp_conformance::records::{CaseFile, CaseMessage};
use mcp_conformance::rules::FailureKind;
use mcp_conformance::scenarios::CallPolicy;
use mcp_conformance::transport::ServerCommand;
use mcp_conformance::Suite;

/// Every row ends within this (hang guard; a stall costs a few timeouts of 3 s).
const WALL_BOUND: Duration = Duration::from_secs(120);

/// The three behaviours, with the hostile server's arguments.
const ROWS: [&[&str]; 3] = [
    &["fork-grandchild"],
    &["notify-flood", "8192"],
    &["stall-tools-list"],
];

/// `hostile_server.py ARGS`, its processes marked with `marker`.
fn server(args: &[&str], marker: &str) -> ServerCommand {
    let script = hostile::repo().join("fixtures/python/hostile_server.py");
    let mut command = ServerCommand::new(
        "python3",
        std::iter::once(script.display().to_string()).chain(args.iter().map(|a| a.to_string())),
    );
    command
        .env
        .push((hostile::MARKER.to_string(), marker.to_string()));
    command
}

fn marker(entry: &str, args: &[&str]) -> String {
    format!("{entry}-{}-{}", args[0], std::process::id())
}

/// Nothing carrying `marker` is left (after a moment for the kernel); kills leftovers so
/// a failing row leaks nothing either.
fn assert_nothing_left(marker: &str, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(3);
    let mut left = hostile::marked(marker);
    while !left.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        left = hostile::marked(marker);
    }
    for pid in &left {
        let _ = std::process::Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    assert!(left.is_empty(), "{what}: left running: {left:?}");
}

/// A case a server fails by stalling or exiting: tools/list, then a call of echo.
fn case_file(command: ServerCommand) -> CaseFile {
    let revision = "2025-06-18";
    let messages = vec![
        CaseMessage::message(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": mcp_conformance::scenarios::initialize_params(revision)}),
            false,
        ),
        CaseMessage::message(
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            false,
        ),
        CaseMessage::message(
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
            false,
        ),
        CaseMessage::message(
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                   "params": {"name": "echo", "arguments": {}}}),
            false,
        ),
    ];
    CaseFile {
        mcp_conformance_case: 1,
        check: "prop-server-survives".into(),
        revision: revision.into(),
        seed: 0,
        description: "hostile entry-point row".into(),
        kind: FailureKind::Stall,
        command,
        messages,
        timeout_secs: Some(3.0),
        output_schema: None,
        tool_headers: Default::default(),
    }
}

/// `mcp-conformance replay CASE -- SERVER`: ends within the bound with a verdict
/// (0 not reproduced, 1 reproduced), never a hang, a signal or a harness error.
fn replay_row(args: &[&str]) {
    let marker = marker("replay", args);
    let command = server(args, &marker);
    let dir = std::env::temp_dir().join(format!("mcp-conformance-entry-{marker}"));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("case.json");
    std::fs::write(
        &path,
        serde_json::to_string(&case_file(command.clone())).unwrap(),
    )
    .unwrap();
    let started = Instant::now();
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-conformance"))
        .arg("replay")
        .arg(&path)
        .args(["--timeout", "3", "--"])
        .arg(&command.program)
        .args(&command.args)
        .env(hostile::MARKER, &marker)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("replay runs");
    let wall = started.elapsed();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(wall < WALL_BOUND, "replay {args:?}: took {wall:?}");
    assert!(
        matches!(status.code(), Some(0 | 1)),
        "replay {args:?}: {status:?}"
    );
    assert_nothing_left(&marker, &format!("replay {args:?}"));
}

/// The live fuzz target: a few inputs against the server (restarted as it needs), then
/// the target dropped; bounded, and nothing left.
fn live_row(args: &[&str]) {
    let marker = marker("live", args);
    let started = Instant::now();
    match LiveTarget::start(LiveConfig {
        command: server(args, &marker),
        revision: Revision::find("2025-06-18").unwrap(),
        timeout: Duration::from_secs(3),
        policy: CallPolicy::default(),
        cases_dir: None,
        interrupt: None,
        ignore: Vec::new(),
    }) {
        // A server that cannot be listed is a clean error, not a hang.
        Err(_) => {}
        Ok(mut target) => {
            for i in 0..8u8 {
                let _ = target.run(&[i, 7, 42, i.wrapping_mul(31), 3, 9]);
            }
            drop(target);
        }
    }
    let wall = started.elapsed();
    assert!(wall < WALL_BOUND, "live {args:?}: took {wall:?}");
    assert_nothing_left(&marker, &format!("live {args:?}"));
}

/// The libtest harness on one revision, strict (a warning fails too: a flood is a policy
/// warning, not a MUST): its trials run, some fail, within the bound, and nothing is left.
fn harness_row(args: &[&str]) {
    let marker = marker("harness", args);
    let started = Instant::now();
    let suite = Suite::new(server(args, &marker))
        .revisions(&["2025-06-18"])
        .timeout(Duration::from_secs(3))
        .strict(true);
    let cli = common::nested_args(&["hostile", "--quiet"]);
    let trials = suite.trials(&cli);
    let conclusion = libtest_mimic::run(&cli, trials);
    let wall = started.elapsed();
    assert!(wall < WALL_BOUND, "harness {args:?}: took {wall:?}");
    assert!(conclusion.has_failed(), "harness {args:?}: no test failed");
    assert_nothing_left(&marker, &format!("harness {args:?}"));
}

#[test]
fn replay_against_a_server_that_exits_leaving_a_grandchild_on_stdout() {
    replay_row(ROWS[0]);
}

#[test]
fn replay_against_a_stdout_flood() {
    replay_row(ROWS[1]);
}

#[test]
fn replay_against_a_stall() {
    replay_row(ROWS[2]);
}

#[test]
fn live_fuzz_against_a_server_that_exits_leaving_a_grandchild_on_stdout() {
    live_row(ROWS[0]);
}

#[test]
fn live_fuzz_against_a_stdout_flood() {
    live_row(ROWS[1]);
}

#[test]
fn live_fuzz_against_a_stall() {
    live_row(ROWS[2]);
}

#[test]
fn harness_against_a_server_that_exits_leaving_a_grandchild_on_stdout() {
    harness_row(ROWS[0]);
}

#[test]
fn harness_against_a_stdout_flood() {
    harness_row(ROWS[1]);
}

#[test]
fn harness_against_a_stall() {
    harness_row(ROWS[2]);
}
