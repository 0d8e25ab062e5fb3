//! The text report's layout on hand-built run models: one line per distinct finding,
//! its evidence once, the status word and the applied level in agreement, long server
//! text cut, colour only on our own words.

use super::*;
use crate::checks::Level;
use crate::report::model::{RevisionReport, TargetInfo};

const REVS: [&str; 3] = ["2024-11-05", "2025-03-26", "2025-06-18"];

fn result(check: &'static str, level: Level, status: Status, message: &str) -> CheckResult {
    CheckResult {
        check,
        title: "a title",
        level,
        requirement: "REQ-ID",
        source: "page.mdx, Section",
        status,
        message: message.to_string(),
        evidence: vec![Evidence {
            direction: Direction::Received,
            text: format!("{{\"answer\":\"{message}\"}}"),
        }],
        same_cause_as: None,
    }
}

/// A report over `REVS` whose revision `i` holds `results(i)`.
fn report(results: impl Fn(usize) -> Vec<CheckResult>) -> RunReport {
    let revisions = REVS
        .iter()
        .enumerate()
        .map(|(i, rev)| RevisionReport {
            revision: rev,
            negotiated: Some(rev.to_string()),
            results: results(i),
        })
        .collect();
    let target = TargetInfo {
        transport: "stdio",
        command: "server".into(),
        args: Vec::new(),
        reference: false,
        url: None,
    };
    RunReport::new(target, 0, revisions)
}

/// The report with every pass line and every occurrence's evidence (`-v`).
fn render_verbose(report: &RunReport) -> String {
    render_text_with(
        report,
        TextOptions {
            detail: Detail::Verbose,
            color: false,
        },
    )
}

fn pass(check: &'static str) -> CheckResult {
    let mut r = result(check, Level::Must, Status::Pass, "held");
    r.evidence.clear();
    r
}

#[test]
fn a_finding_in_every_revision_is_one_summary_line_and_one_evidence_block() {
    let report = report(|_| {
        vec![
            result("rpc-a", Level::Must, Status::Fail, "broken"),
            pass("rpc-b"),
        ]
    });
    let text = render_text(&report);
    assert!(text.contains("\nFAIL rpc-a  all\n"), "{text}");
    assert_eq!(
        text.matches("<- {\"answer\":\"broken\"}").count(),
        1,
        "{text}"
    );
    assert!(text.contains("same in 2025-03-26, 2025-06-18"), "{text}");
    assert!(
        !text.contains("pass rpc-b"),
        "pass lines only with -v:\n{text}"
    );
    let summary = text.find("Summary: FAILED: 1 distinct failure,").unwrap();
    assert!(
        summary < text.find("Findings").unwrap(),
        "summary first:\n{text}"
    );
}

#[test]
fn a_finding_in_some_revisions_lists_them_and_says_what_differs() {
    let report = report(|i| match i {
        0 => vec![result("rpc-a", Level::Must, Status::Fail, "broken")],
        1 => vec![result(
            "rpc-a",
            Level::Must,
            Status::Fail,
            "broken otherwise",
        )],
        _ => vec![pass("rpc-a")],
    });
    let text = render_text(&report);
    assert!(
        text.contains("\nFAIL rpc-a  2024-11-05, 2025-03-26\n"),
        "{text}"
    );
    assert!(text.contains("     2025-03-26: broken otherwise"), "{text}");
    assert!(
        text.contains("(their evidence: -v or the JSON report)"),
        "{text}"
    );
    let verbose = render_verbose(&report);
    assert!(
        verbose.contains("<- {\"answer\":\"broken otherwise\"}"),
        "{verbose}"
    );
    assert!(verbose.contains("pass rpc-a: held"), "{verbose}");
}

/// `WARN ... [MUST ...]` read as a contradiction: the policy that graded it is said.
#[test]
fn a_must_graded_as_a_warning_names_its_policy_not_a_bare_must() {
    let mut r = result("tc-a", Level::Must, Status::Warn, "an isError result");
    r.source = "tools.mdx, Error Handling; REQUIREMENTS.md 10 A10";
    let report = report(|_| vec![r.clone()]);
    let text = render_text(&report);
    assert!(
        text.contains(
            "WARN tc-a  all  (a MUST, graded a warning by policy A10, Unknown-tool code)"
        ),
        "{text}"
    );
    assert!(text.contains("WARN tc-a (all) [REQ-ID;"), "{text}");
    assert!(
        text.contains(
            "     a title\n     (a MUST, graded a warning by policy A10, Unknown-tool code)\n"
        ),
        "{text}"
    );
    assert!(!text.contains("[MUST"), "{text}");
    let should = report_with_should();
    assert!(render_text(&should).contains("[SHOULD REQ-ID;"));
}

