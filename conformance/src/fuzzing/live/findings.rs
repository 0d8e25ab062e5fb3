//! A case that broke the oracle: [`Finding`], its report and its case file, and the steps
//! that make it worth reading: the case minimised and confirmed on a fresh process.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::{Judged, LiveConfig, State, INIT_ID, SETTLE_ID};
use crate::fuzzing::cases::Case;
use crate::generate::shrink;
use crate::protocol::{Line, Transcript};
use crate::records::{CaseFile, CaseMessage, RawFrame};
use crate::rules::CheckId;
use crate::rules::FailureKind;
use crate::scenarios::{case_line, initialize_params};

/// A case that broke the oracle.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The check of the catalog it fails (`mcp-conformance explain ID`).
    pub check: CheckId,
    /// How it failed.
    pub kind: FailureKind,
    /// What was seen, in one sentence.
    pub summary: String,
    /// The case, to save and replay.
    pub case: CaseFile,
    /// The messages that show it: the confirming session's when the case failed again on
    /// a fresh process, else the fuzzing session's.
    pub transcript: Transcript,
    /// Whether the case alone failed the same way on a fresh process.
    pub reproduced: bool,
    /// Where the case file was written.
    pub saved: Option<PathBuf>,
}

impl Finding {
    /// A report a reader can act on: the check, what happened, how to replay it, and the
    /// exchange (server text escaped).
    pub fn report(&self) -> String {
        self.report_with(if self.reproduced {
            "reproduced on a fresh server process with this case alone"
        } else {
            "NOT reproduced on a fresh process with this case alone: earlier inputs of this process may matter"
        })
    }

    /// [`Finding::report`] with `confirmation` for its line on whether the case failed
    /// again on a fresh process.
    pub(super) fn report_with(&self, confirmation: &str) -> String {
        use crate::report::escape_server_text as esc;
        let mut out = format!(
            "FAIL {} ({:?}) in {}: {}\n",
            self.check,
            self.kind,
            self.case.revision,
            esc(&self.summary)
        );
        out.push_str(&format!("  case: {}\n", esc(&self.case.description)));
        out.push_str(&format!("  {confirmation}\n"));
        match &self.saved {
            // The case file names its server (a config file's `[server]`, when there is
            // one, comes first): the file alone replays it.
            // Found in-process: the case replays against the server's built binary.
            Some(path) if self.case.command.in_process.is_some() => out.push_str(&format!(
                "  replay: mcp-conformance replay {} -- YOUR_SERVER_COMMAND\n",
                esc(&path.display().to_string()),
            )),
            Some(path) => out.push_str(&format!(
                "  replay: mcp-conformance replay {}\n",
                esc(&path.display().to_string()),
            )),
            None => out.push_str("  (no case file written)\n"),
        }
        out.push_str(&format!(
            "  explain: mcp-conformance explain {}\n",
            self.check
        ));
        out.push_str("  exchange:\n");
        out.push_str(&crate::report::render_transcript(&self.transcript, "    "));
        out
    }

    /// Writes the case file into `dir`, named after the check and the case's content.
    pub fn save(&mut self, dir: &Path) -> std::io::Result<PathBuf> {
        let text = serde_json::to_string_pretty(&self.case).map_err(std::io::Error::other)?;
        let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        std::fs::create_dir_all(dir)?;
        let path = dir.join(format!("live-{}-{:016x}.json", self.check, hash));
        std::fs::write(&path, text)?;
        self.saved = Some(path.clone());
        Ok(path)
    }
}

/// Most candidates the shrinker evaluates for one call's arguments (each a fresh
/// process).
const VALUE_STEPS: u32 = 48;
/// [`VALUE_STEPS`] for a stall, each of whose candidates may wait out the timeout.
const STALL_VALUE_STEPS: u32 = 16;

impl State {
    /// Cuts the case to what the failure needs, each candidate on a fresh process: the
    /// lines first (each dropped in turn), then the tool arguments of each call left, by
    /// the one shrinker of the suite (`crate::generate::shrink`).
    pub(super) async fn minimize(
        &mut self,
        case: &Case,
        kind: &FailureKind,
        check: CheckId,
    ) -> Case {
        let mut best = case.clone();
        let mut i = 0;
        while best.steps().len() > 1 && i < best.steps().len() {
            let candidate = best.without(i);
            match self.fails_same(&candidate, kind, check).await {
                Some(true) => best = candidate,
                Some(false) => i += 1,
                None => return best,
            }
        }
        for i in 0..best.steps().len() {
            let Some(arguments) = best.arguments(i).cloned() else {
                continue;
            };
            let base = best.clone();
            // A stalled candidate waits out the timeout: fewer of them.
            let budget = match kind {
                FailureKind::Stall => STALL_VALUE_STEPS,
                _ => VALUE_STEPS,
            };
            let shrunk = shrink(arguments, budget, &|_| true, async |candidate: &Value| {
                let case = base.with_arguments(i, candidate.clone());
                self.fails_same(&case, kind, check).await == Some(true)
            })
            .await;
            best = best.with_arguments(i, shrunk.value);
        }
        best
    }

