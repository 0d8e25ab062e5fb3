//! `cargo test` against a server binary: one libtest test per (revision, check).
//!
//! A server author adds `tests/mcp.rs` with `harness = false` and hands this module the
//! server command; `cargo test` then lists, filters (`cargo test -- tool-name`) and runs
//! the checks like ordinary tests, and a failure prints its evidence. The suite runs once,
//! lazily, for the revisions the filter selects; each test reads its result.
//!
//! ```no_run
//! // tests/mcp.rs, with [[test]] name = "mcp", harness = false in Cargo.toml
//! use mcp_conformance::{harness::Suite, transport::ServerCommand};
//!
//! fn main() -> std::process::ExitCode {
//!     // In a server's own crate: env!("CARGO_BIN_EXE_my-server").
//!     let server = ServerCommand::new("target/debug/my-server", ["--stdio".to_string()]);
//!     Suite::new(server).run_tests()
//! }
//! ```
//!
//! A server reached over Streamable HTTP is named by its URL instead, already listening
//! or started (and stopped at the end) by a command:
//!
//! ```no_run
//! use mcp_conformance::{harness::Suite, transport::ServerCommand};
//!
//! fn main() -> std::process::ExitCode {
//!     let server = ServerCommand::new("target/debug/my-server", ["--port=8931".to_string()]);
//!     Suite::url("http://127.0.0.1:8931/mcp")
//!         .header("Authorization", "Bearer test-token")
//!         .started_by(server)
//!         .run_tests()
//! }
//! ```
//!
//! Nothing quietly passes: a misspelt revision fails the test binary (with the nearest
//! name), a check that could not be judged is ignored with its reason (not `ok`), and with
//! a baseline the test [`STALE_TEST`] reports entries that no longer match a finding. The
//! filter is libtest-mimic's own, so nextest's `--exact '[mcp] NAME'` selects the revision
//! to run as `cargo test -- NAME` does.
//!
//! Warnings and expected (baselined) failures pass, and are printed after libtest's own
//! lines, in test order, by [`Suite::run_tests`]: printed from a test, they landed in the
//! middle of other tests' `... ok` lines.
//!
//! Behind the default feature `harness`: libtest-mimic, which this module drives, brings
//! clap with it, and a library user with `default-features = false` gets neither.
#![cfg(feature = "harness")]

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use libtest_mimic::{Arguments, Completion, Failed, Trial};

use crate::checks::{Status, CATALOG};
use crate::protocol::{Revision, REVISIONS};
use crate::report::{
    render_finding, render_surface, Baseline, BaselineEntry, GateOptions, RunReport,
};
use crate::runner::{check_surface, RunConfig};
use crate::scenarios::CallPolicy;
use crate::surface::{Class, Snapshot};
use crate::transport::{HttpTarget, InProcessServer, ServerCommand};

/// The name of the test that reports stale baseline entries (present with a baseline).
pub const STALE_TEST: &str = "baseline::stale-entries";
/// The name of the test that compares the tool surface with a snapshot (present with one).
pub const SURFACE_TEST: &str = "tool-surface";
/// The name of the one test a suite with a setup error has (a misspelt revision).
pub const SETUP_TEST: &str = "mcp-conformance::setup";

/// A conformance suite to register as libtest tests.
#[derive(Debug, Clone)]
pub struct Suite {
    config: RunConfig,
    baseline: Option<Baseline>,
    /// The tool surface snapshot to check, and where it is.
    snapshot: Option<(PathBuf, Snapshot)>,
    gate: GateOptions,
    adopt_orphans: bool,
    /// What the builder was told that cannot be right (a misspelt revision): the suite
    /// then fails instead of running fewer tests than asked, or none.
    problems: Vec<String>,
    /// What passing tests have to say (a warning, an expected failure), by test name.
    notes: Notes,
}

/// Notes of passing tests, by test name, shared by the trials and [`Suite::run_tests`].
type Notes = Arc<Mutex<Vec<(String, String)>>>;

