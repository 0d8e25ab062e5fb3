//! The suite over 2024-11-05's HTTP+SSE transport (`--transport sse`): the reference
//! server's SSE mode (started by the runner, `--url URL -- CMD`) passes every check in
//! 2024-11-05, each SSE fault fails exactly its check, the other revisions are reported as
//! not run over this transport, and a hostile server that never sends the endpoint event
//! is a finding within the timeout, without a hang or a leftover process.
//!
//! A table like `faults.rs`'s, walked by the same machinery (`common::expect`), for the
//! faults of the SSE mode (`reference_server::SseFault`).

use std::sync::mpsc;
use std::time::Duration;

mod common;

use common::expect::{
    self, never_notifies, Row, Skip, Table, ALL, HTTP_SSE, NOT_APPLICABLE, NO_STDIN_OVER_HTTP,
};
use mcp_conformance::checks::Status;
use mcp_conformance::protocol::{SessionConfig, REVISIONS};
use mcp_conformance::report::render_text;
use mcp_conformance::runner::RunConfig;
use mcp_conformance::transport::{HttpKind, HttpTarget, ServerCommand};

use Status::Fail;

/// The HTTP+SSE faults' table, walked by `common::expect`.
const TABLE: Table = Table {
    transport: HTTP_SSE,
    rows: EXPECTATIONS,
    skips: REFERENCE_SKIPS,
    late: &[],
    waits: expect::default_waits,
};

/// `ALL`: the one revision spoken over HTTP+SSE.
const EXPECTATIONS: &[Row] = &[
    ("sse-endpoint-late", &[("sse-endpoint-event", Fail, ALL)]),
    ("sse-wrong-event", &[("sse-message-event", Fail, ALL)]),
    ("sse-origin-ignored", &[("http-origin", Fail, ALL)]),
];

/// The skips the reference server's own run shows in 2024-11-05 over HTTP+SSE, each with
/// its reason.
const REFERENCE_SKIPS: &[Skip] = &[
    NOT_APPLICABLE,
    never_notifies("lcn-shape", ALL),
    never_notifies("lcn-not-undeclared", ALL),
    NO_STDIN_OVER_HTTP,
];

use common::free_port;

/// A run against `program args` started by the runner and reached at its SSE URL; the
/// revisions HTTP+SSE does not speak are reported as not run, as the CLI does.
fn config(program: &str, args: Vec<String>, port: u16, session: SessionConfig) -> RunConfig {
    let mut command = ServerCommand::new(program, args);
    command.http = Some(HttpTarget {
        url: format!("http://127.0.0.1:{port}/sse"),
        headers: vec![("Authorization".into(), "Bearer test-secret".into())],
        ca_certs: Vec::new(),
    });
    command.http_kind = HttpKind::Sse;
    let mut config = RunConfig::new(command);
    config.session = session;
    config.jobs = 1;
    config.revisions = expect::revisions(&HTTP_SSE, ALL);
    config.not_run = REVISIONS
        .iter()
        .filter_map(|r| Some((r, r.not_spoken_over(HttpKind::Sse)?)))
        .collect();
    config
}

/// The other revisions are reported as not run over HTTP+SSE, and the SSE checks were
/// judged, not skipped.
#[test]
fn reference_server_over_sse_passes_every_check_in_2024_11_05() {
    expect::reference_passes(&TABLE);
}

#[test]
fn each_sse_fault_fails_exactly_its_check() {
    expect::faults_fail_exactly_their_checks(&TABLE);
}

#[test]
fn the_table_names_every_sse_fault_and_proves_every_sse_check() {
    expect::table_names_every_fault(&TABLE);
    expect::every_check_can_fail(&TABLE);
}

/// A hostile HTTP+SSE server in Python: its GET opens an event stream that carries
/// comments and `ready` events forever but never the endpoint event; a POST is never
/// answered. It writes its pid to a file so the test can see that it is gone afterwards.
const NO_ENDPOINT: &str = r#"
import os, socket, sys, threading, time
port, pidfile = int(sys.argv[1]), sys.argv[2]
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
        c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n")
        while True:
            c.sendall(b": keep-alive\n\nevent: ready\ndata: not yet\n\n")
            time.sleep(0.05)
    except OSError:
        pass
