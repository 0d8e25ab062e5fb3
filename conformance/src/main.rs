//! The `mcp-conformance` command line: arguments and config file merged into a run, the
//! reports written, and outcomes mapped to exit codes in one place ([`exit_code`]).
//!
//! Exit codes (README, "Exit codes"): 0 the gate passes; 1 the gate fails (a check failed
//! that the baseline does not accept, or a warning under `--strict`, or a stale baseline
//! entry under `--strict-baseline`); 2 usage or setup error; 130 interrupted.

// The harness builds many small JSON values per request; mimalloc keeps them cheap (the
// live fuzz target's throughput in fuzz/README.md is measured with it).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};
use mcp_conformance::config::FileConfig;
use mcp_conformance::protocol::{Revision, SessionConfig, REVISIONS};
use mcp_conformance::report::{render_text_styled, Baseline, Format, GateOptions, RunReport};
use mcp_conformance::runner::{run, RunConfig, RunEvent};
use mcp_conformance::scenarios::{CallMode, CallPolicy};
use mcp_conformance::transport::ServerCommand;
use mcp_conformance::Error;

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
    Run(Box<RunArgs>),
    /// List every check: id, level, revisions, requirement, title.
    List,
    /// Replay a saved failing case (from --cases-dir) against a fresh server process.
    Replay {
        /// The case file.
        file: PathBuf,
        /// Seconds to wait for each response [default: 10].
        #[arg(long, value_name = "SECS")]
        timeout: Option<f64>,
        /// Another server command than the one recorded in the case, after `--`.
        #[arg(last = true, value_name = "COMMAND")]
        command: Vec<String>,
    },
    /// Fuzz a server without cargo-fuzz: the property generators with fresh seeds until
    /// the time is spent (no coverage guidance). Exit 1 when anything failed.
    Fuzz {
        /// First seed; round N uses seed + N.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Seconds to fuzz.
        #[arg(long, default_value_t = 60.0, value_name = "SECS")]
        time: f64,
        /// Revision to negotiate.
        #[arg(long, default_value = "2025-11-25", value_name = "REV")]
        revision: String,
        /// Seconds to wait for each response.
        #[arg(long, default_value_t = 10.0, value_name = "SECS")]
        timeout: f64,
        /// Save each failing case here, for `mcp-conformance replay`.
        #[arg(long, value_name = "DIR")]
        cases_dir: Option<PathBuf>,
        /// Which tools to call (tools have side effects).
        #[arg(long, value_enum, default_value = "all")]
        call: Call,
        /// Never call tools whose name matches this glob (repeatable).
        #[arg(long, value_name = "GLOB")]
        deny_tool: Vec<String>,
        /// Use the live target of `cargo fuzz run live_server` (one server process, byte
        /// inputs from the seed turned into JSON-RPC lines, its oracle), without coverage
        /// guidance.
        #[arg(long)]
        live: bool,
        /// Run saved live-target inputs (files, or folders of them, such as libFuzzer's
        /// crash files) instead of fuzzing; each failing one is written as a case file
        /// for `replay`. Implies --live.
        #[arg(long, value_name = "PATH")]
        input: Vec<PathBuf>,
        /// The server command and its arguments, after `--`.
        #[arg(last = true, value_name = "COMMAND", required = true)]
        command: Vec<String>,
    },
    /// Explain a check: what it requires, why it matters, how to fix a failing server.
    Explain {
        /// Check id, as printed in reports and by `list`.
        id: String,
    },
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

