//! The `mcp-conformance.toml` configuration file.
//!
//! A CI step should be just `mcp-conformance run`: the server command, revisions, call
//! policy, baseline, timeouts and report formats live in the project's config file, and
//! command-line flags override it value by value. Paths in the file are relative to the
//! file's own folder, so the file means the same wherever the suite is started from.
//!
//! ```toml
//! [server]
//! command = "python"
//! args = ["server.py"]
//! env = { LOG_LEVEL = "debug" }
//! cwd = "."
//!
//! [run]
//! revisions = ["2025-06-18", "2025-11-25"]
//! timeout = 10.0
//! seed = 0
//! call = "read-only"          # all | read-only | none
//! allow_tool = ["get_*"]
//! deny_tool = ["delete_*"]
//! baseline = "mcp-baseline.toml"
//! strict = false
//! strict_baseline = false
//! checks = ["tool-*", "lc-*"]    # globs over check ids (default: every check)
//! skip_checks = ["tool-name-*"]
//! formats = ["text", "junit", "sarif"]
//! output_dir = "target/mcp-conformance"
//! cases = 32                  # generated cases per property; 0 skips them
//! cases_dir = "target/mcp-conformance/cases"
//! ```
//!
//! [`FileConfig::merge`] is the one place a flag, the file and the default meet: a flag
//! given beats the file, the file beats the default, and each default is a constant here
//! (the CLI's help text prints the same constants).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::errors::{Error, Result};
use crate::protocol::{Revision, REVISIONS};
use crate::report::Format;
use crate::scenarios::CallMode;
use crate::transport::{HttpKind, ServerCommand};

mod select;

pub use select::CheckSelection;

/// The default config file name, looked up in the working directory.
pub const CONFIG_FILE: &str = "mcp-conformance.toml";

/// Seconds to wait for each response when neither `--timeout` nor the file says.
pub const DEFAULT_TIMEOUT_SECS: f64 = 10.0;
/// Longest stdout line accepted, in bytes, when neither `--max-line` nor the file says.
pub const DEFAULT_MAX_LINE: usize = 16 * 1024 * 1024;
/// Seed of the generated scenarios when neither `--seed` nor the file says.
pub const DEFAULT_SEED: u64 = 0;
/// Generated cases per property when neither `--cases` nor the file says.
pub const DEFAULT_CASES: u32 = 32;
/// Where failing generated cases go when neither `--cases-dir` nor the file says.
pub const DEFAULT_CASES_DIR: &str = "mcp-conformance-cases";

/// Revisions driven at once when neither `--jobs` nor the file says: the machine's cores.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The server to test.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ServerSection {
    /// Program (with `url`: the command that starts the HTTP server; may be left out).
    #[serde(default)]
    pub command: String,
    /// The server's Streamable HTTP endpoint (or, with `transport = "sse"`, its SSE
    /// stream), when it is reached over HTTP.
    pub url: Option<String>,
    /// With `url`: `streamable-http` (the default) or `sse` (2024-11-05's HTTP+SSE).
    pub transport: Option<String>,
    /// Headers sent on every HTTP request, by name (values never reported).
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// With an `https` url: a PEM file of CAs trusted besides the platform's (relative to
    /// the config file).
    pub ca_cert: Option<PathBuf>,
    /// Arguments.
    #[serde(default)]
    pub args: Vec<String>,
    /// Extra environment.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Working directory (relative to the config file).
    pub cwd: Option<PathBuf>,
}

