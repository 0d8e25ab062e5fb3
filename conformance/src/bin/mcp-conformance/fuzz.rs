//! `fuzz`, both modes without cargo-fuzz: the property generators with fresh seeds round
//! after round, or (`--live`, `--input`) the live target of `cargo fuzz run live_server`
//! fed from the seed or from saved inputs. Either way `Fail` when anything failed.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;
use std::time::Duration;

use mcp_conformance::config::options::CONFIG;
use mcp_conformance::fuzzing::coverage::{self, Agent, Corpus, GuidedConfig, GuidedEvent};
use mcp_conformance::fuzzing::{LiveConfig, LiveTarget};
use mcp_conformance::generate::Interrupt;
use mcp_conformance::protocol::{Revision, SessionConfig, REVISIONS};
use mcp_conformance::records::PropertyFailure;
use mcp_conformance::report::{counted, escape_server_text};
use mcp_conformance::rules::FailureKind;
use mcp_conformance::scenarios::{CallPolicy, FuzzBudget};
use mcp_conformance::transport::ServerCommand;
use mcp_conformance::{Error, Result};

use crate::args::FuzzArgs;
use crate::exit::Exit;
use crate::plan::{call_policy, config_file};
use crate::signals::Signals;

/// What both modes share, from the flags over the config file: the revision, the
/// server, the call policy, the timeout and where case files go.
struct Setup {
    revision: &'static Revision,
    server: ServerCommand,
    policy: CallPolicy,
    timeout: f64,
    /// `--cases-dir`, else the file's `cases_dir` (none: the mode's default).
    cases_dir: Option<PathBuf>,
}

/// Dispatches to the mode asked for.
pub(crate) fn fuzz(args: FuzzArgs) -> Result<Exit> {
    let mut setup = setup(&args)?;
    // With --coverage the server (and what it starts) loads our agent: its command gets
    // the variables, before an HTTP server's command is started below.
    let agent = if args.coverage {
        let agent = Agent::new(&args.coverage_include)?;
        setup.server = agent.wrap(&setup.server);
        Some(agent)
    } else {
        None
    };
    // Over HTTP with a command, the server is started once for the whole fuzzing.
    let started =
        crate::target::start(&setup.server, Duration::from_secs_f64(setup.timeout), true)?;
    let exit = if let Some(agent) = agent {
        guided(args, setup, agent)
    } else if args.live || !args.input.is_empty() {
        live(args, setup)
    } else {
        generators(args, setup)
    };
    started.stop(SessionConfig::default().shutdown_grace);
    exit
}

/// The revision, the server and the call policy of either fuzz mode, the flags merged
/// over the config file as `run` merges them, the numbers checked.
fn setup(args: &FuzzArgs) -> Result<Setup> {
    let file = config_file(args.server.path(&CONFIG))?;
    let named = args.revision.is_some() || file.run.revisions.is_some();
    let file_cases_dir = file.run.cases_dir.is_some();
    let mut flags = args.server.flags();
    args.options.apply(&mut flags);
    flags.revisions = args.revision.iter().cloned().collect();
    let cases_dir_given = flags.cases_dir.is_some();
    let settings = file.merge(flags, || Err(Error::NoCommand))?;
    if let Some(note) = &settings.command_note {
        eprintln!("mcp-conformance: {note}");
    }
    let revision = if named {
        // The newest the file (or --revision) names.
        settings
            .revisions
            .iter()
            .copied()
            .max_by_key(|r| REVISIONS.iter().position(|known| known.id == r.id))
            .ok_or_else(|| Error::UnknownRevision(mcp_conformance::suggest::unknown_revision("")))?
    } else {
        // The newest revision with the handshake.
        Revision::newest_legacy()
    };
    let positive = |x: f64| x.is_finite() && x > 0.0 && x < 1e9;
    if !positive(args.time) || !positive(settings.timeout) {
        return Err(Error::Config {
            path: "command line".into(),
            message: "--time and --timeout must be positive".into(),
        });
    }
    let policy = call_policy(&settings)?;
    let cases_dir = (cases_dir_given || file_cases_dir).then_some(settings.cases_dir);
    Ok(Setup {
        revision,
        server: settings.server,
        policy,
        timeout: settings.timeout,
        cases_dir,
    })
}

