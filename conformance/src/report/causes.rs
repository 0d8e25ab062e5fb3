//! One root cause, one finding. A server answer that breaks one rule often breaks others
//! with it: a content type the revision does not define fails the content-type check,
//! the schema check and the generated-call property, in every revision that lacks it.
//! Every check keeps its own status (a baseline or a gate sees them all), but a finding
//! whose evidence is a server answer an earlier finding already showed is linked to that
//! one, and the readable formats print its evidence once, there.
//!
//! A finding shares the cause of an earlier one when every answer its evidence shows
//! (ids aside), each with the request it follows (ids, `_meta` and empty params aside: a
//! request with `params: {}` or only `_meta` asks what one without params asks), was shown
//! before: the link never hides an answer the reader has not seen. It points at the first
//! finding that showed its first answer. Initialize answers are left out (every generated
//! case shows one), and so is the `server/discover` a fresh 2026-07-28 process opens with
//! (after the [`Evidence::fresh_process`] note), notifications and lines that are not
//! JSON: they do not point at one cause.
//!
//! Findings are linked only to a finding of the same status, the first in report order
//! (revisions in order; within one, failures then warnings, in catalog order), and only
//! when they can be its fault seen again: a finding of the same check (in another
//! revision), or of a check that restates rules of others ([`CheckId::restates`]: the
//! schema sweep, the property phase). Two checks of rules of their own that one answer
//! breaks (a wrong error code, a multi-line message) are two causes.

use std::collections::HashMap;

use serde_json::Value;

use super::model::RunReport;
use crate::checks::{CheckId, Evidence, SameCause, Status};
use crate::protocol::Direction;

impl RunReport {
    /// Links each finding that shows a server answer an earlier finding of the same
    /// status already showed (see the module documentation).
    pub fn link_causes(&mut self) {
        // Per answer, the root findings that showed it, first first (one per check).
        let mut shown: HashMap<(Status, String), Vec<SameCause>> = HashMap::new();
        for rev in &mut self.revisions {
            let revision = rev.revision;
            for status in [Status::Fail, Status::Warn] {
                for result in rev.results.iter_mut().filter(|r| r.status == status) {
                    let keys = answers(&result.evidence);
                    let restates = CheckId::parse(result.check).is_some_and(CheckId::restates);
                    // The finding this one's answer can be the fault of: the first that
                    // showed it, or, for a check of a rule of its own, its own earlier one.
                    let root_of = |key: &String| {
                        let roots = shown.get(&(status, key.clone()))?;
                        roots
                            .iter()
                            .find(|root| restates || root.check == result.check)
                            .copied()
                    };
                    // Linked only when every answer it shows was shown before: a link
                    // never hides an answer the reader has not seen.
                    let root = match keys.iter().map(root_of).collect::<Option<Vec<_>>>() {
                        Some(roots) => roots.first().copied(),
                        None => None,
                    };
                    let owner = root.unwrap_or(SameCause {
                        check: result.check,
                        revision,
                    });
                    for key in keys {
                        let roots = shown.entry((status, key)).or_default();
                        if !roots.iter().any(|r| r.check == owner.check) {
                            roots.push(owner);
                        }
                    }
                    result.same_cause_as = root;
                }
            }
        }
    }
}

