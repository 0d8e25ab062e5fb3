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
//! Behind the default feature `harness`: libtest-mimic, which this module drives, brings
//! clap with it, and a library user with `default-features = false` gets neither.
#![cfg(feature = "harness")]

use std::path::Path;
use std::process::ExitCode;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use libtest_mimic::{Arguments, Failed, Trial};

use crate::checks::{Status, CATALOG};
use crate::protocol::{Revision, REVISIONS};
use crate::report::{render_finding, Baseline, GateOptions, RunReport};
use crate::runner::RunConfig;
use crate::scenarios::CallPolicy;
use crate::transport::{HttpTarget, ServerCommand};

/// A conformance suite to register as libtest tests.
#[derive(Debug, Clone)]
pub struct Suite {
    config: RunConfig,
    baseline: Option<Baseline>,
    gate: GateOptions,
    adopt_orphans: bool,
}

impl Suite {
    /// Every revision against `server`, default limits, every tool called (over HTTP,
    /// when `server.http` is set: every revision the suite runs over Streamable HTTP).
    pub fn new(server: ServerCommand) -> Self {
        Self {
            config: RunConfig::new(server),
            baseline: None,
            gate: GateOptions::default(),
            adopt_orphans: false,
        }
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

    /// Runs only these revisions (by version string; unknown ones are ignored).
    pub fn revisions(mut self, revisions: &[&str]) -> Self {
        self.config.revisions = REVISIONS
            .iter()
            .filter(|r| revisions.contains(&r.id))
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

    /// Expected failures: baselined findings pass (their reason is printed).
    pub fn baseline(mut self, path: impl AsRef<Path>) -> crate::Result<Self> {
        self.baseline = Some(Baseline::load(path.as_ref())?);
        Ok(self)
    }

    /// Makes warnings fail their test too.
    pub fn strict(mut self, strict: bool) -> Self {
        self.gate.strict = strict;
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

    /// Parses the libtest arguments of this process, registers the tests and runs them.
    pub fn run_tests(self) -> ExitCode {
        let args = Arguments::from_args();
        let trials = self.trials(&args);
        libtest_mimic::run(&args, trials).exit_code()
    }

    /// The tests, one per (revision, check), named `REVISION::CHECK`.
    pub fn trials(self, args: &Arguments) -> Vec<Trial> {
        let names: Vec<(&'static Revision, &'static str)> = self
            .config
            .revisions
            .iter()
            .flat_map(|r| CATALOG.iter().map(move |c| (*r, c.id.as_str())))
            .collect();
        // Run only the revisions some selected test needs.
        let selected = |name: &str| match &args.filter {
            None => true,
            Some(f) if args.exact => name == f,
            Some(f) => name.contains(f.as_str()),
        } && !args.skip.iter().any(|s| name.contains(s.as_str()));
        let mut config = self.config.clone();
        // A test that does not apply to its revision is ignored: it needs no server either.
        let applies = |rev: &Revision, id: &str| {
            crate::checks::find(id).is_some_and(|c| c.applies.includes(rev))
        };
        config.revisions.retain(|r| {
            names.iter().any(|(rev, id)| {
                rev.id == r.id && applies(rev, id) && selected(&format!("{}::{id}", rev.id))
            })
        });
        let shared = Arc::new(Shared {
            config,
            baseline: self.baseline,
            gate: self.gate,
            adopt_orphans: self.adopt_orphans,
            report: OnceLock::new(),
        });
        names
            .into_iter()
            .map(|(rev, id)| {
                let shared = shared.clone();
                let applies = crate::checks::find(id).is_some_and(|c| c.applies.includes(rev));
                Trial::test(format!("{}::{id}", rev.id), move || {
                    shared.judge(rev.id, id)
                })
                .with_kind("mcp")
                .with_ignored_flag(!applies)
            })
            .collect()
    }
}

struct Shared {
    config: RunConfig,
    baseline: Option<Baseline>,
    gate: GateOptions,
    adopt_orphans: bool,
    report: OnceLock<Result<RunReport, String>>,
}

impl Shared {
    fn report(&self) -> &Result<RunReport, String> {
        self.report.get_or_init(|| {
            if self.adopt_orphans {
                crate::transport::adopt_orphans();
            }
            // On a thread of its own with a large stack: libtest's test threads have 2 MiB.
            let mut report =
                crate::runner::run_blocking(&self.config).map_err(|e| e.to_string())?;
            if let Some(b) = &self.baseline {
                report.apply_baseline(b);
            }
            Ok(report)
        })
    }

    fn judge(&self, revision: &str, check: &str) -> Result<(), Failed> {
        let report = self
            .report()
            .as_ref()
            .map_err(|e| Failed::from(format!("the suite could not run: {e}")))?;
        let Some(result) = report.result(revision, check) else {
            return Err(Failed::from(format!("no result for {revision} {check}")));
        };
        let baselined = report.baselined(revision, check);
        match (result.status, baselined) {
            (Status::Pass | Status::Skip, _) => Ok(()),
            (_, Some(reason)) => {
                println!("{revision}::{check}: expected failure (baseline: {reason})");
                Ok(())
            }
            (Status::Warn, None) if !self.gate.strict => {
                println!("{}", render_finding(revision, result));
                Ok(())
            }
            (Status::Fail | Status::Warn, None) => {
                Err(Failed::from(render_finding(revision, result)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::HTTP_REVISIONS;

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
        assert_eq!(revisions, HTTP_REVISIONS);
        // Over stdio a header means nothing and every revision runs.
        let stdio = Suite::new(ServerCommand::new("s", [])).header("A", "b");
        assert!(stdio.config.command.http.is_none());
        assert_eq!(stdio.config.revisions.len(), REVISIONS.len());
    }
}
