//! The scripted conversation run once per protocol revision, in a fresh process.
//!
//! Order matters: well-formed traffic first (handshake, pings, tools/list), then the
//! malformed probes, whose effect on a fragile server must not hide the earlier checks,
//! then a liveness ping and the stdio shutdown sequence.

use std::rc::Rc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::early::{Early, Listing};
use super::edges;
use super::initialize_params;
use super::modern;
use super::policy::CallPolicy;
use super::progress::{self, Phase};
use super::property::{Carry, PlanCache, PropertyConfig, PropertyRun};
use super::slot;
use super::tools;
use crate::protocol::{
    Exchange, PendingShutdown, Revision, SchemaSet, Session, SessionConfig, ShutdownOutcome,
    Transcript,
};
use crate::records::PropertyRecord;
use crate::records::{EdgeRecord, ModernRecord};
use crate::records::{
    EraFinding, PhaseTimes, RevisionRecord, ShutdownRecord, MALFORMED_JSON, MAX_PAGES, PING_IDS,
};
use crate::transport::{group_asleep, ServerCommand};

/// Everything one revision's conversation runs with, built by the runner: one value
/// handed down instead of loose arguments.
#[derive(Clone, Copy)]
pub struct RevisionPlan<'a> {
    /// The server to start.
    pub command: &'a ServerCommand,
    /// The revision asked for.
    pub revision: &'static Revision,
    /// Timeouts and limits of every session.
    pub session: &'a SessionConfig,
    /// Which tools may be called, and how.
    pub policy: &'a CallPolicy,
    /// The property phase's settings; `None` when it does not run.
    pub properties: Option<&'a PropertyConfig>,
    /// The run's seed.
    pub seed: u64,
    /// The tool strategies the run's other revisions built (see [`PlanCache`]).
    pub plans: &'a PlanCache,
    /// The minimal cases earlier revisions of the run found, and this revision's place in
    /// the run's order (see [`Carry`]).
    pub carry: Option<(&'a Carry, usize)>,
}

/// Runs the revision's conversation against a fresh server process, and its property
/// phase: beside the conversation from the moment one of its tool calls is slow, else
/// after it (`early.rs`).
pub async fn run_revision(plan: &RevisionPlan<'_>) -> crate::Result<RevisionRecord> {
    let early = Early::default();
    let conversation = async {
        let record = converse_all(plan, &early).await;
        // On every path (a server that would not start too): nothing more is told.
        early.close();
        // Its property phase, if still under way, runs on a slot of its own.
        slot::give_up();
        record
    };
    let (record, generated) = tokio::join!(conversation, generate_early(&early, plan));
    let mut record = record?;
    // As if run one after the other: a server that flooded its scripted session gets no
    // property phase (it would flood every case too), nor does one that stopped it.
    if let (Some((found, took)), None, None) =
        (generated?, record.transcript.flood_cut(), &record.stopped)
    {
        record.properties = Some(found);
        record.phases.properties = took;
    }
    Ok(record)
}

/// The revision's own conversation: handshake, scripted part and shutdown, with the
/// property phase only when it did not start early (no tool call was slow after the
/// listing).
async fn converse_all(plan: &RevisionPlan<'_>, early: &Early) -> crate::Result<RevisionRecord> {
    let started = Instant::now();
    progress::enter(Phase::Starting);
    let mut session = Session::start(plan.command, plan.session.clone())?;
    let (initialize, modern, negotiated) = handshake(&mut session, plan.revision).await;
    // How slowly this server starts on this machine now: the yardstick for its exit.
    let start_up = started.elapsed();
    progress::enter(Phase::Scripted);
    let mut record = new_record(plan.revision, initialize, negotiated, modern);
    record.in_process = session.is_in_process();
    record.stopped = stop_reason(&record);
    let scripted = scripted(&mut session, &mut record, plan, early).await;
    early.close();
    let (probes_left, spare) = scripted?;
    let mut ending = Ending {
        already_ended: session.ended().map(|s| s.describe()),
        session,
        record,
        started,
        spare,
        property_early: early.started(),
    };
    match ending.begin_shutdown(plan, start_up, probes_left).await? {
        Ok(()) => ending.generate_after(plan, early).await,
        Err(pending) => ending.generate_beside(pending, plan, early).await,
    }
}

