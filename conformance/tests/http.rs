//! The suite over Streamable HTTP: the reference server's HTTP mode (started by the
//! runner, `--url URL -- CMD`) passes every check in 2025-03-26 to 2025-11-25, each HTTP
//! fault fails exactly its check, and hostile HTTP servers (one that never answers, one
//! whose SSE stream never ends) yield findings without a hang or a leftover process.
//!
//! A table like `faults.rs`'s, walked by the same machinery (`common::expect`), for the
//! faults that exist only in the HTTP mode (`reference_server::HttpFault`, but the
//! `http-m-*` ones of tests/http_modern.rs).

use std::sync::mpsc;
use std::time::Duration;

mod common;

use common::expect::{
    self, never_notifies, Row, Skip, Table, Transport, ALL, NOT_APPLICABLE, NO_STDIN_OVER_HTTP,
    R2_R3, R3_R4, R4, STREAMABLE_HTTP,
};
use mcp_conformance::checks::Status;
use mcp_conformance::protocol::SessionConfig;
use mcp_conformance::report::{render_text, RunReport};
use mcp_conformance::runner::RunConfig;
use mcp_conformance::transport::{HttpTarget, ServerCommand};

use Status::{Fail, Warn};

/// The Streamable HTTP faults' table, walked by `common::expect`.
const TABLE: Table = Table {
    transport: STREAMABLE_HTTP,
    rows: EXPECTATIONS,
    skips: REFERENCE_SKIPS,
    late: &[],
    waits: expect::default_waits,
};

const EXPECTATIONS: &[Row] = &[
    (
        "http-notification-200",
        &[("http-notification-202", Fail, ALL)],
    ),
    (
        "http-content-type-plain",
        &[("http-content-type", Fail, ALL)],
    ),
    (
        "http-session-optional",
        &[("http-session-required", Warn, ALL)],
    ),
    (
        "http-unknown-session-served",
        &[("http-session-unknown", Fail, ALL)],
    ),
    (
        "http-version-ignored",
        &[("http-protocol-version", Fail, R3_R4)],
    ),
    (
        "http-version-required",
        &[("http-version-absent", Warn, R3_R4)],
    ),
    ("http-delete-500", &[("http-delete", Warn, ALL)]),
    ("http-origin-ignored", &[("http-origin", Fail, ALL)]),
    (
        "http-session-id-space",
        &[("http-session-id-ascii", Fail, ALL)],
    ),
    (
        "http-response-on-get",
        &[
            ("http-get-stream", Fail, ALL),
            ("http-response-once", Fail, ALL),
        ],
    ),
    ("http-response-twice", &[("http-response-once", Fail, ALL)]),
    ("http-get-404", &[("http-get-answer", Fail, ALL)]),
    ("http-no-priming", &[("http-sse-priming", Warn, R4)]),
    ("http-poll-no-retry", &[("http-sse-retry", Warn, R4)]),
    (
        "http-poll-always",
        &[("http-stream-closed-early", Warn, R2_R3)],
    ),
    (
        "http-poll-replay-other",
        &[("http-response-once", Fail, R4)],
    ),
];

/// The skips the reference server's own run shows over Streamable HTTP, each with its
/// reason.
const REFERENCE_SKIPS: &[Skip] = &[
    NOT_APPLICABLE,
    never_notifies("lcn-shape", ALL),
    never_notifies("lcn-not-undeclared", ALL),
    NO_STDIN_OVER_HTTP,
    Skip {
        check: "http-sse-retry",
        revisions: R4,
        matching: "closed no stream's connection before its response",
        why: "the reference server polls only with --http-poll (the polling table)",
    },
];

/// The reference server polling (`--http-poll`): each 2025-11-25 request's SSE stream is
/// primed, its connection closed after a `retry`, its response sent when the client
/// resumes with `Last-Event-ID` (sooner than the retry gets 400). Conformant, so the
/// same table holds, and `http-sse-retry` is judged (it passes) rather than skipped.
const POLLING: Table = Table {
    transport: Transport {
        args: &["--http-poll"],
        ..STREAMABLE_HTTP
    },
    skips: &[
        NOT_APPLICABLE,
        never_notifies("lcn-shape", ALL),
        never_notifies("lcn-not-undeclared", ALL),
        NO_STDIN_OVER_HTTP,
    ],
    ..TABLE
};

