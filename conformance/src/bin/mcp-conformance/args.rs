//! The command line as clap types, and nothing else: what each subcommand accepts, its
//! help text, and its defaults. Every default of `run` is a constant of
//! [`mcp_conformance::config`] (the help text prints the same constants), because a `run`
//! flag left out must fall back to the config file before the default (see `plan`).

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use mcp_conformance::config::{
    DEFAULT_CASES, DEFAULT_CASES_DIR, DEFAULT_MAX_LINE, DEFAULT_SEED, DEFAULT_TIMEOUT_SECS,
};
use mcp_conformance::report::Format;
use mcp_conformance::scenarios::CallMode;
use mcp_conformance::transport::HttpKind;

/// `mcp-conformance` and its subcommands.
#[derive(Parser)]
#[command(
    name = "mcp-conformance",
    version,
    about = "Conformance suite for MCP servers"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands, in the order `--help` lists them.
#[derive(Subcommand)]
pub(crate) enum Command {
    /// Run the suite against a server command (the bundled reference server if none).
    Run(Box<RunArgs>),
    /// List every check: id, level, revisions, requirement, title.
    List,
    /// Replay a saved failing case (from --cases-dir) against a fresh server process.
    Replay(ReplayArgs),
    /// Fuzz a server without cargo-fuzz: the property generators with fresh seeds until
    /// the time is spent (no coverage guidance). Exit 1 when anything failed.
    Fuzz(FuzzArgs),
    /// Write a commented mcp-conformance.toml here (the server from after `--`, if given).
    Init(InitArgs),
    /// Explain a check: what it requires, why it matters, how to fix a failing server.
    Explain {
        /// Check id, as printed in reports and by `list`.
        id: String,
    },
    /// Print a shell completion script (e.g. `mcp-conformance completions bash >
    /// ~/.local/share/bash-completion/completions/mcp-conformance`).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Serve the bundled reference server on stdio (used when `run` gets no command).
    #[command(hide = true)]
    ReferenceServer(ReferenceArgs),
}

/// `--transport`: which HTTP transport `--url` speaks.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum HttpTransport {
    /// Streamable HTTP (2025-03-26 on): --url is the MCP endpoint.
    StreamableHttp,
    /// HTTP+SSE (2024-11-05): --url is the SSE stream.
    Sse,
}

impl From<HttpTransport> for HttpKind {
    fn from(t: HttpTransport) -> Self {
        match t {
            HttpTransport::StreamableHttp => HttpKind::StreamableHttp,
            HttpTransport::Sse => HttpKind::Sse,
        }
    }
}

/// `--call`: which tools a run may call.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Call {
    /// Call every listed tool (the default: tools may have side effects!).
    All,
    /// Call only tools annotated readOnlyHint: true.
    ReadOnly,
    /// Call no tool.
    None,
}

impl From<Call> for CallMode {
    fn from(call: Call) -> Self {
        match call {
            Call::All => CallMode::All,
            Call::ReadOnly => CallMode::ReadOnly,
            Call::None => CallMode::None,
        }
    }
}

