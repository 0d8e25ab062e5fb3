//! What the coverage agent of `fuzz --coverage` costs: the same inputs run by the live
//! target against the same server without the agent and with it (a case counted: the map
//! zeroed before, read after, the Node agent asked for its counts), in alternating rounds of
//! one run; the best round of each is printed, and their ratio.
//!
//! `cargo bench --bench coverage_overhead -- CASES PROGRAM [ARGS...]`
//! (`benches/coverage-planted.sh overhead` runs it on the Python SDK server and
//! server-everything; figures in reports/coverage-planted.md).

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::{Duration, Instant};

use mcp_conformance::fuzzing::coverage::{Agent, EDGES};
use mcp_conformance::fuzzing::{seeded_input, LiveConfig, LiveTarget};
use mcp_conformance::protocol::Revision;
use mcp_conformance::scenarios::CallPolicy;
use mcp_conformance::transport::ServerCommand;

const ROUNDS: usize = 3;

fn start(command: ServerCommand) -> LiveTarget {
    LiveTarget::start(LiveConfig {
        command,
        revision: Revision::named("2025-11-25").expect("known"),
        timeout: Duration::from_secs(5),
        policy: CallPolicy::default(),
        cases_dir: None,
        interrupt: None,
        ignore: Vec::new(),
    })
    .expect("the server starts")
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let [cases, program, rest @ ..] = args.as_slice() else {
        eprintln!("usage: cargo bench --bench coverage_overhead -- CASES PROGRAM [ARGS...]");
        std::process::exit(2);
    };
    let cases: usize = cases.parse().expect("CASES is a number");
    let command = ServerCommand::new(program.clone(), rest.iter().cloned());
    let mut state = 1;
    let inputs: Vec<Vec<u8>> = (0..cases).map(|_| seeded_input(&mut state)).collect();
    let mut agent = Agent::new(&[]).expect("agent folder");
    let mut blind = start(command.clone());
    let mut counted = start(agent.wrap(&command));
    let (owner, _) = agent.loaded().expect("the agent counts");
    let mut counters = Box::new([0u8; EDGES]);
    let (mut best_blind, mut best_counted) = (0.0f64, 0.0f64);
    for _ in 0..ROUNDS {
        let t = Instant::now();
        for data in &inputs {
            blind.run(data);
        }
        best_blind = best_blind.max(cases as f64 / t.elapsed().as_secs_f64());
        let t = Instant::now();
        for data in &inputs {
            agent.before_case();
            counted.run(data);
            agent.after_case(&mut counters);
        }
        best_counted = best_counted.max(cases as f64 / t.elapsed().as_secs_f64());
    }
    println!(
        "{}: {cases} cases x {ROUNDS} rounds; without the agent {best_blind:.0} cases/s, with it ({} {}, {}) {best_counted:.0} cases/s: {:.2}x the time",
        command.display(),
        owner.language,
        owner.version,
        owner.mode,
        best_blind / best_counted
    );
}