use common::free_port;

/// A run against `program args` started by the runner and reached at its URL.
fn config(program: &str, args: Vec<String>, port: u16, session: SessionConfig) -> RunConfig {
    let mut command = ServerCommand::new(program, args);
    command.http = Some(HttpTarget {
        url: format!("http://127.0.0.1:{port}/mcp"),
        headers: vec![("Authorization".into(), "Bearer test-secret".into())],
        ca_certs: Vec::new(),
    });
    let mut config = RunConfig::new(command);
    config.session = session;
    config.jobs = 1;
    config
}

/// The HTTP checks are judged, not skipped, wherever their rows apply.
#[test]
fn reference_server_over_http_passes_every_check() {
    expect::reference_passes(&TABLE);
}

/// SSE polling draws no finding in any revision: the client waits the retry, resumes, and
/// takes the response once.
#[test]
fn reference_server_polling_over_http_passes_every_check() {
    expect::reference_passes(&POLLING);
}

#[test]
fn each_http_fault_fails_exactly_its_check() {
    expect::faults_fail_exactly_their_checks(&TABLE);
}

#[test]
fn the_table_names_every_http_fault() {
    expect::table_names_every_fault(&TABLE);
}

/// Every Streamable HTTP check (`http-*`) is made to fail by an HTTP fault here (the stdio
/// table in tests/faults.rs leaves them to this one, and the `http-m-*` ones to
/// tests/http_modern.rs).
#[test]
fn every_http_check_can_fail() {
    expect::every_check_can_fail(&TABLE);
}

/// The libtest harness named by a URL (`Suite::url`) judges a server that is already
/// listening, started here and not by the suite: the HTTP checks of 2025-11-25 run as
/// tests and pass, and the server is still ours to stop afterwards.
#[test]
fn the_harness_takes_a_url_of_a_running_server() {
    let port = free_port();
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-conformance"))
        .args(["reference-server", "--http", &port.to_string()])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the reference server starts");
    // It prints `listening on ...` once it accepts connections.
    let mut stderr = std::io::BufReader::new(server.stderr.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stderr, &mut line).unwrap();
    assert!(line.starts_with("listening on"), "{line}");
    let args = common::nested_args(&["mcp", "--quiet", "2025-11-25::http-"]);
    let trials = mcp_conformance::Suite::url(format!("http://127.0.0.1:{port}/mcp"))
        .header("Authorization", "Bearer test-secret")
        .revisions(&["2025-11-25"])
        .trials(&args);
    let conclusion = libtest_mimic::run(&args, trials);
    let still_running = server.try_wait().unwrap().is_none();
    let _ = server.kill();
    let _ = server.wait();
    assert!(still_running, "the suite stopped a server it did not start");
    assert_eq!(conclusion.num_failed, 0, "{conclusion:?}");
    assert!(conclusion.num_passed >= 8, "{conclusion:?}");
}

/// A hostile HTTP server in Python: `never-answers` accepts and reads but never answers;
/// `endless-sse` answers every POST with an SSE stream of notifications that never ends.
/// It writes its pid to a file so the test can see that it is gone afterwards.
const HOSTILE: &str = r#"
import os, socket, sys, threading
kind, port, pidfile = sys.argv[1], int(sys.argv[2]), sys.argv[3]
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port))
s.listen(64)
with open(pidfile, "w") as f:
    f.write(str(os.getpid()))
held = []
def serve(c):
    try:
        c.recv(65536)
        if kind == "endless-sse":
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n")
            event = b'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"more"}}\n\n'
            while True:
                c.sendall(event * 64)
    except OSError:
        pass
while True:
    c, _ = s.accept()
    held.append(c)
    threading.Thread(target=serve, args=(c,), daemon=True).start()
"#;