    /// Whether `case` fails with `kind` for `check` on a fresh process; `None` when no
    /// process could be started.
    async fn fails_same(
        &mut self,
        case: &Case,
        kind: &FailureKind,
        check: CheckId,
    ) -> Option<bool> {
        let Ok((mut session, _)) = self.fresh().await else {
            return None;
        };
        session.forget_history();
        let judged = self.exec(&mut session, case).await;
        session.kill().await;
        Some(matches!(judged, Judged::Failed(k, c, _) if &k == kind && c == check))
    }

    /// Runs the case again on a fresh process and records whether it fails the same way.
    pub(super) async fn confirm(&mut self, case: &Case, finding: &mut Finding) {
        let Ok((mut session, _)) = self.fresh().await else {
            return;
        };
        // As in the fuzzing session, only the case's own messages are judged; the
        // handshake stays in the transcript for the reader.
        let handshake = session.transcript().clone();
        session.forget_history();
        let judged = self.exec(&mut session, case).await;
        session.kill().await;
        if let Judged::Failed(kind, check, summary) = judged {
            if kind == finding.kind && check == finding.check {
                finding.reproduced = true;
                finding.summary = summary;
                let mut transcript = handshake;
                for e in session.transcript().entries() {
                    transcript.push_shared(e.direction, e.text.clone(), e.json.clone());
                }
                finding.transcript = transcript;
            }
        }
    }

    pub(super) fn finding(
        &self,
        case: &Case,
        kind: FailureKind,
        check: CheckId,
        summary: String,
        transcript: Transcript,
    ) -> Finding {
        let output_schema = matches!(
            check,
            CheckId::TcOutputschemaPresence | CheckId::TcOutputschemaConform
        )
        .then(|| {
            case.lines.iter().find_map(|l| match l {
                Line::Message(m) if m["method"] == "tools/call" => m
                    .pointer("/params/name")
                    .and_then(Value::as_str)
                    .and_then(|n| self.output_schemas.get(n).cloned()),
                _ => None,
            })
        })
        .flatten();
        let case_file = case_file(&self.config, case, kind, check, output_schema);
        Finding {
            check,
            kind,
            summary,
            case: case_file,
            transcript,
            reproduced: false,
            saved: None,
        }
    }
}

/// The case file of `case` for a failure of `check`: the messages of a fresh session's
/// handshake, then the case, as the live target sent them (a modern request with its
/// `_meta`).
pub(super) fn case_file(
    config: &LiveConfig,
    case: &Case,
    kind: FailureKind,
    check: CheckId,
    output_schema: Option<Value>,
) -> CaseFile {
    let revision = config.revision.id;
    let stamped = |m: Value| case_line(config.revision, m);
    let mut messages = if config.revision.modern() {
        vec![CaseMessage::message(
            stamped(json!({"jsonrpc": "2.0", "id": INIT_ID, "method": "server/discover"})),
            false,
        )]
    } else {
        vec![
            CaseMessage::message(
                json!({"jsonrpc": "2.0", "id": INIT_ID, "method": "initialize", "params": initialize_params(revision)}),
                false,
            ),
            CaseMessage::message(
                json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
                false,
            ),
            CaseMessage::message(
                json!({"jsonrpc": "2.0", "id": SETTLE_ID, "method": "ping"}),
                false,
            ),
        ]
    };
    let last = case.lines.len().saturating_sub(1);
    for (i, line) in case.lines.iter().enumerate() {
        let pipelined = i < last;
        messages.push(match line {
            Line::Message(m) => CaseMessage::message(stamped(m.clone()), pipelined),
            Line::Raw(bytes) => CaseMessage {
                send: Value::Null,
                raw: Some(RawFrame::of(bytes)),
                pipelined,
            },
        });
    }
    let tool_headers = CaseFile::tool_headers_of(&config.command, config.revision, &messages);
    CaseFile {
        mcp_conformance_case: 1,
        check: check.as_str().to_string(),
        revision: revision.to_string(),
        seed: 0,
        description: describe(case, config.revision.liveness_method()),
        kind,
        command: crate::fuzzing::coverage::unwrapped(&config.command),
        messages,
        timeout_secs: Some(config.timeout.as_secs_f64()),
        output_schema,
        tool_headers,
    }
}

/// One line on what a case sends (`liveness`: the request behind it).
fn describe(case: &Case, liveness: &str) -> String {
    let parts: Vec<String> = case
        .steps()
        .iter()
        .map(|line| match line {
            Line::Message(m) => {
                let method = m["method"].as_str().unwrap_or_default();
                match m.pointer("/params/name").and_then(Value::as_str) {
                    Some(name) if method == "tools/call" => format!("tools/call {name:?}"),
                    _ => method.to_string(),
                }
            }
            Line::Raw(_) => "a malformed frame".into(),
        })
        .collect();
    format!(
        "live fuzz case: {}, then {liveness}, in one write",
        parts.join(", ")
    )
}