/// How to run.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RunSection {
    /// Revisions to run.
    pub revisions: Option<Vec<String>>,
    /// Seconds per response.
    pub timeout: Option<f64>,
    /// Longest stdout line accepted.
    pub max_line: Option<usize>,
    /// Seed.
    pub seed: Option<u64>,
    /// `all`, `read-only` or `none`.
    pub call: Option<String>,
    /// Globs of tools that may be called.
    pub allow_tool: Option<Vec<String>>,
    /// Globs of tools never called.
    pub deny_tool: Option<Vec<String>>,
    /// Baseline file (relative to the config file).
    pub baseline: Option<PathBuf>,
    /// Warnings fail the gate.
    pub strict: Option<bool>,
    /// Stale baseline entries fail the gate.
    pub strict_baseline: Option<bool>,
    /// Report formats written to `output_dir`.
    pub formats: Option<Vec<String>>,
    /// Where reports are written (relative to the config file).
    pub output_dir: Option<PathBuf>,
    /// Generated cases per property (0 skips the property phase).
    pub cases: Option<u32>,
    /// Seconds the property phase may take per revision.
    pub time_budget: Option<f64>,
    /// Where failing generated cases are saved (relative to the config file).
    pub cases_dir: Option<PathBuf>,
    /// Revisions driven at once (`--jobs`).
    pub jobs: Option<usize>,
    /// Seconds the whole run may take.
    pub max_time: Option<f64>,
    /// Globs over check ids: only these are reported.
    pub checks: Option<Vec<String>>,
    /// Globs over check ids: these are never reported.
    pub skip_checks: Option<Vec<String>>,
}

/// `[tools.NAME]`: what the user says about one tool.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ToolSection {
    /// Arguments for the tool's first call (a table).
    pub arguments: Option<serde_json::Value>,
}

/// A parsed config file.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    /// `[server]`.
    pub server: Option<ServerSection>,
    /// `[run]`.
    #[serde(default)]
    pub run: RunSection,
    /// `[tools.NAME]`, by tool name.
    #[serde(default)]
    pub tools: BTreeMap<String, ToolSection>,
}

impl FileConfig {
    /// Parses config text; relative paths are resolved against `dir`.
    pub fn parse(text: &str, origin: &Path) -> Result<Self> {
        let mut config: FileConfig = toml::from_str(text).map_err(|e| Error::Config {
            path: origin.to_path_buf(),
            message: e.to_string(),
        })?;
        let dir = origin.parent().unwrap_or(Path::new("."));
        let anchor = |p: &mut PathBuf| {
            if p.is_relative() {
                *p = dir.join(&*p);
            }
        };
        if let Some(server) = config.server.as_mut() {
            server.cwd.as_mut().map(anchor);
            server.ca_cert.as_mut().map(anchor);
        }
        config.run.baseline.as_mut().map(anchor);
        config.run.output_dir.as_mut().map(anchor);
        config.run.cases_dir.as_mut().map(anchor);
        Ok(config)
    }

    /// Loads `path`, or `./mcp-conformance.toml` when `path` is `None` and it exists.
    /// `Ok(None)` when there is no config file to read.
    pub fn discover(path: Option<&Path>) -> Result<Option<Self>> {
        let path = match path {
            Some(p) => p.to_path_buf(),
            None if Path::new(CONFIG_FILE).is_file() => PathBuf::from(CONFIG_FILE),
            None => return Ok(None),
        };
        let text = std::fs::read_to_string(&path).map_err(|e| Error::Config {
            path: path.clone(),
            message: e.to_string(),
        })?;
        Self::parse(&text, &path).map(Some)
    }
}

/// A `--header 'Name: value'` argument as a (name, value) pair, both trimmed; `Err` with
/// the redacted header when it has no colon.
pub fn parse_header(header: &str) -> Result<(String, String)> {
    let (name, value) = header.split_once(':').ok_or_else(|| Error::Config {
        path: PathBuf::from("command line"),
        message: format!("--header {:?} is not 'Name: value'", redact(header)),
    })?;
    Ok((name.trim().to_string(), value.trim().to_string()))
}

/// A `--header` argument for an error message: the name only.
fn redact(header: &str) -> String {
    match header.split_once(':') {
        Some((name, _)) => format!("{name}: <redacted>"),
        None => "<redacted>".to_string(),
    }
}