while True:
    c, _ = s.accept()
    held.append(c)
    threading.Thread(target=serve, args=(c,), daemon=True).start()
"#;

#[test]
fn a_server_that_never_sends_the_endpoint_event_is_a_finding_and_is_stopped() {
    let port = free_port();
    let dir = std::env::temp_dir().join(format!("mcp-sse-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pidfile = dir.join("pid");
    let session = SessionConfig {
        timeout: Duration::from_secs(2),
        shutdown_grace: Duration::from_secs(1),
        ..SessionConfig::default()
    };
    let args = vec![
        "-c".into(),
        NO_ENDPOINT.into(),
        port.to_string(),
        pidfile.to_string_lossy().into_owned(),
    ];
    let mut config = config("python3", args, port, session);
    config.properties = None;
    // A guard against a hang (the test fails instead of never ending), not a timing.
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(common::run_blocking(&config));
    });
    let report = rx
        .recv_timeout(Duration::from_secs(600))
        .expect("the run against a server with no endpoint event never ended");
    let pid: u32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let text = render_text(&report);
    let endpoint = report.result("2024-11-05", "sse-endpoint-event").unwrap();
    assert_eq!(endpoint.status, Fail, "{text}");
    assert!(
        endpoint.message.contains("not endpoint") && !endpoint.evidence.is_empty(),
        "{text}"
    );
    let init = report.result("2024-11-05", "lc-init-result").unwrap();
    assert_eq!(init.status, Fail, "{text}");
    assert!(common::is_gone(pid), "the server is still running");
}

