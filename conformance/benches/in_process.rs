//! The reference server driven in-process next to the same server spawned as a child, in
//! the same run: a whole default run (what `Suite` does under `cargo test`), and the live
//! fuzz target's cases per second. The difference is what a process costs (spawning,
//! pipes, reaping) against a thread and an in-memory pipe.
//!
//! `cargo bench --bench in_process [-- ROUNDS]` (default 5 rounds, alternating the two
//! ways; the median of each is printed, with every round's figure).

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::{Duration, Instant};

use mcp_conformance::fuzzing::{seeded_input, LiveConfig, LiveTarget};
use mcp_conformance::protocol::REVISIONS;
use mcp_conformance::runner::{run_blocking, RunConfig};
use mcp_conformance::scenarios::CallPolicy;
use mcp_conformance::transport::ServerCommand;

/// Live cases per round.
const CASES: usize = 5_000;

fn spawned() -> ServerCommand {
    let exe = env!("CARGO_BIN_EXE_mcp-conformance");
    ServerCommand::new(exe, ["reference-server".to_string()])
}

fn in_process() -> ServerCommand {
    ServerCommand::in_process(mcp_conformance::reference::in_process(
        None,
        Default::default(),
    ))
}

/// One default run, every revision; its wall time.
fn whole_run(command: ServerCommand) -> Duration {
    let started = Instant::now();
    let report = run_blocking(&RunConfig::new(command)).expect("the run");
    assert_eq!(report.summary.fail + report.summary.warn, 0);
    started.elapsed()
}

/// The live target's cases per second over [`CASES`] seeded inputs.
fn live_rate(command: ServerCommand) -> f64 {
    let mut target = LiveTarget::start(LiveConfig {
        command,
        revision: REVISIONS.last().expect("revisions"),
        timeout: Duration::from_secs(5),
        policy: CallPolicy::default(),
        cases_dir: None,
        interrupt: None,
        ignore: Vec::new(),
    })
    .expect("the reference server starts");
    let mut state = 1;
    let inputs: Vec<Vec<u8>> = (0..CASES).map(|_| seeded_input(&mut state)).collect();
    let started = Instant::now();
    for data in &inputs {
        assert!(target.run(data).is_none(), "a false alarm");
    }
    let rate = CASES as f64 / started.elapsed().as_secs_f64();
    target.shutdown();
    rate
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn row(name: &str, unit: &str, values: &mut [f64]) {
    let all: Vec<String> = values.iter().map(|v| format!("{v:.2}")).collect();
    let m = median(values);
    println!("| {name} | {m:.2} {unit} | {} |", all.join(", "));
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(5);
    let (mut run_spawned, mut run_linked) = (Vec::new(), Vec::new());
    let (mut live_spawned, mut live_linked) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        run_spawned.push(whole_run(spawned()).as_secs_f64());
        run_linked.push(whole_run(in_process()).as_secs_f64());
        live_spawned.push(live_rate(spawned()));
        live_linked.push(live_rate(in_process()));
    }
    println!("| measure | median | rounds |");
    println!("|---|---|---|");
    row("default run, spawned", "s", &mut run_spawned);
    row("default run, in-process", "s", &mut run_linked);
    row("live cases/s, spawned", "cases/s", &mut live_spawned);
    row("live cases/s, in-process", "cases/s", &mut live_linked);
}