/// What the command line says about a run. A flag not given is `None`, empty or `false`,
/// so that only a flag actually given overrides the file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Flags {
    /// The server command after `--` (empty: none given).
    pub command: Vec<String>,
    /// `--url`: reach the server over Streamable HTTP.
    pub url: Option<String>,
    /// `--transport`: which HTTP transport `--url` speaks.
    pub transport: Option<HttpKind>,
    /// `--header 'Name: value'`, as written.
    pub headers: Vec<String>,
    /// `--ca-cert`: PEM files of CAs an `https` server is trusted by.
    pub ca_certs: Vec<PathBuf>,
    /// `--env KEY=VALUE`, as written, added to the server's environment.
    pub env: Vec<String>,
    /// `--cwd`: the server's working directory.
    pub cwd: Option<PathBuf>,
    /// `--revision` names.
    pub revisions: Vec<String>,
    /// `--timeout` in seconds.
    pub timeout: Option<f64>,
    /// `--max-line` in bytes.
    pub max_line: Option<usize>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--call`.
    pub call: Option<CallMode>,
    /// `--allow-tool` globs.
    pub allow_tool: Vec<String>,
    /// `--deny-tool` globs.
    pub deny_tool: Vec<String>,
    /// `--format`s.
    pub formats: Vec<Format>,
    /// `--output` (command line only).
    pub output: Option<PathBuf>,
    /// `--output-dir`.
    pub output_dir: Option<PathBuf>,
    /// `--baseline`.
    pub baseline: Option<PathBuf>,
    /// `--strict`.
    pub strict: bool,
    /// `--strict-baseline`.
    pub strict_baseline: bool,
    /// `--cases`.
    pub cases: Option<u32>,
    /// `--time-budget` in seconds.
    pub time_budget: Option<f64>,
    /// `--cases-dir`.
    pub cases_dir: Option<PathBuf>,
    /// `--jobs`.
    pub jobs: Option<usize>,
    /// `--max-time` in seconds.
    pub max_time: Option<f64>,
    /// `--tool-args NAME=JSON`, as written.
    pub tool_args: Vec<String>,
    /// `--check` globs.
    pub checks: Vec<String>,
    /// `--skip-check` globs.
    pub skip_checks: Vec<String>,
}

/// The effective settings of a run: flags over the file over the defaults, every value
/// checked.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The server: the command line's, else the file's `[server]`, else the caller's
    /// default; with `--cwd` and `--env` applied.
    pub server: ServerCommand,
    /// Whether `server` is the caller's default (neither the command line nor the file
    /// named one).
    pub default_server: bool,
    /// Revisions to run, in order (all of them when none is named).
    pub revisions: Vec<&'static Revision>,
    /// Revisions left out of the default list because the transport does not speak them,
    /// with why (each reported as not run).
    pub not_run: Vec<(&'static Revision, String)>,
    /// Over HTTP with neither a transport nor revisions named: detect HTTP+SSE first.
    pub detect_sse: bool,
    /// Seconds to wait for each response (finite and positive).
    pub timeout: f64,
    /// Longest stdout line accepted.
    pub max_line: usize,
    /// Seed of the generated scenarios.
    pub seed: u64,
    /// Which tools to call.
    pub call: CallMode,
    /// Globs: only tools matching one of these are called (none: no restriction).
    pub allow_tool: Vec<String>,
    /// Globs: tools matching one of these are never called.
    pub deny_tool: Vec<String>,
    /// Report formats (none: the text report, or every format under `output_dir`).
    pub formats: Vec<Format>,
    /// The one file the report goes to.
    pub output: Option<PathBuf>,
    /// The folder every format goes to.
    pub output_dir: Option<PathBuf>,
    /// Expected failures.
    pub baseline: Option<PathBuf>,
    /// Warnings fail the gate.
    pub strict: bool,
    /// Stale baseline entries fail the gate.
    pub strict_baseline: bool,
    /// Generated cases per property (0 skips the property phase).
    pub cases: u32,
    /// Seconds the property phase may take per revision (as given: unchecked).
    pub time_budget: Option<f64>,
    /// Where failing generated cases are saved.
    pub cases_dir: PathBuf,
    /// Revisions driven at once (at least one).
    pub jobs: usize,
    /// Seconds the whole run may take (finite and positive).
    pub max_time: Option<f64>,
    /// Arguments for tools' first calls, by tool name: the file's, then the flags'.
    pub tool_arguments: BTreeMap<String, serde_json::Value>,
    /// Which checks are reported (each pattern matched some check id).
    pub checks: CheckSelection,
}

impl FileConfig {
    /// Merges the command line over this file over the defaults. `default_server` is
    /// asked only when neither names a server. Errors name the "command line" as their
    /// origin, as the values checked here may come from either.
    pub fn merge(
        self,
        flags: Flags,
        default_server: impl FnOnce() -> Result<ServerCommand>,
    ) -> Result<Settings> {
        let run = self.run;
        let tool_arguments = tool_arguments(self.tools, &flags.tool_args)?;
        let usage = |message: String| Error::Config {
            path: PathBuf::from("command line"),
            message,
        };

        let (file_url, file_headers, file_transport, file_ca) = self
            .server
            .as_ref()
            .map(|s| {
                let ca = s.ca_cert.clone();
                (s.url.clone(), s.headers.clone(), s.transport.clone(), ca)
            })
            .unwrap_or_default();
        let url = flags.url.clone().or(file_url);
        let kind = match (flags.transport, file_transport.as_deref()) {
            (Some(kind), _) => Some(kind),
            (None, None) => None,
            (None, Some("streamable-http")) => Some(HttpKind::StreamableHttp),
            (None, Some("sse")) => Some(HttpKind::Sse),
            (None, Some(other)) => {
                return Err(usage(format!(
                    "transport = {other:?}: use streamable-http or sse"
                )))
            }
        };
        let file_server = self.server.filter(|s| !s.command.is_empty());
        let (mut server, is_default) = match (flags.command.split_first(), file_server) {
            (Some((program, rest)), _) => {
                (ServerCommand::new(program.clone(), rest.to_vec()), false)
            }
            (None, Some(server)) => {
                let mut command = ServerCommand::new(server.command, server.args);
                command.env = server.env.into_iter().collect();
                command.cwd = server.cwd;
                (command, false)
            }
            // Over HTTP without a command: a server already running, started by nobody.
            (None, None) if url.is_some() => (ServerCommand::default(), false),
            (None, None) => (default_server()?, true),
        };
        match url {
            Some(url) => {
                let mut headers: Vec<(String, String)> = file_headers.into_iter().collect();
                for header in &flags.headers {
                    headers.push(parse_header(header)?);
                }
                let ca_certs = file_ca.into_iter().chain(flags.ca_certs.clone()).collect();
                server.http = Some(crate::transport::HttpTarget {
                    url,
                    headers,
                    ca_certs,
                });
                server.http_kind = kind.unwrap_or_default();
            }
            None if !flags.headers.is_empty() => {
                return Err(usage("--header needs --url".to_string()));
            }
            None if !flags.ca_certs.is_empty() => {
                return Err(usage("--ca-cert needs --url".to_string()));
            }
            None if kind.is_some() => {
                return Err(usage("--transport needs --url".to_string()));
            }
            None => {}
        }
        if let Some(cwd) = flags.cwd {
            server.cwd = Some(cwd);
        }
        for pair in &flags.env {
            let (k, v) = pair
                .split_once('=')
                .ok_or_else(|| usage(format!("--env {pair:?} is not KEY=VALUE")))?;
            server.env.push((k.to_string(), v.to_string()));
        }

        let names = or_file(flags.revisions, run.revisions);
        let detect_sse = server.http.is_some() && kind.is_none() && names.is_empty();
        let not_spoken = |r: &Revision| {
            server
                .http
                .as_ref()
                .and_then(|_| r.not_spoken_over(server.http_kind))
        };
        let mut not_run = Vec::new();
        let revisions: Vec<&'static Revision> = if names.is_empty() {
            // Over HTTP, the revisions the transport does not speak are reported as not run.
            REVISIONS
                .iter()
                .filter(|r| match not_spoken(r) {
                    Some(why) => {
                        not_run.push((*r, why));
                        false
                    }
                    None => true,
                })
                .collect()
        } else {
            names
                .iter()
                .map(|n| {
                    Revision::named(n)
                        .ok_or_else(|| Error::UnknownRevision(crate::suggest::unknown_revision(n)))
                })
                .collect::<Result<Vec<_>>>()?
        };
        if let Some(why) = revisions.iter().find_map(|r| not_spoken(r)) {
            return Err(usage(why));
        }

        let timeout = flags
            .timeout
            .or(run.timeout)
            .unwrap_or(DEFAULT_TIMEOUT_SECS);
        if !timeout.is_finite() || timeout <= 0.0 {
            return Err(usage(
                "the timeout must be a positive number of seconds".into(),
            ));
        }
        // A value in the file is parsed only when no flag overrides it.
        let call = match (flags.call, run.call.as_deref()) {
            (Some(mode), _) => mode,
            (None, None) => CallMode::default(),
            (None, Some("all")) => CallMode::All,
            (None, Some("read-only")) => CallMode::ReadOnly,
            (None, Some("none")) => CallMode::None,
            (None, Some(other)) => {
                return Err(usage(format!(
                    "call = {other:?}: use all, read-only or none"
                )))
            }
        };

        let formats = if !flags.formats.is_empty() {
            flags.formats
        } else {
            run.formats
                .unwrap_or_default()
                .iter()
                .map(|name| {
                    Format::parse(name)
                        .ok_or_else(|| usage(format!("unknown report format {name:?}")))
                })
                .collect::<Result<Vec<_>>>()?
        };
        let jobs = flags.jobs.or(run.jobs).unwrap_or_else(default_jobs);
        if jobs == 0 {
            return Err(usage("jobs must be at least 1".into()));
        }
        let max_time = flags.max_time.or(run.max_time);
        if max_time.is_some_and(|t| !t.is_finite() || t <= 0.0) {
            return Err(usage(
                "the maximum run time must be a positive number of seconds".into(),
            ));
        }
        let output_dir = flags.output_dir.or(run.output_dir);
        if flags.output.is_none() && output_dir.is_none() && formats.len() > 1 {
            return Err(usage(
                "several --format values need --output-dir (on stdout they would run together)"
                    .into(),
            ));
        }
        if flags.output.is_some() && formats.len() > 1 {
            return Err(usage(
                "--output takes one --format; use --output-dir for several".into(),
            ));
        }

        let checks = CheckSelection::new(
            &or_file(flags.checks, run.checks),
            &or_file(flags.skip_checks, run.skip_checks),
        )?;

        Ok(Settings {
            server,
            default_server: is_default,
            revisions,
            not_run,
            detect_sse,
            timeout,
            max_line: flags.max_line.or(run.max_line).unwrap_or(DEFAULT_MAX_LINE),
            seed: flags.seed.or(run.seed).unwrap_or(DEFAULT_SEED),
            call,
            allow_tool: or_file(flags.allow_tool, run.allow_tool),
            deny_tool: or_file(flags.deny_tool, run.deny_tool),
            formats,
            output: flags.output,
            output_dir,
            baseline: flags.baseline.or(run.baseline),
            strict: flags.strict || run.strict.unwrap_or(false),
            strict_baseline: flags.strict_baseline || run.strict_baseline.unwrap_or(false),
            cases: flags.cases.or(run.cases).unwrap_or(DEFAULT_CASES),
            time_budget: flags.time_budget.or(run.time_budget),
            cases_dir: flags
                .cases_dir
                .or(run.cases_dir)
                .unwrap_or_else(|| PathBuf::from(DEFAULT_CASES_DIR)),
            jobs,
            max_time,
            tool_arguments,
            checks,
        })
    }
}

/// The file's `[tools.NAME] arguments`, then each `--tool-args NAME=JSON` over them; each
/// must be a JSON object.
fn tool_arguments(
    file: BTreeMap<String, ToolSection>,
    flags: &[String],
) -> Result<BTreeMap<String, serde_json::Value>> {
    let usage = |message: String| Error::Config {
        path: PathBuf::from("command line"),
        message,
    };
    let mut out: BTreeMap<String, serde_json::Value> = file
        .into_iter()
        .filter_map(|(name, section)| section.arguments.map(|a| (name, a)))
        .collect();
    for flag in flags {
        let (name, json) = flag
            .split_once('=')
            .ok_or_else(|| usage(format!("--tool-args {flag:?} is not NAME=JSON")))?;
        let value = serde_json::from_str(json)
            .map_err(|e| usage(format!("--tool-args {name}: not JSON: {e}")))?;
        out.insert(name.to_string(), value);
    }
    if let Some((name, _)) = out.iter().find(|(_, v)| !v.is_object()) {
        return Err(usage(format!(
            "the arguments given for tool {name:?} are not an object"
        )));
    }
    Ok(out)
}

/// A repeatable flag given at least once replaces the file's list (it does not add to it).
fn or_file(flag: Vec<String>, file: Option<Vec<String>>) -> Vec<String> {
    if flag.is_empty() {
        file.unwrap_or_default()
    } else {
        flag
    }
}

#[cfg(test)]
mod tests;
