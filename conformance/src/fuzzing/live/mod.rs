//! The live-server fuzz target: one server process, fuzzer bytes turned into JSON-RPC
//! lines, and the oracle of the property phase applied to every answer.
//!
//! The server is started once (and again after it dies), the handshake is done for the
//! chosen revision and its tools are listed. Each input becomes a case (see
//! [`super::cases`]) written in one go with a ping behind it. The oracle asks what a
//! server MUST do whatever it is sent: every request gets exactly one response with the
//! right id, in time; every line on stdout is a JSON-RPC message; a response has `result`
//! xor `error`, and both validate against the revision's schema (a tool's
//! `structuredContent` against its `outputSchema`); nothing answers a notification; the
//! server still answers ping. A stalled or dead server is killed and restarted, the case
//! is confirmed on a fresh process and saved as a file `mcp-conformance replay` repeats.
//!
//! libFuzzer only sees the coverage of this process, not of the server: guidance comes
//! from the generator's choices and from how the answers are judged (error or result,
//! which schema branch). That is enough to steer towards rare shapes quickly; a server
//! built with coverage instrumentation in-process would need its own harness.
//!
//! The files follow one case through the target: `config.rs` says what to fuzz,
//! `target.rs` owns the server process and runs each case, `session.rs` starts and
//! restarts the server, `ids.rs` gives a case's requests ids unique in their session,
//! `oracle.rs` judges what comes back (asking [`crate::rules`]), and `findings.rs`
//! minimises, confirms and saves a case that failed. This file holds what they share: the
//! harness's own ids and the oracle's state.

mod config;
mod findings;
mod ids;
mod oracle;
mod panics;
mod session;
mod target;

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::fuzzing::cases::Tool;
use crate::protocol::{SchemaSet, Session};
use crate::rules::CheckId;
use crate::rules::FailureKind;

// The ping behind every case is built in `cases.rs`, which owns its id; it is re-exported
// here, where it was first defined.
pub use crate::fuzzing::cases::PING_ID;
pub use config::LiveConfig;
pub use findings::Finding;
pub use target::LiveTarget;

/// The harness's own request ids (strings starting with `live-`; cases never use them).
const INIT_ID: &str = "live-init";
const SETTLE_ID: &str = "live-settle";
const CHECK_ID: &str = "live-check";
/// The first id a session gives the requests of cases (far from anything the generator
/// picks for an id probe but the occasional ±(2^53-1) value, which is checked).
const FIRST_ID: i64 = 1_000_000_000;

/// How one case went.
#[derive(Debug, Clone, PartialEq)]
enum Judged {
    Ok,
    /// A request outlasted the timeout while the server still answered ping (a slow tool,
    /// not a finding), or an answer came that cannot be tied to one request; the session
    /// is restarted.
    Slow,
    Failed(FailureKind, CheckId, String),
}

/// How many earlier cases of a session a late answer may belong to.
const LATE_CASES: usize = 32;

/// What earlier cases of the current session wrote that the server may still answer: a
/// server that handles lines concurrently may answer a malformed frame after the ping that
/// closed its case, and over HTTP, where each line is a POST of its own, that answer may
/// come cases later.
#[derive(Debug, Default)]
struct Earlier {
    /// The last [`LATE_CASES`] cases that passed: whether each wrote a malformed frame,
    /// and the ids its frames showed.
    cases: std::collections::VecDeque<(bool, Vec<Value>)>,
    /// Malformed frames without a readable id (this case's included) that no error with a
    /// null id has answered yet: each may take one.
    unreadable: usize,
}

impl Earlier {
    fn raw(&self) -> bool {
        self.cases.iter().any(|(raw, _)| *raw)
    }

    fn tolerated(&self) -> impl Iterator<Item = &Value> {
        self.cases.iter().flat_map(|(_, ids)| ids)
    }

    /// A case passed on a session that goes on.
    fn push(&mut self, raw: bool, tolerated: &[Value]) {
        if self.cases.len() == LATE_CASES {
            self.cases.pop_front();
        }
        self.cases.push_back((raw, tolerated.to_vec()));
    }

    /// A fresh process never saw them.
    fn clear(&mut self) {
        *self = Self::default();
    }
}

/// The oracle's state: schemas, tools, and the current session.
struct State {
    config: LiveConfig,
    schemas: SchemaSet,
    tools: Vec<Tool>,
    declared: bool,
    output: HashMap<String, jsonschema::Validator>,
    /// The same output schemas as listed (for case files).
    output_schemas: HashMap<String, Value>,
    /// Methods of the revision's ServerNotification union (validated when received).
    notifications: Vec<String>,
    session: Option<Session>,
    /// Things a reader should know (tools no longer called).
    notes: Vec<String>,
    /// The next id the session gives a request of a case.
    next_id: i64,
    /// Ids of id probes sent in this session (each id is used once per session).
    probe_ids: HashSet<String>,
    /// Cases run on the current session.
    session_cases: u64,
    /// What earlier cases of the session wrote that the server may still be answering.
    earlier: Earlier,
    restarts: u64,
    /// The (check, kind) of every failure already saved as a case file: a failure met
    /// again is reported but not saved again (one case file per distinct failure).
    saved: Vec<(CheckId, FailureKind)>,
}
