//! Judges for the property phase: generated arguments, ids, method names and cursors,
//! and the pipelining and cancellation sequences. A failure's evidence is its minimal
//! case (shrunk, then confirmed in a fresh process) and the command that replays it.

use super::model::{evidence_from, Ctx, Evidence, Verdict};
use crate::protocol::cut_text;
use crate::records::{PropertyFailure, Repeat, SlowCall, SHRUNK_PER_KIND};
use crate::rules::CheckId;

fn findings<'a>(ctx: &'a Ctx<'_>, check: CheckId) -> Result<Vec<&'a PropertyFailure>, Verdict> {
    if let Some(skip) = ctx.skip_if_stopped() {
        return Err(skip);
    }
    let Some(props) = &ctx.record.properties else {
        return Err(Verdict::Skip(match ctx.transcript().flood_cut() {
            Some(_) => "the property phase did not run: the scripted session was cut for flooding (see rpc-traffic-bounded)".into(),
            None => "the property phase did not run (--cases 0)".into(),
        }));
    };
    let n = props.cases_for(check);
    let failed: Vec<&PropertyFailure> =
        props.failures.iter().filter(|f| f.check == check).collect();
    if let (0, true, Some(ii)) = (n, failed.is_empty(), &props.input_independent) {
        return Err(Verdict::Skip(format!("not run: {}", ii.describe())));
    }
    if n == 0 && failed.is_empty() {
        return Err(Verdict::Skip(match props.notes.first() {
            Some(note) => format!("no case was generated ({note})"),
            None => "no case applies to this server".into(),
        }));
    }
    Ok(failed)
}

/// Evidence for one property failure.
pub(super) fn failure_evidence(f: &PropertyFailure) -> Vec<Evidence> {
    let mut out = vec![
        Evidence::note(format!("generated: {}", f.description)),
        Evidence::note(match f.same_as {
            Some(revision) => format!(
                "same minimal case as {revision} (found and shrunk there, tried first here: \
                 it failed the same way), {} bytes:",
                f.input.to_string().len()
            ),
            None if !f.reproduced && f.shrink_steps == 0 => format!(
                "the input as the walk found it (nothing smaller failed alone), {} bytes:",
                f.input.to_string().len()
            ),
            None => format!(
                "{} input after {} shrink step(s), {} bytes:",
                if f.shrink_cut.is_some() {
                    "smallest"
                } else {
                    "minimal"
                },
                f.shrink_steps,
                f.input.to_string().len()
            ),
        }),
        Evidence::note(f.input.to_string()),
        Evidence::note(format!("outcome: {}", f.outcome)),
    ];
    if let Some(cut) = &f.shrink_cut {
        out.push(Evidence::note(format!("{cut}: the input is not minimal")));
    }
    if let Some(rule) = f.rule {
        out.push(Evidence::note(format!("rule broken: {rule}")));
    }
    if !f.reproduced {
        out.push(Evidence::note(
            "this case did not fail the same way alone in a fresh process: earlier cases, a \
             rate limit, load or the server's state may explain what was seen",
        ));
    }
    out.push(Evidence::fresh_process());
    let seqs: Vec<usize> = (0..f.transcript.entries().len()).collect();
    out.extend(evidence_from(&f.transcript, &seqs));
    out.push(Evidence::note(match &f.case_path {
        Some(path) => format!("replay: mcp-conformance replay {}", path.display()),
        None => format!(
            "replay: run again with --seed {} and --cases-dir DIR to save the case",
            f.case.seed
        ),
    }));
    out
}

/// Evidence for the failures not shrunk (their check and kind had their minimal cases):
/// each named with its input as drawn, the first few shown.
fn repeat_evidence(repeats: &[&Repeat]) -> Vec<Evidence> {
    const SHOWN: usize = 8;
    if repeats.is_empty() {
        return Vec::new();
    }
    let mut out = vec![Evidence::note(format!(
        "{} more case(s) failed as the first {SHRUNK_PER_KIND} of their kind (shrunk above) \
         did; not shrunk or confirmed, as drawn:",
        repeats.len()
    ))];
    out.extend(repeats.iter().take(SHOWN).map(|r| {
        Evidence::note(format!(
            "{}: {} -> {}",
            r.label,
            cut_text(&r.input.to_string(), 200),
            r.outcome
        ))
    }));
    if repeats.len() > SHOWN {
        out.push(Evidence::note(format!(
            "and {} more",
            repeats.len() - SHOWN
        )));
    }
    out
}

