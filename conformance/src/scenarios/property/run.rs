//! The property phase's entry: [`PropertyRun`] plans the properties (ids, methods,
//! cursors, then valid and invalid arguments per callable tool) and walks their cases.
//!
//! A case that fails is shrunk (`shrink.rs`); a tool that outlasts the timeout, crashes or
//! stalls the server gets no more cases, so one slow tool cannot eat the run.

use std::time::{Duration, Instant};

use proptest::strategy::{BoxedStrategy, Strategy, ValueTree};
use serde_json::Value;

use super::env::{probe_checks, probe_tool, Env, Outcome, Probe};
use super::seeds::{cursor_strategy, id_strategy, method_strategy, runner_for};
use super::{CaseFile, CaseMessage, FailureKind, PropertyRecord, SlowCall};
use crate::checks::CheckId;
use crate::generate as strategy;
use crate::protocol::{Exchange, Revision, SchemaSet, SessionConfig};
use crate::scenarios::policy::CallPolicy;
use crate::scenarios::tools::{compile_input_schema, listed_tools};
use crate::transport::ServerCommand;

/// Budget of the property phase.
#[derive(Debug, Clone)]
pub struct PropertyConfig {
    /// Generated cases per property (per tool for argument properties).
    pub cases: u32,
    /// Most shrink steps per failure.
    pub max_shrink: u32,
    /// Stop starting new cases after this long (per revision). Reports then say so; a
    /// budget cut makes two runs differ, so the default is none.
    pub time_budget: Option<Duration>,
}

impl Default for PropertyConfig {
    fn default() -> Self {
        Self {
            cases: 32,
            max_shrink: 64,
            time_budget: None,
        }
    }
}

/// Everything the property phase needs to know.
pub struct PropertyRun<'a> {
    /// The server.
    pub command: &'a ServerCommand,
    /// Timeouts.
    pub session: &'a SessionConfig,
    /// The negotiated revision.
    pub revision: &'static Revision,
    /// Its schemas.
    pub schemas: &'a SchemaSet,
    /// Tools listed by the scripted walk.
    pub pages: &'a [Exchange],
    /// Whether the server declares tools and its listing worked (cursor and tool probes).
    pub tools: bool,
    /// Which tools may be called.
    pub policy: &'a CallPolicy,
    /// The run's seed.
    pub seed: u64,
    /// Budget.
    pub config: &'a PropertyConfig,
}