/// Every option is optional here so that a value from the config file is overridden only
/// by a flag actually given.
#[derive(clap::Args)]
struct RunArgs {
    /// Config file (default: ./mcp-conformance.toml when it exists).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Protocol revision to run (repeatable; default: all four).
    #[arg(long = "revision", value_name = "REV")]
    revisions: Vec<String>,
    /// Seconds to wait for each response [default: 10].
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// Longest stdout line accepted from the server, in bytes [default: 16 MiB].
    #[arg(long, value_name = "BYTES")]
    max_line: Option<usize>,
    /// Seed for generated scenarios (printed in every report) [default: 0].
    #[arg(long)]
    seed: Option<u64>,
    /// Report format (repeatable): written to --output-dir, or to --output, or stdout.
    #[arg(long = "format", value_enum, value_name = "FORMAT")]
    formats: Vec<Format>,
    /// Write the report (one format) to this file; the text report still goes to stdout.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write every --format to this folder (mcp-conformance.{txt,json,junit.xml,md,sarif}).
    #[arg(long, value_name = "DIR")]
    output_dir: Option<PathBuf>,
    /// Expected failures (TOML); listed findings do not fail the run but stay visible.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Warnings fail the run too.
    #[arg(long)]
    strict: bool,
    /// Baseline entries that no longer match a finding fail the run.
    #[arg(long)]
    strict_baseline: bool,
    /// Generated cases per property (per tool for arguments); 0 skips them [default: 32].
    #[arg(long, value_name = "N")]
    cases: Option<u32>,
    /// Seconds the property phase may take per revision (a cut run is not reproducible).
    #[arg(long, value_name = "SECS")]
    time_budget: Option<f64>,
    /// Save failing generated cases here, for `mcp-conformance replay` [default: mcp-conformance-cases].
    #[arg(long, value_name = "DIR")]
    cases_dir: Option<PathBuf>,
    /// Which tools to call. Tools have side effects: the default calls every tool.
    #[arg(long, value_enum)]
    call: Option<Call>,
    /// Call only tools whose name matches this glob (repeatable).
    #[arg(long = "allow-tool", value_name = "GLOB")]
    allow_tool: Vec<String>,
    /// Never call tools whose name matches this glob (repeatable; wins over --allow-tool).
    #[arg(long = "deny-tool", value_name = "GLOB")]
    deny_tool: Vec<String>,
    /// Environment variable for the server, KEY=VALUE (repeatable).
    #[arg(long = "env", value_name = "KEY=VALUE")]
    env: Vec<String>,
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
        Command::Explain { id } => explain(&id),
        Command::Fuzz {
            seed,
            time,
            revision,
            timeout,
            cases_dir,
            call,
            deny_tool,
            live,
            input,
            command,
        } => match globs(&deny_tool).and_then(|deny| {
            let args = FuzzArgs {
                seed,
                time,
                timeout,
                cases_dir,
                call,
                deny,
                inputs: input,
            };
            if live || !args.inputs.is_empty() {
                fuzz_live(args, &revision, &command)
            } else {
                fuzz(args, &revision, &command)
            }
        }) {
            Ok(code) => code,
            Err(err) => {
                eprintln!("mcp-conformance: failed to {}", error_chain(&err));
                ExitCode::from(2)
            }
        },
        Command::Replay {
            file,
            timeout,
            command,
        } => match replay(&file, timeout, command) {
            Ok(code) => code,
            Err(err) => {
                eprintln!("mcp-conformance: failed to {}", error_chain(&err));
                ExitCode::from(2)
            }
        },
        Command::ReferenceServer { fault, list_faults } => reference_server(fault, list_faults),
        Command::Run(args) => match run_command(*args) {
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
    for c in mcp_conformance::checks::CATALOG {
        println!(
            "{:26} {:8} {:11} {:26} {}",
            c.id,
            c.level.describe(),
            c.applies.describe(),
            c.requirement,
            c.title
        );
    }
}

fn explain(id: &str) -> ExitCode {
    let (Some(check), Some(text)) = (
        mcp_conformance::checks::find(id),
        mcp_conformance::checks::explain(id),
    ) else {
        eprintln!("mcp-conformance: unknown check {id:?}; `mcp-conformance list` prints them all");
        return ExitCode::from(2);
    };
    println!(
        "{} ({} {}, revisions {})",
        check.id,
        check.level.describe(),
        check.requirement,
        check.applies.describe()
    );
    println!("{}\nSource: {}\n", check.title, check.source);
    println!("What is required\n{}\n", text.requirement);
    println!("Why it matters\n{}\n", text.why);
    println!("How to fix a server that fails it\n{}", text.fix);
    ExitCode::SUCCESS
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

/// Where failing generated cases go when neither `--cases-dir` nor the config says.
const DEFAULT_CASES_DIR: &str = "mcp-conformance-cases";

/// A run resolved from flags over the config file over defaults.
struct Plan {
    config: RunConfig,
    formats: Vec<Format>,
    output: Option<PathBuf>,
    output_dir: Option<PathBuf>,
    baseline: Option<PathBuf>,
    gate: GateOptions,
}

fn plan(args: RunArgs) -> mcp_conformance::Result<Plan> {
    let file = FileConfig::discover(args.config.as_deref())?.unwrap_or_default();
    let run = file.run;
    let usage = |message: String| Error::Config {
        path: PathBuf::from("command line"),
        message,
    };

    let (mut command, reference) = match (args.command.split_first(), file.server) {
        (Some((program, rest)), _) => (ServerCommand::new(program.clone(), rest.to_vec()), false),
        (None, Some(server)) => {
            let mut command = ServerCommand::new(server.command, server.args);
            command.env = server.env.into_iter().collect();
            command.cwd = server.cwd;
            (command, false)
        }
        (None, None) => {
            let exe = std::env::current_exe().map_err(Error::Runtime)?;
            let program = exe.to_string_lossy().into_owned();
            (
                ServerCommand::new(program, ["reference-server".to_string()]),
                true,
            )
        }
    };
    if let Some(cwd) = args.cwd {
        command.cwd = Some(cwd);
    }
    for pair in &args.env {
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| usage(format!("--env {pair:?} is not KEY=VALUE")))?;
        command.env.push((k.to_string(), v.to_string()));
    }

    let revision_names = if args.revisions.is_empty() {
        run.revisions.unwrap_or_default()
    } else {
        args.revisions
    };
    let revisions = if revision_names.is_empty() {
        REVISIONS.iter().collect()
    } else {
        revision_names
            .iter()
            .map(|n| Revision::find(n).ok_or_else(|| Error::UnknownRevision(n.clone())))
            .collect::<mcp_conformance::Result<Vec<_>>>()?
    };

    let timeout = args.timeout.or(run.timeout).unwrap_or(10.0);
    if !timeout.is_finite() || timeout <= 0.0 {
        return Err(usage(
            "the timeout must be a positive number of seconds".into(),
        ));
    }
    let mode = match (args.call, run.call.as_deref()) {
        (Some(Call::All), _) | (None, None | Some("all")) => CallMode::All,
        (Some(Call::ReadOnly), _) | (None, Some("read-only")) => CallMode::ReadOnly,
        (Some(Call::None), _) | (None, Some("none")) => CallMode::None,
        (None, Some(other)) => {
            return Err(usage(format!(
                "call = {other:?}: use all, read-only or none"
            )))
        }
    };
    let allow = if args.allow_tool.is_empty() {
        run.allow_tool.unwrap_or_default()
    } else {
        args.allow_tool
    };
    let deny = if args.deny_tool.is_empty() {
        run.deny_tool.unwrap_or_default()
    } else {
        args.deny_tool
    };

    let formats = if !args.formats.is_empty() {
        args.formats
    } else {
        run.formats
            .unwrap_or_default()
            .iter()
            .map(|name| {
                Format::parse(name).ok_or_else(|| usage(format!("unknown report format {name:?}")))
            })
            .collect::<mcp_conformance::Result<Vec<_>>>()?
    };
    if args.output.is_some() && formats.len() > 1 {
        return Err(usage(
            "--output takes one --format; use --output-dir for several".into(),
        ));
    }

    let cases = args.cases.or(run.cases).unwrap_or(32);
    let properties = (cases > 0).then(|| mcp_conformance::scenarios::PropertyConfig {
        cases,
        time_budget: args
            .time_budget
            .or(run.time_budget)
            .map(Duration::from_secs_f64),
        ..Default::default()
    });
    let defaults = SessionConfig::default();
    let defaults = SessionConfig {
        timeout: Duration::from_secs_f64(timeout),
        max_line: args.max_line.or(run.max_line).unwrap_or(defaults.max_line),
        ..defaults
    };
    Ok(Plan {
        config: RunConfig {
            command,
            reference,
            revisions,
            session: defaults,
            seed: args.seed.or(run.seed).unwrap_or(0),
            call_policy: CallPolicy {
                mode,
                allow: globs(&allow)?,
                deny: globs(&deny)?,
            },
            properties,
            // Failing generated cases are always saved (only when there are some).
            cases_dir: Some(
                args.cases_dir
                    .or(run.cases_dir)
                    .unwrap_or_else(|| PathBuf::from(DEFAULT_CASES_DIR)),
            ),
        },
        formats,
        output: args.output,
        output_dir: args.output_dir.or(run.output_dir),
        baseline: args.baseline.or(run.baseline),
        gate: GateOptions {
            strict: args.strict || run.strict.unwrap_or(false),
            strict_baseline: args.strict_baseline || run.strict_baseline.unwrap_or(false),
        },
    })
}

fn run_command(args: RunArgs) -> mcp_conformance::Result<ExitCode> {
    let plan = plan(args)?;
    let baseline = plan.baseline.as_deref().map(Baseline::load).transpose()?;
    eprintln!("mcp-conformance: seed {}", plan.config.seed);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    let outcome = runtime.block_on(async {
        tokio::select! {
            report = run(&plan.config, progress) => Some(report),
            // Dropping the run future kills every server process group it owns.
            _ = tokio::signal::ctrl_c() => None,
        }
    });
    let Some(report) = outcome else {
        eprintln!("mcp-conformance: interrupted");
        return Ok(ExitCode::from(130));
    };
    let mut report = report?;
    if let Some(baseline) = &baseline {
        report.apply_baseline(baseline);
    }
    emit(&report, &plan)?;
    Ok(exit_code(&report, plan.gate))
}

/// What `fuzz` was asked, in either mode.
struct FuzzArgs {
    seed: u64,
    time: f64,
    timeout: f64,
    cases_dir: Option<PathBuf>,
    call: Call,
    deny: Vec<glob::Pattern>,
    inputs: Vec<PathBuf>,
}

/// The revision, the server and the call policy of either fuzz mode, the numbers checked.
fn fuzz_setup(
    args: &FuzzArgs,
    revision: &str,
    command: &[String],
) -> mcp_conformance::Result<(&'static Revision, ServerCommand, CallPolicy)> {
    let revision =
        Revision::find(revision).ok_or_else(|| Error::UnknownRevision(revision.to_string()))?;
    let (program, rest) = command.split_first().ok_or(Error::NoCommand)?;
    let positive = |x: f64| x.is_finite() && x > 0.0 && x < 1e9;
    if !positive(args.time) || !positive(args.timeout) {
        return Err(Error::Config {
            path: "command line".into(),
            message: "--time and --timeout must be positive".into(),
        });
    }
    let mode = match args.call {
        Call::All => CallMode::All,
        Call::ReadOnly => CallMode::ReadOnly,
        Call::None => CallMode::None,
    };
    let policy = CallPolicy {
        mode,
        deny: args.deny.clone(),
        ..CallPolicy::default()
    };
    Ok((
        revision,
        ServerCommand::new(program.clone(), rest.to_vec()),
        policy,
    ))
}

fn fuzz(args: FuzzArgs, revision: &str, command: &[String]) -> mcp_conformance::Result<ExitCode> {
    use mcp_conformance::report::escape_for_terminal;
    let (revision, server, policy) = fuzz_setup(&args, revision, command)?;
    let FuzzArgs {
        seed,
        time,
        timeout,
        cases_dir,
        ..
    } = args;
    let session = SessionConfig {
        timeout: Duration::from_secs_f64(timeout),
        ..SessionConfig::default()
    };
    eprintln!(
        "mcp-conformance: fuzzing {} for {time} s from seed {seed}",
        revision.id
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    let mut saved = 0;
    let mut write_error = None;
    let found = runtime.block_on(async {
        tokio::select! {
            outcome = mcp_conformance::scenarios::fuzz(&server, revision, &session, &policy, seed, Duration::from_secs_f64(time), |f| {
                println!("FAIL {} ({}), seed {}: {}", f.check, revision.id, f.case.seed, escape_for_terminal(&f.outcome));
                println!("     {}", escape_for_terminal(&f.description));
                println!("     minimal input: {}", escape_for_terminal(&f.input.to_string()));
                if let Some(dir) = &cases_dir {
                    saved += 1;
                    let path = dir.join(format!("fuzz-{}-{}-{saved}.json", f.case.revision, f.check));
                    let text = serde_json::to_string_pretty(&f.case).unwrap_or_default();
                    match std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, text)) {
                        Ok(()) => println!("     replay: mcp-conformance replay {}", path.display()),
                        Err(e) => write_error = Some(Error::WriteReport { path, source: e }),
                    }
                }
            }) => Some(outcome),
            _ = tokio::signal::ctrl_c() => None,
        }
    });
    if let Some(e) = write_error {
        return Err(e);
    }
    let Some(outcome) = found else {
        return Ok(ExitCode::from(130));
    };
    let outcome = outcome?;
    println!(
        "fuzzed {} round(s), {} case(s): {} distinct failure(s)",
        outcome.rounds,
        outcome.cases,
        outcome.failures.len()
    );
    Ok(if outcome.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The live target without libFuzzer: saved inputs, or inputs from the seed until the
/// time is spent. Exit 1 when anything failed.
fn fuzz_live(
    run: FuzzArgs,
    revision: &str,
    command: &[String],
) -> mcp_conformance::Result<ExitCode> {
    use mcp_conformance::fuzzing::{LiveConfig, LiveTarget};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let (revision, server, policy) = fuzz_setup(&run, revision, command)?;
    let mut inputs = Vec::new();
    for path in &run.inputs {
        let unreadable = |e: std::io::Error| Error::Config {
            path: path.clone(),
            message: e.to_string(),
        };
        if path.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(unreadable)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect();
            files.sort();
            inputs.extend(files);
        } else {
            inputs.push(path.clone());
        }
    }
    let interrupted = Arc::new(AtomicBool::new(false));
    let config = LiveConfig {
        command: server,
        revision,
        timeout: Duration::from_secs_f64(run.timeout),
        policy,
        cases_dir: Some(
            run.cases_dir
                .unwrap_or_else(|| PathBuf::from("mcp-conformance-cases")),
        ),
        interrupt: Some(Arc::clone(&interrupted)),
    };
    {
        let flag = Arc::clone(&interrupted);
        let signals = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(Error::Runtime)?;
        // Registered here, before any server starts, so an early Ctrl-C is caught too.
        let mut sigint = signals
            .block_on(async {
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())
            })
            .map_err(Error::Runtime)?;
        std::thread::spawn(move || {
            if signals.block_on(sigint.recv()).is_some() {
                flag.store(true, Ordering::SeqCst);
            }
        });
    }
    let mut target = match LiveTarget::start(config) {
        Ok(t) => t,
        Err(_) if interrupted.load(Ordering::SeqCst) => return Ok(ExitCode::from(130)),
        Err(e) => return Err(e),
    };
    let mut findings: Vec<(
        mcp_conformance::checks::CheckId,
        mcp_conformance::scenarios::FailureKind,
    )> = Vec::new();
    let report = |finding: mcp_conformance::fuzzing::Finding, found: &mut Vec<_>| {
        println!("{}", finding.report());
        let key = (finding.check, finding.kind);
        if !found.contains(&key) {
            found.push(key);
        }
    };
    if inputs.is_empty() {
        eprintln!(
            "mcp-conformance: live fuzzing {} for {} s from seed {}",
            revision.id, run.time, run.seed
        );
        let started = std::time::Instant::now();
        let budget = Duration::from_secs_f64(run.time);
        let mut state = run.seed;
        while started.elapsed() < budget && !interrupted.load(Ordering::SeqCst) {
            let data = mcp_conformance::fuzzing::seeded_input(&mut state);
            if let Some(finding) = target.run(&data) {
                let known = findings.contains(&(finding.check, finding.kind));
                if !known {
                    report(finding, &mut findings);
                }
            }
        }
    } else {
        for path in &inputs {
            if interrupted.load(Ordering::SeqCst) {
                break;
            }
            let data = std::fs::read(path).map_err(|e| Error::Config {
                path: path.clone(),
                message: e.to_string(),
            })?;
            match target.run(&data) {
                Some(finding) => {
                    println!("input {}:", path.display());
                    report(finding, &mut findings);
                }
                None => println!("input {}: no finding", path.display()),
            }
        }
    }
    if interrupted.load(Ordering::SeqCst) {
        return Ok(ExitCode::from(130));
    }
    for note in target.notes() {
        println!(
            "note: {}",
            mcp_conformance::report::escape_for_terminal(note)
        );
    }
    println!(
        "ran {} case(s), restarted the server {} time(s): {} distinct failure(s)",
        target.execs,
        target.restarts(),
        findings.len()
    );
    Ok(if findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Exit codes of `replay`: 1 when the failure shows again, 0 when it does not.
fn replay(
    file: &Path,
    timeout: Option<f64>,
    command: Vec<String>,
) -> mcp_conformance::Result<ExitCode> {
    use mcp_conformance::report::escape_for_terminal;
    let unreadable = |message: String| Error::Config {
        path: file.to_path_buf(),
        message,
    };
    let text = std::fs::read_to_string(file).map_err(|e| unreadable(e.to_string()))?;
    let case: mcp_conformance::scenarios::CaseFile =
        serde_json::from_str(&text).map_err(|e| unreadable(e.to_string()))?;
    let server = match command.split_first() {
        Some((program, rest)) => ServerCommand::new(program.clone(), rest.to_vec()),
        None => case.command.clone(),
    };
    let mut session = SessionConfig::default();
    // --timeout, else the timeout of the run that found the case.
    if let Some(t) = timeout
        .or(case.timeout_secs)
        .filter(|t| t.is_finite() && *t > 0.0 && *t < 86_400.0)
    {
        session.timeout = Duration::from_secs_f64(t);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    let outcome = runtime.block_on(mcp_conformance::scenarios::replay(&case, &server, &session))?;
    println!(
        "replaying {} ({}, {}): {}",
        file.display(),
        case.check,
        case.revision,
        escape_for_terminal(&case.description)
    );
    print!(
        "{}",
        mcp_conformance::report::render_transcript(&outcome.transcript, "  ")
    );
    if outcome.reproduced {
        println!(
            "reproduced ({:?}): {}",
            case.kind,
            escape_for_terminal(&outcome.observed)
        );
        Ok(ExitCode::from(1))
    } else {
        println!("not reproduced: {}", escape_for_terminal(&outcome.observed));
        Ok(ExitCode::SUCCESS)
    }
}

fn globs(patterns: &[String]) -> mcp_conformance::Result<Vec<glob::Pattern>> {
    patterns
        .iter()
        .map(|p| glob::Pattern::new(p).map_err(|e| Error::BadGlob(p.clone(), e.to_string())))
        .collect()
}

fn progress(event: RunEvent) {
    match event {
        RunEvent::RevisionStarted(rev) => eprintln!("mcp-conformance: running {rev}"),
        RunEvent::NegotiationStarted => eprintln!("mcp-conformance: probing version negotiation"),
        RunEvent::RevisionJudged(..) => {}
    }
}

fn write(path: &Path, text: &str) -> mcp_conformance::Result<()> {
    std::fs::write(path, text).map_err(|source| Error::WriteReport {
        path: path.to_path_buf(),
        source,
    })
}

/// The text report always goes to stdout (coloured on a terminal); other formats go to
/// `--output`, `--output-dir`, or, when neither is given, to stdout instead of the text.
fn emit(report: &RunReport, plan: &Plan) -> mcp_conformance::Result<()> {
    let stdout_text = || render_text_styled(report, std::io::stdout().is_terminal());
    if let Some(dir) = &plan.output_dir {
        std::fs::create_dir_all(dir).map_err(|source| Error::WriteReport {
            path: dir.clone(),
            source,
        })?;
        let formats = if plan.formats.is_empty() {
            Format::ALL
        } else {
            &plan.formats[..]
        };
        for format in formats {
            write(&dir.join(format.file_name()), &format.render(report)?)?;
        }
        print!("{}", stdout_text());
        return Ok(());
    }
    match (&plan.output, plan.formats.as_slice()) {
        (Some(path), formats) => {
            write(
                path,
                &formats
                    .first()
                    .copied()
                    .unwrap_or(Format::Text)
                    .render(report)?,
            )?;
            print!("{}", stdout_text());
        }
        (None, [] | [Format::Text]) => print!("{}", stdout_text()),
        (None, formats) => {
            for format in formats {
                print!("{}", format.render(report)?);
            }
        }
    }
    Ok(())
}

/// The one place outcomes become exit codes.
fn exit_code(report: &RunReport, options: GateOptions) -> ExitCode {
    let gate = report.gate(options);
    if gate.passed {
        ExitCode::SUCCESS
    } else {
        eprintln!("mcp-conformance: {}", gate.reasons.join("; "));
        ExitCode::from(1)
    }
}