fn judge(ctx: &Ctx<'_>, check: CheckId, what: &str) -> Verdict {
    let failed = match findings(ctx, check) {
        Ok(f) => f,
        Err(v) => return v,
    };
    let props = ctx.record.properties.as_ref();
    let n = props.map_or(0, |p| p.cases_for(check));
    let seed = props
        .and_then(|p| p.failures.first())
        .map_or(0, |f| f.case.seed);
    if failed.is_empty() {
        return Verdict::Pass(format!("{n} generated case(s) of {what}, none failed"));
    }
    let (grave, first) = headline(&failed);
    let mut evidence: Vec<Evidence> = failed.iter().flat_map(|f| failure_evidence(f)).collect();
    let repeats: Vec<&Repeat> = props
        .iter()
        .flat_map(|p| &p.repeats)
        .filter(|r| r.check == check)
        .collect();
    evidence.extend(repeat_evidence(&repeats));
    let message = format!(
        "{} of {what} failed{}: {} ({}: {}){}",
        failed.len() + repeats.len(),
        if seed > 0 {
            format!(" (seed {seed})")
        } else {
            String::new()
        },
        first.outcome,
        case_word(first),
        first.input,
        if first.reproduced { "" } else { NOT_REPRODUCED }
    );
    if grave {
        Verdict::Violation(message, evidence)
    } else {
        Verdict::Warn(message, evidence)
    }
}

/// How a headline names a failure's input: minimal once confirmed, as found otherwise.
fn case_word(f: &PropertyFailure) -> &'static str {
    match (f.reproduced, f.shrink_cut.is_some()) {
        (false, _) => "case",
        (true, true) => "smallest case reached",
        (true, false) => "minimal case",
    }
}

/// Said of a case that did not fail again alone in a fresh process.
const NOT_REPRODUCED: &str = "; not reproduced alone in a fresh process, so a warning";

/// The case a verdict's headline quotes, and whether the verdict is a failure: the first
/// failure when there is one, never a warning-grade case beside it (`failed` is not
/// empty).
fn headline<'f>(failed: &[&'f PropertyFailure]) -> (bool, &'f PropertyFailure) {
    match failed.iter().find(|f| is_failure(f)) {
        Some(f) => (true, *f),
        None => (false, failed[0]),
    }
}

/// Whether a generated case's failure is a failure of the run: it breaks a rule, not a
/// policy, and it failed again alone in a fresh process (no FAIL without reproduction).
fn is_failure(f: &PropertyFailure) -> bool {
    f.reproduced && !f.kind.is_policy_warning()
}

/// `TC-VALIDATE-INPUTS`: no generated input crashes or stalls the server.
pub(super) fn server_survives(ctx: &Ctx<'_>) -> Verdict {
    // Valid calls count towards two checks; count each case once here.
    let cases: u32 = ctx.record.properties.as_ref().map_or(0, |p| {
        p.cases
            .iter()
            .filter(|(c, _)| *c != CheckId::PropValidCallAccepted)
            .map(|(_, n)| n)
            .sum()
    });
    if let Some(ii) = ctx
        .record
        .properties
        .as_ref()
        .and_then(|p| p.input_independent.as_ref())
    {
        // Not an input-validation finding: no input is to blame. Answering at all is
        // judged by rpc-response-required, which reports it (with this evidence when the
        // scripted conversation did not show it).
        if ctx.skip_if_stopped().is_none() {
            return Verdict::Skip(format!(
                "not judged: {}; no generated input is to blame, so {} reports it",
                ii.describe(),
                CheckId::RpcResponseRequired
            ));
        }
    }
    match findings(ctx, CheckId::PropServerSurvives) {
        Err(Verdict::Skip(_)) if cases > 0 => {}
        Err(v) => return v,
        Ok(_) => {}
    }
    let failed: Vec<&PropertyFailure> = ctx
        .record
        .properties
        .iter()
        .flat_map(|p| &p.failures)
        .filter(|f| f.check == CheckId::PropServerSurvives)
        .collect();
    let props = ctx.record.properties.as_ref();
    let slow: Vec<&SlowCall> = props.map(|p| p.slow.iter().collect()).unwrap_or_default();
    let slow_evidence = || -> Vec<Evidence> {
        slow.iter()
            .map(|s| Evidence::note(format!("slow, not broken: {}", s.describe())))
            .collect()
    };
    let Some(first) = failed.first() else {
        let notes = props.map(|p| p.notes.as_slice()).unwrap_or_default();
        let noted = if notes.is_empty() {
            String::new()
        } else {
            let shown: Vec<&str> = notes.iter().take(3).map(String::as_str).collect();
            let more = notes.len().saturating_sub(shown.len());
            let more = if more > 0 {
                format!("; and {more} more")
            } else {
                String::new()
            };
            format!(" (notes: {}{more})", shown.join("; "))
        };
        // A slow answer is a warning with its time: the server survived, and answered
        // ping throughout (only a server that answers nothing, ping included, fails).
        if let Some(first_slow) = slow.first() {
            return Verdict::Warn(
                format!(
                    "the server survived all {cases} generated case(s), but {} tool call(s) outlasted the timeout: {}",
                    slow.len(),
                    first_slow.describe()
                ),
                slow_evidence(),
            );
        }
        // The liveness request: ping, or `server/discover` in 2026-07-28.
        let liveness = ctx.record.requested.liveness_method();
        return Verdict::Pass(format!(
            "the server survived all {cases} generated case(s): it answered each, or {liveness} after it{noted}"
        ));
    };
    let stopped = props
        .and_then(|p| p.stopped.as_deref())
        .map(|why| format!("; {why}"))
        .unwrap_or_default();
    let mut evidence: Vec<Evidence> = failed.iter().flat_map(|f| failure_evidence(f)).collect();
    evidence.extend(slow_evidence());
    // No FAIL without reproduction: a case that killed or stalled the server in the run
    // but not alone in a fresh process may owe it to what came before (a rate limiter
    // the spec asks for, load, state). The headline quotes a reproduced case when one is.
    let reproduced = failed.iter().find(|f| f.reproduced);
    let first = reproduced.copied().unwrap_or(first);
    let message = format!(
        "{} generated case(s) killed or stalled the server: {} ({}: {}){}{stopped}",
        failed.len(),
        first.outcome,
        case_word(first),
        first.input,
        match reproduced {
            Some(_) => "; servers MUST validate all tool inputs",
            None => NOT_REPRODUCED,
        }
    );
    match reproduced {
        Some(_) => Verdict::Violation(message, evidence),
        None => Verdict::Warn(message, evidence),
    }
}