/// Opens the conversation (`initialize`, or the modern discovery) and reads the version
/// the server settled on.
pub(super) async fn handshake(
    session: &mut Session,
    revision: &'static Revision,
) -> (Exchange, Option<ModernRecord>, Option<String>) {
    let (initialize, modern) = if revision.modern() {
        let (discover, record) = modern::open(session, revision.id).await;
        (discover, Some(record))
    } else {
        let params = initialize_params(revision.id);
        (session.request("initialize", Some(params)).await, None)
    };
    let negotiated = match &modern {
        Some(m) => m.era.speaks().then(|| revision.id.to_string()),
        None => initialize
            .result()
            .and_then(|r| r.get("protocolVersion"))
            .and_then(Value::as_str)
            .map(str::to_string),
    };
    (initialize, modern, negotiated)
}

/// The record of a conversation that has only had its handshake.
pub(super) fn new_record(
    requested: &'static Revision,
    initialize: Exchange,
    negotiated: Option<String>,
    modern: Option<ModernRecord>,
) -> RevisionRecord {
    RevisionRecord {
        requested,
        initialize,
        negotiated,
        stopped: None,
        initialized_seq: None,
        pings: Vec::new(),
        batch: None,
        tools_pages: Vec::new(),
        tools_walk_stopped: None,
        tools: None,
        unknown_method: None,
        invalid_request: None,
        parse_error: None,
        ping_after_malformed: None,
        edges: EdgeRecord::default(),
        shutdown: None,
        properties: None,
        modern,
        http: None,
        in_process: false,
        transcript: Transcript::default(),
        phases: PhaseTimes::default(),
    }
}

/// Why the handshake leaves nothing to converse about, if it does.
pub(super) fn stop_reason(record: &RevisionRecord) -> Option<String> {
    match (&record.modern, &record.negotiated, record.initialize.result()) {
        (Some(m), _, _) => match &m.era {
            EraFinding::Legacy(why) => Some(why.clone()),
            EraFinding::OtherVersions(versions) => Some(format!(
                "the server is modern but does not offer {} (it offers {versions:?})",
                record.requested.id
            )),
            _ => None,
        },
        (None, _, None) => Some("initialize did not succeed".to_string()),
        (None, None, Some(_)) => {
            Some("the initialize result has no protocolVersion string".to_string())
        }
        (None, Some(v), Some(_)) if Revision::find(v).is_none_or(Revision::modern) => {
            Some(format!(
                "the server negotiated {v:?}, not a handshake revision this suite knows; a client disconnects here"
            ))
        }
        _ => None,
    }
}

/// The scripted conversation itself, unless the handshake stopped it. Returns whether
/// the edge probes' short session is still to run (beside the stdio shutdown), and a
/// probe's session left healthy, where the property phase starts instead of a fresh
/// process (over stdio, where a session is a process start).
async fn scripted(
    session: &mut Session,
    record: &mut RevisionRecord,
    plan: &RevisionPlan<'_>,
    early: &Early,
) -> crate::Result<(bool, Option<Session>)> {
    if record.stopped.is_some() {
        return Ok((false, None));
    }
    let policy = (plan.policy, early);
    if record.modern.is_some() {
        converse_modern(session, record, policy).await;
        let spare = modern::probes(session, record, plan.command, plan.session).await;
        return Ok((false, spare));
    }
    converse(session, record, policy).await;
    // The edge probes' short session (initialize-phase probes: legacy only) runs
    // while the main session idles, not beside its traffic: on a loaded machine
    // two busy processes of one server only make each slower. Over stdio that is
    // once stdin is closed, while the first second of the shutdown only watches
    // the process (below), not beside the property phase, whose work on this
    // thread could hold up its reading; over HTTP here.
    if session.is_http() {
        let (found, _) =
            edges::early_session(plan.command, plan.revision, plan.session, false).await?;
        record.edges.early = Some(found);
        return Ok((false, None));
    }
    Ok((true, None))
}

