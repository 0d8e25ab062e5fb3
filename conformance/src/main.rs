//! The `mcp-conformance` command line: argument parsing, the run, and exit codes.
//!
//! Exit codes (documented in the README, mapped in one place, [`exit_code`]):
//! 0 no failures, 1 at least one failure, 2 usage or setup error, 130 interrupted.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};
use conformance::protocol::{Revision, SessionConfig, REVISIONS};
use conformance::report::{render_text, to_json, RunReport};
use conformance::runner::{run, RunConfig, RunEvent};
use conformance::scenarios::{CallMode, CallPolicy};
use conformance::transport::ServerCommand;

#[derive(Parser)]
#[command(
    name = "mcp-conformance",
    version,
    about = "Conformance suite for MCP servers"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the suite against a server command (the bundled reference server if none).
    Run(RunArgs),
    /// List every check: id, level, revisions, requirement, title.
    List,
    /// Serve the bundled reference server on stdio (used when `run` gets no command).
    #[command(hide = true)]
    ReferenceServer {
        /// Break one rule on purpose (see `--list-faults`).
        #[arg(long)]
        fault: Option<String>,
        /// Print the fault names and exit.
        #[arg(long)]
        list_faults: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Call {
    /// Call every listed tool (the default: tools may have side effects!).
    All,
    /// Call only tools annotated readOnlyHint: true.
    ReadOnly,
    /// Call no tool.
    None,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(clap::Args)]
struct RunArgs {
    /// Protocol revision to run (repeatable; default: all four).
    #[arg(long = "revision", value_name = "REV")]
    revisions: Vec<String>,
    /// Seconds to wait for each response.
    #[arg(long, default_value_t = 10.0, value_name = "SECS")]
    timeout: f64,
    /// Longest stdout line accepted from the server, in bytes.
    #[arg(long, default_value_t = 16 * 1024 * 1024, value_name = "BYTES")]
    max_line: usize,
    /// Seed for generated scenarios (printed in every report).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Report format written to --output (or to stdout without --output).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write the report here; the text report still goes to stdout.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Environment variable for the server, KEY=VALUE (repeatable).
    #[arg(long = "env", value_name = "KEY=VALUE")]
    env: Vec<String>,
    /// Which tools to call. Tools have side effects: the default calls every tool.
    #[arg(long, value_enum, default_value = "all")]
    call: Call,
    /// Call only tools whose name matches this glob (repeatable).
    #[arg(long = "allow-tool", value_name = "GLOB")]
    allow_tool: Vec<String>,
    /// Never call tools whose name matches this glob (repeatable; wins over --allow-tool).
    #[arg(long = "deny-tool", value_name = "GLOB")]
    deny_tool: Vec<String>,
    /// Working directory for the server.
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,
    /// The server command and its arguments, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::List => {
            list();
            ExitCode::SUCCESS
        }
        Command::ReferenceServer { fault, list_faults } => reference_server(fault, list_faults),
        Command::Run(args) => match run_command(args) {
            Ok(code) => code,
            Err(err) => {
                eprintln!("mcp-conformance: failed to {}", error_chain(&err));
                ExitCode::from(2)
            }
        },
    }
}

fn error_chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(s) = source {
        text.push_str(&format!(": {s}"));
        source = s.source();
    }
    text
}

fn list() {
    for c in conformance::checks::CATALOG {
        println!(
            "{:26} {:8} {:11} {:24} {}",
            c.id,
            c.level.as_str(),
            c.applies.describe(),
            c.requirement,
            c.title
        );
    }
}

fn reference_server(fault: Option<String>, list_faults: bool) -> ExitCode {
    use reference_server::Fault;
    if list_faults {
        for f in Fault::ALL {
            println!("{}\t{}", f.name(), f.description());
        }
        return ExitCode::SUCCESS;
    }
    let fault = match fault.as_deref().map(str::parse::<Fault>) {
        None => None,
        Some(Ok(f)) => Some(f),
        Some(Err(_)) => {
            eprintln!("unknown fault; see --list-faults");
            return ExitCode::from(2);
        }
    };
    ExitCode::from(u8::try_from(reference_server::run_stdio(fault)).unwrap_or(1))
}

