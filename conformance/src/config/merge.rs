//! The merge of the command line over the config file over the defaults: [`Flags`] (what
//! the command line gave) and a [`FileConfig`] become [`Settings`], every value checked.
//! One short function per setting or group of settings that depend on each other (the
//! server and how it is reached; the revisions it speaks), called in a fixed order so that
//! of two bad values the same one is always reported.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::options::{call_mode, http_kind, one_of, CALL_CHOICES, TRANSPORT_CHOICES};
use super::{
    default_jobs, CheckSelection, FileConfig, ServerSection, ToolSection, DEFAULT_CASES,
    DEFAULT_CASES_DIR, DEFAULT_MAX_LINE, DEFAULT_SEED, DEFAULT_TIMEOUT_SECS,
};
use crate::errors::{Error, Result};
use crate::protocol::{Revision, REVISIONS};
use crate::report::Format;
use crate::scenarios::CallMode;
use crate::transport::{HttpKind, HttpTarget, ServerCommand};

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
    /// `--snapshot`.
    pub snapshot: Option<PathBuf>,
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
    /// A line saying where the server command came from when the command line did not
    /// name it: the config file's, or the config file's left unstarted for `--url`.
    pub command_note: Option<String>,
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
    /// The tool surface snapshot to check.
    pub snapshot: Option<PathBuf>,
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