/// A revision's conversation once its scripted part is done: what its shutdown and the
/// property phase work on.
struct Ending {
    session: Session,
    record: RevisionRecord,
    /// When the server was started.
    started: Instant,
    /// A probe's session left healthy, for the property phase (see [`scripted`]).
    spare: Option<Session>,
    /// How the server had already ended before its shutdown began, if it had.
    already_ended: Option<String>,
    /// Whether the property phase started early (`early.rs`): it is not this part's.
    property_early: bool,
}

impl Ending {
    /// Ends the scripted session (and runs the edge probes' short session, if still to
    /// run, beside it). Returns the rest of a stdio shutdown the server did not finish
    /// within [`QUIET_SHUTDOWN_CHECK`].
    async fn begin_shutdown(
        &mut self,
        plan: &RevisionPlan<'_>,
        start_up: Duration,
        early: bool,
    ) -> crate::Result<Result<(), PendingShutdown>> {
        if self.session.is_http() {
            // Over HTTP there is no stdin to close: the session is DELETEd instead, and
            // the HTTP-only probes run in a session of their own.
            let _ = self.session.shutdown().await;
            self.record.http = Some(
                super::http::record(&self.session, plan.command, plan.revision, plan.session)
                    .await?,
            );
            super::http::record_modern(&mut self.record, plan.command, plan.session, plan.policy)
                .await?;
            return Ok(Ok(()));
        }
        let keep = !self.property_early;
        let early = async {
            match early {
                true => edges::early_session(plan.command, plan.revision, plan.session, keep)
                    .await
                    .map(Some),
                false => Ok(None),
            }
        };
        let grace = start_up.saturating_mul(SHUTDOWN_PER_START_UP);
        let (ended, early) = tokio::join!(
            self.session.begin_shutdown(QUIET_SHUTDOWN_CHECK, grace),
            early
        );
        if let Some((found, kept)) = early? {
            self.record.edges.early = Some(found);
            self.spare = self.spare.take().or(kept);
        }
        match ended {
            Ok(ended) => {
                let mut record = shutdown_record(&self.already_ended, ended);
                if self.already_ended.is_some() && !self.record.in_process {
                    record = fresh_shutdown(plan, &self.already_ended)
                        .await
                        .unwrap_or(record);
                }
                self.record.shutdown = Some(record);
                Ok(Ok(()))
            }
            Err(pending) => Ok(Err(pending)),
        }
    }

    /// The property phase once the shutdown is over.
    async fn generate_after(
        self,
        plan: &RevisionPlan<'_>,
        early: &Early,
    ) -> crate::Result<RevisionRecord> {
        let Ending {
            session,
            mut record,
            started,
            spare,
            ..
        } = self;
        record.transcript = session.into_transcript();
        record.phases.scripted = started.elapsed();
        if let Some((found, took)) = generate(&record, spare, plan, early).await? {
            record.properties = Some(found);
            record.phases.properties = took;
        }
        Ok(record)
    }