impl PropertyRun<'_> {
    /// Runs every property and sequence probe.
    pub async fn run(&self) -> PropertyRecord {
        let started = Instant::now();
        let mut record = PropertyRecord::default();
        let mut env = Env {
            command: self.command,
            config: self.session,
            revision: self.revision,
            schemas: self.schemas,
            session: None,
            prompt_tools: Vec::new(),
            shrink_timeout: None,
            await_late: true,
        };
        let mut plan: Vec<(String, Probe, BoxedStrategy<Value>, u32)> = Vec::new();
        let cases = self.config.cases.max(1);
        plan.push(("ids".into(), Probe::Id, id_strategy(), cases));
        plan.push(("methods".into(), Probe::Method, method_strategy(), cases));
        if self.tools {
            plan.push(("cursors".into(), Probe::Cursor, cursor_strategy(), cases));
        }
        let mut seen = Vec::new();
        for tool in listed_tools(self.pages) {
            let name = tool
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            if seen.contains(&name) {
                continue;
            }
            seen.push(name.clone());
            if let Err(why) = self.policy.permits(tool) {
                record.notes.push(format!("tool {name:?}: {why}"));
                continue;
            }
            let object_schema = |s: &&Value| s.get("type") == Some(&Value::String("object".into()));
            let Some(schema) = tool.get("inputSchema").filter(object_schema) else {
                // Arguments are an object: a tool whose inputSchema says otherwise is
                // tool-inputschema-type's finding, not something to generate for.
                record.notes.push(format!(
                    "tool {name:?}: its inputSchema is not an object schema; no arguments generated"
                ));
                continue;
            };
            // The dialect the server's validator uses: the tool's `$schema`, else the
            // revision's default (as `compile_input_schema` decides).
            let dialect = if schema.get("$schema").is_some() {
                strategy::Dialect::of(schema)
            } else if self.revision.draft_2020_12 {
                strategy::Dialect::Draft202012
            } else {
                strategy::Dialect::Draft7
            };
            match strategy::valid_in(schema, schema, dialect) {
                Ok(s) => plan.push((
                    format!("valid {name}"),
                    Probe::ValidCall { tool: tool.clone() },
                    s,
                    cases,
                )),
                Err(e) => record.notes.push(format!(
                    "tool {name:?}: valid arguments not generated: {}",
                    e.0
                )),
            }
            match strategy::invalid_in(schema, schema, dialect) {
                Ok(variants) => {
                    let per = (cases / 4).max(2);
                    for v in variants {
                        let label = format!("invalid {name} {}", v.rule);
                        plan.push((
                            label,
                            Probe::InvalidCall {
                                tool: tool.clone(),
                                rule: v.rule,
                            },
                            v.strategy,
                            per,
                        ));
                    }
                }
                Err(e) => record.notes.push(format!(
                    "tool {name:?}: invalid arguments not generated: {}",
                    e.0
                )),
            }
        }

        let mut slow_tools: Vec<String> = Vec::new();
        'plan: for (at, (label, probe, strategy, n)) in plan.iter().enumerate() {
            let tool_name = probe_tool(probe).map(str::to_string);
            if let Some(t) = tool_name.as_ref().filter(|t| slow_tools.contains(t)) {
                if let Some(slow) = record.slow.iter_mut().find(|s| &s.tool == t) {
                    slow.cases_not_run += n;
                }
                continue;
            }
            let mut runner = runner_for(self.seed, label, *n);
            for case in 0..*n {
                if self
                    .config
                    .time_budget
                    .is_some_and(|b| started.elapsed() > b)
                {
                    record
                        .notes
                        .push(format!("time budget exhausted; stopped before {label}"));
                    break 'plan;
                }
                let Ok(mut tree) = strategy.new_tree(&mut runner) else {
                    break;
                };
                let value = tree.current();
                if let Probe::ValidCall { tool } = probe {
                    // Never send "valid" arguments that are not: the generator may be wrong.
                    if !self.validates(tool, &value) {
                        record.notes.push(format!(
                            "{label}: a generated instance did not validate; not sent"
                        ));
                        continue;
                    }
                }
                for check in probe_checks(probe) {
                    record.count(*check);
                }
                match env.evaluate(probe, &value).await {
                    Outcome::Ok => {}
                    Outcome::Slow(answered_after) => {
                        // A slow tool costs its latency once: its other cases are not run.
                        if let Some(t) = &tool_name {
                            record.slow.push(SlowCall {
                                tool: t.clone(),
                                input: value,
                                answered_after,
                                timeout: self.session.timeout,
                                cases_not_run: n - case - 1,
                            });
                            slow_tools.push(t.clone());
                        }
                        continue 'plan;
                    }
                    failed @ (Outcome::Failed(..) | Outcome::Broke(_)) => {
                        let (kind, outcome, rule) = failed
                            .failed()
                            .map(|(k, t, r)| (k, t.to_string(), r))
                            .expect("a failed outcome");
                        let fatal = matches!(kind, FailureKind::Crash | FailureKind::Stall);
                        let stalled_once = kind == FailureKind::Stall;
                        let failure = self
                            .shrink(
                                &mut env,
                                probe,
                                label,
                                &mut tree,
                                value,
                                (kind, rule),
                                outcome,
                            )
                            .await;
                        record.failures.push(failure);
                        if let (true, Some(t)) = (fatal, &tool_name) {
                            // One minimal crash or stall per tool says it; more would only
                            // cost restarts and timeouts.
                            record.notes.push(format!(
                                "tool {t:?}: no more cases after it crashed or stalled the server"
                            ));
                            slow_tools.push(t.clone());
                        }
                        if stalled_once {
                            // Each stall waits out the timeout (twice): the argument cases
                            // stop here, and the report says how many were not run.
                            let rest =
                                plan[at + 1..].iter().map(|p| p.3).sum::<u32>() + (n - case - 1);
                            let why = format!(
                                "argument cases stopped after the stall: {rest} generated case(s) of {} propert(ies) not run",
                                plan.len() - at
                            );
                            record.notes.push(why.clone());
                            record.stopped = Some(why);
                            break 'plan;
                        }
                        continue 'plan;
                    }
                }
            }
        }
        self.sequences(&mut env, &mut record).await;
        if let Some(s) = env.session.as_mut() {
            s.kill().await;
        }
        record
    }

    pub(super) fn validates(&self, tool: &Value, value: &Value) -> bool {
        let Some(schema) = tool.get("inputSchema") else {
            return false;
        };
        compile_input_schema(schema, self.revision).is_ok_and(|v| v.is_valid(value))
    }
}

impl PropertyRun<'_> {
    /// The replayable file of a failing case found in this run.
    pub(super) fn case_file(
        &self,
        check: CheckId,
        kind: FailureKind,
        description: String,
        messages: Vec<CaseMessage>,
    ) -> CaseFile {
        CaseFile {
            mcp_conformance_case: 1,
            check: check.as_str().to_string(),
            revision: self.revision.id.to_string(),
            seed: self.seed,
            description,
            kind,
            command: self.command.clone(),
            messages,
            timeout_secs: None,
            output_schema: None,
        }
    }
}
