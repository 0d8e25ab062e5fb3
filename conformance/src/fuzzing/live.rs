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

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

use super::cases::{decode, Case, Tool};
use crate::checks::rules::{self, Breach};
use crate::checks::CheckId;
use crate::protocol::{
    Exchange, Line, Reply, Revision, SchemaSet, Session, SessionConfig, Silence, Transcript,
    REVISIONS,
};
use crate::scenarios::{
    compile_input_schema, initialize_params, listed_tools, walk, CallMode, CallPolicy, CaseFile,
    CaseMessage, FailureKind, RawFrame,
};
use crate::transport::ServerCommand;

/// The checks of the catalog the live oracle reports.
pub const LIVE_CHECKS: &[CheckId] = &[
    CheckId::PropServerSurvives,
    CheckId::RpcStdioFraming,
    CheckId::RpcJsonrpcVersion,
    CheckId::RpcRespExclusive,
    CheckId::RpcErrorShape,
    CheckId::RpcIdEcho,
    CheckId::LcInitializedNoReply,
    CheckId::SchemaServerMessages,
    CheckId::TcOutputschemaPresence,
    CheckId::TcOutputschemaConform,
];

/// The id of the ping written behind every case.
pub const PING_ID: &str = "live-ping";
/// Requests that run no user code: ping, listing tools, and methods no server has.
const QUICK_METHODS: &[&str] = &[
    "ping",
    "tools/list",
    "conformance/unknown",
    "",
    "tools/call/extra",
    "rpc.discover",
];
/// The harness's own request ids (strings starting with `live-`; cases never use them).
const INIT_ID: &str = "live-init";
const SETTLE_ID: &str = "live-settle";
const CHECK_ID: &str = "live-check";
/// The first id a session gives the requests of cases (far from anything the generator
/// picks for an id probe but the occasional ±(2^53-1) value, which is checked).
const FIRST_ID: i64 = 1_000_000_000;
/// Cases per server session before it is replaced, which bounds the ids it remembers.
const SESSION_CASES: u64 = 50_000;
/// How long starting the server and its handshake may take at least.
const STARTUP: Duration = Duration::from_secs(10);
/// How many timeouts a request that outlasted one may still take to be answered while
/// the server answers ping, before it counts as never answered.
const LATE_FACTOR: u32 = 3;

/// What the live target fuzzes and how.
#[derive(Debug, Clone)]
pub struct LiveConfig {
    /// The server.
    pub command: ServerCommand,
    /// The revision to negotiate.
    pub revision: &'static Revision,
    /// How long each request may take.
    pub timeout: Duration,
    /// Which tools may be called.
    pub policy: CallPolicy,
    /// Where case files of findings are written (none: not written).
    pub cases_dir: Option<PathBuf>,
    /// Set from elsewhere (a Ctrl-C handler) to stop at once: the case under way is
    /// dropped, which kills the server, and [`LiveTarget::run`] returns `None`.
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl LiveConfig {
    /// The configuration from the environment:
    ///
    /// - `MCP_FUZZ_SERVER`: the server command, split on whitespace (required);
    /// - `MCP_FUZZ_REVISION`: the revision (default: the newest);
    /// - `MCP_FUZZ_TIMEOUT`: seconds per request (default 2);
    /// - `MCP_FUZZ_CALL`: `all`, `read-only` or `none` (default `all`);
    /// - `MCP_FUZZ_DENY`: comma-separated globs of tools never called;
    /// - `MCP_FUZZ_CASES`: folder for case files (default `live-cases`).
    pub fn from_env() -> Result<Self, String> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let server = var("MCP_FUZZ_SERVER").ok_or(
            "set MCP_FUZZ_SERVER to the server command, e.g. MCP_FUZZ_SERVER='../target/release/mcp-conformance reference-server'",
        )?;
        let mut words = server.split_whitespace().map(str::to_string);
        let program = words.next().unwrap_or_default();
        let command = ServerCommand::new(program, words);
        let revision = match var("MCP_FUZZ_REVISION") {
            Some(r) => {
                Revision::find(&r).ok_or(format!("MCP_FUZZ_REVISION: unknown revision {r}"))?
            }
            None => REVISIONS.last().expect("revisions"),
        };
        let timeout = match var("MCP_FUZZ_TIMEOUT") {
            Some(t) => t
                .parse::<f64>()
                .ok()
                .filter(|t| t.is_finite() && *t > 0.0 && *t <= 3600.0)
                .map(Duration::from_secs_f64)
                .ok_or(format!(
                    "MCP_FUZZ_TIMEOUT: not a positive number of seconds: {t}"
                ))?,
            None => Duration::from_secs(2),
        };
        let mode = match var("MCP_FUZZ_CALL").as_deref() {
            None | Some("all") => CallMode::All,
            Some("read-only") => CallMode::ReadOnly,
            Some("none") => CallMode::None,
            Some(other) => {
                return Err(format!(
                    "MCP_FUZZ_CALL: all, read-only or none, not {other}"
                ))
            }
        };
        let deny = var("MCP_FUZZ_DENY")
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|g| !g.is_empty())
            .map(|g| glob::Pattern::new(g).map_err(|e| format!("MCP_FUZZ_DENY: {g}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            command,
            revision,
            timeout,
            policy: CallPolicy {
                mode,
                deny,
                ..CallPolicy::default()
            },
            cases_dir: Some(PathBuf::from(
                var("MCP_FUZZ_CASES").unwrap_or_else(|| "live-cases".into()),
            )),
            interrupt: None,
        })
    }
}