impl Suite {
    /// Every revision against `server`, default limits, every tool called (over HTTP,
    /// when `server.http` is set: every revision the suite runs over Streamable HTTP).
    pub fn new(server: ServerCommand) -> Self {
        Self {
            config: RunConfig::new(server),
            baseline: None,
            snapshot: None,
            gate: GateOptions::default(),
            adopt_orphans: false,
            problems: Vec::new(),
            notes: Notes::default(),
        }
    }

    /// Every revision against a server linked into the test binary: each session
    /// constructs a fresh instance over an in-memory pipe, and the checks that need a
    /// process (its exit, stderr) skip with their reason. No binary is built or spawned.
    pub fn in_process(server: InProcessServer) -> Self {
        Self::new(ServerCommand::in_process(server))
    }

    /// Every revision the suite runs over Streamable HTTP, against the server already
    /// listening at `url` (each revision in a fresh HTTP session; nothing is started or
    /// stopped). A bad URL fails every test with the reason.
    pub fn url(url: impl Into<String>) -> Self {
        Self::new(ServerCommand::http(HttpTarget {
            url: url.into(),
            headers: Vec::new(),
            ca_certs: Vec::new(),
        }))
    }

    /// Over HTTP, starts `command` first (waiting until the URL accepts connections) and
    /// stops it and its process group at the end, as for a stdio server. Its program,
    /// arguments, environment and working directory are taken; the URL stays.
    pub fn started_by(mut self, command: ServerCommand) -> Self {
        let http = self.config.command.http.take();
        self.config.command = ServerCommand { http, ..command };
        self
    }

