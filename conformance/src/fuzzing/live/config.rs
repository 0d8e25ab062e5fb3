//! What the live target fuzzes and how: [`LiveConfig`], set by the CLI or read from the
//! `MCP_FUZZ_*` environment variables by the cargo-fuzz target (which takes no flags).

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use crate::protocol::{Revision, REVISIONS};
use crate::rules::CheckId;
use crate::scenarios::{CallMode, CallPolicy};
use crate::transport::{InProcessServer, ServerCommand};

/// An `MCP_FUZZ_*` variable, when set to something.
fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// The variables an in-process target may give defaults for (all but `MCP_FUZZ_SERVER`).
const SETTINGS: [&str; 6] = [
    "MCP_FUZZ_REVISION",
    "MCP_FUZZ_TIMEOUT",
    "MCP_FUZZ_CALL",
    "MCP_FUZZ_DENY",
    "MCP_FUZZ_CASES",
    "MCP_FUZZ_IGNORE",
];

/// The variables only the live target reads (it starts its server).
const LIVE_SETTINGS: [&str; 3] = [
    "MCP_FUZZ_SERVER",
    "MCP_FUZZ_COVERAGE",
    "MCP_FUZZ_COVERAGE_INCLUDE",
];

/// A target's defaults name only variables of [`SETTINGS`] and `more`.
fn check_names(defaults: &[(&str, &str)], more: &[&str]) -> Result<(), String> {
    match defaults
        .iter()
        .find(|(n, _)| !SETTINGS.contains(n) && !more.contains(n))
    {
        Some((name, _)) => Err(format!(
            "the target's defaults: {name} is not one of {}",
            SETTINGS
                .iter()
                .chain(more)
                .copied()
                .collect::<Vec<_>>()
                .join(", ")
        )),
        None => Ok(()),
    }
}

/// `text` with `{exe_dir}` replaced by the folder of this executable.
fn expand_exe_dir(text: &str) -> String {
    if !text.contains("{exe_dir}") {
        return text.to_string();
    }
    let dir = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(|d| d.display().to_string()))
        .unwrap_or_else(|| ".".into());
    text.replace("{exe_dir}", &dir)
}

/// A setting: the variable when it is set, else the target's default.
fn setting(defaults: &[(&str, &str)], name: &str) -> Option<String> {
    var(name).or_else(|| {
        defaults
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.to_string())
    })
}

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
    /// dropped, which kills the server, and [`LiveTarget::run`](super::LiveTarget::run)
    /// returns `None`.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Checks whose findings are known and not reported (a bug of the SDK the server is
    /// built on, fixed elsewhere): a case that fails one of them passes, on a fresh
    /// session, so a long run ends on what is new.
    pub ignore: Vec<CheckId>,
}

impl LiveConfig {
    /// The configuration from the environment:
    ///
    /// - `MCP_FUZZ_SERVER`: the server command, split on whitespace (required);
    /// - `MCP_FUZZ_REVISION`: the revision (default: the newest);
    /// - `MCP_FUZZ_TIMEOUT`: seconds per request (default 2);
    /// - `MCP_FUZZ_CALL`: `all`, `read-only` or `none` (default `all`);
    /// - `MCP_FUZZ_DENY`: comma-separated globs of tools never called;
    /// - `MCP_FUZZ_CASES`: folder for case files (default `live-cases`);
    /// - `MCP_FUZZ_IGNORE`: comma-separated check ids whose findings are known and not
    ///   reported (`rpc-error-id`);
    /// - `MCP_FUZZ_COVERAGE`, `MCP_FUZZ_COVERAGE_INCLUDE`: the server's own coverage
    ///   (read by [`crate::fuzzing::live_server_init`]; see [`LiveConfig::coverage_from_env`]).
    pub fn from_env() -> Result<Self, String> {
        Self::from_env_with(&[])
    }

    /// [`LiveConfig::from_env`] over the fuzz target's own `defaults` for any of its
    /// variables (`MCP_FUZZ_SERVER` included: a target built for ClusterFuzzLite, whose
    /// runner sets no variable of ours, names its server in its code). `{exe_dir}` in the
    /// server command is the folder of the fuzz target's executable, where a build script
    /// puts the server beside it.
    pub fn from_env_with(defaults: &[(&str, &str)]) -> Result<Self, String> {
        check_names(defaults, &LIVE_SETTINGS)?;
        let server = setting(defaults, "MCP_FUZZ_SERVER").ok_or(
            "set MCP_FUZZ_SERVER to the server command, e.g. MCP_FUZZ_SERVER='../target/release/mcp-conformance reference-server'",
        )?;
        let server = expand_exe_dir(&server);
        let mut words = server.split_whitespace().map(str::to_string);
        let program = words.next().unwrap_or_default();
        Self::from_env_for(ServerCommand::new(program, words), defaults)
    }