/// The property generators, seed after seed, until the time is spent.
fn generators(args: FuzzArgs, setup: Setup) -> Result<Exit> {
    let Setup {
        revision,
        server,
        policy,
        timeout,
        cases_dir,
    } = setup;
    let FuzzArgs { seed, time, .. } = args;
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
    let mut saving = Saving {
        dir: cases_dir,
        saved: 0,
        error: None,
    };
    let budget = FuzzBudget {
        time: Duration::from_secs_f64(time),
        interrupt: Interrupt::default(),
    };
    let interrupt = budget.interrupt.clone();
    let fuzzing =
        mcp_conformance::scenarios::fuzz(&server, revision, &session, &policy, seed, budget, |f| {
            saving.found(f, revision)
        });
    let signalled = runtime.block_on(until_signalled(fuzzing, &interrupt))?;
    if let Some(e) = saving.error {
        return Err(e);
    }
    let outcome = match signalled {
        Ok(outcome) => outcome?,
        Err(n) => return Ok(Exit::after_signal(n)),
    };
    outln!(
        "fuzzed {}, {}: {}",
        counted(outcome.rounds, "round"),
        counted(outcome.cases, "case"),
        counted(outcome.failures.len(), "distinct failure")
    );
    if let Some(why) = &outcome.stopped {
        outln!("stopped: {why}");
    }
    Ok(Exit::failed_if(
        !outcome.failures.is_empty() || outcome.stopped.is_some(),
    ))
}

/// Where `fuzz` prints each distinct failure and saves its case file.
struct Saving {
    dir: Option<PathBuf>,
    saved: usize,
    /// The first case file that could not be written.
    error: Option<Error>,
}

impl Saving {
    /// Prints `f` (server text escaped) and saves its case, if a folder was given.
    fn found(&mut self, f: &PropertyFailure, revision: &Revision) {
        outln!(
            "FAIL {} ({}), seed {}: {}",
            f.check,
            revision.id,
            f.case.seed,
            escape_server_text(&f.outcome)
        );
        outln!("     {}", escape_server_text(&f.description));
        outln!(
            "     minimal input: {}",
            escape_server_text(&f.input.to_string())
        );
        let Some(dir) = &self.dir else {
            return;
        };
        self.saved += 1;
        let name = format!("fuzz-{}-{}-{}.json", f.case.revision, f.check, self.saved);
        let path = dir.join(name);
        let text = serde_json::to_string_pretty(&f.case).unwrap_or_default();
        match std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, text)) {
            Ok(()) => outln!("     replay: mcp-conformance replay {}", path.display()),
            Err(e) => self.error = Some(Error::WriteReport { path, source: e }),
        }
    }
}

/// Runs `work` until it ends or SIGINT, SIGTERM or SIGHUP comes, as a run ends on them:
/// `work` is dropped (its servers ended first) and the signal's number returned (`None`
/// when the interrupt was raised but its number not told within a second). The handlers
/// also raise `interrupt`, so a strategy build holding the runtime's thread gives up at
/// once. Registered before `work` is first polled, so before any server starts.
async fn until_signalled<F: std::future::Future>(
    work: F,
    interrupt: &Interrupt,
) -> Result<std::result::Result<F::Output, Option<i32>>> {
    let mut signals = Signals::register()?;
    signals.raise(interrupt)?;
    let out = tokio::select! {
        out = work => out,
        n = signals.recv() => return Ok(Err(Some(n))),
    };
    if interrupt.raised() {
        // Cut short by a signal whose number the handler's task has not told yet.
        let n = tokio::time::timeout(Duration::from_secs(1), signals.recv()).await;
        return Ok(Err(n.ok()));
    }
    Ok(Ok(out))
}

