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
//! `oracle.rs` judges what comes back (asking [`crate::checks::rules`]), and `findings.rs`
//! minimises, confirms and saves a case that failed. This file holds what they share: the
//! harness's own ids and the oracle's state.

mod config;
mod findings;
mod ids;
mod oracle;
mod session;
mod target;

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::checks::CheckId;
use crate::fuzzing::cases::Tool;
use crate::protocol::{SchemaSet, Session};
use crate::scenarios::FailureKind;

// The ping behind every case is built in `cases.rs`, which owns its id; it is re-exported
// here, where it was first defined.
pub use crate::fuzzing::cases::PING_ID;
pub use config::LiveConfig;
pub use findings::Finding;
pub use target::LiveTarget;

/// The checks of the catalog the live oracle reports.
pub const LIVE_CHECKS: &[CheckId] = &[
    CheckId::PropServerSurvives,
    CheckId::RpcStdioFraming,
    CheckId::RpcJsonrpcVersion,
    CheckId::RpcRespExclusive,
    CheckId::RpcErrorShape,
    CheckId::RpcErrorId,
    CheckId::RpcIdEcho,
    CheckId::LcInitializedNoReply,
    CheckId::SchemaServerMessages,
    CheckId::TcOutputschemaPresence,
    CheckId::TcOutputschemaConform,
    CheckId::TcErrArgumentsType,
    CheckId::TcArgumentsOmitted,
];

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
    /// not a finding); the session is restarted.
    Slow,
    Failed(FailureKind, CheckId, String),
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
    /// What the previous case wrote that a concurrent server may still be answering: a
    /// malformed frame (a null-id error may come late) and the ids its frames showed.
    previous_raw: bool,
    previous_tolerated: Vec<Value>,
    /// Whether one of the previous case's malformed frames showed no readable id (an
    /// error without an id may still answer it late).
    previous_unreadable: bool,
    restarts: u64,
    /// The (check, kind) of every failure already saved as a case file: a failure met
    /// again is reported but not saved again (one case file per distinct failure).
    saved: Vec<(CheckId, FailureKind)>,
}
