//! Built-in fuzz mode: the property phase's generators and oracle, run again and again
//! with fresh seeds until a time budget is spent, for people without cargo-fuzz.
//!
//! No coverage guidance: each round is the property phase with seed `seed + round`. Every
//! failure is shrunk and confirmed as in a normal run; the first of each (check, kind) is
//! kept, with the seed that found it.

use std::time::{Duration, Instant};

use super::initialize_params;
use super::policy::CallPolicy;
use super::property::{PlanCache, PropertyConfig, PropertyRun};
use super::tools::walk;
use crate::generate::Interrupt;
use crate::protocol::{Revision, SchemaSet, Session, SessionConfig};
use crate::records::PropertyFailure;
use crate::transport::ServerCommand;

/// What a fuzz session found.
#[derive(Debug, Default)]
pub struct FuzzOutcome {
    /// Rounds completed.
    pub rounds: u64,
    /// Cases run, over all rounds.
    pub cases: u64,
    /// The first failure of each (check, kind), in the order found.
    pub failures: Vec<PropertyFailure>,
    /// Why fuzzing stopped before the budget was spent: the server fails whatever it is
    /// sent (a fresh process does not answer a plain ping), so more rounds find nothing.
    pub stopped: Option<String>,
}

/// How long a fuzz session goes on, and what cuts it short.
#[derive(Debug, Clone, Default)]
pub struct FuzzBudget {
    /// The time to spend.
    pub time: Duration,
    /// Raised by the caller's signal handlers: a strategy build holding the runtime's
    /// thread gives up at once, and no further round starts.
    pub interrupt: Interrupt,
}

/// Runs property rounds against `command` in `revision` until `budget` is spent (or its
/// interrupt raised).
pub async fn fuzz(
    command: &ServerCommand,
    revision: &'static Revision,
    session: &SessionConfig,
    policy: &CallPolicy,
    seed: u64,
    budget: FuzzBudget,
    mut on_failure: impl FnMut(&PropertyFailure),
) -> crate::Result<FuzzOutcome> {
    let FuzzBudget {
        time: budget,
        interrupt,
    } = budget;
    let started = Instant::now();
    // One listing, as the scripted conversation would make it.
    let mut s = Session::start(command, session.clone())?;
    let init = s.handshake(initialize_params(revision.id)).await;
    let tools = init
        .result()
        .and_then(|r| r.pointer("/capabilities/tools"))
        .is_some_and(serde_json::Value::is_object);
    let (pages, _) = if tools {
        walk(&mut s, 1000).await
    } else {
        (Vec::new(), None)
    };
    s.kill().await;
    let listed = tools && !pages.is_empty() && pages.iter().all(|p| p.result().is_some());
    let schemas = SchemaSet::new(revision)?;
    let mut outcome = FuzzOutcome::default();
    // The strategies do not depend on the seed: built in the first round, reused after.
    let plans = PlanCache::default();
    while started.elapsed() < budget && !interrupt.raised() {
        let remaining = budget.saturating_sub(started.elapsed());
        let config = PropertyConfig {
            time_budget: Some(remaining),
            interrupt: interrupt.clone(),
            ..PropertyConfig::default()
        };
        let run = PropertyRun {
            command,
            session,
            revision,
            schemas: &schemas,
            pages: if listed { &pages } else { &[] },
            tools: listed,
            policy,
            seed: seed.wrapping_add(outcome.rounds),
            config: &config,
            early: None,
            plans: Some(&plans),
            carry: None,
        };
        let record = run.run().await;
        if let Some(ii) = &record.input_independent {
            outcome.stopped = Some(ii.describe());
            break;
        }
        outcome.rounds += 1;
        outcome.cases += record.cases.iter().map(|(_, n)| u64::from(*n)).sum::<u64>();
        for failure in record.failures {
            let known = outcome
                .failures
                .iter()
                .any(|f| f.check == failure.check && f.kind == failure.kind);
            if !known {
                on_failure(&failure);
                outcome.failures.push(failure);
            }
        }
    }
    Ok(outcome)
}
