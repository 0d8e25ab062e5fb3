//! Runs the whole suite against one server: every selected revision in a fresh process
//! (up to `jobs` of them at once), the negotiation probes, then every check of the
//! catalog on each revision's record.
//!
//! Revisions are independent conversations with their own processes and their own
//! seeds, so running several at once changes only the wall time: records are kept in the
//! order the revisions were asked for and judged in that order, whatever finishes first.
//! A run can be cut short (a signal, `max_time`): the revisions that finished are still
//! judged and reported, and the report says what did not run.
//!
//! Progress is reported as typed [`RunEvent`]s so that any front end (the CLI's progress
//! line, a libtest harness) can follow a run without parsing text.

mod coverage;
mod surface;

pub use surface::{check_surface, pending_path, take_surface, walk_surface, write_file};

use std::collections::HashMap;
use std::future::Future;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::task::JoinSet;

use crate::checks::{judge_all, skip_all, Ctx, CATALOG};
use crate::config::{default_jobs, CheckSelection};
use crate::protocol::{
    measured, Revision, SchemaSet, SessionConfig, TransportKind, Usage, REVISIONS,
};
use crate::records::{NegotiationRecord, RevisionRecord, VersionProbe};
use crate::report::{
    BudgetNote, CoverageNote, Incomplete, NotSpoken, PartTiming, RevisionReport, RevisionTiming,
    RunReport, RunTiming, Summary, TargetInfo,
};
use crate::scenarios::slot::{self, Pool, Slot};
use crate::scenarios::{
    negotiate, probe_unsupported, probe_url_patiently, progress, run_revision, CallPolicy, Carry,
    EndGuard, PlanCache, PropertyConfig, RevisionPlan, UrlKind,
};
use crate::transport::{check_reachable, check_tls, HttpKind, LaunchedServer, ServerCommand};

/// What to run.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// The server to start (once per revision, plus short negotiation probes).
    pub command: ServerCommand,
    /// Whether `command` is the bundled reference server (for the report header).
    pub reference: bool,
    /// Revisions to run, in order.
    pub revisions: Vec<&'static Revision>,
    /// Timeouts and limits.
    pub session: SessionConfig,
    /// Seed for generated scenarios, printed in every report.
    pub seed: u64,
    /// Which tools may be called.
    pub call_policy: CallPolicy,
    /// The property phase's budget; `None` skips it.
    pub properties: Option<PropertyConfig>,
    /// Where failing property cases are saved for `mcp-conformance replay`.
    pub cases_dir: Option<std::path::PathBuf>,
    /// Revisions driven at once (at least one; a revision waiting on a server whose processes all sleep lends its slot, `scenarios::slot`). The report is the same for every value.
    pub jobs: usize,
    /// A bound on the whole run: past it, what finished is judged and the report is
    /// marked incomplete.
    pub max_time: Option<Duration>,
    /// Revisions not run because the transport does not speak them, with why: each is
    /// reported with every check skipped (see [`Revision::not_spoken_over`]).
    pub not_run: Vec<(&'static Revision, String)>,
    /// Over Streamable HTTP, first ask whether the URL is a 2024-11-05 HTTP+SSE stream
    /// instead (the user named neither a transport nor revisions): if so, the run goes
    /// over HTTP+SSE ([`crate::scenarios::probe_url`]).
    pub detect_sse: bool,
    /// Which checks are reported (`--check` / `--skip-check`); the conversation is the
    /// same whatever is selected.
    pub checks: CheckSelection,
    /// Whether the report keeps the tool surface the revisions listed
    /// ([`RunReport::live_surface`], for `--snapshot`).
    pub surface: bool,
}

impl RunConfig {
    /// Every known revision against `command`, with default limits (over HTTP, when
    /// `command.http` is set, every revision spoken over Streamable HTTP:
    /// [`Revision::runs_over`]).
    pub fn new(command: ServerCommand) -> Self {
        let over_http = command.http.is_some();
        Self {
            command,
            reference: false,
            revisions: REVISIONS
                .iter()
                .filter(|r| !over_http || r.runs_over(TransportKind::StreamableHttp))
                .collect(),
            session: SessionConfig::default(),
            seed: 0,
            call_policy: CallPolicy::default(),
            properties: Some(PropertyConfig::default()),
            cases_dir: None,
            jobs: default_jobs(),
            max_time: None,
            not_run: Vec::new(),
            detect_sse: false,
            checks: CheckSelection::all(),
            surface: false,
        }
    }
}