/// `run`. Every option is optional here so that a value from the config file is
/// overridden only by a flag actually given; the defaults are applied by
/// `FileConfig::merge`.
#[derive(clap::Args)]
pub(crate) struct RunArgs {
    /// Protocol revision to run (repeatable; default: every revision the transport speaks).
    #[arg(long = "revision", value_name = "REV")]
    pub revisions: Vec<String>,
    // Seconds to wait for each response.
    #[arg(long, value_name = "SECS", help = format!(
        "Seconds to wait for each response [default: {DEFAULT_TIMEOUT_SECS}]"
    ))]
    pub timeout: Option<f64>,
    // Longest stdout line accepted from the server, in bytes.
    #[arg(long, value_name = "BYTES", help = format!(
        "Longest stdout line accepted from the server, in bytes [default: {} MiB]",
        DEFAULT_MAX_LINE >> 20
    ))]
    pub max_line: Option<usize>,
    // Seed for generated scenarios (printed in every report).
    #[arg(long, help = format!(
        "Seed for generated scenarios (printed in every report) [default: {DEFAULT_SEED}]"
    ))]
    pub seed: Option<u64>,
    /// Report format (repeatable): written to --output-dir, or to --output, or stdout.
    #[arg(long = "format", value_enum, value_name = "FORMAT")]
    pub formats: Vec<Format>,
    /// Write the report (one format) to this file; the text report still goes to stdout.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write every --format to this folder (mcp-conformance.{txt,json,junit.xml,md,sarif}).
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
    /// Expected failures (TOML); listed findings do not fail the run but stay visible.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Write the findings that fail the gate as a baseline to FILE, each with a reason
    /// to fill in (entries the --baseline already had keep their reason).
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Warnings fail the run too.
    #[arg(long)]
    pub strict: bool,
    /// Baseline entries that no longer match a finding fail the run.
    #[arg(long)]
    pub strict_baseline: bool,
    // Generated cases per property (per tool for arguments); 0 skips them.
    #[arg(long, value_name = "N", help = format!(
        "Generated cases per property (per tool for arguments); 0 skips them [default: {DEFAULT_CASES}]"
    ))]
    pub cases: Option<u32>,
    /// Seconds the property phase may take per revision (a cut run is not reproducible).
    #[arg(long, value_name = "SECS")]
    pub time_budget: Option<f64>,
    /// Arguments for a tool's first call, as NAME=JSON (repeatable); for tools that
    /// reject generated inputs (a time zone, a repository path)
    #[arg(long = "tool-args", value_name = "NAME=JSON")]
    pub tool_args: Vec<String>,
    /// Revisions driven at once; one waiting on a sleeping server lends its slot (the report is the same for any value) [default: the number of cores]
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Bound on the whole run: past it, the servers are ended, what finished is reported
    /// (marked incomplete) and the run fails.
    #[arg(long, value_name = "SECS")]
    pub max_time: Option<f64>,
    // Save failing generated cases here, for `mcp-conformance replay`.
    #[arg(long, value_name = "DIR", help = format!(
        "Save failing generated cases here, for `mcp-conformance replay` [default: {DEFAULT_CASES_DIR}]"
    ))]
    pub cases_dir: Option<PathBuf>,
    /// Which tools to call. Tools have side effects: the default calls every tool.
    #[arg(long, value_enum)]
    pub call: Option<Call>,
    #[command(flatten)]
    pub tools: ToolFilter,
    /// Report only checks whose id matches this glob (repeatable; e.g. 'tool-*').
    #[arg(long = "check", value_name = "GLOB")]
    pub checks: Vec<String>,
    /// Leave out checks whose id matches this glob (repeatable; wins over --check).
    #[arg(long = "skip-check", value_name = "GLOB")]
    pub skip_checks: Vec<String>,
    /// Test the bundled reference server (what `run` does when neither the command line
    /// nor a config file names a server), even when a config file names one.
    #[arg(long, conflicts_with_all = ["command", "url"])]
    pub reference: bool,
    /// Text report: also every pass and not-applicable line, and each revision's evidence.
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,
    /// Text report: the summary line alone.
    #[arg(short, long)]
    pub quiet: bool,
    /// Colour the text report: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto")]
    pub color: ColorWhen,
    #[command(flatten)]
    pub server: ServerArgs,
}

/// The server under test and how it is reached, for `run`, `fuzz` and `replay` alike:
/// each flag given wins over the config file's `[server]` (and `--config` names the file).
#[derive(clap::Args, Default)]
pub(crate) struct ServerArgs {
    /// Config file (default: ./mcp-conformance.toml when it exists).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Environment variable for the server, KEY=VALUE (repeatable).
    #[arg(long = "env", value_name = "KEY=VALUE")]
    pub env: Vec<String>,
    /// Working directory for the server.
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Reach the server over Streamable HTTP at this URL (with a command after `--`, that
    /// command is started first and stopped at the end).
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Which HTTP transport --url speaks: `streamable-http` (the default), or `sse` for
    /// 2024-11-05's HTTP+SSE (--url is then the SSE stream, e.g. http://127.0.0.1:PORT/sse;
    /// only 2024-11-05 runs).
    #[arg(long, value_enum, value_name = "TRANSPORT")]
    pub transport: Option<HttpTransport>,
    /// Header sent on every HTTP request, 'Name: value' (repeatable; values never reported).
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// PEM file of certificate authorities an https server is trusted by, besides the
    /// platform's: a private CA or a self-signed certificate (repeatable).
    #[arg(long = "ca-cert", value_name = "PATH")]
    pub ca_certs: Vec<PathBuf>,
    /// The server command and its arguments, after `--` (else the config file's).
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// Which tools may be called, for `run`, `fuzz` and `replay` alike (each flag given
/// replaces the config file's list).
#[derive(clap::Args, Default)]
pub(crate) struct ToolFilter {
    /// Call only tools whose name matches this glob (repeatable).
    #[arg(long = "allow-tool", value_name = "GLOB")]
    pub allow_tool: Vec<String>,
    /// Never call tools whose name matches this glob (repeatable; wins over --allow-tool).
    #[arg(long = "deny-tool", value_name = "GLOB")]
    pub deny_tool: Vec<String>,
}

/// `--color`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorWhen {
    /// On a terminal, unless NO_COLOR is set (CLICOLOR_FORCE forces it).
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// `init`.
#[derive(clap::Args)]
pub(crate) struct InitArgs {
    /// Overwrite the file when it exists.
    #[arg(long)]
    pub force: bool,
    /// Write to this file instead of ./mcp-conformance.toml.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The server command and its arguments, after `--` (written under [server]).
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// `replay`.
#[derive(clap::Args)]
pub(crate) struct ReplayArgs {
    /// The case file.
    pub file: PathBuf,
    // Seconds to wait for each response; else the config file's, else the case's own,
    // else the default.
    #[arg(long, value_name = "SECS", help = format!(
        "Seconds to wait for each response [default: the config file's, else the case's, else {DEFAULT_TIMEOUT_SECS}]"
    ))]
    pub timeout: Option<f64>,
    /// Replay a case that calls a tool --deny-tool or --allow-tool (or the config file)
    /// rules out; without it, such a case is refused (exit 2).
    #[arg(long)]
    pub call_denied: bool,
    #[command(flatten)]
    pub tools: ToolFilter,
    // The server: from these flags, else the config file's `[server]`, else the one
    // recorded in the case. `--ca-cert` without a URL is added to a case recorded over HTTP.
    #[command(flatten)]
    pub server: ServerArgs,
}