/// A case that broke the oracle.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The check of the catalog it fails (`mcp-conformance explain ID`).
    pub check: CheckId,
    /// How it failed.
    pub kind: FailureKind,
    /// What was seen, in one sentence.
    pub summary: String,
    /// The case, to save and replay.
    pub case: CaseFile,
    /// The messages that show it: the confirming session's when the case failed again on
    /// a fresh process, else the fuzzing session's.
    pub transcript: Transcript,
    /// Whether the case alone failed the same way on a fresh process.
    pub reproduced: bool,
    /// Where the case file was written.
    pub saved: Option<PathBuf>,
}

impl Finding {
    /// A report a reader can act on: the check, what happened, how to replay it, and the
    /// exchange (server text escaped).
    pub fn report(&self) -> String {
        use crate::report::escape_for_terminal as esc;
        let mut out = format!(
            "FAIL {} ({:?}) in {}: {}\n",
            self.check,
            self.kind,
            self.case.revision,
            esc(&self.summary)
        );
        out.push_str(&format!("  case: {}\n", esc(&self.case.description)));
        out.push_str(if self.reproduced {
            "  reproduced on a fresh server process with this case alone\n"
        } else {
            "  NOT reproduced on a fresh process with this case alone: earlier inputs of this process may matter\n"
        });
        match &self.saved {
            Some(path) => out.push_str(&format!(
                "  replay: mcp-conformance replay {} -- {}\n",
                path.display(),
                esc(&self.case.command.display()),
            )),
            None => out.push_str("  (no case file written)\n"),
        }
        out.push_str(&format!(
            "  explain: mcp-conformance explain {}\n",
            self.check
        ));
        out.push_str("  exchange:\n");
        out.push_str(&crate::report::render_transcript(&self.transcript, "    "));
        out
    }

    /// Writes the case file into `dir`, named after the check and the case's content.
    pub fn save(&mut self, dir: &Path) -> std::io::Result<PathBuf> {
        let text = serde_json::to_string_pretty(&self.case).map_err(std::io::Error::other)?;
        let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        std::fs::create_dir_all(dir)?;
        let path = dir.join(format!("live-{}-{:016x}.json", self.check, hash));
        std::fs::write(&path, text)?;
        self.saved = Some(path.clone());
        Ok(path)
    }
}

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
    restarts: u64,
}

/// The live target: owns the server process and a runtime to talk to it.
pub struct LiveTarget {
    runtime: tokio::runtime::Runtime,
    state: State,
    /// Cases run.
    pub execs: u64,
}