fn report_with_should() -> RunReport {
    report(|_| vec![result("pag-a", Level::Should, Status::Warn, "a page")])
}

#[test]
fn long_server_text_is_cut_with_its_byte_count() {
    let long = "x".repeat(5000);
    let report = report(|_| vec![result("rpc-a", Level::Must, Status::Fail, &long)]);
    let text = render_text(&report);
    assert!(text.contains("x… [5000 bytes in all]"), "{text}");
    assert!(text.contains("x… [5013 bytes in all]"), "{text}");
    assert!(text.lines().all(|l| l.len() < 6000));
}

#[test]
fn quiet_is_the_summary_line_alone() {
    let report = report(|_| vec![result("rpc-a", Level::Must, Status::Fail, "broken")]);
    let quiet = render_text_with(
        &report,
        TextOptions {
            detail: Detail::Quiet,
            color: false,
        },
    );
    assert_eq!(
        quiet,
        "Summary: FAILED: 1 distinct failure, 0 distinct warnings; 0 pass, 3 fail, 0 warn, 0 skip across 3 revisions; seed 0\n"
    );
}

#[test]
fn colour_is_only_on_our_words_and_server_text_stays_escaped() {
    let report = report(|_| vec![result("rpc-a", Level::Must, Status::Fail, "\u{1b}[32mok")]);
    let plain = render_text(&report);
    assert!(!plain.contains('\u{1b}'), "{plain}");
    let coloured = render_text_styled(&report, true);
    assert!(coloured.contains("\u{1b}[1m\u{1b}[31mFAIL"), "{coloured:?}");
    assert!(!coloured.contains("\u{1b}[32mok"), "{coloured:?}");
    assert!(coloured.contains("\\u{1b}[32mok"), "{coloured:?}");
}

/// Issue 15: a finding that only repeats another's server answer (report/causes.rs) is
/// marked in the summary, and the totals count the root causes.
#[test]
fn a_derived_finding_names_its_root_cause_in_the_summary() {
    let linked = |check, revision| {
        let mut r = result(check, Level::Must, Status::Fail, "broken");
        r.same_cause_as = Some(crate::checks::SameCause {
            check: "tc-root",
            revision,
        });
        r
    };
    let report = report(|i| {
        let mut results = vec![
            result("tc-root", Level::Must, Status::Fail, "broken"),
            linked("schema-derived", REVS[i]),
        ];
        // Linked in one revision only: a root cause of its own elsewhere.
        results.push(if i == 2 {
            linked("rpc-own", REVS[i])
        } else {
            result("rpc-own", Level::Must, Status::Fail, "own")
        });
        results
    });
    let text = render_text(&report);
    assert!(
        text.contains("\nFAIL schema-derived  all  (same cause as tc-root)\n"),
        "{text}"
    );
    assert!(text.contains("\nFAIL tc-root         all\n"), "{text}");
    assert!(text.contains("\nFAIL rpc-own         all\n"), "{text}");
    assert!(
        text.contains(
            "Summary: FAILED: 3 distinct failures from 2 root causes, 0 distinct warnings;"
        ),
        "{text}"
    );
    // Without links, no root-cause count.
    let plain = render_text(&super::tests::report(|_| {
        vec![result("rpc-a", Level::Must, Status::Fail, "a")]
    }));
    assert!(
        plain.contains("Summary: FAILED: 1 distinct failure, 0"),
        "{plain}"
    );
}

/// A derived finding points at its root only where the report prints the root's
/// evidence: a root occurrence left to `-v` (another message, other evidence) is no place
/// to point at, so the derived finding prints its own evidence there.
#[test]
fn a_derived_finding_points_only_at_evidence_the_report_prints() {
    let derived = |i: usize, root_rev: &'static str| {
        let mut d = result("tc-derived", Level::Must, Status::Fail, "derived");
        d.evidence[0].text = format!("{{\"answer\":\"seen by the root in {i}\"}}");
        d.same_cause_as = Some(crate::checks::SameCause {
            check: "rpc-root",
            revision: root_rev,
        });
        d
    };
    // The root's message differs by revision, so only its first occurrence's evidence
    // (2024-11-05) is printed by default. One derived finding links to that one, another
    // to the root in 2025-03-26, whose evidence is left to -v.
    let report = report(|i| {
        let root = result(
            "rpc-root",
            Level::Must,
            Status::Fail,
            &format!("broken {i}"),
        );
        match i {
            0 => vec![root, derived(0, REVS[0])],
            1 => {
                let mut other = derived(1, REVS[1]);
                other.check = "tc-other";
                vec![root, other]
            }
            _ => vec![root],
        }
    });
    let text = render_text(&report);
    assert!(
        text.contains("** same cause as rpc-root (2024-11-05)"),
        "{text}"
    );
    assert!(!text.contains("seen by the root in 0"), "{text}");
    // Pointing at the root in 2025-03-26 would point at nothing printed: its own evidence.
    assert!(
        !text.contains("** same cause as rpc-root (2025-03-26)"),
        "{text}"
    );
    assert!(text.contains("seen by the root in 1"), "{text}");
    // Verbose prints every occurrence's evidence: every link is a pointer.
    let verbose = render_verbose(&report);
    assert!(
        verbose.contains("** same cause as rpc-root (2025-03-26)"),
        "{verbose}"
    );
    assert!(!verbose.contains("seen by the root in 1"), "{verbose}");
    // Alone (the harness's failure message), a finding always shows its own evidence.
    let (rev, alone) = (REVS[0], &report.revisions[0].results[1]);
    assert!(render_finding(rev, alone).contains("seen by the root in 0"));
}

