//! How the process ends: the one place an outcome becomes an exit code (README, "Exit
//! codes"). Every subcommand returns an [`Exit`]; nothing else calls `ExitCode::from` or
//! `std::process::exit`.

use std::process::{ExitCode, Termination};

use mcp_conformance::Error;

/// The outcome of a subcommand, and so its exit code:
///
/// | code | variant | when |
/// |---|---|---|
/// | 0 | `Pass` | the gate passes (`run`); `fuzz` found nothing; `replay` did not reproduce the failure; `list`, `explain ID`, `--help`, `--version`, `reference-server --list-faults` |
/// | 1 | `Fail` | the gate fails (`run`: a failure the baseline does not list, a warning under `--strict`, a stale entry under `--strict-baseline`, a breaking tool surface change under `--snapshot`); `fuzz` found a failure; `replay` reproduced it; `snapshot --check` found a breaking change |
/// | 2 | `Usage` | a usage error already explained on stderr: a bad flag (clap), an unknown check id, an unknown fault name |
/// | 2 | `Usage` | `init` without `--force` over an existing file |
/// | 2 | `Setup` | the harness could not do its job: a bad config file or value, an unknown revision or check id (with the nearest one), a server that cannot be spawned or that exits before answering initialize (with its stderr), a report that cannot be written; printed as `mcp-conformance: failed to ...` |
/// | 128+N | `Signalled(N)` | ended by a signal, servers ended first: SIGINT (Ctrl-C, 130; `run`, `fuzz`), SIGHUP (129) or SIGTERM (143; `run`) |
/// | 0-255 | `Served` | `reference-server`: the bundled server's own exit status (1 when it does not fit in a byte) |
#[derive(Debug)]
pub(crate) enum Exit {
    /// 0.
    Pass,
    /// 1; what failed is already printed.
    Fail,
    /// 2; the message is already printed.
    Usage,
    /// 2; printed with its chain of causes when the process ends.
    Setup(Error),
    /// 128 + the signal's number.
    Signalled(i32),
    /// The reference server's own exit status.
    Served(i32),
}

impl Exit {
    /// Ended by Ctrl-C (SIGINT): 130.
    pub(crate) fn interrupted() -> Exit {
        Exit::Signalled(2)
    }

    /// Ended by signal `n` (`None`: a signal whose number was not told), the servers
    /// already ended: says so on stderr. 128 + `n`, or 130 when the number is unknown.
    pub(crate) fn after_signal(n: Option<i32>) -> Exit {
        let signal = n.map(|n| format!(" (signal {n})")).unwrap_or_default();
        eprintln!("mcp-conformance: interrupted{signal}; the servers were ended");
        n.map_or(Exit::interrupted(), Exit::Signalled)
    }

    /// `Pass` when nothing failed, else `Fail`.
    pub(crate) fn failed_if(failed: bool) -> Exit {
        if failed {
            Exit::Fail
        } else {
            Exit::Pass
        }
    }

    /// The exit code.
    pub(crate) fn code(&self) -> u8 {
        match self {
            Exit::Pass => 0,
            Exit::Fail => 1,
            Exit::Usage | Exit::Setup(_) => 2,
            Exit::Signalled(n) => u8::try_from(128 + n).unwrap_or(255),
            Exit::Served(status) => u8::try_from(*status).unwrap_or(1),
        }
    }
}

impl From<Error> for Exit {
    fn from(err: Error) -> Self {
        Exit::Setup(err)
    }
}

impl Termination for Exit {
    fn report(self) -> ExitCode {
        if let Exit::Setup(err) = &self {
            eprintln!("mcp-conformance: failed to {}", error_chain(err));
        }
        ExitCode::from(self.code())
    }
}

/// The error and its sources, `: `-separated ("spawn server command `x`: No such file").
fn error_chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(s) = source {
        text.push_str(&format!(": {s}"));
        source = s.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The README's "Exit codes" table, row by row.
    #[test]
    fn every_outcome_has_its_documented_code() {
        let rows: &[(Exit, u8)] = &[
            (Exit::Pass, 0),
            (Exit::Fail, 1),
            (Exit::Usage, 2),
            (Exit::Setup(Error::NoCommand), 2),
            (Exit::interrupted(), 130),
            (Exit::Served(0), 0),
            (Exit::Served(3), 3),
            (Exit::Served(-1), 1),
            (Exit::Served(256), 1),
        ];
        for (exit, code) in rows {
            assert_eq!(exit.code(), *code, "{exit:?}");
        }
    }

    #[test]
    fn setup_errors_print_their_causes() {
        let err = Error::Spawn {
            command: "x".into(),
            source: std::io::Error::new(std::io::ErrorKind::NotFound, "not found"),
        };
        assert_eq!(error_chain(&err), "spawn server command `x`: not found");
    }
}