    /// Over HTTP, a header sent on every request (authorization and the like; its value
    /// never appears in a report). Ignored over stdio.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        if let Some(target) = &mut self.config.command.http {
            target.headers.push((name.into(), value.into()));
        }
        self
    }

    /// Over `https`, a PEM file of CAs trusted besides the platform's (a private CA, a
    /// self-signed certificate). Ignored over stdio.
    pub fn ca_cert(mut self, path: impl Into<std::path::PathBuf>) -> Self {
        if let Some(target) = &mut self.config.command.http {
            target.ca_certs.push(path.into());
        }
        self
    }

    /// Runs only these revisions (by version string or alias). An unknown name is an
    /// error (with the nearest known name): the test binary fails instead of running
    /// fewer tests, or none.
    pub fn revisions(mut self, revisions: &[&str]) -> Self {
        let mut selected = Vec::new();
        for name in revisions {
            match Revision::named(name) {
                Some(r) if !selected.contains(&r.id) => selected.push(r.id),
                Some(_) => {}
                None => self.problems.push(crate::suggest::unknown_revision(name)),
            }
        }
        // In the suite's order, whatever the order given.
        self.config.revisions = REVISIONS
            .iter()
            .filter(|r| selected.contains(&r.id))
            .collect();
        self
    }

    /// Waits this long for each response.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.config.session.timeout = timeout;
        self
    }

    /// Which tools may be called.
    pub fn call_policy(mut self, policy: CallPolicy) -> Self {
        self.config.call_policy = policy;
        self
    }

    /// Expected failures: baselined findings pass (their reason is printed). Entries that
    /// no longer match a finding are reported by the test [`STALE_TEST`].
    pub fn baseline(mut self, path: impl AsRef<Path>) -> crate::Result<Self> {
        self.baseline = Some(Baseline::load(path.as_ref())?);
        Ok(self)
    }

    /// Checks the tools the server lists against a tool surface snapshot (`mcp-conformance
    /// snapshot` writes it): the test [`SURFACE_TEST`] fails on a breaking change and
    /// passes with the others printed as notes; `FILE.new` is written beside the snapshot
    /// when the tools differ. A missing or malformed file is an error.
    pub fn snapshot(mut self, path: impl AsRef<Path>) -> crate::Result<Self> {
        let path = path.as_ref();
        self.snapshot = Some((path.to_path_buf(), Snapshot::load(path)?));
        self.config.surface = true;
        Ok(self)
    }

    /// Makes warnings fail their test too.
    pub fn strict(mut self, strict: bool) -> Self {
        self.gate.strict = strict;
        self
    }

    /// Makes stale baseline entries fail [`STALE_TEST`] (by default it is ignored with
    /// the entries as its reason).
    pub fn strict_baseline(mut self, strict: bool) -> Self {
        self.gate.strict_baseline = strict;
        self
    }

    /// Makes this test process a child subreaper ([`crate::transport::adopt_orphans`]) when
    /// the suite runs, so that a server's descendants that hide from the process group and
    /// the environment marker are ended too. Only for a test binary whose other code
    /// starts no children it wants to keep: every child this crate did not spawn is taken
    /// for an orphan and killed at the end of each session. Off by default.
    pub fn adopt_orphans(mut self, adopt: bool) -> Self {
        self.adopt_orphans = adopt;
        self
    }

    /// What makes this suite unable to run as configured (a misspelt revision), if
    /// anything: [`Suite::run_tests`] prints it and fails.
    pub fn misconfiguration(&self) -> Option<String> {
        (!self.problems.is_empty()).then(|| self.problems.join("; "))
    }

    /// Parses the libtest arguments of this process, registers the tests and runs them.
    /// A setup error (a misspelt revision) is printed and fails the process whatever the
    /// filter selects.
    pub fn run_tests(self) -> ExitCode {
        let args = Arguments::from_args();
        if !self.problems.is_empty() {
            for problem in &self.problems {
                eprintln!("mcp-conformance: the suite is misconfigured: {problem}");
            }
            return ExitCode::from(101);
        }
        let notes = self.notes();
        let trials = self.trials(&args);
        let conclusion = libtest_mimic::run(&args, trials);
        notes.print();
        conclusion.exit_code()
    }

    /// What passing tests have to say (warnings, expected failures), filled in as they run.
    /// [`Suite::run_tests`] prints it after libtest's own lines; a caller that runs
    /// [`Suite::trials`] itself takes it first and prints it after its run:
    /// `let notes = suite.notes(); libtest_mimic::run(&args, suite.trials(&args)); notes.print();`.
    pub fn notes(&self) -> SuiteNotes {
        SuiteNotes(self.notes.clone())
    }

    /// The tests, one per (revision, check), named `REVISION::CHECK`, and with a baseline
    /// [`STALE_TEST`]. With a setup error, one failing test [`SETUP_TEST`] instead.
    pub fn trials(self, args: &Arguments) -> Vec<Trial> {
        if !self.problems.is_empty() {
            let message = self.problems.join("; ");
            return vec![
                Trial::test(SETUP_TEST, move || Err(Failed::from(message))).with_kind("mcp")
            ];
        }
        let all = self.config.revisions.clone();
        let shared = Arc::new(OnceLock::<Arc<Shared>>::new());
        let mut trials = Vec::new();
        let mut needs: Vec<&'static str> = Vec::new();
        for rev in &all {
            for check in CATALOG.iter() {
                let id = check.id.as_str();
                // A test that does not apply to its revision is ignored: it needs no
                // server either.
                let applies = check.applies.includes(rev);
                let cell = shared.clone();
                let revision = rev.id;
                let trial = Trial::ignorable_test(format!("{revision}::{id}"), move || {
                    Shared::get(&cell).judge(revision, id)
                })
                .with_kind("mcp")
                .with_ignored_flag(!applies);
                // Decided as libtest-mimic decides which tests run (the kind prefix
                // nextest passes with `--exact` included): only their revisions run.
                if !args.is_filtered_out(&trial)
                    && !args.is_ignored(&trial)
                    && !needs.contains(&rev.id)
                {
                    needs.push(rev.id);
                }
                trials.push(trial);
            }
        }
        if self.baseline.is_some() {
            let cell = shared.clone();
            let trial = Trial::ignorable_test(STALE_TEST, move || Shared::get(&cell).stale())
                .with_kind("mcp");
            if !args.is_filtered_out(&trial) && !args.is_ignored(&trial) {
                // Whether an entry for every revision is stale needs every revision.
                needs = all.iter().map(|r| r.id).collect();
            }
            trials.push(trial);
        }
        if self.snapshot.is_some() {
            let cell = shared.clone();
            let trial = Trial::ignorable_test(SURFACE_TEST, move || Shared::get(&cell).surface())
                .with_kind("mcp");
            if !args.is_filtered_out(&trial) && !args.is_ignored(&trial) {
                // The snapshot is compared in every revision the suite runs, whichever
                // tests the filter selects: all of them.
                needs = all.iter().map(|r| r.id).collect();
            }
            trials.push(trial);
        }
        let mut config = self.config;
        config.revisions = all
            .iter()
            .copied()
            .filter(|r| needs.contains(&r.id))
            .collect();
        let every_revision = config.revisions.len() == all.len();
        let _ = shared.set(Arc::new(Shared {
            config,
            every_revision,
            baseline: self.baseline,
            snapshot: self.snapshot,
            gate: self.gate,
            adopt_orphans: self.adopt_orphans,
            report: OnceLock::new(),
            notes: self.notes,
        }));
        trials
    }
}