/// A usage error: the values merged here may come from the command line or the file.
fn usage(message: String) -> Error {
    Error::Config {
        path: PathBuf::from("command line"),
        message,
    }
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
        let FileConfig {
            server,
            run,
            tools,
            origin,
        } = self;
        let tool_arguments = tool_arguments(tools, &flags.tool_args)?;
        let target = target(server, origin.as_deref(), &flags, default_server)?;
        let chosen = revisions(&target, or_file(flags.revisions, run.revisions))?;
        let timeout = flags
            .timeout
            .or(run.timeout)
            .unwrap_or(DEFAULT_TIMEOUT_SECS);
        if !timeout.is_finite() || timeout <= 0.0 {
            return Err(usage(
                "the timeout must be a positive number of seconds".into(),
            ));
        }
        let call = call(flags.call, run.call.as_deref())?;
        let formats = formats(flags.formats, run.formats.as_deref())?;
        let jobs = jobs(flags.jobs.or(run.jobs))?;
        let max_time = max_time(flags.max_time.or(run.max_time))?;
        let output_dir = flags.output_dir.or(run.output_dir);
        outputs_fit(flags.output.is_some(), output_dir.is_some(), formats.len())?;
        let checks = CheckSelection::new(
            &or_file(flags.checks, run.checks),
            &or_file(flags.skip_checks, run.skip_checks),
        )?;
        Ok(Settings {
            server: target.server,
            default_server: target.default,
            command_note: target.note,
            revisions: chosen.revisions,
            not_run: chosen.not_run,
            detect_sse: chosen.detect_sse,
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
            snapshot: flags.snapshot.or(run.snapshot),
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

/// The server and how it is reached.
struct Target {
    /// The server, with its HTTP target, `--cwd` and `--env` applied.
    server: ServerCommand,
    /// Whether it is the caller's default.
    default: bool,
    /// Where its command came from, when a user may not expect it (see
    /// [`Settings::command_note`]).
    note: Option<String>,
    /// The HTTP transport named by `--transport` or the file (none: not named).
    kind: Option<HttpKind>,
}

/// The server: the command line's, else the file's, else (over HTTP) none started, else
/// the caller's default; reached at `--url` or the file's `url` with the headers and CAs
/// of both; with `--cwd` and `--env` applied. With `--url`, the file's command is started
/// only when the file's `url` is that URL (the file says its command serves it): a
/// stdio server's command is never started for a URL the user typed.
fn target(
    file: Option<ServerSection>,
    origin: Option<&Path>,
    flags: &Flags,
    default_server: impl FnOnce() -> Result<ServerCommand>,
) -> Result<Target> {
    let (file_url, file_headers, file_transport, file_ca) = file
        .as_ref()
        .map(|s| {
            let ca = s.ca_cert.clone();
            (s.url.clone(), s.headers.clone(), s.transport.clone(), ca)
        })
        .unwrap_or_default();
    // Whether the file describes the URL the command line gives: the file's command is
    // started only then, and its headers and CAs are sent only then or when the file names
    // no URL at all (never to another host than the file's own).
    let serves_url = match (&flags.url, &file_url) {
        (None, _) => true,
        (Some(given), Some(its)) => same_url(given, its),
        (Some(_), None) => false,
    };
    let file_http_applies = serves_url || file_url.is_none();
    let (file_headers, file_ca) = if file_http_applies {
        (file_headers, file_ca)
    } else {
        (Default::default(), None)
    };
    let file_name = origin.map_or("the config file".to_string(), |p| p.display().to_string());
    let url = flags.url.clone().or(file_url.clone());
    let kind = transport(flags.transport, file_transport.as_deref())?;
    let file_server = file.filter(|s| !s.command.is_empty());
    let mut note = None;
    let (mut server, default) = match (flags.command.split_first(), file_server) {
        (Some((program, rest)), _) => (ServerCommand::new(program.clone(), rest.to_vec()), false),
        (None, Some(server)) if serves_url => {
            let mut command = ServerCommand::new(server.command, server.args);
            command.env = server.env.into_iter().collect();
            command.cwd = server.cwd;
            note = Some(format!(
                "the server command is {file_name}'s [server]: {}",
                command.display()
            ));
            (command, false)
        }
        (None, Some(server)) => {
            let why = match &file_url {
                Some(its) => format!("its url is {its}, not the --url given"),
                None => "it has no url: it is a stdio server, not the one at --url".to_string(),
            };
            note = Some(format!(
                "{file_name}'s [server] command `{}` is not started: {why} (a server already \
                 running there is tested)",
                server.command
            ));
            (ServerCommand::default(), false)
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
            server.http = Some(HttpTarget {
                url,
                headers,
                ca_certs,
            });
            server.http_kind = kind.unwrap_or_default();
        }
        None => needs_url(flags, kind)?,
    }
    if let Some(cwd) = &flags.cwd {
        server.cwd = Some(cwd.clone());
    }
    for pair in &flags.env {
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| usage(format!("--env {pair:?} is not KEY=VALUE")))?;
        server.env.push((k.to_string(), v.to_string()));
    }
    Ok(Target {
        server,
        default,
        kind,
        note,
    })
}

/// Whether two URLs name the same endpoint: equal once parsed (scheme and host case, a
/// default port) and without a trailing `/`; as text when either does not parse.
fn same_url(a: &str, b: &str) -> bool {
    let normal = |u: &str| {
        reqwest::Url::parse(u)
            .map(|p| p.as_str().trim_end_matches('/').to_string())
            .unwrap_or_else(|_| u.trim_end_matches('/').to_string())
    };
    normal(a) == normal(b)
}

/// `--transport`, else the file's `transport` (parsed only when no flag overrides it).
fn transport(flag: Option<HttpKind>, file: Option<&str>) -> Result<Option<HttpKind>> {
    match (flag, file) {
        (Some(kind), _) => Ok(Some(kind)),
        (None, None) => Ok(None),
        (None, Some(name)) => http_kind(name).map(Some).ok_or_else(|| {
            usage(format!(
                "transport = {name:?}: use {}",
                one_of(TRANSPORT_CHOICES)
            ))
        }),
    }
}

/// Without a URL, the flags that only mean something over HTTP are errors.
fn needs_url(flags: &Flags, kind: Option<HttpKind>) -> Result<()> {
    if !flags.headers.is_empty() {
        return Err(usage("--header needs --url".to_string()));
    }
    if !flags.ca_certs.is_empty() {
        return Err(usage("--ca-cert needs --url".to_string()));
    }
    if kind.is_some() {
        return Err(usage("--transport needs --url".to_string()));
    }
    Ok(())
}

/// The revisions a run goes through, and those it reports as not run.
struct Chosen {
    revisions: Vec<&'static Revision>,
    not_run: Vec<(&'static Revision, String)>,
    detect_sse: bool,
}

/// The revisions `names` names (all of them when none, less those the transport does not
/// speak, which are listed as not run); naming one the transport does not speak is an
/// error saying why.
fn revisions(target: &Target, names: Vec<String>) -> Result<Chosen> {
    let server = &target.server;
    let detect_sse = server.http.is_some() && target.kind.is_none() && names.is_empty();
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
    Ok(Chosen {
        revisions,
        not_run,
        detect_sse,
    })
}

/// `--call`, else the file's `call` (parsed only when no flag overrides it), else all.
fn call(flag: Option<CallMode>, file: Option<&str>) -> Result<CallMode> {
    match (flag, file) {
        (Some(mode), _) => Ok(mode),
        (None, None) => Ok(CallMode::default()),
        (None, Some(name)) => call_mode(name)
            .ok_or_else(|| usage(format!("call = {name:?}: use {}", one_of(CALL_CHOICES)))),
    }
}

/// The `--format`s, else the file's `formats` (parsed only when no flag overrides them).
fn formats(flags: Vec<Format>, file: Option<&[String]>) -> Result<Vec<Format>> {
    if !flags.is_empty() {
        return Ok(flags);
    }
    file.unwrap_or_default()
        .iter()
        .map(|name| {
            Format::parse(name).ok_or_else(|| usage(format!("unknown report format {name:?}")))
        })
        .collect()
}

/// `jobs` given, else the machine's cores; at least one.
fn jobs(given: Option<usize>) -> Result<usize> {
    let jobs = given.unwrap_or_else(default_jobs);
    if jobs == 0 {
        return Err(usage("jobs must be at least 1".into()));
    }
    Ok(jobs)
}

/// `max_time` given: finite and positive.
fn max_time(given: Option<f64>) -> Result<Option<f64>> {
    if given.is_some_and(|t| !t.is_finite() || t <= 0.0) {
        return Err(usage(
            "the maximum run time must be a positive number of seconds".into(),
        ));
    }
    Ok(given)
}

/// Several formats need a folder: on stdout they would run together, and `--output` is
/// one file.
fn outputs_fit(output: bool, output_dir: bool, formats: usize) -> Result<()> {
    if !output && !output_dir && formats > 1 {
        return Err(usage(
            "several --format values need --output-dir (on stdout they would run together)".into(),
        ));
    }
    if output && formats > 1 {
        return Err(usage(
            "--output takes one --format; use --output-dir for several".into(),
        ));
    }
    Ok(())
}

/// The file's `[tools.NAME] arguments`, then each `--tool-args NAME=JSON` over them; each
/// must be a JSON object.
fn tool_arguments(
    file: BTreeMap<String, ToolSection>,
    flags: &[String],
) -> Result<BTreeMap<String, serde_json::Value>> {
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