fn run_hostile(kind: &str) -> (RunReport, u32) {
    let port = free_port();
    let dir = std::env::temp_dir().join(format!("mcp-http-hostile-{}-{kind}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pidfile = dir.join("pid");
    let session = SessionConfig {
        timeout: Duration::from_secs(2),
        shutdown_grace: Duration::from_secs(1),
        ..SessionConfig::default()
    };
    let mut config = config(
        "python3",
        vec![
            "-c".into(),
            HOSTILE.into(),
            kind.into(),
            port.to_string(),
            pidfile.to_string_lossy().into_owned(),
        ],
        port,
        session,
    );
    config.revisions = expect::revisions(&STREAMABLE_HTTP, R4);
    config.properties = None;
    // A guard against a hang (the test fails instead of never ending), not a timing.
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(common::run_blocking(&config));
    });
    let report = rx
        .recv_timeout(Duration::from_secs(600))
        .unwrap_or_else(|_| panic!("the run against the {kind} server never ended"));
    let pid: u32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (report, pid)
}

#[test]
fn a_server_that_never_answers_a_post_is_a_finding_and_is_stopped() {
    let (report, pid) = run_hostile("never-answers");
    let init = report.revisions[0]
        .results
        .iter()
        .find(|c| c.check == "lc-init-result")
        .unwrap();
    assert_eq!(init.status, Fail, "{}", render_text(&report));
    assert!(common::is_gone(pid), "the server is still running");
}

#[test]
fn an_endless_sse_stream_is_a_finding_and_is_stopped() {
    let (report, pid) = run_hostile("endless-sse");
    assert!(report.summary.fail > 0, "{}", render_text(&report));
    assert!(common::is_gone(pid), "the server is still running");
}

/// Reads one HTTP request's head (and a body of `Content-Length` bytes) from `conn`.
fn read_request(conn: &mut std::net::TcpStream) -> String {
    use std::io::Read;
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && conn.read(&mut byte).unwrap_or(0) == 1 {
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let length = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().parse::<usize>().unwrap_or(0))
        })
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    let _ = conn.read_exact(&mut body);
    head
}

/// Regression: a POST still open when the session ended was aborted and its fact lost, so
/// the request's finding said only "no response". Now it is kept saying the POST was still
/// open when the client ended the session (with DELETE). No timing: the session ends once
/// the server has read the request, long before any timeout.
#[test]
fn a_post_still_open_when_the_session_is_deleted_is_kept_saying_so() {
    use mcp_conformance::transport::{HttpTransport, TransportEvent};
    use std::io::Write;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (read, was_read) = mpsc::channel();
    let server = std::thread::spawn(move || {
        // initialize: answered, with a session id.
        let (mut conn, _) = listener.accept().unwrap();
        read_request(&mut conn);
        let body = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-03-26","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#;
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: s-1\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        conn.write_all(head.as_bytes()).unwrap();
        conn.write_all(body.as_bytes()).unwrap();
        drop(conn);
        // tools/list: read, never answered (held open).
        let (mut held, _) = listener.accept().unwrap();
        read_request(&mut held);
        read.send(()).unwrap();
        // The DELETE.
        let (mut conn, _) = listener.accept().unwrap();
        let head = read_request(&mut conn);
        conn.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            .unwrap();
        drop(held);
        head
    });
    let target = HttpTarget {
        url: format!("http://127.0.0.1:{port}/mcp"),
        headers: Vec::new(),
        ca_certs: Vec::new(),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let facts = runtime.block_on(async {
        let timeout = Duration::from_secs(600);
        let mut transport = HttpTransport::connect(&target, timeout, 1 << 20).unwrap();
        let init = br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
        assert!(transport.send_line(init, timeout).await);
        while !matches!(
            transport.next_event().await,
            Some(TransportEvent::Stdout(_) | TransportEvent::Answer { .. })
        ) {}
        let list = br#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
        assert!(transport.send_line(list, timeout).await);
        tokio::task::spawn_blocking(move || was_read.recv().unwrap())
            .await
            .unwrap();
        let delete = transport.delete().await.expect("a session to DELETE");
        assert_eq!(delete.status, Some(200), "{}", delete.describe());
        transport.facts().0
    });
    let delete_head = server.join().unwrap();
    assert!(delete_head.starts_with("DELETE /mcp"), "{delete_head}");
    let list = facts
        .iter()
        .find(|f| f.rpc_method.as_deref() == Some("tools/list"))
        .expect("the open POST is kept");
    let why = list.unanswered(true).unwrap_or_default();
    assert!(
        why.contains("the POST was still open when the client ended the session (with DELETE)"),
        "{why}: {}",
        list.describe()
    );
}