fn run_command(args: RunArgs) -> conformance::Result<ExitCode> {
    let revisions = select_revisions(&args.revisions)?;
    let (command, reference) = match args.command.split_first() {
        Some((program, rest)) => (ServerCommand::new(program.clone(), rest.to_vec()), false),
        None => {
            let exe = std::env::current_exe().map_err(conformance::Error::Runtime)?;
            let program = exe.to_string_lossy().into_owned();
            (
                ServerCommand::new(program, ["reference-server".to_string()]),
                true,
            )
        }
    };
    let mut command = command;
    command.cwd = args.cwd.clone();
    for pair in &args.env {
        let (k, v) = pair.split_once('=').unwrap_or((pair.as_str(), ""));
        command.env.push((k.to_string(), v.to_string()));
    }
    if !args.timeout.is_finite() || args.timeout <= 0.0 {
        eprintln!("mcp-conformance: --timeout must be a positive number of seconds");
        return Ok(ExitCode::from(2));
    }
    let config = RunConfig {
        command,
        reference,
        revisions,
        session: SessionConfig {
            timeout: Duration::from_secs_f64(args.timeout),
            max_line: args.max_line,
            ..SessionConfig::default()
        },
        seed: args.seed,
        call_policy: CallPolicy {
            mode: match args.call {
                Call::All => CallMode::All,
                Call::ReadOnly => CallMode::ReadOnly,
                Call::None => CallMode::None,
            },
            allow: globs(&args.allow_tool)?,
            deny: globs(&args.deny_tool)?,
        },
    };
    eprintln!("mcp-conformance: seed {}", config.seed);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(conformance::Error::Runtime)?;
    let outcome = runtime.block_on(async {
        tokio::select! {
            report = run(&config, progress) => Some(report),
            // Dropping the run future kills every server process group it owns.
            _ = tokio::signal::ctrl_c() => None,
        }
    });
    let Some(report) = outcome else {
        eprintln!("mcp-conformance: interrupted");
        return Ok(ExitCode::from(130));
    };
    let report = report?;
    emit(&report, args.format, args.output.as_deref())?;
    Ok(exit_code(&report))
}

fn globs(patterns: &[String]) -> conformance::Result<Vec<glob::Pattern>> {
    patterns
        .iter()
        .map(|p| {
            glob::Pattern::new(p).map_err(|e| conformance::Error::BadGlob(p.clone(), e.to_string()))
        })
        .collect()
}

fn progress(event: RunEvent) {
    match event {
        RunEvent::RevisionStarted(rev) => eprintln!("mcp-conformance: running {rev}"),
        RunEvent::NegotiationStarted => eprintln!("mcp-conformance: probing version negotiation"),
        RunEvent::RevisionJudged(..) => {}
    }
}

fn select_revisions(names: &[String]) -> conformance::Result<Vec<&'static Revision>> {
    if names.is_empty() {
        return Ok(REVISIONS.iter().collect());
    }
    names
        .iter()
        .map(|n| Revision::find(n).ok_or_else(|| conformance::Error::UnknownRevision(n.clone())))
        .collect()
}

fn emit(
    report: &RunReport,
    format: Format,
    output: Option<&std::path::Path>,
) -> conformance::Result<()> {
    let rendered = match format {
        Format::Text => render_text(report),
        Format::Json => to_json(report)?,
    };
    match output {
        Some(path) => {
            std::fs::write(path, rendered).map_err(|source| conformance::Error::WriteReport {
                path: path.to_path_buf(),
                source,
            })?;
            print!("{}", render_text(report));
        }
        None => print!("{rendered}"),
    }
    Ok(())
}

/// The one place outcomes become exit codes.
fn exit_code(report: &RunReport) -> ExitCode {
    if report.has_failures() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