    /// The property phase beside the rest of a shutdown: the server is still running and
    /// quiet after stdin closed (a timer our calls started keeps it alive), and the rest
    /// of the grace only watches the process, so it is waited beside the property phase
    /// (processes of its own) instead of before it. Once the property phase is done, a
    /// server still sleeping out its grace holds no job slot: the next revision starts
    /// meanwhile (`slot`).
    async fn generate_beside(
        self,
        pending: PendingShutdown,
        plan: &RevisionPlan<'_>,
        early: &Early,
    ) -> crate::Result<RevisionRecord> {
        let Ending {
            mut session,
            mut record,
            started,
            spare,
            already_ended,
            ..
        } = self;
        let server = session.server_group();
        let ending = async move {
            let ended = session.finish_shutdown(pending).await;
            (ended, session.into_transcript(), started.elapsed())
        };
        tokio::pin!(ending);
        let mut ended_first = None;
        let generated = {
            let work = generate(&record, spare, plan, early);
            tokio::pin!(work);
            loop {
                tokio::select! {
                    ended = &mut ending, if ended_first.is_none() => ended_first = Some(ended),
                    generated = &mut work => break generated,
                }
            }
        };
        let (ended, transcript, scripted) = match ended_first {
            Some(ended) => ended,
            None => slot::lend_rest(move || server.and_then(group_asleep), ending).await,
        };
        record.shutdown = Some(shutdown_record(&already_ended, ended));
        record.transcript = transcript;
        record.phases.scripted = scripted;
        // As if run one after the other: a server that flooded its scripted session
        // as it ended gets no property phase (it would flood every case too).
        let generated = generated?;
        if let (Some((found, took)), None) = (generated, record.transcript.flood_cut()) {
            record.properties = Some(found);
            record.phases.properties = took;
        }
        Ok(record)
    }
}

/// The stdio shutdown judged on a fresh process, when the main session had ended before
/// its stdin could be closed (a probe crashed it): initialize, `initialized`, a liveness
/// request, then stdin closed. `None` when that process does not get that far (a
/// server that fails whatever it is sent: nothing to judge a shutdown on).
async fn fresh_shutdown(
    plan: &RevisionPlan<'_>,
    already_ended: &Option<String>,
) -> Option<ShutdownRecord> {
    let started = Instant::now();
    let mut session = Session::start(plan.command, plan.session.clone()).ok()?;
    let (initialize, modern, _) = handshake(&mut session, plan.revision).await;
    let start_up = started.elapsed();
    let opened = initialize.result().is_some() && session.ended().is_none();
    if opened && modern.is_none() {
        session.notify("notifications/initialized", None).await;
    }
    let answered = opened && session.liveness().await.result().is_some();
    if !answered || session.ended().is_some() {
        session.kill().await;
        return None;
    }
    let grace = start_up.saturating_mul(SHUTDOWN_PER_START_UP);
    let ended = match session.begin_shutdown(grace, grace).await {
        Ok(ended) => ended,
        Err(pending) => session.finish_shutdown(pending).await,
    };
    let mut record = shutdown_record(already_ended, ended);
    record.fresh = Some(session.into_transcript());
    Some(record)
}

/// What the shutdown record says of how a server ended.
fn shutdown_record(
    already_ended: &Option<String>,
    (exit, voluntary, waited): ShutdownOutcome,
) -> ShutdownRecord {
    ShutdownRecord {
        exit,
        already_ended: already_ended.clone(),
        voluntary,
        waited,
        fresh: None,
    }
}

/// The shutdown grace is at least this many times the server's own start-up (spawn to
/// the initialize answer), measured in the same session: a machine loaded enough to make
/// a server start slowly makes it exit slowly too, and load must not turn that into a
/// finding. Idle, every server seen starts within 0.7 s and exits within 0.4 s, so the
/// configured grace (2 s) stands; under six busy loops on two cores a Python SDK server
/// started in 2.1 to 2.5 s and exited in 0.7 to 1.0 s (grace 6 to 7.5 s).
const SHUTDOWN_PER_START_UP: u32 = 3;

/// How long the scripted shutdown is waited for before the property phase starts beside
/// it: most servers exit within it (a Node server in milliseconds, a Python one in 0.2 to
/// 0.4 s), and one that writes more than a few lines in it (a flood as stdin closes, not a
/// timer's notification: [`Session::begin_shutdown`]) is read in its own turn.
const QUIET_SHUTDOWN_CHECK: Duration = Duration::from_secs(1);

