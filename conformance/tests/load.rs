//! Load is not a fault: a wait whose deadline passed while the harness was kept from
//! running is stretched by the scheduling lag measured meanwhile, so the answer that came
//! in time is taken (`protocol/client/lag.rs`).
//!
//! The load is made exact: a helper process stops this whole test process (SIGSTOP) for
//! two seconds while a request with a one-second timeout waits; the server answers 2.4 s
//! after the request, when the harness has had 0.4 s of it. Without the stretch the wait
//! ends at the resume, its deadline long past. Alone in its test binary, since stopping
//! the process stops every test in it.

#![cfg(unix)]

use std::process::Command;
use std::time::Duration;

use mcp_conformance::protocol::{measured, Session, SessionConfig};
use mcp_conformance::transport::ServerCommand;

/// Answers every request with an empty result: the first at once, each later one 2.4 s
/// after reading it.
const SLOW_ECHO: &str = r#"
import json, sys, time
delay = 0
for line in sys.stdin:
    message = json.loads(line)
    if "id" in message and "method" in message:
        time.sleep(delay)
        delay = 2.4
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {}}), flush=True)
"#;

#[tokio::test]
async fn an_answer_that_came_while_the_harness_was_stopped_is_taken() {
    let command = ServerCommand::new("python3", ["-c".to_string(), SLOW_ECHO.to_string()]);
    let config = SessionConfig {
        timeout: Duration::from_secs(1),
        ..SessionConfig::default()
    };
    let mut session = Session::start(&command, config).expect("python3 starts");
    // The first request also waits for the start; the one measured comes after it.
    let first = session.request("ping", None).await;
    assert!(first.result().is_some(), "{:?}", first.silence());

    let me = std::process::id();
    let mut stopper = Command::new("sh")
        .args([
            "-c",
            &format!("sleep 0.1; kill -STOP {me}; sleep 2; kill -CONT {me}"),
        ])
        .spawn()
        .expect("sh starts");
    let (ping, usage) = measured(session.request("ping", None)).await;
    stopper.wait().expect("the stopper ends");

    assert!(
        ping.result().is_some(),
        "the answer that came 0.4 s of running time after the request was not taken: {:?}",
        ping.silence()
    );
    assert!(usage.stretched >= 1, "{usage:?}");
    assert!(usage.stretch_micros >= 1_000_000, "{usage:?}");
    session.shutdown().await;
}