/// Progress of a run.
#[derive(Debug, Clone)]
pub enum RunEvent {
    /// A revision's conversation is starting.
    RevisionStarted(&'static str),
    /// Version negotiation probes are starting.
    NegotiationStarted,
    /// A revision has been judged.
    RevisionJudged(&'static str, Summary),
    /// The run was cut short; what finished is being judged.
    Cut(String),
    /// Where each running revision stands (sent every [`PROGRESS_EVERY`] while any runs).
    Progress(Vec<(&'static str, progress::Snapshot)>),
}

/// How often [`RunEvent::Progress`] is sent.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// The stack of a thread that drives a run. The conversation's futures nest deeply and a
/// debug build's poll frames are large: a spawned thread's default 2 MiB overflowed once
/// 2026-07-28, the edge probes and HTTP joined the conversation. The memory is only
/// reserved, not touched, until used.
pub const RUN_STACK: usize = 64 << 20;

/// Runs the suite to completion from synchronous code, on a thread of its own with
/// [`RUN_STACK`] and a current-thread runtime: what the libtest harness and the tests
/// use, safe from any thread whatever its stack. Async callers use [`run`], or
/// [`run_until`] on a thread of [`RUN_STACK`] (the command line does: a `main` thread's
/// 8 MiB overflowed in a debug build once the revisions lent their slots).
pub fn run_blocking(config: &RunConfig) -> crate::Result<RunReport> {
    on_run_thread("mcp-conformance-run", || run(config, |_| {}))
}

/// Drives the future `work` makes to its end on a scoped thread named `name` with
/// [`RUN_STACK`] and a current-thread runtime; a panic there is resumed here.
fn on_run_thread<T: Send, F: Future<Output = crate::Result<T>>>(
    name: &str,
    work: impl FnOnce() -> F + Send,
) -> crate::Result<T> {
    std::thread::scope(|scope| {
        let driver = std::thread::Builder::new()
            .name(name.into())
            .stack_size(RUN_STACK)
            .spawn_scoped(scope, || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(crate::Error::Runtime)?;
                runtime.block_on(work())
            })
            .map_err(crate::Error::Runtime)?;
        match driver.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// Runs the suite. `Err` only for harness problems (e.g. the server cannot be spawned);
/// everything the server does wrong is in the report.
///
/// The run itself happens on a thread of its own with [`RUN_STACK`] (its events come back
/// to `on_event` here), so any caller's thread will do, a `#[tokio::test]`'s 2 MiB one
/// included. Dropping the returned future cuts the run: its servers are ended.
pub async fn run(
    config: &RunConfig,
    mut on_event: impl FnMut(RunEvent),
) -> crate::Result<RunReport> {
    let config = config.clone();
    let (events, mut received) = tokio::sync::mpsc::unbounded_channel();
    let (done, mut finished) = tokio::sync::oneshot::channel();
    // Dropped with this future: the run sees it and stops.
    let (_cancel, cancelled) = tokio::sync::oneshot::channel::<()>();
    let driver = std::thread::Builder::new()
        .name("mcp-conformance-run".into())
        .stack_size(RUN_STACK)
        .spawn(move || {
            let outcome = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(crate::Error::Runtime)
                .and_then(|runtime| {
                    let stop = async {
                        let _ = cancelled.await;
                        "the caller stopped waiting for the run".to_string()
                    };
                    let forward = |event| {
                        let _ = events.send(event);
                    };
                    runtime.block_on(run_until(&config, forward, stop))
                });
            let _ = done.send(outcome);
        })
        .map_err(crate::Error::Runtime)?;
    loop {
        tokio::select! {
            biased;
            Some(event) = received.recv() => on_event(event),
            outcome = &mut finished => {
                while let Ok(event) = received.try_recv() {
                    on_event(event);
                }
                return match (outcome, driver.join()) {
                    (Ok(outcome), _) => outcome,
                    // The driver ended without an outcome: it panicked.
                    (Err(_), Err(panic)) => std::panic::resume_unwind(panic),
                    (Err(_), Ok(())) => Err(crate::Error::Runtime(std::io::Error::other(
                        "the run's thread ended without an outcome",
                    ))),
                };
            }
        }
    }
}

/// Runs the suite until `stop` yields a reason (e.g. a signal arrived) or `max_time` has
/// passed: then every server is ended, the revisions that finished are judged, and the
/// report is marked incomplete with that reason.
pub async fn run_until(
    config: &RunConfig,
    on_event: impl FnMut(RunEvent),
    stop: impl Future<Output = String>,
) -> crate::Result<RunReport> {
    let (launched, detected) = reach(config).await?;
    let report = run_inner(detected.as_ref().unwrap_or(config), on_event, stop).await;
    if let Some(server) = launched {
        server.stop(config.session.shutdown_grace).await;
    }
    report
}

/// Reaches the server as the run will: over HTTP with a command (`--url URL -- CMD`), the
/// server is started once for the run and waited for until its URL accepts connections
/// (stopped by the caller at the end; dropping it kills its process group). Returns it, and
/// the config to run instead when the URL turned out to be 2024-11-05's HTTP+SSE.
async fn reach(config: &RunConfig) -> crate::Result<(Option<LaunchedServer>, Option<RunConfig>)> {
    let launched = match (&config.command.http, config.command.program.is_empty()) {
        (Some(target), false) => Some(
            LaunchedServer::start(
                &config.command,
                &target.url,
                config.session.timeout * STARTUP_WAIT,
            )
            .await?,
        ),
        (Some(target), true) => {
            check_reachable(&target.url, config.session.timeout).await?;
            None
        }
        _ => None,
    };
    // An https server whose certificate we do not trust is the harness's error, once,
    // not a finding per request.
    if let Some(target) = &config.command.http {
        check_tls(target, config.session.timeout).await?;
    }
    // One look at the URL: a wrong path is a setup error (a launched server is killed
    // when dropped), and an HTTP+SSE server is told apart when the user did not say.
    let kind = match &config.command.http {
        // A server started here gets the startup wait to mount its routes.
        Some(target) => {
            let patience = if launched.is_some() {
                config.session.timeout
            } else {
                Duration::ZERO
            };
            probe_url_patiently(target, config.session.timeout, patience).await
        }
        None => UrlKind::Streamable,
    };
    let detected = match kind {
        UrlKind::Missing(reason) => {
            return Err(crate::Error::HttpNotReady {
                url: config
                    .command
                    .http
                    .as_ref()
                    .map_or_else(String::new, |t| t.url.clone()),
                reason,
            })
        }
        UrlKind::Sse
            if config.detect_sse && config.command.http_kind == HttpKind::StreamableHttp =>
        {
            Some(over_sse(config))
        }
        _ => None,
    };
    Ok((launched, detected))
}

/// `config` over HTTP+SSE: 2024-11-05 runs, the rest are listed as not run.
fn over_sse(config: &RunConfig) -> RunConfig {
    let mut sse = config.clone();
    sse.command.http_kind = HttpKind::Sse;
    sse.revisions.clear();
    sse.not_run.clear();
    for revision in REVISIONS {
        match revision.not_spoken_over(HttpKind::Sse) {
            Some(why) => sse.not_run.push((revision, why)),
            None => sse.revisions.push(revision),
        }
    }
    sse
}

/// How many timeouts a started HTTP server may take to accept connections.
const STARTUP_WAIT: u32 = 3;

/// The run proper, in its steps: every revision's conversation (beside the
/// unsupported-version probe), the negotiation probes, the judging, then the report.
async fn run_inner(
    config: &RunConfig,
    mut on_event: impl FnMut(RunEvent),
    stop: impl Future<Output = String>,
) -> crate::Result<RunReport> {
    let started = Instant::now();
    let stop = or_deadline(stop, config.max_time);
    tokio::pin!(stop);

    // The property phase holds proptest's strategies, which are not `Send`: conversations
    // run as local tasks, interleaved on this thread while each waits on its server. The
    // unsupported-version probe needs nothing they learn: it runs beside them.
    let local = tokio::task::LocalSet::new();
    let (command, session) = (config.command.clone(), config.session.clone());
    let unsupported = local.spawn_local(async move {
        let (probe, timing) = timed(probe_unsupported(&command, &session)).await;
        probe.map(|p| (p, timing))
    });
    let (mut finished, cut) = local
        .run_until(conversations(config, &mut on_event, &mut stop))
        .await?;
    if cut.is_none() {
        if let Some(err) = dead_on_start(
            &config.command,
            finished.iter().flatten().map(|f| &f.record),
        ) {
            return Err(err);
        }
    }
    if let Some(dir) = &config.cases_dir {
        save_cases(dir, finished.iter_mut().flatten().map(|f| &mut f.record))?;
    }
    let negotiated = match cut {
        // Dropping the set (below) aborts the probe, which ends its server.
        Some(reason) => Err(reason),
        None => {
            on_event(RunEvent::NegotiationStarted);
            let probes = negotiation(config, &local, unsupported, &finished);
            tokio::select! {
                done = probes => Ok(done?),
                reason = &mut stop => Err(reason),
            }
        }
    };
    drop(local);
    let (negotiation, negotiation_timing, cut) = match negotiated {
        Ok((record, timing)) => (record, timing, None),
        Err(reason) => (
            NegotiationRecord::default(),
            PartTiming::default(),
            Some(reason),
        ),
    };
    if let Some(reason) = &cut {
        on_event(RunEvent::Cut(reason.clone()));
    }

    let judging = Instant::now();
    let mut judged = judge(config, &finished, &negotiation, &mut on_event)?;
    judged.add_not_run(config);
    let (mut report, timings) = judged.report(config, &negotiation);
    if config.surface {
        report.live_surface = Some(surface::gather(config, &finished));
    }
    report.incomplete = cut.map(|reason| Incomplete {
        reason,
        not_run: config
            .revisions
            .iter()
            .zip(&finished)
            .filter(|(_, f)| f.is_none())
            .map(|(r, _)| r.id)
            .collect(),
        negotiation_ran: negotiation.unsupported.is_some(),
    });
    // Work counted over every part (the parts' wall times overlap and are not used).
    let all = timings
        .iter()
        .map(|t| t.total)
        .fold(negotiation_timing, PartTiming::plus);
    report.timing = Some(RunTiming {
        wall_ms: millis(started.elapsed()),
        jobs: config.jobs.max(1),
        processes: all.processes,
        requests: all.requests,
        revisions: timings,
        negotiation: negotiation_timing,
        judging_ms: millis(judging.elapsed()),
        stretched: all.stretched,
        stretch_ms: all.stretch_ms,
    });
    Ok(report)
}

/// `stop`, or `max_time` passing first: either way, the reason the run is cut.
async fn or_deadline(stop: impl Future<Output = String>, max_time: Option<Duration>) -> String {
    let deadline = async {
        match max_time {
            Some(t) => {
                tokio::time::sleep(t).await;
                format!("--max-time of {} s reached", t.as_secs_f64())
            }
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        reason = stop => reason,
        reason = deadline => reason,
    }
}

/// The unsupported-version probe started beside the conversations, and what it cost.
type UnsupportedProbe = tokio::task::JoinHandle<crate::Result<(VersionProbe, PartTiming)>>;

/// The negotiation probes once every conversation finished: the unsupported-version
/// probe's outcome, then the probes that need what the conversations learnt.
async fn negotiation(
    config: &RunConfig,
    local: &tokio::task::LocalSet,
    unsupported: UnsupportedProbe,
    finished: &[Option<Finished>],
) -> crate::Result<(NegotiationRecord, PartTiming)> {
    // Borrowed, not cloned: a record holds every message of its revision.
    let records: Vec<&RevisionRecord> = finished.iter().flatten().map(|f| &f.record).collect();
    let (probe, probe_timing) = match local.run_until(unsupported).await {
        Ok(done) => {
            let (probe, timing) = done?;
            (Some(probe), timing)
        }
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(_) => (None, PartTiming::default()),
    };
    let (record, timing) =
        timed(negotiate(&config.command, &records, probe, &config.session)).await;
    Ok((record?, timing.plus(probe_timing)))
}

/// What judging the revisions gave, for the report.
#[derive(Default)]
struct Judged {
    reports: Vec<RevisionReport>,
    timings: Vec<RevisionTiming>,
    notes: Vec<CoverageNote>,
    budget: Vec<BudgetNote>,
    not_spoken: Vec<NotSpoken>,
}

/// Judges every finished revision's record on the whole catalog (each revision's schemas
/// compiled once), keeping the selected checks' results.
fn judge(
    config: &RunConfig,
    finished: &[Option<Finished>],
    negotiation: &NegotiationRecord,
    on_event: &mut impl FnMut(RunEvent),
) -> crate::Result<Judged> {
    let mut schemas: HashMap<&'static str, SchemaSet> = HashMap::new();
    let mut judged = Judged::default();
    for f in finished.iter().flatten() {
        let record = &f.record;
        let revision = record.negotiated.as_deref().and_then(Revision::find);
        if let Some(rev) = revision {
            if !schemas.contains_key(rev.id) {
                schemas.insert(rev.id, SchemaSet::new(rev)?);
            }
        }
        let ctx = Ctx {
            record,
            revision,
            schemas: revision.and_then(|r| schemas.get(r.id)),
            negotiation,
        };
        let mut results = judge_all(CATALOG, &ctx);
        if let Some(reason) = ctx.era_skip() {
            judged.not_spoken.push(NotSpoken {
                revision: record.requested.id,
                reason,
                transport: None,
            });
        }
        judged.notes.extend(coverage::note(
            record,
            revision.unwrap_or(record.requested),
            &results,
        ));
        judged
            .budget
            .extend(
                record
                    .properties
                    .iter()
                    .flat_map(|p| &p.cut)
                    .map(|what| BudgetNote {
                        revision: record.requested.id,
                        what: what.clone(),
                    }),
            );
        results.retain(|r| config.checks.selects(r.check));
        on_event(RunEvent::RevisionJudged(
            record.requested.id,
            Summary::of(&results),
        ));
        judged.reports.push(RevisionReport {
            revision: record.requested.id,
            negotiated: record.negotiated.clone(),
            results,
        });
        judged.timings.push(RevisionTiming {
            revision: record.requested.id,
            total: f.timing,
            scripted_ms: millis(record.phases.scripted),
            property_ms: millis(record.phases.properties),
        });
    }
    Ok(judged)
}

impl Judged {
    /// The revisions the transport does not speak: every selected check skipped, with why.
    fn add_not_run(&mut self, config: &RunConfig) {
        for (revision, reason) in &config.not_run {
            self.reports.push(RevisionReport {
                revision: revision.id,
                negotiated: None,
                results: skip_all(CATALOG, revision, reason)
                    .into_iter()
                    .filter(|r| config.checks.selects(r.check))
                    .collect(),
            });
            self.not_spoken.push(NotSpoken {
                revision: revision.id,
                reason: reason.clone(),
                transport: Some(target_info(&config.command, false).transport),
            });
        }
    }

    /// The run's report, revisions in revision order, and each revision's timing (the
    /// run's timing and whether it is incomplete are the caller's).
    fn report(
        self,
        config: &RunConfig,
        negotiation: &NegotiationRecord,
    ) -> (RunReport, Vec<RevisionTiming>) {
        let Judged {
            mut reports,
            timings,
            notes,
            budget,
            not_spoken,
        } = self;
        // In revision order, wherever the not-run ones fall.
        reports.sort_by_key(|r| REVISIONS.iter().position(|rev| rev.id == r.revision));
        let target = target_info(&config.command, config.reference);
        let mut report = RunReport::new(target, config.seed, reports);
        report.link_causes();
        report.coverage = notes;
        report.budget = budget;
        report.era = negotiation.era.map(|e| e.describe());
        report.not_spoken = not_spoken;
        (report, timings)
    }
}

/// Stderr lines quoted when a server dies on start.
const DEAD_STDERR_LINES: usize = 12;

/// [`crate::Error::ServerExited`] when every revision's server exited before answering
/// its first request and wrote nothing on stdout: it never started (a missing module or
/// script), and a dozen findings about a protocol it never spoke would bury the one line
/// of stderr that says why. A server that wrote anything, or answered in one revision,
/// is judged as usual.
fn dead_on_start<'a>(
    command: &ServerCommand,
    records: impl IntoIterator<Item = &'a RevisionRecord>,
) -> Option<crate::Error> {
    use crate::protocol::{Direction, Reply, Silence};
    let mut exit = None;
    for record in records {
        let Reply::Silent(Silence::Exited(info)) = &record.initialize.reply else {
            return None;
        };
        if record.transcript.received().next().is_some() {
            return None;
        }
        exit.get_or_insert((info.describe(), record));
    }
    let (exit, record) = exit?;
    let stderr = record
        .transcript
        .stderr_tail(DEAD_STDERR_LINES)
        .into_iter()
        .filter(|e| e.direction == Direction::Stderr)
        .map(|e| crate::report::escape_server_text(&e.text))
        .collect();
    Some(crate::Error::ServerExited {
        command: command.display(),
        exit,
        stderr,
    })
}

/// A revision's conversation and what it cost.
struct Finished {
    record: RevisionRecord,
    timing: PartTiming,
}

/// Runs every revision's conversation, up to `jobs` driven at once (one waiting on a
/// sleeping server lends its slot: `scenarios::slot`), until all have finished or
/// `stop` yields. Returns one slot per revision, in the order asked (`None`: it did not
/// finish), and the reason the run was cut, if it was. Unfinished conversations are
/// aborted, which ends their servers.
async fn conversations(
    config: &RunConfig,
    on_event: &mut impl FnMut(RunEvent),
    stop: &mut (impl Future<Output = String> + Unpin),
) -> crate::Result<(Vec<Option<Finished>>, Option<String>)> {
    let shared = Rc::new(config.clone());
    // Tool strategies, built by the first revision that lists a tool, reused by the rest.
    let plans = Rc::new(PlanCache::default());
    // Minimal cases found by one revision, tried first by the next (once per run).
    let carry = Rc::new(Carry::default());
    let mut finished: Vec<Option<Finished>> = config.revisions.iter().map(|_| None).collect();
    let mut running = JoinSet::new();
    // What each running revision is doing, for the front end's status line.
    let mut live: Vec<(usize, &'static str, Arc<progress::Progress>)> = Vec::new();
    let mut ticker = tokio::time::interval(PROGRESS_EVERY);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    // A revision holds one of `jobs` permits while it is driven; one only waiting on a
    // server that sleeps lends it (`scenarios::slot`), and the next revision starts.
    let pool = Pool::new(config.jobs);
    pool.to_start(config.revisions.len());
    let mut next = 0;
    let mut cut = None;
    // A slot the select below found free, for the next revision.
    let mut ready: Option<Arc<Slot>> = None;
    loop {
        // Every revision a free slot allows starts now, in the order asked.
        while next < config.revisions.len() {
            let Some(slot) = ready.take().or_else(|| pool.try_slot()) else {
                break;
            };
            let revision = config.revisions[next];
            on_event(RunEvent::RevisionStarted(revision.id));
            let tracker = start(&mut running, &shared, (&plans, &carry), next, slot);
            pool.one_started();
            live.push((next, revision.id, tracker));
            next += 1;
        }
        let more = next < config.revisions.len();
        let joined = tokio::select! {
            Some(slot) = pool.slot(), if more => {
                ready = Some(slot);
                continue;
            }
            joined = running.join_next(), if !running.is_empty() || !more => joined,
            _ = ticker.tick() => {
                let now = live.iter().map(|(_, rev, p)| (*rev, p.snapshot())).collect();
                on_event(RunEvent::Progress(now));
                continue;
            }
            reason = &mut *stop => {
                cut = Some(reason);
                // No more revisions start: nothing waits for them.
                pool.to_start(0);
                break;
            }
        };
        let Some(joined) = joined else { break };
        if let Ok((slot, _)) = &joined {
            live.retain(|(s, ..)| s != slot);
        }
        let (slot, (record, timing)) = match joined {
            Ok(done) => done,
            // A panic in a conversation is a bug of ours: let it surface as one.
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            Err(_) => continue,
        };
        match record {
            Ok(record) => finished[slot] = Some(Finished { record, timing }),
            Err(e) => {
                running.shutdown().await;
                return Err(e);
            }
        }
    }
    // Aborts what still runs and waits until each task is dropped: its sessions end
    // their servers as they drop.
    running.shutdown().await;
    Ok((finished, cut))
}

/// What a revision's task yields: its place in the order asked, its record and its cost.
type Conversation = (usize, (crate::Result<RevisionRecord>, PartTiming));

/// Starts revision number `n` of the run holding `slot`, which it gives back when done.
/// Returns what it reports progress to.
fn start(
    running: &mut JoinSet<Conversation>,
    config: &Rc<RunConfig>,
    (plans, carry): (&Rc<PlanCache>, &Rc<Carry>),
    n: usize,
    slot: Arc<Slot>,
) -> Arc<progress::Progress> {
    let c = Rc::clone(config);
    let plans = Rc::clone(plans);
    let carry = Rc::clone(carry);
    let tracker = Arc::new(progress::Progress::default());
    let progress = Arc::clone(&tracker);
    running.spawn_local(async move {
        // However the revision ends (or is aborted), the next stops waiting on it.
        let _ended = EndGuard::new(&carry, n);
        // Boxed: the conversation is a large future, and each wrapper below would
        // otherwise hold (and, in a debug build, copy on its stack) the whole of it.
        let plan = RevisionPlan {
            command: &c.command,
            revision: c.revisions[n],
            session: &c.session,
            policy: &c.call_policy,
            properties: c.properties.as_ref(),
            seed: c.seed,
            plans: &plans,
            carry: Some((&carry, n)),
        };
        let conversation = Box::pin(run_revision(&plan));
        let conversation = progress::tracked(progress, conversation);
        let done = timed(slot::holding(Arc::clone(&slot), conversation)).await;
        slot.release();
        (n, done)
    });
    tracker
}

/// Runs `part`, measuring its wall time, processes and requests.
async fn timed<F: Future>(part: F) -> (F::Output, PartTiming) {
    let started = Instant::now();
    let (
        output,
        Usage {
            processes,
            requests,
            stretched,
            stretch_micros,
        },
    ) = measured(part).await;
    let timing = PartTiming {
        wall_ms: millis(started.elapsed()),
        processes,
        requests,
        stretched,
        stretch_ms: stretch_micros / 1000,
    };
    (output, timing)
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Saves every failing property case as `DIR/<revision>-<check>-<n>.json`.
fn save_cases<'a>(
    dir: &std::path::Path,
    records: impl Iterator<Item = &'a mut RevisionRecord>,
) -> crate::Result<()> {
    let write_err = |path: &std::path::Path, source| crate::Error::WriteReport {
        path: path.to_path_buf(),
        source,
    };
    for record in records {
        let Some(props) = record.properties.as_mut() else {
            continue;
        };
        for (n, failure) in props.failures.iter_mut().enumerate() {
            std::fs::create_dir_all(dir).map_err(|e| write_err(dir, e))?;
            let path = dir.join(format!(
                "{}-{}-{}.json",
                failure.case.revision,
                failure.check,
                n + 1
            ));
            let text = serde_json::to_string_pretty(&failure.case)?;
            std::fs::write(&path, text).map_err(|e| write_err(&path, e))?;
            failure.case_path = Some(path);
        }
    }
    Ok(())
}

/// The target of a run against `command`: over HTTP, the URL (any user name and
/// password in it redacted) and the command that was started, if one was.
fn target_info(command: &ServerCommand, reference: bool) -> TargetInfo {
    if let Some(server) = &command.in_process {
        return TargetInfo {
            transport: "in-process",
            command: server.name().to_string(),
            args: Vec::new(),
            reference,
            url: None,
        };
    }
    let Some(http) = &command.http else {
        return TargetInfo {
            transport: "stdio",
            command: command.program.clone(),
            args: command.args.clone(),
            reference,
            url: None,
        };
    };
    let url = match reqwest::Url::parse(&http.url) {
        Ok(mut url) if !url.username().is_empty() || url.password().is_some() => {
            let _ = url.set_username("redacted");
            let _ = url.set_password(None);
            url.to_string()
        }
        _ => http.url.clone(),
    };
    // `command` stays the URL and `args` the started command after `--`, as the JSON
    // shape has always had them (README: fields may be added, none renamed); `url` is the
    // URL alone.
    let args = if command.program.is_empty() {
        Vec::new()
    } else {
        std::iter::once("--".to_string())
            .chain(std::iter::once(command.program.clone()))
            .chain(command.args.iter().cloned())
            .collect()
    };
    TargetInfo {
        transport: command.http_kind.name(),
        command: url.clone(),
        args,
        reference,
        url: Some(url),
    }
}