/// Valid generated arguments get schema-valid results that conform to the outputSchema.
pub(super) fn valid_call_result(ctx: &Ctx<'_>) -> Verdict {
    judge(
        ctx,
        CheckId::PropValidCallResult,
        "calls with generated valid arguments",
    )
}

/// `TC-ERR-EXECUTION` (SHOULD): valid generated arguments get results, not protocol errors.
pub(super) fn valid_call_accepted(ctx: &Ctx<'_>) -> Verdict {
    judge(
        ctx,
        CheckId::PropValidCallAccepted,
        "calls with generated valid arguments",
    )
}

/// `TC-ERR-INPUT-VALIDATION`: arguments breaking one rule are rejected, in the class the
/// revision expects (a wrong class warns, acceptance fails).
pub(super) fn invalid_call_rejected(ctx: &Ctx<'_>) -> Verdict {
    judge(
        ctx,
        CheckId::PropInvalidCallRejected,
        "calls with arguments breaking one rule",
    )
}

/// `RPC-ID-ECHO`: generated ids come back with the same type and value.
pub(super) fn id_roundtrip(ctx: &Ctx<'_>) -> Verdict {
    judge(ctx, CheckId::PropIdRoundtrip, "requests with generated ids")
}

/// `RPC-ERR-METHOD-NOT-FOUND`: generated unknown methods get -32601.
pub(super) fn unknown_method(ctx: &Ctx<'_>) -> Verdict {
    judge(
        ctx,
        CheckId::PropUnknownMethod,
        "requests for generated unknown methods",
    )
}

/// `PAG-INVALID-CURSOR` (SHOULD): generated cursors get -32602 or a page.
pub(super) fn random_cursor(ctx: &Ctx<'_>) -> Verdict {
    judge(
        ctx,
        CheckId::PropRandomCursor,
        "tools/list requests with generated cursors",
    )
}

/// Pipelined requests are each answered exactly once, with their own id.
pub(super) fn pipelined(ctx: &Ctx<'_>) -> Verdict {
    judge(ctx, CheckId::SeqPipelined, "pipelined request sequences")
}

/// `CANCEL-RACE` / `CANCEL-IGNORE-INVALID`: cancellations are handled gracefully.
pub(super) fn cancel(ctx: &Ctx<'_>) -> Verdict {
    judge(ctx, CheckId::SeqCancel, "cancellation sequences")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::protocol::Transcript;
    use crate::records::CaseFile;
    use crate::rules::FailureKind;
    use crate::transport::ServerCommand;

    fn failure(kind: FailureKind, input: serde_json::Value, reproduced: bool) -> PropertyFailure {
        PropertyFailure {
            check: CheckId::PropInvalidCallRejected,
            rule: None,
            kind,
            description: "invalid echo".into(),
            input,
            outcome: format!("{kind:?}"),
            shrink_steps: 0,
            shrink_cut: None,
            transcript: Transcript::default(),
            reproduced,
            same_as: None,
            case: CaseFile {
                mcp_conformance_case: 1,
                check: "prop-invalid-call-rejected".into(),
                revision: "2025-06-18".into(),
                seed: 0,
                description: String::new(),
                kind,
                command: ServerCommand::new("server", Vec::new()),
                messages: Vec::new(),
                timeout_secs: None,
                output_schema: None,
                tool_headers: Default::default(),
            },
            case_path: None,
        }
    }

    #[test]
    fn the_headline_quotes_the_failing_case_not_a_warning_before_it() {
        let warning = failure(FailureKind::WrongErrorClass, json!({"a": 1}), true);
        let accepted = failure(FailureKind::InvalidAccepted, json!({"b": 2}), true);
        let (grave, first) = headline(&[&warning, &accepted]);
        assert!(grave);
        assert_eq!(first.input, json!({"b": 2}));
        let (grave, first) = headline(&[&warning]);
        assert!(!grave);
        assert_eq!(first.input, json!({"a": 1}));
    }

    #[test]
    fn a_failure_not_reproduced_alone_is_no_failure() {
        let flaky = failure(FailureKind::InvalidAccepted, json!({"c": 3}), false);
        let (grave, first) = headline(&[&flaky]);
        assert!(!grave);
        assert_eq!(first.input, json!({"c": 3}));
        assert!(!is_failure(&flaky));
    }
}