/// The live target without libFuzzer: saved inputs, or inputs from the seed until the
/// time is spent.
fn live(args: FuzzArgs, setup: Setup) -> Result<Exit> {
    let Setup {
        revision,
        server,
        policy,
        timeout,
        cases_dir,
    } = setup;
    let inputs = input_files(&args.input)?;
    let cases_dir =
        cases_dir.unwrap_or_else(|| PathBuf::from(mcp_conformance::config::DEFAULT_CASES_DIR));
    let caught = Caught::listen()?;
    let config = LiveConfig {
        command: server,
        revision,
        timeout: Duration::from_secs_f64(timeout),
        policy,
        cases_dir: Some(cases_dir.clone()),
        interrupt: Some(caught.flag()),
        ignore: Vec::new(),
    };
    let mut target = match LiveTarget::start(config) {
        Ok(t) => t,
        Err(e) => return caught.exit().ok_or(e),
    };
    let mut findings: Vec<(mcp_conformance::checks::CheckId, FailureKind)> = Vec::new();
    // Every case file written: one per distinct failure (the target saves a failure met
    // again no more).
    let mut saved: Vec<PathBuf> = Vec::new();
    let mut note_saved = |finding: &mcp_conformance::fuzzing::Finding| {
        if let Some(path) = &finding.saved {
            if !saved.contains(path) {
                saved.push(path.clone());
            }
        }
    };
    let report = |finding: mcp_conformance::fuzzing::Finding, found: &mut Vec<_>| {
        outln!("{}", finding.report());
        let key = (finding.check, finding.kind);
        if !found.contains(&key) {
            found.push(key);
        }
    };
    if inputs.is_empty() {
        eprintln!(
            "mcp-conformance: live fuzzing {} for {} s from seed {}",
            revision.id, args.time, args.seed
        );
        let started = std::time::Instant::now();
        let budget = Duration::from_secs_f64(args.time);
        let mut state = args.seed;
        while started.elapsed() < budget && !caught.raised() {
            let data = mcp_conformance::fuzzing::seeded_input(&mut state);
            if let Some(finding) = target.run(&data) {
                note_saved(&finding);
                let known = findings.contains(&(finding.check, finding.kind));
                if !known {
                    report(finding, &mut findings);
                }
            }
        }
    } else {
        for path in &inputs {
            if caught.raised() {
                break;
            }
            let data = std::fs::read(path).map_err(|e| Error::Config {
                path: path.clone(),
                message: e.to_string(),
            })?;
            match target.run(&data) {
                Some(finding) => {
                    note_saved(&finding);
                    outln!("input {}:", path.display());
                    report(finding, &mut findings);
                }
                None => outln!("input {}: no finding", path.display()),
            }
        }
    }
    if caught.raised() {
        // Its servers ended before the line saying so.
        drop(target);
        return Ok(caught.exit().unwrap_or(Exit::interrupted()));
    }
    for note in target.notes() {
        outln!("note: {}", escape_server_text(note));
    }
    outln!(
        "ran {}, restarted the server {}: {}",
        counted(target.execs, "case"),
        counted(target.restarts(), "time"),
        counted(findings.len(), "distinct failure")
    );
    eprintln!(
        "mcp-conformance: {}",
        saved_line(&saved, &cases_dir, findings.len())
    );
    Ok(Exit::failed_if(!findings.is_empty()))
}

/// `--coverage`: the live target's cases chosen by the server's own coverage, read by
/// the agent the server was started with.
fn guided(args: FuzzArgs, setup: Setup, mut agent: Agent) -> Result<Exit> {
    let revision = setup.revision;
    let cases_dir = setup
        .cases_dir
        .clone()
        .unwrap_or_else(|| PathBuf::from(mcp_conformance::config::DEFAULT_CASES_DIR));
    let corpus = Corpus::open(args.corpus.as_deref())?;
    let caught = Caught::listen()?;
    let config = live_config(setup, &cases_dir, caught.flag());
    let mut target = match LiveTarget::start(config) {
        Ok(t) => t,
        Err(e) => {
            return caught
                .exit()
                .ok_or_else(|| agent.refusal().map_or(e, Error::Coverage))
        }
    };
    let (owner, partial) = agent.loaded().map_err(Error::Coverage)?;
    eprintln!(
        "mcp-conformance: coverage-guided fuzzing {} for {} s from seed {}: {} {} (pid {}, {}), counted by {}",
        revision.id,
        args.time,
        args.seed,
        owner.language,
        owner.version,
        owner.pid,
        escape_server_text(owner.entry()),
        owner.mode
    );
    for note in &partial {
        eprintln!("mcp-conformance: {note}");
    }
    if let Some(dir) = corpus.dir() {
        eprintln!(
            "mcp-conformance: corpus {} ({} read)",
            dir.display(),
            counted(corpus.loaded(), "input")
        );
    }
    let guided = GuidedConfig {
        seed: args.seed,
        budget: Duration::from_secs_f64(args.time),
        interrupt: Some(caught.flag()),
        max_execs: None,
    };
    let mut findings: Vec<(mcp_conformance::checks::CheckId, FailureKind)> = Vec::new();
    let mut saved: Vec<PathBuf> = Vec::new();
    let outcome = coverage::fuzz(
        &mut target,
        &mut agent,
        corpus,
        &guided,
        |event| match event {
            GuidedEvent::Finding {
                finding,
                lines,
                execs,
                seconds,
            } => {
                if let Some(path) = finding.saved.clone().filter(|p| !saved.contains(p)) {
                    saved.push(path);
                }
                let key = (finding.check, finding.kind);
                if !findings.contains(&key) {
                    findings.push(key);
                    outln!("{}", finding.report());
                    outln!(
                        "  found after {seconds:.1} s and {}; coverage reached: {}",
                        counted(execs as usize, "case"),
                        lines.summary()
                    );
                }
            }
            GuidedEvent::Progress {
                execs,
                corpus,
                edges,
                seconds,
            } => eprintln!(
                "mcp-conformance: {seconds:.0} s: {}, {} kept, {} reached ({:.0} cases/s)",
                counted(execs as usize, "case"),
                counted(corpus, "input"),
                counted(edges, "edge"),
                execs as f64 / seconds.max(0.001)
            ),
        },
    );
    drop(target);
    if let Some(exit) = caught.exit() {
        return Ok(exit);
    }
    if outcome.blind {
        let partial = agent.partial();
        let why = match partial.first() {
            Some(note) => format!(
                "the process counted ({}) ran none of its counted code in {} cases: it starts the server in another process ({note}); give the server's own command after --",
                escape_server_text(owner.entry()),
                outcome.execs
            ),
            None => format!(
                "the process counted ({}) ran none of its counted code in {} cases: the server's code is outside what is counted (installed in site-packages or node_modules?); name its folder with --coverage-include",
                escape_server_text(owner.entry()),
                outcome.execs
            ),
        };
        return Err(Error::Coverage(why));
    }
    for note in agent.partial().iter().filter(|n| !partial.contains(n)) {
        outln!("note: {}", escape_server_text(note));
    }
    if agent.missed_answers() {
        outln!("note: the Node agent did not answer after some cases within 2 s: their coverage was not counted");
    }
    outln!(
        "ran {} ({:.0} cases/s) with coverage, kept {} (the corpus holds {}), reached {}: {}",
        counted(outcome.execs as usize, "case"),
        outcome.execs as f64 / outcome.seconds.max(0.001),
        counted(outcome.kept, "new input"),
        outcome.loaded + outcome.kept,
        counted(outcome.edges, "edge"),
        counted(findings.len(), "distinct failure")
    );
    outln!("coverage: {}", outcome.lines.summary());
    let listed = outcome.lines.files().filter(|(_, l)| !l.lines.is_empty());
    for (path, lines) in listed.take(20) {
        outln!(
            "  {}: {} of {}",
            escape_server_text(&path.display().to_string()),
            lines.hit.len(),
            counted(lines.lines.len(), "line")
        );
    }
    if outcome.words > 0 {
        outln!(
            "mutated with {} of the server's source",
            counted(outcome.words, "word")
        );
    }
    eprintln!(
        "mcp-conformance: {}",
        saved_line(&saved, &cases_dir, findings.len())
    );
    Ok(Exit::failed_if(!findings.is_empty()))
}

