//! Load is not a fault: a wait whose deadline passed while the harness was kept from
//! running is stretched by the scheduling lag measured meanwhile, so the answer that came
//! in time is taken (`protocol/client/lag.rs`); and a shutdown's grace counts only the
//! time the harness was reading the server's output (`protocol/client/shutdown.rs`).
//!
//! The load is made exact: a helper process stops this whole test process (SIGSTOP) for
//! two seconds while a request with a one-second timeout waits; the server answers 2.4 s
//! after the request, when the harness has had 0.4 s of it. Without the stretch the wait
//! ends at the resume, its deadline long past. Stopped for longer than a wait is
//! stretched by, a wait that gets nothing ends as too loaded to judge
//! ([`Silence::Starved`]), not as a timeout held against the server. Alone in its test
//! binary, since stopping the process stops every test in it, and one test at a time.

#![cfg(unix)]

use std::process::Command;
use std::time::Duration;

use mcp_conformance::protocol::{measured, Direction, Session, SessionConfig, Silence};
use mcp_conformance::transport::ServerCommand;

/// Each test stops or blocks the process: one at a time, so one's stop is not another's lag.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Stops this whole process for `secs` seconds, 0.1 s from now.
fn stop_me_for(secs: u32) -> std::process::Child {
    let me = std::process::id();
    Command::new("sh")
        .args([
            "-c",
            &format!("sleep 0.1; kill -STOP {me}; sleep {secs}; kill -CONT {me}"),
        ])
        .spawn()
        .expect("sh starts")
}

/// A session of the Python `script` with a 1 s timeout, its first ping answered: the
/// first request also waits for the start, so the one measured comes after it.
async fn started_with_one_second_timeout(script: &str) -> Session {
    let command = ServerCommand::new("python3", ["-c".to_string(), script.to_string()]);
    let config = SessionConfig {
        timeout: Duration::from_secs(1),
        ..SessionConfig::default()
    };
    let mut session = Session::start(&command, config).expect("python3 starts");
    let first = session.request("ping", None).await;
    assert!(first.result().is_some(), "{:?}", first.silence());
    session
}

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
    let _alone = ONE_AT_A_TIME.lock().await;
    let mut session = started_with_one_second_timeout(SLOW_ECHO).await;

    let mut stopper = stop_me_for(2);
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

/// Writes 3,000 log notifications (about 300 KB, more than a pipe holds) when its stdin
/// closes, then exits.
const FLOOD_ON_EOF: &str = r#"
import sys
for line in sys.stdin:
    pass
for n in range(3000):
    sys.stdout.write('{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"debug","data":"line %d of the flush"}}\n' % n)
sys.stdout.flush()
"#;

/// The run's thread busy with other work (here: 2 s of blocking, past the 1 s grace) while
/// a server writes out its flush at stdin's close: it sat blocked on a full pipe that no
/// one read, so that time is not held against it. It exits once read, by itself. Without
/// the excuse the grace is over when the thread comes back and the server is killed.
#[tokio::test]
async fn a_shutdown_grace_counts_only_the_time_the_harness_read() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let command = ServerCommand::new("python3", ["-c".to_string(), FLOOD_ON_EOF.to_string()]);
    let config = SessionConfig {
        shutdown_grace: Duration::from_secs(1),
        ..SessionConfig::default()
    };
    let mut session = Session::start(&command, config).expect("python3 starts");
    let busy = async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        std::thread::sleep(Duration::from_secs(2));
    };
    let (((_, voluntary, _), ()), usage) =
        measured(async { tokio::join!(session.shutdown(), busy) }).await;
    assert!(
        voluntary,
        "the server was blocked on our unread pipe, not refusing to exit: {:?}",
        session.transcript().entries().last()
    );
    assert!(usage.stretch_micros >= 900_000, "{usage:?}");
}

/// Answers the first request, then nothing.
const ANSWERS_ONCE: &str = r#"
import json, sys
answered = False
for line in sys.stdin:
    message = json.loads(line)
    if "id" in message and "method" in message and not answered:
        answered = True
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {}}), flush=True)
"#;

/// Stopped for 5 s while a request with a 1 s timeout waits: more lag than a wait is
/// stretched by (three times its length), so the wait ends as too loaded to judge, naming
/// the lag, and the transcript notes it as load; a plain timeout is held against the
/// server, this is not.
#[tokio::test]
async fn a_wait_the_harness_was_stopped_through_is_not_judged() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let mut session = started_with_one_second_timeout(ANSWERS_ONCE).await;
    let mut stopper = stop_me_for(5);
    let ping = session.request("ping", None).await;
    stopper.wait().expect("the stopper ends");

    match ping.silence() {
        Some(Silence::Starved { waited, lag }) => {
            assert!(*waited <= Duration::from_secs(1), "{waited:?}");
            assert!(*lag > Duration::from_secs(3), "{lag:?}");
        }
        other => panic!("a wait stopped through for 5 s of its 1 s ended as {other:?}"),
    }
    let noted = session
        .transcript()
        .entries()
        .iter()
        .any(|e| e.direction == Direction::Load && e.text.contains("too loaded to judge"));
    assert!(noted, "{:?}", session.transcript().entries().last());
    session.shutdown().await;
}
