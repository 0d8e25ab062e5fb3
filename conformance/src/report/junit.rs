//! The JUnit XML report (`--format junit`), for CI systems that show test results.
//!
//! One `<testsuite>` per revision and one `<testcase>` per check, so a CI page lists
//! the catalog the way the text report does. JUnit has no "passed with a warning", so a
//! warning stays a success and is shown in the testcase's `<system-out>` and a `status`
//! property: visible in CI UIs, but it does not fail the build.
//!
//! quick-junit escapes markup (`<`, `&`, quotes) itself, but XML 1.0 cannot carry most
//! control characters nor U+FFFE/U+FFFF at all (not even as character references), and
//! quick-junit silently drops the controls. Server text is therefore escaped visibly
//! first, so the file is always well-formed and a hostile byte is shown, not lost.

use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};

use super::escape::escape_server_text;
use super::model::RunReport;
use super::surface::{change_line, SurfaceReport};
use crate::checks::{CheckResult, Evidence, Status};
use crate::protocol::Direction;
use crate::surface::Class;

/// Longest evidence line shown, as in the text report; the JSON report keeps more.
pub(super) const MAX_EVIDENCE_LINE: usize = 1000;

/// One evidence line tagged as the text report tags it (`-> `, `<- `, `stderr: `,
/// `** `), cut to [`MAX_EVIDENCE_LINE`] but not escaped: each renderer escapes for its
/// own medium. Shared by the JUnit, Markdown and SARIF renderers.
pub(super) fn evidence_line(e: &Evidence) -> String {
    let tag = match e.direction {
        Direction::Sent => "->",
        Direction::Received => "<-",
        Direction::Stderr => "stderr:",
        Direction::Harness | Direction::Load => "**",
    };
    format!(
        "{tag} {}",
        crate::protocol::cut_text(&e.text, MAX_EVIDENCE_LINE)
    )
}

/// Renders the report as JUnit XML: one testsuite per revision, one testcase per check.
///
/// Failures carry the check's level as their type, the finding as their message and the
/// evidence as their text; warnings pass but show `WARN: ...` and the evidence in
/// `<system-out>`; skipped checks carry the reason. Every piece of server text is escaped
/// so the output is well-formed XML 1.0 whatever the server sent.
///
/// # Errors
///
/// [`crate::Error::Serialize`] if the XML writer fails (it writes to memory, so this
/// would be a bug).
pub fn to_junit(report: &RunReport) -> crate::Result<String> {
    let mut junit = Report::new(report.tool.name);
    for rev in &report.revisions {
        let mut suite = TestSuite::new(format!("{} {}", report.tool.name, rev.revision));
        let negotiated = rev
            .negotiated
            .as_deref()
            .map_or_else(|| "none".to_string(), xml_text);
        suite.add_properties([
            Property::new("revision", rev.revision),
            Property::new("negotiated", negotiated),
            Property::new("seed", report.seed.to_string()),
            Property::new("transport", report.target.transport),
            Property::new("target", xml_text(&report.target.describe())),
        ]);
        suite.add_test_cases(
            rev.results
                .iter()
                .map(|r| test_case(rev.revision, r, report.baselined(rev.revision, r.check))),
        );
        junit.add_test_suite(suite);
    }
    if let Some(surface) = &report.surface {
        junit.add_test_suite(surface_suite(report.tool.name, surface));
    }
    if let Some(cut) = &report.incomplete {
        // A cut run must not read as a green one: one failing case says what it left out.
        let mut suite = TestSuite::new(format!("{} run", report.tool.name));
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        status
            .set_type("INCOMPLETE")
            .set_message(xml_text(&cut.describe()));
        suite.add_test_case(TestCase::new("run-complete", status));
        junit.add_test_suite(suite);
    }
    junit.to_string().map_err(|e| {
        crate::Error::Serialize(<serde_json::Error as serde::ser::Error>::custom(
            format_args!("junit xml: {e}"),
        ))
    })
}