/// The property phase once the scripted conversation is over, when it did not start
/// early (then it is not this one's, and a spare session is only closed), with how long
/// it took; `None` when it does not run (disabled, the conversation stopped, or the
/// server flooded it). `early` tells each tool's pace, all known by now.
async fn generate(
    record: &RevisionRecord,
    spare: Option<Session>,
    plan: &RevisionPlan<'_>,
    early: &Early,
) -> crate::Result<Option<(PropertyRecord, Duration)>> {
    let started = Instant::now();
    // A server that flooded the scripted session would flood every property case too.
    let flooded = record.transcript.flood_cut().is_some();
    let ran_early = early.started();
    let (Some(props), None, false, false) = (plan.properties, &record.stopped, flooded, ran_early)
    else {
        if let Some(mut spare) = spare {
            spare.kill().await;
        }
        return Ok(None);
    };
    let listing = early.told().unwrap_or_else(|| Rc::new(listing_of(record)));
    // The spare session speaks the revision it was opened for: the property phase's
    // only when the server negotiated the revision asked for.
    let spare = match spare {
        Some(mut other) if listing.revision.id != record.requested.id => {
            other.kill().await;
            None
        }
        spare => spare,
    };
    let found = property_run(plan, props, &listing, early, spare).await?;
    Ok(Some((found, started.elapsed())))
}

/// The property phase from the moment a scripted tool call is slow (the listing walked
/// before it), on a job slot of its own, learning each tool's pace from `early`; `None`
/// when it does not start so (disabled, or no slow call after a listing).
async fn generate_early(
    early: &Early,
    plan: &RevisionPlan<'_>,
) -> crate::Result<Option<(PropertyRecord, Duration)>> {
    let Some(props) = plan.properties else {
        return Ok(None);
    };
    let Some(listing) = early.listing().await else {
        return Ok(None);
    };
    let started = Instant::now();
    let found = slot::beside(property_run(plan, props, &listing, early, None)).await?;
    Ok(Some((found, started.elapsed())))
}

/// The property phase on `listing`, starting on `spare` if given.
async fn property_run(
    plan: &RevisionPlan<'_>,
    props: &PropertyConfig,
    listing: &Listing,
    early: &Early,
    spare: Option<Session>,
) -> crate::Result<PropertyRecord> {
    let schemas = SchemaSet::new(listing.revision)?;
    let run = PropertyRun {
        command: plan.command,
        session: plan.session,
        revision: listing.revision,
        schemas: &schemas,
        pages: &listing.pages,
        tools: listing.tools,
        policy: plan.policy,
        seed: plan.seed,
        config: props,
        early: Some(early),
        plans: Some(plan.plans),
        carry: plan.carry,
    };
    Ok(run.run_on(spare).await)
}

/// What the property phase starts from, as the scripted conversation has it now.
fn listing_of(record: &RevisionRecord) -> Listing {
    let revision = record
        .negotiated
        .as_deref()
        .and_then(Revision::find)
        .unwrap_or(record.requested);
    let tools = record.declares_tools() && record.tools_pages.iter().all(|p| p.result().is_some());
    let pages = match tools {
        true => record.tools_pages.clone(),
        false => Vec::new(),
    };
    Listing {
        revision,
        pages,
        tools,
    }
}

/// Each step runs only while the server is still there: after it exits, later probes
/// are not sent (their checks skip) and `rpc-response-required` reports the exit once.
async fn converse(
    session: &mut Session,
    record: &mut RevisionRecord,
    policy: (&CallPolicy, &Early),
) {
    session.notify("notifications/initialized", None).await;
    record.initialized_seq = session.transcript().entries().len().checked_sub(1);

    record.pings.push(session.request("ping", None).await);
    for id in PING_IDS {
        let id: Value = serde_json::from_str(id).unwrap_or(Value::Null);
        record
            .pings
            .push(session.request_with_id(id, "ping", None).await);
    }
    if session.ended().is_some() {
        return;
    }
    let negotiated = record
        .negotiated
        .as_deref()
        .and_then(Revision::find)
        .unwrap_or(record.requested);
    if negotiated.batching {
        let calls = [(json!("batch-1"), "ping"), (json!("batch-2"), "ping")];
        record.batch = Some(session.request_batch(&calls).await);
        if session.ended().is_some() {
            return;
        }
    }
    tools_and_malformed(session, record, policy).await;
}

