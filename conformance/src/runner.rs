//! Runs the whole suite against one server: every selected revision in a fresh process,
//! the negotiation probes, then every check of the catalog on each revision's record.
//!
//! Progress is reported as typed [`RunEvent`]s so that any front end (the CLI's progress
//! line, a libtest harness) can follow a run without parsing text.

use std::collections::HashMap;

use crate::checks::{judge_all, Ctx, CATALOG};
use crate::protocol::{Revision, SchemaSet, SessionConfig, REVISIONS};
use crate::report::{RevisionReport, RunReport, Summary, TargetInfo};
use crate::scenarios::{negotiate, run_revision, CallPolicy, PropertyConfig};
use crate::transport::ServerCommand;

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
}

impl RunConfig {
    /// Every known revision against `command`, with default limits.
    pub fn new(command: ServerCommand) -> Self {
        Self {
            command,
            reference: false,
            revisions: REVISIONS.iter().collect(),
            session: SessionConfig::default(),
            seed: 0,
            call_policy: CallPolicy::default(),
            properties: Some(PropertyConfig::default()),
            cases_dir: None,
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
}

/// Runs the suite. `Err` only for harness problems (e.g. the server cannot be spawned);
/// everything the server does wrong is in the report.
pub async fn run(
    config: &RunConfig,
    mut on_event: impl FnMut(RunEvent),
) -> crate::Result<RunReport> {
    let mut records = Vec::new();
    for &revision in &config.revisions {
        on_event(RunEvent::RevisionStarted(revision.id));
        records.push(
            run_revision(
                &config.command,
                revision,
                &config.session,
                &config.call_policy,
                config.properties.as_ref(),
                config.seed,
            )
            .await?,
        );
    }
    if let Some(dir) = &config.cases_dir {
        save_cases(dir, &mut records)?;
    }
    on_event(RunEvent::NegotiationStarted);
    let negotiation = negotiate(&config.command, &records, &config.session).await?;

    let mut schemas: HashMap<&'static str, SchemaSet> = HashMap::new();
    let mut reports = Vec::new();
    for record in &records {
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
            negotiation: &negotiation,
        };
        let results = judge_all(CATALOG, &ctx);
        on_event(RunEvent::RevisionJudged(
            record.requested.id,
            Summary::of(&results),
        ));
        reports.push(RevisionReport {
            revision: record.requested.id,
            negotiated: record.negotiated.clone(),
            results,
        });
    }
    let target = TargetInfo {
        transport: "stdio",
        command: config.command.program.clone(),
        args: config.command.args.clone(),
        reference: config.reference,
    };
    Ok(RunReport::new(target, config.seed, reports))
}

/// Saves every failing property case as `DIR/<revision>-<check>-<n>.json`.
fn save_cases(
    dir: &std::path::Path,
    records: &mut [crate::scenarios::RevisionRecord],
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