/// The tool surface as a suite: one case per change, named by its pointer and classed by
/// its class; a breaking change fails, the others pass and show themselves in
/// `<system-out>`. An unchanged surface is one passing case.
fn surface_suite(tool: &str, surface: &SurfaceReport) -> TestSuite {
    let mut suite = TestSuite::new(format!("{tool} tool surface"));
    suite.add_property(Property::new("snapshot", xml_text(&surface.snapshot)));
    if surface.changes.is_empty() {
        suite.add_test_case(TestCase::new(
            "tool-surface-unchanged",
            TestCaseStatus::success(),
        ));
    }
    for change in &surface.changes {
        let line = xml_text(&change_line(change));
        let status = if change.class == Class::Breaking {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status.set_type("breaking").set_message(&line);
            status
        } else {
            TestCaseStatus::success()
        };
        let name = if change.pointer.is_empty() {
            change.revisions.join(", ")
        } else {
            xml_text(&change.pointer)
        };
        let mut case = TestCase::new(name, status);
        case.set_classname(format!("tool-surface.{}", change.class.name()));
        if change.class != Class::Breaking {
            case.set_system_out(line);
        }
        suite.add_test_case(case);
    }
    suite
}

fn test_case(revision: &str, r: &CheckResult, baselined: Option<&str>) -> TestCase {
    let message = xml_text(&r.message);
    let status = match (r.status, baselined) {
        // An accepted failure does not fail the suite but stays visible: skipped, saying
        // why, with the evidence in system-out.
        (Status::Fail, Some(reason)) => {
            let mut status = TestCaseStatus::skipped();
            status.set_message(format!(
                "expected failure (baseline: {}): {message}",
                xml_text(reason)
            ));
            status
        }
        (Status::Pass | Status::Warn, _) => TestCaseStatus::success(),
        (Status::Fail, None) => {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status.set_type(r.level.as_str()).set_message(&message);
            if let Some(shown) = evidence_text(r) {
                status.set_description(shown);
            }
            status
        }
        (Status::Skip, _) => {
            let mut status = TestCaseStatus::skipped();
            status.set_message(&message);
            status
        }
    };
    let mut case = TestCase::new(r.check, status);
    case.set_classname(revision);
    if matches!(r.status, Status::Fail | Status::Warn) {
        // What a reader needs to look the finding up, without opening the catalog.
        case.add_properties([
            Property::new("status", r.status.as_str()),
            Property::new("level", r.level.as_str()),
            Property::new("requirement", r.requirement),
            Property::new("source", r.source),
            Property::new("title", r.title),
        ]);
        if let Some(reason) = baselined {
            case.add_property(Property::new("baselined", xml_text(reason)));
        }
    }
    if r.status == Status::Warn || baselined.is_some() {
        let word = if r.status == Status::Warn {
            "WARN"
        } else {
            "FAIL (baselined)"
        };
        let mut out = format!("{word}: {message}");
        if let Some(shown) = evidence_text(r) {
            out.push('\n');
            out.push_str(&shown);
        }
        case.set_system_out(out);
    }
    case
}

/// What a finding shows below its message: its evidence, or, when an earlier finding
/// shows the same server answer, a pointer to that one.
fn evidence_text(r: &CheckResult) -> Option<String> {
    match r.same_cause_as {
        Some(root) => Some(root.describe()),
        None if r.evidence.is_empty() => None,
        None => Some(evidence_block(&r.evidence)),
    }
}

