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
//! Every option is one item of [`options::OPTIONS`]: its flag, its key here, its default
//! and its help line. The keys the file accepts ([`check_keys`]) and `init`'s template
//! ([`template()`]) come from that table, as do the binary's flags. [`FileConfig::merge`]
//! is the one place a flag, the file and the default meet: a flag given beats
//! the file, the file beats the default, and each default is a constant here (the table's
//! defaults are checked against them).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::errors::{Error, Result};

mod keys;
mod merge;
pub mod options;
mod select;
mod template;

pub use keys::{accepted_keys, check_keys};
pub use merge::{parse_header, Flags, Settings};
pub use select::CheckSelection;
pub use template::template;

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
///
/// Its keys are the options table's ([`check_keys`]), so it does not refuse unknown ones
/// itself; nor do the other sections.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
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
    /// The tool surface snapshot to check (relative to the config file).
    pub snapshot: Option<PathBuf>,
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
    /// The file it was read from (said when its server command is started, or not).
    #[serde(skip)]
    pub origin: Option<PathBuf>,
}

impl FileConfig {
    /// Parses config text, its keys those of [`options::OPTIONS`]; relative paths are
    /// resolved against `origin`'s folder.
    pub fn parse(text: &str, origin: &Path) -> Result<Self> {
        let unreadable = |e: toml::de::Error| Error::Config {
            path: origin.to_path_buf(),
            message: e.to_string(),
        };
        let mut config: FileConfig = toml::from_str(text).map_err(unreadable)?;
        check_keys(text, options::OPTIONS).map_err(unreadable)?;
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
        config.run.snapshot.as_mut().map(anchor);
        config.run.output_dir.as_mut().map(anchor);
        config.run.cases_dir.as_mut().map(anchor);
        config.origin = Some(origin.to_path_buf());
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

#[cfg(test)]
mod tests;