/// The modern conversation before its own probes: the liveness request with the odd ids
/// of the ping probes (`RPC-ID-ECHO`; `ping` itself is gone), then what both eras share.
async fn converse_modern(
    session: &mut Session,
    record: &mut RevisionRecord,
    policy: (&CallPolicy, &Early),
) {
    record.pings.push(session.liveness().await);
    for id in PING_IDS {
        let id: Value = serde_json::from_str(id).unwrap_or(Value::Null);
        let method = session.liveness_method();
        record
            .pings
            .push(session.request_with_id(id, method, None).await);
    }
    if session.ended().is_some() {
        return;
    }
    tools_and_malformed(session, record, policy).await;
}

/// The Tools conversation, an unknown method and the malformed probes, then a liveness
/// request: the same in both eras.
async fn tools_and_malformed(
    session: &mut Session,
    record: &mut RevisionRecord,
    (policy, early): (&CallPolicy, &Early),
) {
    let (pages, stopped) = tools::walk(session, MAX_PAGES).await;
    record.tools_pages = pages;
    record.tools_walk_stopped = stopped;
    // The property phase needs no more than the listing to start (`early.rs`).
    let listing = Rc::new(listing_of(record));
    early.listed(Rc::clone(&listing));
    if session.ended().is_some() {
        return;
    }
    // The Tools conversation needs a complete first listing; a server that stalls or
    // fails on tools/list would only make every later step wait out its timeout.
    if listing.tools {
        let revision = listing.revision;
        // Task-augmented calls only where the server declares them (2025-11-25 tasks.mdx,
        // Tool-Level Negotiation: otherwise clients "MUST NOT attempt" them).
        let capabilities = record.init_result().and_then(|r| r.get("capabilities"));
        let tasks = revision.tasks && crate::rules::declares_task_calls(capabilities);
        let limits = tools::Limits {
            max_pages: MAX_PAGES,
            tasks,
            listing_ended: record.tools_walk_stopped.is_none(),
        };
        record.tools =
            Some(tools::converse(session, revision, &listing.pages, (policy, early), limits).await);
        if session.ended().is_some() {
            return;
        }
    }
    record.unknown_method = Some(session.request("conformance/none", Some(json!({}))).await);
    if session.ended().is_some() {
        return;
    }
    let batching = record
        .negotiated
        .as_deref()
        .and_then(Revision::find)
        .unwrap_or(record.requested)
        .batching;
    edges::in_session(session, batching, &mut record.edges).await;
    if session.ended().is_some() {
        return;
    }

    // A request object without `method` (RPC-ERR-INVALID-REQUEST). Its id is readable,
    // so the error must carry it (RPC-ERROR-ID); an error with a null or absent id is
    // still taken as the probe's answer, so that rule can judge it (A2 excuses the id
    // only when it could not be read).
    let id = json!(900_001);
    let line = json!({"jsonrpc": "2.0", "id": id, "params": {}}).to_string();
    record.invalid_request = Some(
        session
            .request_raw("request without method", &line, Some(id))
            .await,
    );
    if session.ended().is_some() {
        return;
    }
    edges::bad_id(session, &mut record.edges).await;
    if session.ended().is_some() {
        return;
    }
    record.parse_error = Some(
        session
            .request_raw("malformed JSON", MALFORMED_JSON, None)
            .await,
    );

    record.ping_after_malformed = Some(session.liveness().await);
}
