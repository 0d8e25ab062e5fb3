//! What a process means for a server linked in-process (`transport/in_process.rs`), each
//! decision held by a test: a panic in the server is its crash, with the panic's message
//! as the evidence; a constructor that panics is a setup error, not a finding per check;
//! a server that blocks its thread is a stall that never hangs the suite; and the
//! libtest harness runs an in-process server as it runs a binary.

use std::io::Read;
use std::time::{Duration, Instant};

use mcp_conformance::checks::Status;
use mcp_conformance::protocol::{Revision, SessionConfig};
use mcp_conformance::report::render_text;
use mcp_conformance::runner::RunConfig;
use mcp_conformance::{Error, InProcessServer, ServerCommand};
use reference_server::{serve_shared, Era, ServeEnd};

mod common;

/// A reader that panics once `needle` has been read: a server whose parsing of one
/// request panics.
struct PanicsOn<R> {
    inner: R,
    needle: &'static str,
    seen: Vec<u8>,
}

impl<R: Read> Read for PanicsOn<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.seen.extend_from_slice(&buf[..n]);
        if String::from_utf8_lossy(&self.seen).contains(self.needle) {
            panic!("index out of bounds while reading {}", self.needle);
        }
        Ok(n)
    }
}

/// The reference server, panicking when it reads `tools/list`.
fn panics_on_tools_list() -> InProcessServer {
    InProcessServer::blocking("panics-on-tools-list", |input, output| {
        let input = PanicsOn {
            inner: input,
            needle: "tools/list",
            seen: Vec::new(),
        };
        match serve_shared(input, output, None, Era::default())? {
            ServeEnd::Crash { reason, .. } => Err(reason.into()),
            _ => Ok(()),
        }
    })
}

fn one_revision(server: InProcessServer, timeout: Duration) -> RunConfig {
    let mut config = RunConfig::new(ServerCommand::in_process(server));
    config.revisions = vec![Revision::find("2025-11-25").unwrap()];
    config.session = SessionConfig {
        timeout,
        shutdown_grace: Duration::from_secs(1),
        ..SessionConfig::default()
    };
    config
}

#[test]
fn a_panic_in_the_server_is_its_crash_with_the_message_as_evidence() {
    let report = common::run_blocking(&one_revision(
        panics_on_tools_list(),
        Duration::from_secs(5),
    ));
    let text = render_text(&report);
    let result = report
        .result("2025-11-25", "rpc-response-required")
        .unwrap();
    assert_eq!(result.status, Status::Fail, "{text}");
    assert!(
        text.contains("the server panicked: index out of bounds while reading tools/list"),
        "{text}"
    );
    assert_eq!(report.target.transport, "in-process", "{text}");
}

#[test]
fn a_constructor_that_panics_is_a_setup_error() {
    let server = InProcessServer::new("no-config", |_stream| {
        panic!("MY_SERVER_CONFIG is not set");
        #[allow(unreachable_code)]
        async {
            Ok(())
        }
    });
    let error =
        mcp_conformance::runner::run_blocking(&one_revision(server, Duration::from_secs(5)))
            .expect_err("a setup error, not a report");
    assert!(matches!(error, Error::InProcessSetup { .. }), "{error:?}");
    let message = error.to_string();
    assert!(
        message.contains("no-config") && message.contains("MY_SERVER_CONFIG is not set"),
        "{message}"
    );
}

/// A server that never yields its thread (it never reads, never writes, never returns)
/// is a stall: every wait is bounded, and the run ends with the findings a silent
/// server earns. Its threads are left behind, parked.
#[test]
fn a_server_that_blocks_its_thread_is_a_stall_not_a_hang() {
    let server = InProcessServer::blocking("blocks", |_input, _output| loop {
        std::thread::park();
    });
    let started = Instant::now();
    let report = common::run_blocking(&one_revision(server, Duration::from_millis(300)));
    let text = render_text(&report);
    assert!(started.elapsed() < Duration::from_secs(60), "{text}");
    let result = report.result("2025-11-25", "lc-init-result").unwrap();
    assert_ne!(result.status, Status::Pass, "{text}");
}
