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
//! formats = ["text", "junit", "sarif"]
//! output_dir = "target/mcp-conformance"
//! cases = 32                  # generated cases per property; 0 skips them
//! cases_dir = "target/mcp-conformance/cases"
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::errors::{Error, Result};

/// The default config file name, looked up in the working directory.
pub const CONFIG_FILE: &str = "mcp-conformance.toml";

/// The server to test.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ServerSection {
    /// Program.
    pub command: String,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_follow_the_config_file() {
        let text = r#"
            [server]
            command = "python"
            args = ["server.py"]
            env = { A = "1" }
            cwd = "srv"
            [run]
            revisions = ["2025-06-18"]
            call = "read-only"
            baseline = "base.toml"
            formats = ["junit"]
            output_dir = "/abs/out"
        "#;
        let config = FileConfig::parse(text, Path::new("proj/mcp-conformance.toml")).unwrap();
        let server = config.server.unwrap();
        assert_eq!(server.cwd, Some(PathBuf::from("proj/srv")));
        assert_eq!(server.env.get("A").map(String::as_str), Some("1"));
        assert_eq!(config.run.baseline, Some(PathBuf::from("proj/base.toml")));
        assert_eq!(config.run.output_dir, Some(PathBuf::from("/abs/out")));
        assert_eq!(config.run.call.as_deref(), Some("read-only"));
    }

    #[test]
    fn typos_are_errors_not_silently_ignored() {
        let err = FileConfig::parse("[run]\ntimout = 3\n", Path::new("c.toml")).unwrap_err();
        assert!(err.to_string().contains("timout"), "{err}");
    }
}