/// `fuzz`, in both modes (the property generators, or `--live` / `--input`).
#[derive(clap::Args)]
pub(crate) struct FuzzArgs {
    /// First seed; round N uses seed + N.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Seconds to fuzz.
    #[arg(long, default_value_t = 60.0, value_name = "SECS")]
    pub time: f64,
    /// Revision to negotiate [default: the newest of the config file's revisions, else 2025-11-25]
    #[arg(long, value_name = "REV")]
    pub revision: Option<String>,
    // Seconds to wait for each response.
    #[arg(long, value_name = "SECS", help = format!(
        "Seconds to wait for each response [default: the config file's, else {DEFAULT_TIMEOUT_SECS}]"
    ))]
    pub timeout: Option<f64>,
    /// Save each failing case here, for `mcp-conformance replay` [default: the config
    /// file's cases_dir; with --live, else mcp-conformance-cases]
    #[arg(long, value_name = "DIR")]
    pub cases_dir: Option<PathBuf>,
    /// Which tools to call (tools have side effects) [default: the config file's, else all]
    #[arg(long, value_enum)]
    pub call: Option<Call>,
    #[command(flatten)]
    pub tools: ToolFilter,
    /// Use the live target of `cargo fuzz run live_server` (one server process, byte
    /// inputs from the seed turned into JSON-RPC lines, its oracle), without coverage
    /// guidance.
    #[arg(long)]
    pub live: bool,
    /// Run saved live-target inputs (files, or folders of them, such as libFuzzer's
    /// crash files) instead of fuzzing; each failing one is written as a case file
    /// for `replay`. Implies --live.
    #[arg(long, value_name = "PATH")]
    pub input: Vec<PathBuf>,
    // The server: from these flags, else the config file's `[server]`.
    #[command(flatten)]
    pub server: ServerArgs,
}

/// `reference-server` (hidden).
#[derive(clap::Args)]
pub(crate) struct ReferenceArgs {
    /// Break one rule on purpose (see `--list-faults`).
    #[arg(long)]
    pub fault: Option<String>,
    /// Print the fault names and exit.
    #[arg(long)]
    pub list_faults: bool,
    /// Which eras to speak: `dual` (the default: the handshake revisions and
    /// 2026-07-28), `modern` (2026-07-28 only) or `legacy` (the handshake revisions only).
    #[arg(long, default_value = "dual")]
    pub era: String,
    /// Serve Streamable HTTP on 127.0.0.1:PORT instead of stdio (0: a free port; the
    /// address is printed on stderr as `listening on http://127.0.0.1:N/mcp`).
    #[arg(long, value_name = "PORT")]
    pub http: Option<u16>,
    /// Over HTTP, break one Streamable HTTP rule on purpose (see `--http 0 --list-faults`).
    #[arg(long, value_name = "NAME", requires = "http")]
    pub http_fault: Option<String>,
    /// Serve 2024-11-05's HTTP+SSE on 127.0.0.1:PORT instead of stdio (the SSE stream at
    /// `/sse`; printed on stderr as `listening on http://127.0.0.1:N/sse`).
    #[arg(long, value_name = "PORT", conflicts_with = "http")]
    pub sse: Option<u16>,
    /// Over HTTP+SSE, break one rule of that transport on purpose (see `--sse 0 --list-faults`).
    #[arg(long, value_name = "NAME", requires = "sse")]
    pub sse_fault: Option<String>,
}