impl LiveTarget {
    /// Starts the server, completes the handshake and lists its tools.
    pub fn start(config: LiveConfig) -> crate::Result<Self> {
        ignore_sigpipe();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(crate::Error::Runtime)?;
        let schemas = SchemaSet::new(config.revision)?;
        let mut state = State {
            config,
            notifications: Vec::new(),
            schemas,
            tools: Vec::new(),
            declared: false,
            output: HashMap::new(),
            output_schemas: HashMap::new(),
            session: None,
            notes: Vec::new(),
            next_id: FIRST_ID,
            probe_ids: HashSet::new(),
            session_cases: 0,
            previous_raw: false,
            previous_tolerated: Vec::new(),
            restarts: 0,
        };
        state.notifications = state.schemas.union_methods("ServerNotification");
        let interrupt = state.config.interrupt.clone();
        match runtime.block_on(interruptible(interrupt.as_deref(), state.discover())) {
            Some(started) => started?,
            None => {
                return Err(crate::Error::Config {
                    path: "MCP_FUZZ_SERVER".into(),
                    message: "interrupted while starting the server".into(),
                })
            }
        }
        Ok(Self {
            runtime,
            state,
            execs: 0,
        })
    }

    /// The target of the `live_server` fuzz target: configured from the environment.
    pub fn from_env() -> Result<Self, String> {
        let config = LiveConfig::from_env()?;
        let shown = config.command.display();
        Self::start(config).map_err(|e| format!("cannot fuzz {shown}: {e}"))
    }

    /// The server fuzzed.
    pub fn command(&self) -> &ServerCommand {
        &self.state.config.command
    }

    /// The revision negotiated.
    pub fn revision(&self) -> &'static Revision {
        self.state.config.revision
    }

    /// The tools listed, each with whether cases call it.
    pub fn tools(&self) -> &[Tool] {
        &self.state.tools
    }

    /// Things a reader should know, in order (tools dropped for outlasting the timeout).
    pub fn notes(&self) -> &[String] {
        &self.state.notes
    }

    /// How often the server was restarted (after a death, a stall or a slow tool).
    pub fn restarts(&self) -> u64 {
        self.state.restarts
    }

    /// Decodes `data` into a case, runs it, and judges the answers. A finding is
    /// confirmed on a fresh process and its case file written; the server is restarted.
    pub fn run(&mut self, data: &[u8]) -> Option<Finding> {
        let case = decode(data, &self.state.tools);
        self.run_case(case)
    }

    /// [`LiveTarget::run`] for a decoded case.
    pub fn run_case(&mut self, case: Case) -> Option<Finding> {
        self.execs += 1;
        let state = &mut self.state;
        let interrupt = state.config.interrupt.clone();
        self.runtime
            .block_on(interruptible(interrupt.as_deref(), state.run(case)))
            .flatten()
    }

    /// The lines of `data`'s case, as the target writes them (for benchmarks and tests).
    pub fn lines(&self, data: &[u8]) -> Vec<Line> {
        decode(data, &self.state.tools).lines
    }

    /// Kills the server (the fuzz target calls this before it panics: libFuzzer aborts
    /// without running destructors).
    pub fn shutdown(&mut self) {
        if let Some(mut s) = self.state.session.take() {
            self.runtime.block_on(s.kill());
        }
    }
}

impl Drop for LiveTarget {
    fn drop(&mut self) {
        // No runtime here: at process exit (libFuzzer's `-max_total_time`) thread-locals
        // are torn down, tokio's among them. Dropping the session kills the server's
        // process group by signal, which needs none.
        drop(self.state.session.take());
    }
}

/// Gives `case`'s requests the ids `next_id`, `next_id + 1`, ... (once: a case run again
/// keeps them). An id probe keeps its own id unless `probe_ids` (the probes of this
/// session) has it already, or it falls among the ids given out.
fn assign_ids(case: &mut Case, next_id: &mut i64, probe_ids: &mut HashSet<String>) {
    if case.ids_assigned {
        return;
    }
    case.ids_assigned = true;
    let mut probes = Vec::new();
    for (i, line) in case.lines.iter_mut().enumerate() {
        let Line::Message(m) = line else { continue };
        if m.get("id").is_none() || m.get("method").is_none() {
            continue;
        }
        if case.probes.contains(&i) {
            let id = &m["id"];
            let ours = id.as_i64().is_some_and(|n| n >= FIRST_ID);
            if !ours && probe_ids.insert(id.to_string()) {
                probes.push(i);
                continue;
            }
        }
        m["id"] = json!(*next_id);
        *next_id += 1;
    }
    case.probes = probes;
}

