//! Coverage from inside a Python or Node server, and the loop it guides (`fuzz
//! --coverage`).
//!
//! A Rust server is fuzzed with its own coverage by linking it into a cargo-fuzz target
//! (`in_process`). Most MCP servers are Python or TypeScript, where libFuzzer cannot see
//! in: there a small agent of ours runs inside the server process, loaded by the
//! interpreter itself (`PYTHONPATH` finds our `sitecustomize.py`; `NODE_OPTIONS=--require`
//! our `agent.cjs`), so nothing is installed and the server is not edited. It counts the
//! server's own files only (`sys.monitoring` on Python 3.12+, `sys.settrace` below; V8's
//! precise block coverage on Node) and writes the counts to a file of ours, never to the
//! server's stdout or HTTP body.
//!
//! The files follow the data: `agent.rs` sets the agents up and reads the map around each
//! case, `feedback.rs` says whether a case reached something new, `corpus.rs` keeps the
//! inputs that did, `mutate.rs` makes the next input from them, `guided.rs` is the loop,
//! and `lines.rs` says how much of the server's code ran.

mod agent;
mod corpus;
mod feedback;
mod guided;
mod lines;
mod mutate;

pub use agent::{unwrapped, Agent, AgentStatus, EDGES};
pub use corpus::Corpus;
pub use feedback::{Feedback, Novelty};
pub use guided::{fuzz, GuidedConfig, GuidedEvent, GuidedOutcome};
pub use lines::{FileLines, LineCoverage};
pub use mutate::{Mutator, MAX_LEN};