    /// `MCP_FUZZ_COVERAGE` (over `defaults`): `1` runs the live target's server with the
    /// coverage agent of `fuzz --coverage` (a Python or Node server), `0` or unset without.
    pub fn coverage_from_env(defaults: &[(&str, &str)]) -> Result<bool, String> {
        match setting(defaults, "MCP_FUZZ_COVERAGE").as_deref() {
            None | Some("0") => Ok(false),
            Some("1") => Ok(true),
            Some(other) => Err(format!("MCP_FUZZ_COVERAGE: 1 or 0, not {other}")),
        }
    }

    /// `MCP_FUZZ_COVERAGE_INCLUDE` (over `defaults`): folders counted besides the server's
    /// own files (separated as in `PATH`; `{exe_dir}` as in the server command).
    pub fn coverage_include_from_env(defaults: &[(&str, &str)]) -> Vec<PathBuf> {
        setting(defaults, "MCP_FUZZ_COVERAGE_INCLUDE")
            .map(|v| std::env::split_paths(&expand_exe_dir(&v)).collect())
            .unwrap_or_default()
    }

    /// The configuration from the environment for a server linked into the fuzz target
    /// (the in-process target): every variable of [`LiveConfig::from_env`] but
    /// `MCP_FUZZ_SERVER`.
    ///
    /// `defaults` are the target's own values for those variables, written in its code so
    /// they hold wherever it runs (ClusterFuzzLite sets no variables of ours); a variable
    /// that is set overrides its default. A name that is not one of them is an error.
    pub fn from_env_in_process(
        server: InProcessServer,
        defaults: &[(&str, &str)],
    ) -> Result<Self, String> {
        check_names(defaults, &[])?;
        Self::from_env_for(ServerCommand::in_process(server), defaults)
    }

    fn from_env_for(command: ServerCommand, defaults: &[(&str, &str)]) -> Result<Self, String> {
        let var = |name: &str| setting(defaults, name);
        let revision = match var("MCP_FUZZ_REVISION") {
            Some(r) => {
                Revision::named(&r).ok_or(format!("MCP_FUZZ_REVISION: unknown revision {r}"))?
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
        let ignore = var("MCP_FUZZ_IGNORE")
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(|c| CheckId::parse(c).ok_or(format!("MCP_FUZZ_IGNORE: no check {c}")))
            .collect::<Result<Vec<_>, _>>()?;
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
            ignore,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idle() -> InProcessServer {
        InProcessServer::new("idle", |_stream| async { Ok(()) })
    }

    #[test]
    fn a_targets_defaults_configure_what_the_environment_leaves_unset() {
        // Neither variable is set where the tests run (CI sets no MCP_FUZZ_*).
        let defaults = [
            ("MCP_FUZZ_IGNORE", "rpc-error-id, rpc-batch"),
            ("MCP_FUZZ_REVISION", "2025-03-26"),
        ];
        let config = LiveConfig::from_env_in_process(idle(), &defaults).expect("valid");
        assert_eq!(config.ignore, [CheckId::RpcErrorId, CheckId::RpcBatch]);
        assert_eq!(config.revision.id, "2025-03-26");
        let plain = LiveConfig::from_env_in_process(idle(), &[]).expect("valid");
        assert!(plain.ignore.is_empty());
        assert_eq!(plain.revision.id, REVISIONS.last().expect("revisions").id);
    }

    #[test]
    fn a_live_targets_defaults_may_name_its_server_beside_the_executable() {
        let defaults = [
            ("MCP_FUZZ_SERVER", "{exe_dir}/server/run --flag"),
            ("MCP_FUZZ_COVERAGE", "1"),
        ];
        let config = LiveConfig::from_env_with(&defaults).expect("valid");
        let exe_dir = std::env::current_exe().expect("exe");
        let exe_dir = exe_dir.parent().expect("dir").display().to_string();
        assert_eq!(config.command.program, format!("{exe_dir}/server/run"));
        assert_eq!(config.command.args, ["--flag"]);
        assert_eq!(LiveConfig::coverage_from_env(&defaults), Ok(true));
        assert_eq!(LiveConfig::coverage_from_env(&[]), Ok(false));
        let bad = LiveConfig::coverage_from_env(&[("MCP_FUZZ_COVERAGE", "yes")]);
        assert!(bad.is_err_and(|e| e.contains("1 or 0")));
        let unknown = LiveConfig::from_env_with(&[("MCP_FUZZ_SEVRER", "x")]);
        assert!(unknown.is_err_and(|e| e.contains("MCP_FUZZ_SEVRER is not one of")));
    }

    #[test]
    fn a_default_for_no_setting_or_of_no_value_is_a_setup_error() {
        let unknown = LiveConfig::from_env_in_process(idle(), &[("MCP_FUZZ_SERVER", "x")]);
        assert!(unknown.is_err_and(|e| e.contains("MCP_FUZZ_SERVER is not one of")));
        let bad = LiveConfig::from_env_in_process(idle(), &[("MCP_FUZZ_IGNORE", "no-such")]);
        assert!(bad.is_err_and(|e| e.contains("MCP_FUZZ_IGNORE: no check no-such")));
    }
}