fn cli(args: &[String]) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-conformance"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// The command line end to end: `--transport sse` runs 2024-11-05 over HTTP+SSE and lists
/// the rest as not run (and an SSE URL without `--transport` is detected as such); plain
/// `--url` to a Streamable HTTP endpoint lists 2024-11-05 as not run, pointing at
/// `--transport sse`.
#[test]
fn the_transport_flag_chooses_the_revisions_and_the_report_says_why() {
    let bin = env!("CARGO_BIN_EXE_mcp-conformance").to_string();
    let port = free_port();
    let (code, text) = cli(&[
        "run".into(),
        "--cases".into(),
        "0".into(),
        "--url".into(),
        format!("http://127.0.0.1:{port}/sse"),
        "--transport".into(),
        "sse".into(),
        "--".into(),
        bin.clone(),
        "reference-server".into(),
        "--sse".into(),
        port.to_string(),
    ]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains(" over sse, seed 0"), "{text}");
    assert!(
        text.contains("== 2024-11-05 (negotiated \"2024-11-05\")"),
        "{text}"
    );
    assert!(
        text.contains("== 2025-11-25: not run over sse, every check skipped"),
        "{text}"
    );

    // Without --transport (and --revision), the SSE URL is detected as HTTP+SSE: a POST to
    // it gets 405, its GET opens a stream whose first event is endpoint.
    let named_port = port;
    let port = free_port();
    let (code, detected) = cli(&[
        "run".into(),
        "--cases".into(),
        "0".into(),
        "--url".into(),
        format!("http://127.0.0.1:{port}/sse"),
        "--".into(),
        bin.clone(),
        "reference-server".into(),
        "--sse".into(),
        port.to_string(),
    ]);
    assert_eq!(code, Some(0), "{detected}");
    // The same report, but for the note a loaded machine adds to either run.
    let same = |report: &str, port: u16| -> String {
        report
            .replace(&port.to_string(), "PORT")
            .lines()
            .filter(|l| !l.starts_with("The machine was loaded:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        same(&detected, port),
        same(&text, named_port),
        "detected and named runs differ"
    );

    let port = free_port();
    let (code, text) = cli(&[
        "run".into(),
        "--cases".into(),
        "0".into(),
        "--revision".into(),
        "2025-11-25".into(),
        "--url".into(),
        format!("http://127.0.0.1:{port}/mcp"),
        "--".into(),
        bin.clone(),
        "reference-server".into(),
        "--http".into(),
        port.to_string(),
    ]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        !text.contains("not run over"),
        "named revisions only: {text}"
    );

    // Naming 2024-11-05 over Streamable HTTP is a usage error (nothing is started); left
    // out, it is listed as not run.
    let (code, text) = cli(&[
        "run".into(),
        "--revision".into(),
        "2024-11-05".into(),
        "--url".into(),
        "http://127.0.0.1:9/mcp".into(),
    ]);
    assert_eq!(code, Some(2), "{text}");
    let port = free_port();
    let (code, text) = cli(&[
        "run".into(),
        "--cases".into(),
        "0".into(),
        "--url".into(),
        format!("http://127.0.0.1:{port}/mcp"),
        "--".into(),
        bin,
        "reference-server".into(),
        "--http".into(),
        port.to_string(),
    ]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("== 2024-11-05: not run over streamable-http, every check skipped")
            && text.contains("--transport sse"),
        "{text}"
    );
}

/// A small HTTP+SSE server in Python that answers everything on its stream except
/// `tools/list`, whose POST gets `500 text/plain` with a page holding a terminal escape
/// and a line break (never a response on the stream).
const POST_500: &str = r#"
import json, queue, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
streams, lock = {}, threading.Lock()
def answer(msg):
    method, rid = msg.get("method"), msg.get("id")
    if method == "initialize":
        result = {"protocolVersion": "2024-11-05", "capabilities": {"tools": {}},
                  "serverInfo": {"name": "post-500", "version": "1"}}
    elif method == "ping":
        result = {}
    else:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no"}}
    return {"jsonrpc": "2.0", "id": rid, "result": result}
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args):
        pass
    def reply(self, status, body):
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        q = queue.Queue()
        with lock:
            n = len(streams) + 1
            streams[n] = q
        try:
            self.wfile.write(("event: endpoint\ndata: /messages?session=%d\n\n" % n).encode())
            self.wfile.flush()
            while True:
                self.wfile.write(b"event: message\ndata: " + q.get() + b"\n\n")
                self.wfile.flush()
        except OSError:
            pass
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            n = int(self.path.split("session=")[1])
            msg = json.loads(body)
            assert isinstance(msg, dict)
        except Exception:
            return self.reply(400, b"bad request")
        if msg.get("method") == "tools/list":
            return self.reply(500, b"boom\x1b[31m\nred")
        self.reply(202, b"Accepted")
        if "id" in msg and "method" in msg:
            streams[n].put(json.dumps(answer(msg)).encode())
ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
"#;

/// A non-2xx answer to an SSE POST is evidence, not a verdict of its own (2024-11-05 names
/// no status for a POST): the unanswered request's finding names it, with the method, the
/// path (the query's values left out), the status, the content type and the body's head,
/// escaped.
#[test]
fn a_non_2xx_answer_to_an_sse_post_is_named_in_the_unanswered_requests_finding() {
    let port = free_port();
    let session = SessionConfig {
        timeout: Duration::from_secs(2),
        shutdown_grace: Duration::from_secs(1),
        ..SessionConfig::default()
    };
    let args = vec!["-c".into(), POST_500.into(), port.to_string()];
    let mut config = config("python3", args, port, session);
    config.properties = None;
    let report = common::run_blocking(&config);
    let text = render_text(&report);
    let result = report
        .result("2024-11-05", "rpc-response-required")
        .unwrap();
    assert_eq!(result.status, Fail, "{text}");
    assert!(
        result.message.contains("(tools/list)")
            && result
                .message
                .contains("its HTTP POST got HTTP status 500, not 2xx"),
        "{text}"
    );
    let evidence: Vec<&str> = result.evidence.iter().map(|e| e.text.as_str()).collect();
    let evidence = evidence.join("\n");
    assert!(
        evidence.contains("its HTTP exchange: HTTP POST /messages?session=… (tools/list)")
            && evidence.contains("-> 500 text/plain, 13 bytes")
            && evidence.contains(r#"body: "boom\u{1b}[31m\nred""#),
        "{evidence}"
    );
}