struct Shared {
    config: RunConfig,
    /// Whether `config` runs every revision of the suite (else an entry for every
    /// revision cannot be found stale).
    every_revision: bool,
    baseline: Option<Baseline>,
    snapshot: Option<(PathBuf, Snapshot)>,
    gate: GateOptions,
    adopt_orphans: bool,
    report: OnceLock<Result<RunReport, String>>,
    notes: Notes,
}

/// What a suite's passing tests have to say ([`Suite::notes`]).
#[derive(Debug, Clone)]
pub struct SuiteNotes(Notes);

impl SuiteNotes {
    /// The notes so far, in test-name order (the trials finish in any order).
    pub fn lines(&self) -> Vec<String> {
        let mut notes = self.0.lock().map(|n| n.clone()).unwrap_or_default();
        notes.sort();
        notes.into_iter().map(|(_, note)| note).collect()
    }

    /// Prints them under a heading, when there are any.
    pub fn print(&self) {
        let lines = self.lines();
        if lines.is_empty() {
            return;
        }
        println!("mcp-conformance: warnings and expected failures (they pass):");
        for line in lines {
            println!("{line}");
        }
    }
}

impl Shared {
    /// The state a trial reads; set before any trial runs.
    fn get(cell: &OnceLock<Arc<Shared>>) -> &Shared {
        cell.get().expect("the trials are built before they run")
    }

    fn report(&self) -> Result<&RunReport, Failed> {
        self.report
            .get_or_init(|| {
                if self.adopt_orphans {
                    crate::transport::adopt_orphans();
                }
                // On a thread of its own with a large stack: libtest's test threads have 2 MiB.
                let mut report =
                    crate::runner::run_blocking(&self.config).map_err(|e| e.to_string())?;
                report.gate_options = self.gate;
                if let Some(b) = &self.baseline {
                    report.apply_baseline(b);
                }
                Ok(report)
            })
            .as_ref()
            .map_err(|e| Failed::from(format!("the suite could not run: {e}")))
    }

    fn judge(&self, revision: &str, check: &str) -> Result<Completion, Failed> {
        let report = self.report()?;
        let Some(result) = report.result(revision, check) else {
            return Err(Failed::from(format!("no result for {revision} {check}")));
        };
        let baselined = report.baselined(revision, check);
        match (result.status, baselined) {
            (Status::Pass, _) => Ok(Completion::Completed),
            // Not a pass: nothing was judged (the server lacks the feature, the revision
            // was not negotiated), and `ok` would say it conforms.
            (Status::Skip, _) => Ok(Completion::ignored_with(&result.message)),
            (_, Some(reason)) => {
                self.note(
                    revision,
                    check,
                    format!("{revision}::{check}: expected failure (baseline: {reason})"),
                );
                Ok(Completion::Completed)
            }
            (Status::Warn, None) if !self.gate.strict => {
                self.note(revision, check, render_finding(revision, result));
                Ok(Completion::Completed)
            }
            (Status::Fail | Status::Warn, None) => {
                Err(Failed::from(render_finding(revision, result)))
            }
        }
    }

