//! The live target's process side: [`LiveTarget`] owns the server process and the runtime
//! that talks to it, and runs each case on the current session (restarting it when it
//! died, stalled or served long enough). Kept apart from the oracle so how a server is
//! driven and how its answers are judged can be read separately.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::{Earlier, Finding, Judged, LiveConfig, State, FIRST_ID};
use crate::fuzzing::cases::{decode_for, Case, Tool};
use crate::protocol::{Line, Revision, SchemaSet, Session, Transcript};
use crate::rules::CheckId;
use crate::rules::FailureKind;
use crate::transport::ServerCommand;

/// Cases per server session before it is replaced, which bounds the ids it remembers.
const SESSION_CASES: u64 = 50_000;

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
            earlier: Earlier::default(),
            restarts: 0,
            saved: Vec::new(),
        };
        state.notifications = state.schemas.union_methods("ServerNotification");
        let interrupt = state.config.interrupt.clone();
        match runtime.block_on(interruptible(interrupt.as_deref(), state.discover())) {
            Some(started) => started?,
            None => {
                return Err(crate::Error::LiveStart {
                    command: state.config.command.display(),
                    reason: "interrupted".into(),
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
        Self::configured(LiveConfig::from_env()?)
    }

    /// The target of an in-process fuzz target: `server` linked in, the rest configured
    /// from the environment over the target's `defaults` (see
    /// [`LiveConfig::from_env_in_process`]).
    pub fn in_process(
        server: crate::transport::InProcessServer,
        defaults: &[(&str, &str)],
    ) -> Result<Self, String> {
        Self::configured(LiveConfig::from_env_in_process(server, defaults)?)
    }

    pub(crate) fn configured(config: LiveConfig) -> Result<Self, String> {
        let shown = config.command.display();
        Self::start(config).map_err(|e| format!("cannot fuzz {shown}: {e}"))
    }

    /// The server fuzzed.
    pub fn command(&self) -> &ServerCommand {
        &self.state.config.command
    }

    /// From now on, a panic on another thread than this one (an in-process server's)
    /// writes the case under way as a case file and prints its report before the panic
    /// hook already set (libFuzzer's, which aborts) runs; `name` is the fuzz target's.
    pub fn watch_panics(&self, name: &str) {
        super::panics::watch(name, &self.state.config);
    }

    /// The checks whose findings are passed over (`MCP_FUZZ_IGNORE`).
    pub fn ignored(&self) -> &[CheckId] {
        &self.state.config.ignore
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
        let case = self.decode(data);
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
        self.decode(data).lines
    }

    /// `data`'s case for this revision (its liveness request behind it).
    fn decode(&self, data: &[u8]) -> Case {
        let liveness = self.state.config.revision.liveness_method();
        decode_for(data, &self.state.tools, liveness)
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
        super::panics::running(&case);
        let case = &case;
        let judged = self.exec(&mut session, case).await;
        // Only a session that goes on may still answer this case's frames late; fresh
        // processes (a restart, the confirmation) never saw them.
        if judged != Judged::Ok {
            self.earlier.clear();
        }
        match judged {
            Judged::Ok => {
                self.earlier.push(case.has_raw(), &case.tolerated);
                self.session = Some(session);
                None
            }
            Judged::Slow => {
                session.kill().await;
                None
            }
            Judged::Failed(_, check, _) if self.config.ignore.contains(&check) => {
                // A known finding: the case passes, on a fresh session (the server's state
                // after it is not known).
                session.kill().await;
                None
            }
            Judged::Failed(kind, check, summary) => {
                session.kill().await;
                let transcript = session.into_transcript();
                if self.saved.contains(&(check, kind)) {
                    // Met before, shrunk and saved then: shrinking and confirming it again
                    // would cost a fuzzing loop a dozen server starts per meeting.
                    let summary = format!("{summary} (met before: not shrunk again)");
                    self.kill_session().await;
                    return Some(self.finding(case, kind, check, summary, transcript));
                }
                let case = &self.minimize(case, &kind, check).await;
                let mut finding = self.finding(case, kind, check, summary, transcript);
                self.confirm(case, &mut finding).await;
                let key = (finding.check, finding.kind);
                let new = !self.saved.contains(&key);
                if new {
                    self.saved.push(key);
                }
                if let Some(dir) = self.config.cases_dir.clone().filter(|_| new) {
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
}