/// The live target's configuration from the fuzz setup.
fn live_config(
    setup: Setup,
    cases_dir: &std::path::Path,
    interrupt: Arc<AtomicBool>,
) -> LiveConfig {
    LiveConfig {
        command: setup.server,
        revision: setup.revision,
        timeout: Duration::from_secs_f64(setup.timeout),
        policy: setup.policy,
        cases_dir: Some(cases_dir.to_path_buf()),
        interrupt: Some(interrupt),
        ignore: Vec::new(),
    }
}

/// The stderr line after `fuzz --live`: where the case files went, how many, for how many
/// distinct failures (one file each).
fn saved_line(saved: &[PathBuf], dir: &std::path::Path, distinct: usize) -> String {
    match saved.len() {
        0 => format!(
            "no case file written to {} ({})",
            dir.display(),
            counted(distinct, "distinct failure")
        ),
        n => format!(
            "{} written to {} for {}; replay one with `mcp-conformance replay FILE` (the file names its server)",
            counted(n, "case file"),
            dir.display(),
            counted(distinct, "distinct failure")
        ),
    }
}

/// `--input` paths: files as given, folders replaced by their files in name order.
fn input_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut inputs = Vec::new();
    for path in paths {
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
    Ok(inputs)
}

/// What `--live` and `--coverage` caught: the flag their synchronous target checks
/// between cases and while it waits for the server, and the signal that raised it.
struct Caught {
    flag: Arc<AtomicBool>,
    signal: Arc<AtomicI32>,
}

impl Caught {
    /// Listens for SIGINT, SIGTERM and SIGHUP from a thread of its own, registered here,
    /// before any server starts, so an early signal is caught too.
    fn listen() -> Result<Self> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(Error::Runtime)?;
        let mut signals = runtime.block_on(async { Signals::register() })?;
        let caught = Self {
            flag: Arc::new(AtomicBool::new(false)),
            signal: Arc::new(AtomicI32::new(0)),
        };
        let (flag, signal) = (Arc::clone(&caught.flag), Arc::clone(&caught.signal));
        std::thread::spawn(move || {
            let n = runtime.block_on(signals.recv());
            signal.store(n, Ordering::SeqCst);
            flag.store(true, Ordering::SeqCst);
        });
        Ok(caught)
    }

    /// The flag for the target's config.
    fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }

    fn raised(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// `128 + the signal` once one was caught (the servers are ended by then: the target
    /// was dropped or stopped at the flag), after saying so on stderr
    /// ([`Exit::after_signal`]).
    fn exit(&self) -> Option<Exit> {
        self.raised()
            .then(|| Exit::after_signal(Some(self.signal.load(Ordering::SeqCst))))
    }
}
