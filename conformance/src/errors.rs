//! Errors of the harness itself.
//!
//! A server that breaks the protocol is a *finding* (see `checks`), never an `Err`. These
//! variants are for what stops the harness from doing its job: a server that cannot be
//! spawned, a bad option, an I/O error on our side. Messages read well after "failed to".

use std::path::PathBuf;

/// What went wrong in the harness (not in the server under test).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The server command could not be started.
    #[error("spawn server command `{command}`")]
    Spawn {
        /// The program we tried to run.
        command: String,
        /// Why the OS refused.
        #[source]
        source: std::io::Error,
    },
    /// A `--url` that cannot be used (not http, no host, a header that is not one).
    #[error("use the server url `{url}`: {reason}")]
    BadUrl {
        /// The URL given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A started HTTP server did not accept connections in time (or exited first).
    #[error("reach the server at `{url}`: {reason}")]
    HttpNotReady {
        /// The URL waited for.
        url: String,
        /// What happened.
        reason: String,
    },
    /// An `https` server TLS could not be set up with: most often a certificate issued by
    /// a CA we were not told to trust.
    #[error("establish TLS with `{url}`: {reason}")]
    Tls {
        /// The URL.
        url: String,
        /// What the handshake said.
        reason: String,
    },
    /// The server exited before answering its first request in every revision, having
    /// written nothing on stdout: it could not start (a missing module or script, a bad
    /// flag). One error with its stderr instead of a finding per check.
    #[error(
        "start the server `{command}`: it exited before answering initialize ({exit}){}",
        stderr_tail(.stderr)
    )]
    ServerExited {
        /// The command, as displayed.
        command: String,
        /// How it exited ("exit status 1").
        exit: String,
        /// Its last stderr lines, escaped.
        stderr: Vec<String>,
    },
    /// The live fuzz target's server did not get through its first handshake.
    #[error("start the server `{command}` for live fuzzing: {reason}")]
    LiveStart {
        /// The command, as displayed.
        command: String,
        /// Why (the handshake's failure, or an interrupt).
        reason: String,
    },
    /// `fuzz --coverage` cannot measure the server's coverage: its folder cannot be made,
    /// or no agent counts in the server (not Python or Node, too old, started in a way
    /// that drops `PYTHONPATH` or `NODE_OPTIONS`).
    #[error("measure the server's coverage: {0}")]
    Coverage(String),
    /// An in-process server's constructor panicked (or never returned): nothing of the
    /// server ran, so no check can judge it.
    #[error("start the in-process server `{server}`: {message}")]
    InProcessSetup {
        /// The server's name.
        server: String,
        /// What happened (the panic's message).
        message: String,
    },
    /// The server command is empty.
    #[error(
        "start a server: no command was given (after `--`, or as [server] command in mcp-conformance.toml)"
    )]
    NoCommand,
    /// A revision name (command line, config file, harness) is not one the suite knows:
    /// why, with the nearest known name ([`crate::suggest::unknown_revision`]).
    #[error("select a revision: {0}")]
    UnknownRevision(String),
    /// A check id (or a check glob that matches no id) named by the user: why, with the
    /// nearest id ([`crate::suggest::unknown_check`]).
    #[error("select a check: {0}")]
    UnknownCheck(String),
    /// A configuration or baseline file is unreadable or invalid.
    #[error("read {path}: {message}")]
    Config {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A server source file or folder (`fuzz-dict`) cannot be read.
    #[error("read the server's source {path}")]
    ReadSource {
        /// The file or folder.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A `--allow-tool` / `--deny-tool` glob does not parse.
    #[error("parse tool glob `{0}`: {1}")]
    BadGlob(String, String),
    /// The embedded schema for a revision could not be compiled (a bug of ours).
    #[error("compile the embedded {revision} schema for `{definition}`: {message}")]
    Schema {
        /// Revision whose schema failed.
        revision: &'static str,
        /// The definition we tried to compile.
        definition: String,
        /// The compiler's message.
        message: String,
    },
    /// Writing a report failed.
    #[error("write report to {path}")]
    WriteReport {
        /// Where we tried to write.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// Writing a tool surface snapshot (or its pending `.new`) failed.
    #[error("write the tool surface snapshot {path}")]
    WriteSnapshot {
        /// Where we tried to write.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// No revision's tools could be listed whole (`snapshot`): what each revision met.
    #[error("list the server's tools: no revision's listing could be walked whole ({0})")]
    NothingListed(String),
    /// Serializing a report failed.
    #[error("serialize report")]
    Serialize(#[from] serde_json::Error),
    /// The async runtime could not be built.
    #[error("start the async runtime")]
    Runtime(#[source] std::io::Error),
}

/// `; its stderr ended with:` and the lines, indented, or a note that it wrote none.
fn stderr_tail(lines: &[String]) -> String {
    if lines.is_empty() {
        return "; it wrote nothing on stderr".to_string();
    }
    let mut text = "; its stderr ended with:".to_string();
    for line in lines {
        text.push_str("\n    ");
        text.push_str(line);
    }
    text
}

/// Result alias for harness operations.
pub type Result<T, E = Error> = std::result::Result<T, E>;
