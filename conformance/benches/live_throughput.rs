//! Throughput of the live fuzz target against the reference server, next to a bare
//! client loop that writes the very same lines to the same server, decodes each line that
//! comes back and stops at the answer to the ping behind each case, in the same run. The difference is what the harness costs: decoding
//! the input, the session's bookkeeping, and the oracle (schemas included).
//!
//! `cargo bench --bench live_throughput [-- CASES]` (default 20000 cases per round, three
//! rounds alternating the two loops; the best round of each is printed).

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcp_conformance::fuzzing::{seeded_input, LiveConfig, LiveTarget};
use mcp_conformance::protocol::{Line, REVISIONS};
use mcp_conformance::scenarios::CallPolicy;
use mcp_conformance::transport::ServerCommand;

fn main() {
    let cases: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(20_000);
    let exe = env!("CARGO_BIN_EXE_mcp-conformance");
    let revision = REVISIONS.last().expect("revisions");
    let mut target = LiveTarget::start(LiveConfig {
        command: ServerCommand::new(exe, ["reference-server".to_string()]),
        revision,
        timeout: Duration::from_secs(5),
        policy: CallPolicy::default(),
        cases_dir: None,
        interrupt: None,
        ignore: Vec::new(),
    })
    .expect("the reference server starts");
    let mut state = 1;
    let inputs: Vec<Vec<u8>> = (0..cases).map(|_| seeded_input(&mut state)).collect();
    // The bare loop's writes: the same lines, joined as the session joins them.
    let writes: Vec<Vec<u8>> = inputs
        .iter()
        .map(|data| {
            let mut out = Vec::new();
            for (i, line) in target.lines(data).iter().enumerate() {
                if i > 0 {
                    out.push(b'\n');
                }
                match line {
                    Line::Message(m) => out.extend_from_slice(m.to_string().as_bytes()),
                    Line::Raw(bytes) => out.extend_from_slice(bytes),
                }
            }
            out.push(b'\n');
            out
        })
        .collect();
    let requests: usize = inputs
        .iter()
        .map(|d| {
            target
                .lines(d)
                .iter()
                .filter(|l| l.request_id().is_some())
                .count()
        })
        .sum();

    // What decoding alone costs (no server involved).
    let started = Instant::now();
    let decoded: usize = inputs
        .iter()
        .map(|d| {
            mcp_conformance::fuzzing::cases::decode(d, target.tools())
                .lines
                .len()
        })
        .sum();
    let decode_us = started.elapsed().as_secs_f64() * 1e6 / cases as f64;
    let mut live_best = f64::MAX;
    let mut bare_best = f64::MAX;
    for round in 1..=3 {
        let started = Instant::now();
        for data in &inputs {
            if let Some(finding) = target.run(data) {
                panic!("a finding on the conformant server:\n{}", finding.report());
            }
        }
        let live = started.elapsed().as_secs_f64();
        let bare = bare_loop(exe, &writes);
        live_best = live_best.min(live);
        bare_best = bare_best.min(bare);
        eprintln!(
            "round {round}: live target {:.0} cases/s, bare loop {:.0} cases/s",
            cases as f64 / live,
            cases as f64 / bare
        );
    }
    let live_rate = cases as f64 / live_best;
    let bare_rate = cases as f64 / bare_best;
    println!("cases per round:        {cases} ({requests} requests, a ping behind each case)");
    println!("live target:            {live_rate:.0} cases/s");
    println!("bare client loop:       {bare_rate:.0} cases/s (same lines, same server)");
    println!(
        "harness share of a case: {:.1} %",
        100.0 * (1.0 - live_rate / bare_rate)
    );
    println!("decoding an input:      {decode_us:.2} us ({decoded} lines in all)");
    println!("restarts of the server: {}", target.restarts());
}

/// Writes each case's lines in one write and reads lines until the ping behind them is
/// answered: the least a client can do for the same exchange.
fn bare_loop(exe: &str, writes: &[Vec<u8>]) -> f64 {
    let mut child = Command::new(exe)
        .arg("reference-server")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the reference server starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = Vec::new();
    // Each line is decoded, as any client must to read a response's id.
    let mut read_until = |id: &str, stdout: &mut BufReader<_>| loop {
        line.clear();
        let n = stdout.read_until(b'\n', &mut line).expect("read");
        assert!(n > 0, "the server closed its stdout");
        let message: serde_json::Value = serde_json::from_slice(&line).expect("JSON");
        if message.get("id").and_then(serde_json::Value::as_str) == Some(id) {
            break;
        }
    };
    let init = format!(
        "{}\n",
        serde_json::json!({"jsonrpc": "2.0", "id": "init", "method": "initialize",
            "params": mcp_conformance::scenarios::initialize_params(REVISIONS.last().unwrap().id)})
    );
    stdin.write_all(init.as_bytes()).expect("write");
    read_until("init", &mut stdout);
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .expect("write");
    let started = Instant::now();
    for write in writes {
        stdin.write_all(write).expect("write");
        stdin.flush().expect("flush");
        read_until("live-ping", &mut stdout);
    }
    let elapsed = started.elapsed().as_secs_f64();
    drop(stdin);
    let _ = child.wait();
    elapsed
}