    /// [`SURFACE_TEST`]: fails on a breaking change to the tool surface; passes with the
    /// other changes (and where the pending file is) as a note.
    fn surface(&self) -> Result<Completion, Failed> {
        let report = self.report()?;
        let (Some((path, recorded)), Some(live)) = (&self.snapshot, &report.live_surface) else {
            return Err(Failed::from("the run kept no tool surface to compare"));
        };
        let checked = check_surface(path, recorded, live, true);
        let text = render_surface(&checked, false);
        if checked.count(Class::Breaking) > 0 {
            return Err(Failed::from(text));
        }
        if checked.pending.is_some() {
            if let Ok(mut notes) = self.notes.lock() {
                notes.push((SURFACE_TEST.to_string(), text.trim_end().to_string()));
            }
        }
        Ok(Completion::Completed)
    }

    /// Keeps what a passing test has to say for after the run.
    fn note(&self, revision: &str, check: &str, text: String) {
        if let Ok(mut notes) = self.notes.lock() {
            notes.push((format!("{revision}::{check}"), text));
        }
    }

    /// [`STALE_TEST`]: passes when every entry still matches a finding; else fails under
    /// `strict_baseline`, or is ignored with the entries as its reason.
    fn stale(&self) -> Result<Completion, Failed> {
        let report = self.report()?;
        let stale: Vec<&BaselineEntry> = report
            .baseline
            .iter()
            .flat_map(|b| &b.stale)
            .filter(|e| e.revision.is_some() || self.every_revision)
            .collect();
        if stale.is_empty() {
            return Ok(Completion::Completed);
        }
        let list = stale
            .iter()
            .map(|e| match &e.revision {
                Some(r) => format!("{} ({r})", e.check),
                None => format!("{} (every revision)", e.check),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let message = format!(
            "{}, no longer failing: {list}",
            crate::report::counted(stale.len(), "stale baseline entry")
        );
        if self.gate.strict_baseline {
            Err(Failed::from(format!(
                "{message} (strict_baseline: remove them from the baseline)"
            )))
        } else {
            Ok(Completion::ignored_with(format!(
                "{message}; strict_baseline(true) makes this fail"
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::TransportKind;

    #[test]
    fn a_url_suite_runs_the_http_revisions_with_its_headers_and_start_command() {
        let suite = Suite::url("http://127.0.0.1:9/mcp")
            .header("Authorization", "Bearer x")
            .started_by(ServerCommand::new("my-server", ["--http".to_string()]));
        let command = &suite.config.command;
        let target = command.http.as_ref().expect("an HTTP target");
        assert_eq!(target.url, "http://127.0.0.1:9/mcp");
        assert_eq!(
            target.headers,
            vec![("Authorization".into(), "Bearer x".into())]
        );
        assert_eq!(command.program, "my-server");
        assert_eq!(command.args, vec!["--http".to_string()]);
        let revisions: Vec<&str> = suite.config.revisions.iter().map(|r| r.id).collect();
        let streamable: Vec<&str> = REVISIONS
            .iter()
            .filter(|r| r.runs_over(TransportKind::StreamableHttp))
            .map(|r| r.id)
            .collect();
        assert_eq!(revisions, streamable);
        // Over stdio a header means nothing and every revision runs.
        let stdio = Suite::new(ServerCommand::new("s", [])).header("A", "b");
        assert!(stdio.config.command.http.is_none());
        assert_eq!(stdio.config.revisions.len(), REVISIONS.len());
    }
}
