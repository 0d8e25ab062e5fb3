//! Tool names: unique, 1 to 128 characters, a safe charset, no two equal but for case
//! (2025-11-25 `tools.mdx`, Tool Names).

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};

use super::super::model::{Ctx, Evidence, Verdict, MAX_EXAMPLES};
use super::*;

/// `TOOL-NAME-UNIQUE` (policy A14: duplicates fail): unique across all pages.
pub(in crate::checks) fn name_unique(ctx: &Ctx<'_>) -> Verdict {
    if let Err(v) = listing(ctx) {
        return v;
    }
    let (mut seen, mut count) = (BTreeSet::new(), 0);
    let mut dupes = Vec::new();
    each_listed_tool(&ctx.record.tools_pages, |tool| {
        count += 1;
        let name = name_of(tool).to_string();
        if !seen.insert(name.clone()) {
            dupes.push((name, "is listed more than once".to_string()));
        }
    });
    if dupes.is_empty() {
        return Verdict::Pass(format!(
            "{count} tool name(s), all distinct across {} page(s){}",
            ctx.record.tools_pages.len(),
            cut_suffix(ctx)
        ));
    }
    let mut evidence: Vec<Evidence> = ctx
        .record
        .tools_pages
        .iter()
        .take(MAX_EXAMPLES)
        .flat_map(|p| ctx.evidence(&p.seqs()))
        .collect();
    evidence.extend(
        dupes
            .iter()
            .map(|(n, why)| Evidence::note(format!("tool {n:?} {why}"))),
    );
    Verdict::Violation(
        format!(
            "{} tool name(s) repeat; each tool is uniquely identified by its name",
            dupes.len()
        ),
        evidence,
    )
}

/// `TOOL-NAME-LENGTH` (2025-11-25+, SHOULD): 1 to 128 characters.
pub(in crate::checks) fn name_length(ctx: &Ctx<'_>) -> Verdict {
    verdict_per_tool(
        ctx,
        "names",
        |tool| {
            let n = name_of(tool).chars().count();
            (!(1..=128).contains(&n)).then(|| format!("name has {n} characters"))
        },
        "names are 1 to 128 characters long",
        "have names outside 1 to 128 characters; tool names SHOULD be 1-128 characters",
    )
}

/// `TOOL-NAME-CHARSET` (2025-11-25+, SHOULD): only `A-Z a-z 0-9 _ - .`.
pub(in crate::checks) fn name_charset(ctx: &Ctx<'_>) -> Verdict {
    verdict_per_tool(
        ctx,
        "names",
        |tool| {
            let bad: String = name_of(tool)
                .chars()
                .filter(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
                .collect::<BTreeSet<char>>()
                .into_iter()
                .map(|c| format!("{c:?}"))
                .collect::<Vec<_>>()
                .join(" ");
            (!bad.is_empty()).then(|| format!("name uses {bad}"))
        },
        "names use only A-Z a-z 0-9 _ - .",
        "have names with characters other than A-Z a-z 0-9 _ - . (no spaces or commas)",
    )
}

/// `TOOL-NAME-CASE` (2025-11-25+, SHOULD): names differing only in case confuse clients
/// that compare case-insensitively.
pub(in crate::checks) fn name_case(ctx: &Ctx<'_>) -> Verdict {
    if let Err(v) = listing(ctx) {
        return v;
    }
    let mut names: BTreeSet<String> = BTreeSet::new();
    each_listed_tool(&ctx.record.tools_pages, |t| {
        names.insert(name_of(t).to_string());
    });
    let mut bad = Vec::new();
    // Each lowercased name with the first name (in sorted order) that has it.
    let mut first_of: BTreeMap<String, &String> = BTreeMap::new();
    for name in &names {
        match first_of.entry(name.to_lowercase()) {
            Entry::Occupied(other) => bad.push((
                name.to_string(),
                format!("differs from {:?} only in case", other.get()),
            )),
            Entry::Vacant(slot) => {
                slot.insert(name);
            }
        }
    }
    if bad.is_empty() {
        return Verdict::Pass(format!(
            "{} distinct name(s), none equal but for case",
            names.len()
        ));
    }
    Verdict::Violation(
        format!("{} tool name(s) equal another but for case; names are case-sensitive and clients may confuse them", bad.len()),
        tools_evidence(ctx, &bad),
    )
}
