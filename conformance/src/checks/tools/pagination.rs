//! Pagination of `tools/list`: it ends, an invalid cursor gets -32602, two walks agree
//! (`pagination.mdx`); and its optional params (`params: {}`, only `_meta`) are taken.

use std::collections::BTreeSet;

use super::super::model::{Ctx, Evidence, Verdict, MAX_EXAMPLES};
use super::*;
use crate::protocol::Exchange;
use crate::records::each_listed_tool;
use crate::rules;

/// `PAG-TERMINATES` (policy): following `nextCursor` ends.
pub(in crate::checks) fn pagination_terminates(ctx: &Ctx<'_>) -> Verdict {
    if let Err(v) = listing(ctx) {
        return v;
    }
    let pages = &ctx.record.tools_pages;
    match &ctx.record.tools_walk_stopped {
        None => Verdict::Pass(format!("the listing ended after {} page(s)", pages.len())),
        Some(why) => {
            let mut evidence: Vec<Evidence> = pages
                .iter()
                .rev()
                .take(3)
                .rev()
                .flat_map(|p| ctx.evidence(&p.seqs()))
                .collect();
            evidence.push(Evidence::note(why.clone()));
            Verdict::Violation(
                format!("following nextCursor does not end: {why}"),
                evidence,
            )
        }
    }
}

/// `PAG-INVALID-CURSOR` (SHOULD): an unknown cursor gets -32602.
pub(in crate::checks) fn pagination_invalid_cursor(ctx: &Ctx<'_>) -> Verdict {
    let record = match conversation(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    let Some(x) = &record.invalid_cursor else {
        return Verdict::Skip("the invalid-cursor probe was not sent".into());
    };
    if x.response().is_none() {
        return Verdict::Skip("no response (see rpc-response-required)".into());
    }
    match rules::cursor(x.error_code(), x.result(), false) {
        None => Verdict::Pass("an invalid cursor got -32602".into()),
        Some(breach) => Verdict::Violation(
            format!(
                "an invalid cursor got {}; invalid cursors SHOULD get -32602",
                breach.message
            ),
            ctx.exchange_evidence(x),
        ),
    }
}

fn names(pages: &[Exchange]) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    each_listed_tool(pages, |t| {
        names.insert(name_of(t).to_string());
    });
    names
}

/// `PAG-STABLE` (SHOULD, policy): two walks give the same set of tools.
pub(in crate::checks) fn pagination_stable(ctx: &Ctx<'_>) -> Verdict {
    let record = match conversation(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    if record.second_walk.is_empty() {
        return Verdict::Skip(
            "the first walk did not end (see pag-terminates), so the listing was not walked again"
                .into(),
        );
    }
    if record.second_walk.iter().any(|p| p.result().is_none()) {
        return Verdict::Skip("the second walk did not complete".into());
    }
    let (a, b) = (names(&ctx.record.tools_pages), names(&record.second_walk));
    if a == b {
        return Verdict::Pass(format!("two walks listed the same {} tool(s)", a.len()));
    }
    let only_first: Vec<_> = a.difference(&b).cloned().collect();
    let only_second: Vec<_> = b.difference(&a).cloned().collect();
    let mut evidence: Vec<Evidence> = record
        .second_walk
        .iter()
        .take(MAX_EXAMPLES)
        .flat_map(|p| ctx.evidence(&p.seqs()))
        .collect();
    evidence.push(Evidence::note(format!(
        "only in the first walk: {only_first:?}; only in the second: {only_second:?}"
    )));
    Verdict::Violation(
        "two walks of tools/list, with nothing in between, listed different tools; cursors and listings SHOULD be stable".into(),
        evidence,
    )
}

/// `TL-PARAMS-OPTIONAL` (schema: `params` of ListToolsRequest is optional, and so are its
/// members): tools/list with `params: {}` and with `params` holding only `_meta` is
/// answered with a listing, as tools/list without params was.
pub(in crate::checks) fn params_optional(ctx: &Ctx<'_>) -> Verdict {
    let record = match conversation(ctx) {
        Ok(r) => r,
        Err(v) => return v,
    };
    if record.params_forms.is_empty() {
        return Verdict::Skip("the params probes were not sent".into());
    }
    let listing = |x: &Exchange| {
        x.result()
            .and_then(|r| r.get("tools"))
            .is_some_and(Value::is_array)
    };
    let bad: Vec<&Exchange> = record
        .params_forms
        .iter()
        .filter(|x| x.response().is_some() && !listing(x))
        .collect();
    if let Some(first) = bad.first() {
        let mut evidence = ctx.exchange_evidence(first);
        for x in bad.iter().skip(1) {
            evidence.extend(ctx.exchange_evidence(x));
        }
        return Verdict::Violation(
            format!(
                "{} of {} tools/list request(s) with optional params (params {{}}, params with \
                 only _meta) got no listing; params and _meta are optional and allowed",
                bad.len(),
                record.params_forms.len()
            ),
            evidence,
        );
    }
    if record.params_forms.iter().all(|x| x.response().is_none()) {
        return Verdict::Skip("no response (see rpc-response-required)".into());
    }
    Verdict::Pass("tools/list with params {} and with only _meta got a listing".into())
}
