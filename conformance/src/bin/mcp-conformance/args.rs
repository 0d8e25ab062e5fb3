//! The command line as clap types, and nothing else: the subcommands, the options only one
//! of them has, and where the options table's stand among them. Every option of `run`, and
//! those `fuzz` and `replay` share with it, is an item of the library's table
//! ([`mcp_conformance::config::options`]), made a clap argument by `options`; a `run` flag
//! left out must fall back to the config file before the default (see `plan`).

use std::path::PathBuf;

use mcp_conformance::config::options::{Group, Subcommand};
use mcp_conformance::config::DEFAULT_SEED;

use crate::options::{Given, Part};

/// `mcp-conformance` and its subcommands.
#[derive(clap::Parser)]
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
#[derive(clap::Subcommand)]
pub(crate) enum Command {
    /// Run the suite against a server command (the bundled reference server if none).
    Run(Box<RunArgs>),
    /// List every check: id, level, revisions, requirement, title.
    List,
    /// Replay a saved failing case (from --cases-dir) against a fresh server process.
    Replay(ReplayArgs),
    /// Fuzz a server without cargo-fuzz: the property generators with fresh seeds until
    /// the time is spent; with --live the live target, and with --coverage the live target
    /// guided by a Python or Node server's own coverage. Exit 1 when anything failed.
    Fuzz(FuzzArgs),
    /// Print a libFuzzer dictionary of a Rust server's constants: its string and integer
    /// literals, written as the fuzz input carries them (for `cargo fuzz run ... --
    /// -dict=FILE`; README, "Fuzzing").
    FuzzDict {
        /// Rust files or folders (their `.rs` files; `target/` and hidden folders skipped).
        #[arg(required = true)]
        paths: Vec<std::path::PathBuf>,
    },
    /// Write the server's tool surface (every tool of every revision it speaks, listed twice,
    /// none called) to a snapshot file; with --check, compare instead and classify every
    /// change (exit 1 on a breaking one); with --accept, take the pending FILE.new.
    Snapshot(SnapshotArgs),
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

/// `run`: every option is the table's. None has a default here, so that a value from the
/// config file is overridden only by a flag actually given; the defaults are applied by
/// `FileConfig::merge`.
pub(crate) type RunArgs = Given<RunOptions>;

/// `run`'s options: all of the table's it takes.
pub(crate) struct RunOptions;

impl Part for RunOptions {
    const COMMAND: Subcommand = Subcommand::Run;
    const GROUPS: &'static [Group] = &[Group::Run, Group::Tools, Group::Server];
}

/// `fuzz`'s options of the table before its own `--live` and `--input`.
pub(crate) struct FuzzOptions;

impl Part for FuzzOptions {
    const COMMAND: Subcommand = Subcommand::Fuzz;
    const GROUPS: &'static [Group] = &[Group::Run, Group::Tools];
}

/// `fuzz`'s server options, last.
pub(crate) struct FuzzServer;

impl Part for FuzzServer {
    const COMMAND: Subcommand = Subcommand::Fuzz;
    const GROUPS: &'static [Group] = &[Group::Server];
}

/// `replay`'s options of the table before its own `--call-denied`.
pub(crate) struct ReplayOptions;

impl Part for ReplayOptions {
    const COMMAND: Subcommand = Subcommand::Replay;
    const GROUPS: &'static [Group] = &[Group::Run];
}

/// `replay`'s tool and server options, last.
pub(crate) struct ReplayServer;

impl Part for ReplayServer {
    const COMMAND: Subcommand = Subcommand::Replay;
    const GROUPS: &'static [Group] = &[Group::Tools, Group::Server];
}

/// `snapshot`'s options of the table: the revisions, the timeout, the server.
pub(crate) struct SnapshotOptions;

impl Part for SnapshotOptions {
    const COMMAND: Subcommand = Subcommand::Snapshot;
    const GROUPS: &'static [Group] = &[Group::Run, Group::Server];
}

/// `snapshot`.
#[derive(clap::Args)]
pub(crate) struct SnapshotArgs {
    /// The snapshot file [default: the config file's `snapshot`, else
    /// mcp-tools.snapshot.json]
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Compare the tools listed now with FILE: every change classified (breaking, to
    /// review, compatible); FILE.new written when they differ; exit 1 on a breaking change.
    #[arg(long, conflicts_with = "accept")]
    pub check: bool,
    /// Take the pending FILE.new as FILE (no server is started).
    #[arg(long)]
    pub accept: bool,
    // `--revision`, `--timeout` and the server.
    #[command(flatten)]
    pub options: Given<SnapshotOptions>,
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
    // `--timeout`: else the config file's, else the case's own, else the default.
    #[command(flatten)]
    pub options: Given<ReplayOptions>,
    /// Replay a case that calls a tool --deny-tool or --allow-tool (or the config file)
    /// rules out; without it, such a case is refused (exit 2).
    #[arg(long)]
    pub call_denied: bool,
    // The server: from these flags, else the config file's `[server]`, else the one
    // recorded in the case. `--ca-cert` without a URL is added to a case recorded over HTTP.
    #[command(flatten)]
    pub server: Given<ReplayServer>,
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
    // `--timeout`, `--cases-dir`, `--call` and the tool filter.
    #[command(flatten)]
    pub options: Given<FuzzOptions>,
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
    /// Guide the live target by the server's own coverage: a Python (3.10+) or Node (18+)
    /// server is started with an agent of ours that counts its lines and branches (its
    /// own files, not the standard library, site-packages or node_modules), and inputs
    /// that reach new code are kept and mutated. Implies --live.
    #[arg(long)]
    pub coverage: bool,
    /// With --coverage: the folder of kept inputs, read at the start (a run resumes where
    /// the last stopped) and added to (one file per input; `fuzz --input DIR` runs them)
    /// [default: kept in memory only].
    #[arg(long, value_name = "DIR", requires = "coverage")]
    pub corpus: Option<PathBuf>,
    /// With --coverage: count this folder's files too (e.g. the MCP SDK in site-packages
    /// or node_modules); repeatable.
    #[arg(long, value_name = "PATH", requires = "coverage")]
    pub coverage_include: Vec<PathBuf>,
    // The server: from these flags, else the config file's `[server]`.
    #[command(flatten)]
    pub server: Given<FuzzServer>,
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
    /// Over HTTP, answer 2025-11-25 requests by SSE polling: a priming event and a `retry`,
    /// the connection closed, the messages sent when the client resumes with
    /// `Last-Event-ID` (conformant; it must draw no finding).
    #[arg(long, requires = "http")]
    pub http_poll: bool,
    /// Serve 2024-11-05's HTTP+SSE on 127.0.0.1:PORT instead of stdio (the SSE stream at
    /// `/sse`; printed on stderr as `listening on http://127.0.0.1:N/sse`).
    #[arg(long, value_name = "PORT", conflicts_with = "http")]
    pub sse: Option<u16>,
    /// Over HTTP+SSE, break one rule of that transport on purpose (see `--sse 0 --list-faults`).
    #[arg(long, value_name = "NAME", requires = "sse")]
    pub sse_fault: Option<String>,
    /// List a changed tool surface (`breaking`, `review` or `compatible`): what a next
    /// release might change, for the tests of `snapshot --check` (no rule is broken).
    #[arg(long, value_name = "NAME")]
    pub surface: Option<String>,
}