/// The answers in some evidence, each keyed with the request before it, ids removed.
fn answers(evidence: &[Evidence]) -> Vec<String> {
    let mut keys = Vec::new();
    let mut request: Option<Value> = None;
    // Right after the fresh-process note: the process's first request opens it.
    let mut opening = false;
    let mut opened_by = false;
    for e in evidence {
        if e.is_fresh_process() {
            opening = true;
            continue;
        }
        let Ok(mut message) = serde_json::from_str::<Value>(&e.text) else {
            continue;
        };
        let Some(object) = message.as_object_mut() else {
            continue;
        };
        let had_id = object.remove("id").is_some();
        match e.direction {
            Direction::Sent if had_id && object.contains_key("method") => {
                let params = object.get_mut("params").and_then(Value::as_object_mut);
                if let Some(params) = params {
                    params.remove("_meta");
                    if params.is_empty() {
                        object.remove("params");
                    }
                }
                opened_by = std::mem::take(&mut opening);
                request = Some(message);
            }
            Direction::Received
                if object.contains_key("result") || object.contains_key("error") =>
            {
                let Some(request) = &request else { continue };
                let method = request.get("method").and_then(Value::as_str);
                if method == Some("initialize") || (opened_by && method == Some("server/discover"))
                {
                    continue;
                }
                keys.push(format!("{request}\n{message}"));
            }
            _ => {}
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::checks::{CheckResult, Level};
    use crate::report::{RevisionReport, TargetInfo};

    fn finding(
        check: &'static str,
        status: Status,
        evidence: &[(Direction, Value)],
    ) -> CheckResult {
        CheckResult {
            check,
            title: "",
            level: Level::Must,
            requirement: "",
            source: "",
            status,
            message: String::new(),
            evidence: evidence
                .iter()
                .map(|(direction, v)| Evidence {
                    direction: *direction,
                    text: v.to_string(),
                })
                .collect(),
            same_cause_as: None,
        }
    }

    fn call(id: Value) -> (Direction, Value) {
        (
            Direction::Sent,
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "links"}}),
        )
    }

    fn answer(id: Value, kind: &str) -> (Direction, Value) {
        (
            Direction::Received,
            json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": kind}]}}),
        )
    }

    fn initialize() -> [(Direction, Value); 2] {
        [
            (
                Direction::Sent,
                json!({"jsonrpc": "2.0", "id": 1, "method": "initialize"}),
            ),
            (
                Direction::Received,
                json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
            ),
        ]
    }

    fn report(revisions: Vec<(&'static str, Vec<CheckResult>)>) -> RunReport {
        let target = TargetInfo {
            transport: "stdio",
            command: "server".into(),
            args: Vec::new(),
            reference: false,
            url: None,
        };
        let revisions = revisions
            .into_iter()
            .map(|(revision, results)| RevisionReport {
                revision,
                negotiated: Some(revision.into()),
                results,
            })
            .collect();
        RunReport::new(target, 0, revisions)
    }

    fn links(report: &RunReport) -> Vec<(&str, &str, Option<SameCause>)> {
        report
            .revisions
            .iter()
            .flat_map(|rev| {
                rev.results
                    .iter()
                    .map(move |r| (rev.revision, r.check, r.same_cause_as))
            })
            .collect()
    }

    #[test]
    fn the_same_answer_to_the_same_request_links_to_the_first_finding() {
        let shown = [call(json!(13)), answer(json!(13), "resource_link")];
        let generated = [call(json!("case")), answer(json!("case"), "resource_link")];
        let mut r = report(vec![
            (
                "2024-11-05",
                vec![
                    finding("tc-content-types", Status::Fail, &shown),
                    finding("prop-valid-call-result", Status::Fail, &generated),
                    finding("schema-server-messages", Status::Fail, &shown),
                ],
            ),
            (
                "2025-03-26",
                vec![finding("tc-content-types", Status::Fail, &shown)],
            ),
        ]);
        r.link_causes();
        let root = Some(SameCause {
            check: "tc-content-types",
            revision: "2024-11-05",
        });
        assert_eq!(
            links(&r),
            [
                ("2024-11-05", "tc-content-types", None),
                ("2024-11-05", "prop-valid-call-result", root),
                ("2024-11-05", "schema-server-messages", root),
                ("2025-03-26", "tc-content-types", root),
            ]
        );
    }

    #[test]
    fn two_rules_of_their_own_broken_by_one_answer_are_two_causes() {
        let dump = [
            call(json!(7)),
            (
                Direction::Received,
                json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32603, "message": "[\n  {\n"}}),
            ),
        ];
        let mut r = report(vec![
            (
                "2024-11-05",
                vec![
                    finding("rpc-error-message", Status::Warn, &dump),
                    finding("tc-err-malformed", Status::Warn, &dump),
                    finding("prop-invalid-call-rejected", Status::Warn, &dump),
                ],
            ),
            (
                "2025-03-26",
                vec![finding("tc-err-malformed", Status::Warn, &dump)],
            ),
        ]);
        r.link_causes();
        let root = |check| {
            Some(SameCause {
                check,
                revision: "2024-11-05",
            })
        };
        assert_eq!(
            links(&r),
            [
                ("2024-11-05", "rpc-error-message", None),
                ("2024-11-05", "tc-err-malformed", None),
                (
                    "2024-11-05",
                    "prop-invalid-call-rejected",
                    root("rpc-error-message")
                ),
                ("2025-03-26", "tc-err-malformed", root("tc-err-malformed")),
            ]
        );
    }

    #[test]
    fn the_discover_a_fresh_process_opens_with_does_not_keep_a_link_away() {
        let shown = [call(json!(13)), answer(json!(13), "resource_link")];
        let discover = |id: i64| {
            [
                (
                    Direction::Sent,
                    json!({"jsonrpc": "2.0", "id": id, "method": "server/discover"}),
                ),
                (
                    Direction::Received,
                    json!({"jsonrpc": "2.0", "id": id, "result": {"supportedVersions": []}}),
                ),
            ]
        };
        let mut prop = finding(
            "prop-valid-call-result",
            Status::Fail,
            &[discover(1).as_slice(), &shown].concat(),
        );
        prop.evidence.insert(0, Evidence::fresh_process());
        let mut r = report(vec![(
            "2026-07-28",
            vec![
                finding("tc-content-types", Status::Fail, &shown),
                prop,
                // A discover answer shown as evidence of its own (not a process's opening)
                // still counts.
                finding("schema-server-messages", Status::Fail, &discover(5)),
            ],
        )]);
        r.link_causes();
        let root = Some(SameCause {
            check: "tc-content-types",
            revision: "2026-07-28",
        });
        assert_eq!(
            links(&r),
            [
                ("2026-07-28", "tc-content-types", None),
                ("2026-07-28", "prop-valid-call-result", root),
                ("2026-07-28", "schema-server-messages", None),
            ]
        );
    }

    #[test]
    fn empty_params_and_meta_ask_what_no_params_ask() {
        let list = |id: i64, params: Option<Value>| {
            let mut m = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"});
            if let Some(p) = params {
                m["params"] = p;
            }
            (Direction::Sent, m)
        };
        let page = |id: i64| {
            (
                Direction::Received,
                json!({"jsonrpc": "2.0", "id": id, "result": {"tools": [{"name": 1}]}}),
            )
        };
        let shown = [list(3, None), page(3)];
        let forms = [
            list(8, Some(json!({}))),
            page(8),
            list(9, Some(json!({"_meta": {"x": 1}}))),
            page(9),
        ];
        let cursor = [list(10, Some(json!({"cursor": "c"}))), page(10)];
        let mut r = report(vec![(
            "2024-11-05",
            vec![
                finding("tool-inputschema-type", Status::Fail, &shown),
                finding("schema-server-messages", Status::Fail, &forms),
                finding("prop-random-cursor", Status::Fail, &cursor),
            ],
        )]);
        r.link_causes();
        let root = Some(SameCause {
            check: "tool-inputschema-type",
            revision: "2024-11-05",
        });
        assert_eq!(
            links(&r),
            [
                ("2024-11-05", "tool-inputschema-type", None),
                ("2024-11-05", "schema-server-messages", root),
                ("2024-11-05", "prop-random-cursor", None),
            ]
        );
    }

    #[test]
    fn a_finding_with_one_answer_not_shown_before_keeps_its_evidence() {
        let shown = [call(json!(13)), answer(json!(13), "resource_link")];
        let mut more = shown.to_vec();
        more.extend([call(json!(14)), answer(json!(14), "audio")]);
        let mut r = report(vec![(
            "2024-11-05",
            vec![
                finding("tc-content-types", Status::Fail, &shown),
                finding("prop-valid-call-result", Status::Fail, &more),
            ],
        )]);
        r.link_causes();
        assert!(
            links(&r).iter().all(|(_, _, link)| link.is_none()),
            "{:?}",
            links(&r)
        );
    }

    #[test]
    fn other_answers_statuses_and_initialize_do_not_link() {
        let mut with_init = initialize().to_vec();
        with_init.extend([call(json!(2)), answer(json!(2), "text")]);
        let mut other_init = initialize().to_vec();
        other_init.extend([call(json!(2)), answer(json!(2), "image")]);
        let mut r = report(vec![(
            "2025-06-18",
            vec![
                finding("a", Status::Fail, &with_init),
                finding("b", Status::Fail, &other_init),
                finding(
                    "c",
                    Status::Warn,
                    &[call(json!(3)), answer(json!(3), "text")],
                ),
                finding(
                    "d",
                    Status::Pass,
                    &[call(json!(4)), answer(json!(4), "text")],
                ),
                finding(
                    "e",
                    Status::Fail,
                    &[(
                        Direction::Received,
                        json!({"jsonrpc": "2.0", "id": 5, "result": {}}),
                    )],
                ),
            ],
        )]);
        r.link_causes();
        assert!(
            links(&r).iter().all(|(_, _, link)| link.is_none()),
            "{:?}",
            links(&r)
        );
    }
}
