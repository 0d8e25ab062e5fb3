//! Shrinking a failing case to the smallest input that fails the same way, with
//! proptest's value tree, then confirming it once more in a fresh server process.
//!
//! The confirmed case becomes a [`PropertyFailure`] with its replayable [`CaseFile`].
//! A stall is shrunk in fewer steps and a shorter wait: every stalled candidate waits the
//! timeout out.

use std::time::Duration;

use proptest::strategy::ValueTree;
use serde_json::{json, Value};

use super::env::{case_messages, Env, Outcome, Probe};
use super::{CaseFile, CaseMessage, FailureKind, PropertyFailure, PropertyRun};
use crate::checks::CheckId;
use crate::protocol::Transcript;
use crate::scenarios::initialize_params;

impl PropertyRun<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn shrink(
        &self,
        env: &mut Env<'_>,
        probe: &Probe,
        label: &str,
        tree: &mut Box<dyn ValueTree<Value = Value>>,
        value: Value,
        (kind, rule): (FailureKind, Option<CheckId>),
        outcome: String,
    ) -> PropertyFailure {
        let mut best = (value, outcome);
        let mut steps = 0;
        let same = |o: &Outcome| o.failed().is_some_and(|(k, ..)| k == kind);
        // Every stalled candidate waits out the timeout: shrink those in fewer steps, with a
        // shorter wait (the tool answers other inputs at once; the confirmation below uses
        // the full timeout again).
        let stall = kind == FailureKind::Stall;
        let max_steps = if stall {
            self.config.max_shrink.min(8)
        } else {
            self.config.max_shrink
        };
        if stall {
            env.shrink_timeout = Some(self.session.timeout.min(Duration::from_secs(1)));
        }
        if tree.simplify() {
            while steps < max_steps {
                steps += 1;
                let candidate = tree.current();
                if let Probe::ValidCall { tool } = probe {
                    if !self.validates(tool, &candidate) {
                        if !tree.complicate() {
                            break;
                        }
                        continue;
                    }
                }
                let o = env.evaluate(probe, &candidate).await;
                if same(&o) {
                    if let Some((_, text, _)) = o.failed() {
                        best = (candidate, text.to_string());
                    }
                    if !tree.simplify() {
                        break;
                    }
                } else if !tree.complicate() {
                    break;
                }
            }
        }
        env.shrink_timeout = None;
        // Confirm the minimal case in a fresh process, recording a clean transcript.
        let (input, outcome) = best;
        let mut confirm = env.fresh().await;
        let (reproduced, transcript) = match confirm.as_mut() {
            Some(session) => {
                let o = env.evaluate_on(session, probe, &input).await;
                session.kill().await;
                (same(&o), session.transcript().clone())
            }
            None => (false, Transcript::default()),
        };
        let check = kind.reported_by();
        let description = match probe {
            Probe::ValidCall { .. } => format!("{label}: arguments valid for the inputSchema"),
            Probe::InvalidCall { rule, .. } => {
                format!("{label}: arguments breaking one rule ({rule})")
            }
            _ => label.to_string(),
        };
        let mut messages = vec![
            CaseMessage::message(
                json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize_params(self.revision.id)}),
                false,
            ),
            CaseMessage::message(
                json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
                false,
            ),
        ];
        messages.extend(
            case_messages(probe, &input)
                .into_iter()
                .map(|send| CaseMessage::message(send, false)),
        );
        messages.push(CaseMessage::message(
            json!({"jsonrpc": "2.0", "id": "after-case", "method": "ping"}),
            false,
        ));
        PropertyFailure {
            check,
            rule,
            kind,
            description: description.clone(),
            input,
            outcome,
            shrink_steps: steps,
            transcript,
            reproduced,
            case: CaseFile {
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
            },
            case_path: None,
        }
    }
}