/// Runs `work` until it ends or `interrupt` is set (checked every 50 ms); `None` when
/// interrupted. Without a flag, `work` runs as is, with no timer beside it.
async fn interruptible<T>(
    interrupt: Option<&AtomicBool>,
    work: impl std::future::Future<Output = T>,
) -> Option<T> {
    let Some(flag) = interrupt else {
        return Some(work.await);
    };
    let watch = async {
        while !flag.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::select! {
        done = work => Some(done),
        () = watch => None,
    }
}

/// Writing to a server that died must fail with EPIPE, not kill this process: outside a
/// Rust `main` (libFuzzer's C `main` runs the target) SIGPIPE keeps its default action.
/// Blocking it for this thread (threads it starts inherit the mask) needs no unsafe code,
/// and a blocked SIGPIPE raised by a write is simply left pending.
fn ignore_sigpipe() {
    use nix::sys::signal::{pthread_sigmask, SigSet, SigmaskHow, Signal};
    let mut set = SigSet::empty();
    set.add(Signal::SIGPIPE);
    // Failing leaves the default action, which a Rust main has already replaced.
    let _ = pthread_sigmask(SigmaskHow::SIG_BLOCK, Some(&set), None);
}

impl State {
    fn session_config(&self) -> SessionConfig {
        SessionConfig {
            timeout: self.config.timeout,
            ..SessionConfig::default()
        }
    }

    /// A fresh, initialized session, and the initialize result. The harness's own
    /// requests use string ids starting with `live-`, which cases never use.
    async fn fresh(&self) -> Result<(Session, Value), String> {
        let mut session = Session::start(&self.config.command, self.session_config())
            .map_err(|e| e.to_string())?;
        // Starting may take longer than a request (npx, uv, a busy machine).
        session.set_timeout(self.config.timeout.max(STARTUP));
        let init = session
            .request_with_id(
                json!(INIT_ID),
                "initialize",
                Some(initialize_params(self.config.revision.id)),
            )
            .await;
        let Some(result) = init.result().cloned() else {
            session.kill().await;
            return Err(match init.silence() {
                Some(s) => format!("initialize got no result: {}", s.describe()),
                None => format!(
                    "initialize got an error: {}",
                    init.error().map(Value::to_string).unwrap_or_default()
                ),
            });
        };
        session.notify("notifications/initialized", None).await;
        // One round trip, so what the server says in reply to `initialized` arrives now,
        // not in the first case (which would then take the blame).
        let settled = session
            .request_with_id(json!(SETTLE_ID), "ping", None)
            .await;
        if let Some(s) = settled.silence() {
            let why = format!(
                "a ping after the handshake got no response: {}",
                s.describe()
            );
            session.kill().await;
            return Err(why);
        }
        session.set_timeout(self.config.timeout);
        Ok((session, result))
    }

    /// A fresh session, tried up to three times (a restart that fails once may be the
    /// machine, not the server).
    async fn restart(&mut self) -> Result<Session, String> {
        self.restarts += 1;
        self.next_id = FIRST_ID;
        self.probe_ids.clear();
        self.session_cases = 0;
        self.previous_raw = false;
        self.previous_tolerated.clear();
        let mut why = String::new();
        for _ in 0..3 {
            match self.fresh().await {
                Ok((mut s, _)) => {
                    s.forget_history();
                    return Ok(s);
                }
                Err(e) => why = e,
            }
        }
        Err(why)
    }

    /// The first session: the tools to call.
    async fn discover(&mut self) -> crate::Result<()> {
        let (mut session, init) = self.fresh().await.map_err(|message| crate::Error::Config {
            path: "MCP_FUZZ_SERVER".into(),
            message,
        })?;
        self.declared = init
            .pointer("/capabilities/tools")
            .is_some_and(Value::is_object);
        if self.declared {
            let (pages, _) = walk(&mut session, 100).await;
            let revision = self.config.revision;
            let mut seen = HashSet::new();
            for tool in listed_tools(&pages) {
                let Some(name) = tool.get("name").and_then(Value::as_str) else {
                    continue;
                };
                if !seen.insert(name.to_string()) {
                    continue;
                }
                if self.config.policy.permits(tool).is_err() {
                    // Listed, never called (and never named by a generated call).
                    let mut forbidden = Tool::new(name, &json!({}));
                    forbidden.enabled = false;
                    self.tools.push(forbidden);
                    continue;
                }
                let Some(schema) = tool
                    .get("inputSchema")
                    .filter(|s| s.get("type") == Some(&json!("object")))
                else {
                    continue;
                };
                if revision.tool_fields.contains(&"outputSchema") {
                    if let Some(schema) = tool.get("outputSchema") {
                        if let Ok(v) = compile_input_schema(schema, revision) {
                            self.output.insert(name.to_string(), v);
                            self.output_schemas.insert(name.to_string(), schema.clone());
                        }
                    }
                }
                self.tools.push(Tool::new(name, schema));
            }
        }
        session.forget_history();
        self.session = Some(session);
        Ok(())
    }

    async fn kill_session(&mut self) {
        if let Some(mut s) = self.session.take() {
            s.kill().await;
        }
    }

    async fn run(&mut self, mut case: Case) -> Option<Finding> {
        let mut current = self.session.take();
        // A session kept after a case was checked for an exit right after it. It is
        // replaced now and then, which bounds the ids it remembers.
        let usable = self.session_cases < SESSION_CASES
            && current.as_mut().is_some_and(Session::forget_history);
        let mut session = match current {
            Some(s) if usable => s,
            other => {
                if let Some(mut s) = other {
                    s.kill().await;
                }
                match self.restart().await {
                    Ok(s) => s,
                    Err(why) => {
                        return Some(self.finding(
                            &case,
                            FailureKind::Crash,
                            CheckId::PropServerSurvives,
                            format!("the server could not be restarted (three tries): {why}"),
                            Transcript::default(),
                        ))
                    }
                }
            }
        };
        self.session_cases += 1;
        self.assign_ids(&mut case);
        let case = &case;
        let judged = self.exec(&mut session, case).await;
        // Only a session that goes on may still answer this case's frames late; fresh
        // processes (a restart, the confirmation) never saw them.
        self.previous_raw = false;
        self.previous_tolerated.clear();
        match judged {
            Judged::Ok => {
                self.previous_raw = case.has_raw();
                self.previous_tolerated.clone_from(&case.tolerated);
                self.session = Some(session);
                None
            }
            Judged::Slow => {
                session.kill().await;
                None
            }
            Judged::Failed(kind, check, summary) => {
                session.kill().await;
                let transcript = session.into_transcript();
                let case = &self.minimize(case, &kind, check).await;
                let mut finding = self.finding(case, kind, check, summary, transcript);
                self.confirm(case, &mut finding).await;
                if let Some(dir) = self.config.cases_dir.clone() {
                    if let Err(e) = finding.save(&dir) {
                        finding.summary.push_str(&format!(
                            " (the case file could not be written to {}: {e})",
                            dir.display()
                        ));
                    }
                }
                self.kill_session().await;
                Some(finding)
            }
        }
    }

    /// Gives the case's requests fresh ids of this session (once: a case run again keeps
    /// them). An id probe keeps its id unless this session has used it already.
    fn assign_ids(&mut self, case: &mut Case) {
        assign_ids(case, &mut self.next_id, &mut self.probe_ids);
    }

    /// Drops the steps the failure does not need, each time on a fresh process.
    async fn minimize(&mut self, case: &Case, kind: &FailureKind, check: CheckId) -> Case {
        let mut best = case.clone();
        let mut i = 0;
        while best.steps().len() > 1 && i < best.steps().len() {
            let candidate = best.without(i);
            let Ok((mut session, _)) = self.fresh().await else {
                break;
            };
            session.forget_history();
            let judged = self.exec(&mut session, &candidate).await;
            session.kill().await;
            match judged {
                Judged::Failed(k, c, _) if &k == kind && c == check => best = candidate,
                _ => i += 1,
            }
        }
        best
    }

    /// Runs the case again on a fresh process and records whether it fails the same way.
    async fn confirm(&mut self, case: &Case, finding: &mut Finding) {
        let Ok((mut session, _)) = self.fresh().await else {
            return;
        };
        // As in the fuzzing session, only the case's own messages are judged; the
        // handshake stays in the transcript for the reader.
        let handshake = session.transcript().clone();
        session.forget_history();
        let judged = self.exec(&mut session, case).await;
        session.kill().await;
        if let Judged::Failed(kind, check, summary) = judged {
            if kind == finding.kind && check == finding.check {
                finding.reproduced = true;
                finding.summary = summary;
                let mut transcript = handshake;
                for e in session.transcript().entries() {
                    transcript.push(e.direction, &e.text, e.json.clone());
                }
                finding.transcript = transcript;
            }
        }
    }

    fn finding(
        &self,
        case: &Case,
        kind: FailureKind,
        check: CheckId,
        summary: String,
        transcript: Transcript,
    ) -> Finding {
        let revision = self.config.revision.id;
        // The messages of `fresh`, then the case, as the live target sent them.
        let mut messages = vec![
            CaseMessage::message(
                json!({"jsonrpc": "2.0", "id": INIT_ID, "method": "initialize", "params": initialize_params(revision)}),
                false,
            ),
            CaseMessage::message(
                json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
                false,
            ),
            CaseMessage::message(
                json!({"jsonrpc": "2.0", "id": SETTLE_ID, "method": "ping"}),
                false,
            ),
        ];
        let last = case.lines.len().saturating_sub(1);
        for (i, line) in case.lines.iter().enumerate() {
            let pipelined = i < last;
            messages.push(match line {
                Line::Message(m) => CaseMessage::message(m.clone(), pipelined),
                Line::Raw(bytes) => CaseMessage {
                    send: Value::Null,
                    raw: Some(RawFrame::of(bytes)),
                    pipelined,
                },
            });
        }
        Finding {
            check,
            kind,
            summary,
            case: CaseFile {
                mcp_conformance_case: 1,
                check: check.as_str().to_string(),
                revision: revision.to_string(),
                seed: 0,
                description: describe(case),
                kind,
                command: self.config.command.clone(),
                messages,
                timeout_secs: Some(self.config.timeout.as_secs_f64()),
                output_schema: matches!(
                    check,
                    CheckId::TcOutputschemaPresence | CheckId::TcOutputschemaConform
                )
                .then(|| {
                    case.lines.iter().find_map(|l| match l {
                        Line::Message(m) if m["method"] == "tools/call" => m
                            .pointer("/params/name")
                            .and_then(Value::as_str)
                            .and_then(|n| self.output_schemas.get(n).cloned()),
                        _ => None,
                    })
                })
                .flatten(),
            },
            transcript,
            reproduced: false,
            saved: None,
        }
    }

    /// Writes the case and judges what comes back.
    async fn exec(&mut self, session: &mut Session, case: &Case) -> Judged {
        let exchanges = session.pipeline_lines(&case.lines).await;
        if session.transcript().dropped() > 0 {
            // Past the transcript's budget (a flood of output) bodies are not kept, and
            // nothing may be judged on a missing body: start again on a fresh process.
            self.notes.push(
                "a case produced more output than a transcript keeps; not judged, server restarted"
                    .into(),
            );
            self.notes.dedup();
            return Judged::Slow;
        }
        let judged = self.judge(session, case, &exchanges).await;
        if judged != Judged::Ok {
            return judged;
        }
        if let Some(Silence::Exited(exit)) = session.exited() {
            return Judged::Failed(
                FailureKind::Crash,
                CheckId::PropServerSurvives,
                format!(
                    "the server exited right after answering ({})",
                    exit.describe()
                ),
            );
        }
        judged
    }

    async fn judge(
        &mut self,
        session: &mut Session,
        case: &Case,
        exchanges: &[Option<Exchange>],
    ) -> Judged {
        // Silence first: a dead or stuck server explains everything after it.
        for x in exchanges.iter().flatten() {
            if let Some(silence) = x.silence() {
                let silence = silence.clone();
                return self.silent(session, x, &silence).await;
            }
        }
        for x in exchanges.iter().flatten() {
            if let Some(failed) = self.judge_response(x) {
                return failed;
            }
        }
        self.judge_frames(session.transcript(), case)
    }

    /// A request got no response in time.
    async fn silent(&mut self, session: &mut Session, x: &Exchange, silence: &Silence) -> Judged {
        let crash = |exit: String| {
            Judged::Failed(
                FailureKind::Crash,
                CheckId::PropServerSurvives,
                format!("{}: {exit}", what(x)),
            )
        };
        match silence {
            Silence::Exited(exit) => {
                return crash(format!("the server exited ({})", exit.describe()))
            }
            Silence::Timeout(_) => {}
            other => return crash(other.describe()),
        }
        let ping = session.request_with_id(json!(CHECK_ID), "ping", None).await;
        match ping.silence() {
            Some(Silence::Exited(exit)) => {
                return crash(format!("the server exited ({})", exit.describe()))
            }
            Some(_) => {
                return Judged::Failed(
                    FailureKind::Stall,
                    CheckId::PropServerSurvives,
                    format!(
                        "{}: {}, and a ping sent after it got none either",
                        what(x),
                        silence.describe()
                    ),
                )
            }
            None => {}
        }
        // The server is alive. Work may take long (a tool, a prompt, a resource): that is
        // no finding, but a tool that outlasted the timeout is not called again (each
        // such case would cost a timeout). Requests that run no user code have no excuse:
        // after more time, they count as never answered.
        if !QUICK_METHODS.contains(&x.method.as_str()) {
            if x.method == "tools/call" {
                if let Some(name) = x.request.pointer("/params/name").and_then(Value::as_str) {
                    if let Some(t) = self.tools.iter_mut().find(|t| t.name == name && t.enabled) {
                        t.enabled = false;
                        self.notes.push(format!(
                            "tool {name:?} outlasted the {:.1} s timeout; not called again",
                            session.timeout().as_secs_f64()
                        ));
                    }
                }
            }
            return Judged::Slow;
        }
        let window = session.timeout() * LATE_FACTOR;
        session.settle(window).await;
        let late = session
            .transcript()
            .received()
            .any(|e| e.answers == Some(x.request_seq));
        if late {
            return Judged::Slow;
        }
        Judged::Failed(
            FailureKind::Stall,
            CheckId::PropServerSurvives,
            format!(
                "{}: no response within {:.1} s while the server answers ping",
                what(x),
                (session.timeout() * (LATE_FACTOR + 1)).as_secs_f64(),
            ),
        )
    }

    /// Lines on stdout that are not JSON-RPC messages, and responses nobody asked for.
    fn judge_frames(&self, transcript: &Transcript, case: &Case) -> Judged {
        let failed = |b: Breach| Judged::Failed(b.kind, b.check, b.message);
        let tolerated = &case.tolerated;
        for entry in transcript.received() {
            if let Some(b) = rules::frame(
                entry.problem.as_ref(),
                entry.json.as_ref(),
                self.config.revision,
            ) {
                return failed(Breach {
                    message: format!(
                        "the server wrote {}: {}",
                        b.message,
                        crate::protocol::cut_text(&entry.text, 200)
                    ),
                    ..b
                });
            }
            if let Some(message) = entry.json.as_ref().filter(|m| {
                m.get("method")
                    .and_then(Value::as_str)
                    .is_some_and(|n| self.notifications.iter().any(|k| k == n))
            }) {
                if let Some(b) = rules::notification_schema(&self.schemas, message) {
                    return failed(b);
                }
            }
            if !entry.unsolicited {
                continue;
            }
            let Some(message) = entry.json.as_ref() else {
                continue;
            };
            let id = message.get("id").unwrap_or(&Value::Null);
            let is_error = message.get("error").is_some();
            // A malformed frame may be answered with an error whose id is null (the server
            // could not read one) or, by a lenient server, with the id the frame shows.
            // The previous case's frames count too: a server handling lines concurrently
            // may answer one after the ping that closed that case.
            let raw = case.has_raw() || self.previous_raw;
            if (raw && id.is_null() && is_error)
                || tolerated.contains(id)
                || self.previous_tolerated.contains(id)
            {
                continue;
            }
            if let Some(b) = rules::unsolicited(message, &case.notifications()) {
                return failed(b);
            }
        }
        Judged::Ok
    }

    /// The envelope and payload of one response.
    fn judge_response(&self, x: &Exchange) -> Option<Judged> {
        let Reply::Response {
            message, id_match, ..
        } = &x.reply
        else {
            return None;
        };
        let failed = |b: Breach| {
            Some(Judged::Failed(
                b.kind,
                b.check,
                format!("{}: {}", what(x), b.message),
            ))
        };
        if let Some(b) = rules::envelope(&x.request["id"], message, *id_match) {
            return failed(b);
        }
        let result = message.get("result")?;
        if x.method.starts_with("tools/") && !self.declared {
            return None;
        }
        if let Some(b) = rules::result_schema(&self.schemas, &x.method, result) {
            return failed(b);
        }
        let tool = x.request.pointer("/params/name").and_then(Value::as_str);
        let validator = tool.and_then(|t| self.output.get(t));
        match (validator, x.method.as_str()) {
            (Some(validator), "tools/call") => {
                rules::structured_output(validator, result).and_then(failed)
            }
            _ => None,
        }
    }
}

/// "tools/call echo (id 1)" for reports.
fn what(x: &Exchange) -> String {
    let tool = x
        .request
        .pointer("/params/name")
        .and_then(Value::as_str)
        .map(|t| format!(" {t:?}"))
        .unwrap_or_default();
    format!("{}{tool} (id {})", x.method, x.request["id"])
}

/// One line on what a case sends.
fn describe(case: &Case) -> String {
    let parts: Vec<String> = case
        .steps()
        .iter()
        .map(|line| match line {
            Line::Message(m) => {
                let method = m["method"].as_str().unwrap_or_default();
                match m.pointer("/params/name").and_then(Value::as_str) {
                    Some(name) if method == "tools/call" => format!("tools/call {name:?}"),
                    _ => method.to_string(),
                }
            }
            Line::Raw(_) => "a malformed frame".into(),
        })
        .collect();
    format!(
        "live fuzz case: {}, then ping, in one write",
        parts.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Request ids are never reused within a session: not across cases, not by a probe
    /// that repeats an earlier probe, not by the harness's own `live-` requests.
    #[test]
    fn ids_are_unique_within_a_session() {
        let tools = vec![Tool::new("echo", &json!({"type": "object"}))];
        let mut next_id = FIRST_ID;
        let mut probe_ids = HashSet::new();
        let mut seen: HashSet<String> = [INIT_ID, SETTLE_ID, CHECK_ID]
            .iter()
            .map(|s| json!(s).to_string())
            .collect();
        let mut state = 3;
        let mut probes = 0;
        for _ in 0..20_000 {
            let mut case = decode(&super::super::seeded_input(&mut state), &tools);
            assign_ids(&mut case, &mut next_id, &mut probe_ids);
            probes += case.probes.len();
            for id in case.lines.iter().filter_map(Line::request_id) {
                assert!(seen.insert(id.to_string()), "id {id} used twice");
            }
            // Running a case again (to confirm it) keeps its ids.
            let again = case.clone();
            assign_ids(&mut case, &mut next_id, &mut probe_ids);
            assert_eq!(case, again);
        }
        assert!(probes > 100, "id probes keep their ids ({probes})");
    }
}