/// The headline says what the exit code says: a run that passes only because of its
/// baseline reads "PASSED, 1 baselined", not a count of failures.
#[test]
fn a_baselined_run_reads_as_passed() {
    let mut r = report(|_| {
        vec![
            result("rpc-batch", Level::Must, Status::Fail, "a"),
            result("lc-ping", Level::Should, Status::Warn, "w"),
        ]
    });
    r.apply_baseline(
        &crate::report::Baseline::parse(
            "[[expected]]\ncheck = \"rpc-batch\"\nreason = \"upstream\"\n",
            std::path::Path::new("b.toml"),
        )
        .unwrap(),
    );
    assert!(r.verdict().passed);
    let text = render_text(&r);
    assert!(
        text.contains(
            "Summary: PASSED, 1 baselined, with warnings: 1 distinct failure, 1 distinct warning;"
        ),
        "{text}"
    );
    // JUnit reports an accepted failure as skipped (pytest's xfail): the readable reports
    // say how many failures those are, so the counts add up.
    assert!(
        text.contains("0 pass, 3 fail (3 baselined), 3 warn, 0 skip"),
        "{text}"
    );
    let md = crate::report::to_markdown(&r);
    assert!(
        md.contains("**PASSED, 1 baselined, with warnings**: 3 fail (3 baselined),"),
        "{md}"
    );
    let junit = crate::report::to_junit(&r).unwrap();
    assert!(
        junit.contains("tests=\"6\" skipped=\"3\" failures=\"0\""),
        "{junit}"
    );
    // --strict makes the warning fail the run: the headline follows the exit code.
    r.gate_options.strict = true;
    assert!(!r.verdict().passed);
    let text = render_text(&r);
    assert!(
        text.contains("Summary: FAILED: 1 distinct failure (1 baselined), 1 distinct warning;"),
        "{text}"
    );
    assert!(crate::report::to_markdown(&r).contains("**FAILED**: 3 fail (3 baselined),"));
}

/// A cut run ran some revisions, not all: a finding in each of them lists them.
#[test]
fn a_cut_run_never_says_all() {
    let mut r = report(|_| vec![result("rpc-a", Level::Must, Status::Fail, "a")]);
    assert!(render_text(&r).contains("\nFAIL rpc-a  all\n"));
    r.incomplete = Some(crate::report::Incomplete {
        reason: "interrupted by SIGINT".into(),
        not_run: vec!["2025-11-25"],
        negotiation_ran: true,
    });
    let text = render_text(&r);
    assert!(
        text.contains("\nFAIL rpc-a  2024-11-05, 2025-03-26, 2025-06-18\n"),
        "{text}"
    );
    assert!(text.contains("Summary: INCOMPLETE:"), "{text}");
}

/// 2026-07-28 negotiates nothing; its heading does not say it did.
#[test]
fn the_stateless_revision_is_not_negotiated() {
    let mut r = report(|_| vec![pass("rpc-a")]);
    r.revisions[2].revision = "2026-07-28";
    let text = render_text(&r);
    assert!(
        text.contains("== 2024-11-05 (negotiated \"2024-11-05\"):"),
        "{text}"
    );
    assert!(
        text.contains("== 2026-07-28 (stateless, nothing negotiated):"),
        "{text}"
    );
}

#[test]
fn counts_read_in_the_right_number() {
    use crate::report::counted;
    assert_eq!(counted(1, "baseline entry"), "1 baseline entry");
    assert_eq!(counted(3, "baseline entry"), "3 baseline entries");
    assert_eq!(counted(0, "distinct failure"), "0 distinct failures");
    assert_eq!(counted(2, "day"), "2 days");
}
