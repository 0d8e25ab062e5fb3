//! From `run`'s arguments and the config file to a [`Plan`]: the library's
//! [`FileConfig::merge`] decides every value (flag over file over default); this module
//! only hands it the flags, supplies the bundled reference server as the default target,
//! and shapes the result into a [`RunConfig`] and what `run` does with the report.
//!
//! `fuzz` and `replay` read the same file and take the same server and tool flags (the
//! options table's, set on [`Flags`] by `options::Given`) through the same merge:
//! [`config_file`] and [`call_policy`] are theirs too.

use std::path::PathBuf;
use std::time::Duration;

use mcp_conformance::config::options::{CONFIG, REFERENCE};
use mcp_conformance::config::{FileConfig, Settings, DEFAULT_CASES};
use mcp_conformance::protocol::SessionConfig;
use mcp_conformance::report::{Format, GateOptions};
use mcp_conformance::runner::RunConfig;
use mcp_conformance::scenarios::{CallPolicy, PropertyConfig};
use mcp_conformance::transport::ServerCommand;
use mcp_conformance::{Error, Result};

use crate::args::RunArgs;

/// A run resolved from flags over the config file over defaults.
pub(crate) struct Plan {
    /// What the library runs.
    pub config: RunConfig,
    /// Report formats (none: the text report, or every format under `output_dir`).
    pub formats: Vec<Format>,
    /// `--output`.
    pub output: Option<PathBuf>,
    /// `--output-dir` or the file's `output_dir`.
    pub output_dir: Option<PathBuf>,
    /// Expected failures.
    pub baseline: Option<PathBuf>,
    /// What fails the gate besides unexpected failures.
    pub gate: GateOptions,
    /// Where the server command came from, when the command line did not name it.
    pub command_note: Option<String>,
    /// The tool surface snapshot to check (`--snapshot`).
    pub snapshot: Option<PathBuf>,
}

/// Reads the config file (`--config`, else `./mcp-conformance.toml` when present) and
/// merges the flags over it.
pub(crate) fn plan(args: &RunArgs) -> Result<Plan> {
    let mut file = config_file(args.path(&CONFIG))?;
    if args.on(&REFERENCE) {
        // `--reference` wins over the file's server (clap keeps it from a command or URL).
        file.server = None;
    }
    let settings = file.merge(args.flags(), reference_server)?;

    // Built in the order the CLI always built them, so that of two bad values the same
    // one is reported.
    let properties = (settings.cases > 0).then(|| PropertyConfig {
        cases: settings.cases,
        time_budget: settings.time_budget.map(Duration::from_secs_f64),
        slow_tools_too: settings.cases > DEFAULT_CASES,
        ..Default::default()
    });
    let session = SessionConfig {
        timeout: Duration::from_secs_f64(settings.timeout),
        max_line: settings.max_line,
        ..SessionConfig::default()
    };
    let call_policy = call_policy(&settings)?;
    Ok(Plan {
        config: RunConfig {
            command: settings.server,
            reference: settings.default_server,
            revisions: settings.revisions,
            not_run: settings.not_run,
            detect_sse: settings.detect_sse,
            session,
            seed: settings.seed,
            call_policy,
            properties,
            // Failing generated cases are always saved (only when there are some).
            cases_dir: Some(settings.cases_dir),
            jobs: settings.jobs,
            max_time: settings.max_time.map(Duration::from_secs_f64),
            checks: settings.checks,
            surface: settings.snapshot.is_some(),
        },
        formats: settings.formats,
        output: settings.output,
        output_dir: settings.output_dir,
        baseline: settings.baseline,
        gate: GateOptions {
            strict: settings.strict,
            strict_baseline: settings.strict_baseline,
        },
        command_note: settings.command_note,
        snapshot: settings.snapshot,
    })
}

/// The config file `--config` names, else `./mcp-conformance.toml` when it exists, else
/// an empty one.
pub(crate) fn config_file(path: Option<PathBuf>) -> Result<FileConfig> {
    Ok(FileConfig::discover(path.as_deref())?.unwrap_or_default())
}

/// The merged `--call`, `--allow-tool`, `--deny-tool` and tool arguments as one policy.
pub(crate) fn call_policy(settings: &Settings) -> Result<CallPolicy> {
    Ok(CallPolicy {
        mode: settings.call,
        allow: globs(&settings.allow_tool)?,
        deny: globs(&settings.deny_tool)?,
        arguments: settings.tool_arguments.clone(),
    })
}

/// The default target: this very binary's `reference-server` subcommand.
pub(crate) fn reference_server() -> Result<ServerCommand> {
    let exe = std::env::current_exe().map_err(Error::Runtime)?;
    let program = exe.to_string_lossy().into_owned();
    Ok(ServerCommand::new(
        program,
        ["reference-server".to_string()],
    ))
}

/// Parses `--allow-tool` / `--deny-tool` globs.
pub(crate) fn globs(patterns: &[String]) -> Result<Vec<glob::Pattern>> {
    patterns
        .iter()
        .map(|p| glob::Pattern::new(p).map_err(|e| Error::BadGlob(p.clone(), e.to_string())))
        .collect()
}