/// The evidence, one escaped line each.
fn evidence_block(evidence: &[Evidence]) -> String {
    evidence
        .iter()
        .map(|e| xml_text(&evidence_line(e)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The server command line, as the text report shows it.
/// Makes text legal in XML 1.0 and visible: controls and bidi controls become `\u{..}`
/// (as on a terminal), and so do Unicode noncharacters. XML 1.0 forbids U+FFFE and
/// U+FFFF outright (production `Char`); the other noncharacters are only discouraged,
/// but escaping them all keeps the rule simple.
fn xml_text(text: &str) -> String {
    let escaped = escape_server_text(text);
    if !escaped.chars().any(is_noncharacter) {
        return escaped;
    }
    let mut out = String::with_capacity(escaped.len() + 8);
    for c in escaped.chars() {
        if is_noncharacter(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

fn is_noncharacter(c: char) -> bool {
    let c = c as u32;
    (0xfdd0..=0xfdef).contains(&c) || c & 0xfffe == 0xfffe
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::Level;
    use crate::report::{RevisionReport, Summary, TargetInfo};

    fn result(check: &'static str, status: Status, message: &str) -> CheckResult {
        CheckResult {
            check,
            title: "a title",
            level: Level::Must,
            requirement: "REQ-ID",
            source: "ping.mdx, Behavior Requirements",
            status,
            message: message.to_string(),
            evidence: Vec::new(),
            same_cause_as: None,
        }
    }

    fn evidence(direction: Direction, text: &str) -> Evidence {
        Evidence {
            direction,
            text: text.to_string(),
        }
    }

    const HOSTILE: &str = "]]></x>\u{1b}[31m\u{1}<a href=\"x\">&amp;\u{fffe}\u{ffff}\u{85}'";

    fn sample() -> RunReport {
        let mut fail = result("lc-ping", Status::Fail, HOSTILE);
        fail.evidence = vec![
            evidence(
                Direction::Sent,
                r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            ),
            evidence(Direction::Received, HOSTILE),
            evidence(Direction::Stderr, "panic\tat\r\nline"),
            evidence(Direction::Harness, "no response within 5s"),
        ];
        let mut warn = result("tool-name-case", Status::Warn, "names differ only by case");
        warn.level = Level::Should;
        warn.evidence = vec![evidence(Direction::Received, "{\"name\":\"A\"}")];
        RunReport::new(
            TargetInfo {
                transport: "stdio",
                command: "server".into(),
                args: vec!["--flag".into(), "\u{1b}]0;title\u{7}".into()],
                reference: false,
                url: None,
            },
            42,
            vec![
                RevisionReport {
                    revision: "2025-06-18",
                    negotiated: Some("2025-06-18\u{0}".into()),
                    results: vec![
                        result("lc-init-result", Status::Pass, "ok"),
                        fail,
                        warn,
                        result("rpc-batch", Status::Skip, "applies to 2025-03-26 only"),
                    ],
                },
                RevisionReport {
                    revision: "2025-11-25",
                    negotiated: None,
                    results: vec![
                        result("lc-init-result", Status::Fail, "no answer"),
                        result("lc-ping", Status::Skip, "not probed: initialize failed"),
                    ],
                },
            ],
        )
    }

    fn attr<'a>(node: roxmltree::Node<'a, '_>, name: &str) -> &'a str {
        node.attribute(name)
            .unwrap_or_else(|| panic!("<{}> has no {name}", node.tag_name().name()))
    }

    fn count(node: roxmltree::Node<'_, '_>, tag: &str) -> usize {
        node.descendants().filter(|n| n.has_tag_name(tag)).count()
    }

    #[test]
    fn structure_matches_the_run_model() {
        let report = sample();
        let xml = to_junit(&report).unwrap();
        let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "testsuites");
        assert_eq!(attr(root, "name"), "mcp-conformance");
        let total = report
            .revisions
            .iter()
            .map(|r| r.results.len())
            .sum::<usize>();
        assert_eq!(attr(root, "tests"), total.to_string());
        assert_eq!(attr(root, "failures"), report.summary.fail.to_string());
        assert_eq!(attr(root, "skipped"), report.summary.skip.to_string());

        let suites: Vec<_> = root
            .children()
            .filter(|n| n.has_tag_name("testsuite"))
            .collect();
        assert_eq!(suites.len(), report.revisions.len());
        for (suite, rev) in suites.iter().zip(&report.revisions) {
            let s = Summary::of(&rev.results);
            assert_eq!(
                attr(*suite, "name"),
                format!("mcp-conformance {}", rev.revision)
            );
            assert_eq!(count(*suite, "testcase"), rev.results.len());
            assert_eq!(count(*suite, "failure"), s.fail);
            assert_eq!(count(*suite, "skipped"), s.skip);
            assert_eq!(attr(*suite, "failures"), s.fail.to_string());
            let cases: Vec<_> = suite
                .children()
                .filter(|n| n.has_tag_name("testcase"))
                .collect();
            for (case, r) in cases.iter().zip(&rev.results) {
                assert_eq!(attr(*case, "name"), r.check);
                assert_eq!(attr(*case, "classname"), rev.revision);
                let failure = case.children().find(|n| n.has_tag_name("failure"));
                assert_eq!(failure.is_some(), r.status == Status::Fail, "{}", r.check);
                if let Some(f) = failure {
                    assert_eq!(attr(f, "type"), r.level.as_str());
                    assert_eq!(attr(f, "message"), xml_text(&r.message));
                }
            }
            let props: Vec<_> = suite
                .descendants()
                .filter(|n| {
                    n.has_tag_name("property") && n.parent().unwrap().parent() == Some(*suite)
                })
                .map(|n| (attr(n, "name"), attr(n, "value")))
                .collect();
            assert!(props.contains(&("seed", "42")), "{props:?}");
            let negotiated = rev.negotiated.as_deref().map_or("none".into(), xml_text);
            assert!(
                props.contains(&("negotiated", negotiated.as_str())),
                "{props:?}"
            );
        }
    }

    #[test]
    fn failure_text_is_the_evidence_tagged_like_the_text_report() {
        let xml = to_junit(&sample()).unwrap();
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let failure = doc
            .descendants()
            .find(|n| n.has_tag_name("failure"))
            .unwrap();
        let lines: Vec<_> = failure.text().unwrap().lines().collect();
        assert_eq!(lines.len(), 4, "{lines:?}");
        assert_eq!(lines[0], r#"-> {"jsonrpc":"2.0","id":1,"method":"ping"}"#);
        assert!(lines[1].starts_with("<- ]]></x>"), "{}", lines[1]);
        assert_eq!(lines[2], "stderr: panic\\tat\\u{d}\\u{a}line");
        assert_eq!(lines[3], "** no response within 5s");
    }

    #[test]
    fn hostile_server_text_stays_well_formed_and_visible() {
        let xml = to_junit(&sample()).unwrap();
        // No character XML 1.0 forbids, anywhere in the file.
        assert!(
            !xml.chars()
                .any(|c| (c.is_control() && !matches!(c, '\n' | '\t' | '\r'))
                    || matches!(c, '\u{fffe}' | '\u{ffff}')),
            "{xml}"
        );
        let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
        let expected = "]]></x>\\u{1b}[31m\\u{1}<a href=\"x\">&amp;\\u{fffe}\\u{ffff}\\u{85}'";
        let failure = doc
            .descendants()
            .find(|n| n.has_tag_name("failure"))
            .unwrap();
        // Read back exactly: escaped once by us (visibly), once by quick-junit (markup).
        assert_eq!(attr(failure, "message"), expected);
        assert!(failure.text().unwrap().contains(&format!("<- {expected}")));
        let target = doc
            .descendants()
            .find(|n| n.has_tag_name("property") && n.attribute("name") == Some("target"))
            .unwrap();
        assert_eq!(attr(target, "value"), "server --flag \\u{1b}]0;title\\u{7}");
    }

    #[test]
    fn warnings_pass_but_show_in_system_out() {
        let xml = to_junit(&sample()).unwrap();
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let case = doc
            .descendants()
            .find(|n| n.has_tag_name("testcase") && n.attribute("name") == Some("tool-name-case"))
            .unwrap();
        assert!(!case
            .children()
            .any(|n| n.has_tag_name("failure") || n.has_tag_name("skipped")));
        let out = case
            .children()
            .find(|n| n.has_tag_name("system-out"))
            .and_then(|n| n.text())
            .unwrap();
        assert_eq!(out, "WARN: names differ only by case\n<- {\"name\":\"A\"}");
        let status = case
            .descendants()
            .find(|n| n.has_tag_name("property") && n.attribute("name") == Some("status"))
            .unwrap();
        assert_eq!(attr(status, "value"), "warn");
    }

    #[test]
    fn skipped_checks_carry_their_reason() {
        let xml = to_junit(&sample()).unwrap();
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let reasons: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("skipped"))
            .map(|n| attr(n, "message"))
            .collect();
        assert_eq!(
            reasons,
            [
                "applies to 2025-03-26 only",
                "not probed: initialize failed"
            ]
        );
    }

    #[test]
    fn every_bmp_character_reads_back_as_escaped() {
        let all: String = (0..=0xffff_u32).filter_map(char::from_u32).collect();
        let mut report = sample();
        report.revisions[0].results[1].message = all.clone();
        report.revisions[0].results[1].evidence = vec![evidence(Direction::Received, &all)];
        let xml = to_junit(&report).unwrap();
        let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
        let failure = doc
            .descendants()
            .find(|n| n.has_tag_name("failure"))
            .unwrap();
        assert_eq!(attr(failure, "message"), xml_text(&all));
        let text = failure.text().unwrap();
        let cut = crate::protocol::cut_text(&all, MAX_EVIDENCE_LINE);
        assert_eq!(text, format!("<- {}", xml_text(&cut)));
    }

    #[test]
    fn noncharacters_are_escaped_and_others_kept() {
        assert_eq!(xml_text("a\u{fdd0}b\u{1fffe}c"), "a\\u{fdd0}b\\u{1fffe}c");
        assert_eq!(xml_text("é\u{fffd}\u{10000}"), "é\u{fffd}\u{10000}");
    }
}
