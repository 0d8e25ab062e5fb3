//! The `mcp-conformance` command line (the `cli` feature): parse, dispatch to the
//! subcommand's module, end with its [`exit::Exit`], the one place outcomes become exit
//! codes (README, "Exit codes").

// First: its `outln!` and `out!` are used by the modules after it.
#[macro_use]
mod output;

mod allocator;
mod args;
mod catalog;
mod exit;
mod fuzz;
mod init;
mod options;
mod plan;
mod reference;
mod replay;
mod run;
mod signals;
mod snapshot;
mod status;
mod target;
mod write_baseline;

use clap::Parser;

use args::{Cli, Command};
use exit::Exit;
use mcp_conformance::Error;

fn main() -> Exit {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let err = without_hidden_suggestions(err);
            // What `Cli::parse` would do, through `Exit`: usage errors to stderr (2),
            // `--help` and `--version` to stdout (0).
            let _ = err.print();
            return if err.use_stderr() {
                Exit::Usage
            } else {
                Exit::Pass
            };
        }
    };
    // The servers' orphans are ours to end, however they hide (`setsid()` and a scrubbed
    // environment included): this process starts no other children. Not for the bundled
    // reference server, which is itself a server under test.
    if !matches!(cli.command, Command::ReferenceServer(_)) {
        mcp_conformance::transport::adopt_orphans();
    }
    // On a thread with the library's run stack, not `main`'s 8 MiB: a debug build's poll
    // frames are large, and what a conversation needs grows with what it checks.
    let outcome = std::thread::Builder::new()
        .name("mcp-conformance".into())
        .stack_size(mcp_conformance::runner::RUN_STACK)
        .spawn(move || dispatch(cli.command))
        .map_err(Error::Runtime)
        .and_then(|driver| {
            driver
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        });
    let exit = outcome.unwrap_or_else(Exit::from);
    // A report that could not be written whole (not a reader that left early) is a
    // setup error, whatever the verdict was.
    match output::take_error() {
        Some(source) if !matches!(exit, Exit::Setup(_)) => Exit::Setup(Error::WriteReport {
            path: "stdout".into(),
            source,
        }),
        _ => exit,
    }
}

/// clap suggests hidden subcommands too (`rn`: "a similar subcommand exists:
/// 'reference-server'"), which no user needs: the suggestion is the nearest visible
/// subcommand by edit distance (`rn`: `run`), or none.
fn without_hidden_suggestions(mut err: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    use clap::CommandFactory;
    let typed = match err.get(ContextKind::InvalidSubcommand) {
        Some(ContextValue::String(typed)) if err.kind() == ErrorKind::InvalidSubcommand => {
            typed.clone()
        }
        _ => return err,
    };
    let command = Cli::command();
    let visible = command
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name());
    match mcp_conformance::suggest::nearest(&typed, visible) {
        Some(name) => {
            err.insert(
                ContextKind::SuggestedSubcommand,
                ContextValue::String(name.to_string()),
            );
        }
        None => {
            err.remove(ContextKind::SuggestedSubcommand);
            // An empty list of tips would still leave its blank line.
            if matches!(err.get(ContextKind::Suggested), Some(ContextValue::StyledStrs(s)) if s.is_empty())
            {
                err.remove(ContextKind::Suggested);
            }
        }
    }
    err
}

/// Runs the subcommand to its outcome.
fn dispatch(command: Command) -> Result<Exit, Error> {
    match command {
        Command::Run(args) => run::run_command(*args),
        Command::List => Ok(catalog::list()),
        Command::Init(args) => Ok(init::init(args)),
        Command::Explain { id } => Ok(catalog::explain(&id)),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(
                shell,
                &mut <Cli as clap::CommandFactory>::command(),
                "mcp-conformance",
                &mut script,
            );
            out!("{}", String::from_utf8_lossy(&script));
            Ok(Exit::Pass)
        }
        Command::Replay(args) => replay::replay(args),
        Command::Snapshot(args) => snapshot::snapshot(args),
        Command::Fuzz(args) => fuzz::fuzz(args),
        Command::FuzzDict { paths } => {
            out!(
                "{}",
                mcp_conformance::fuzzing::dictionary::from_paths(&paths)?
            );
            Ok(Exit::Pass)
        }
        Command::ReferenceServer(args) => Ok(reference::reference_server(args)),
    }
}
