//! The SARIF 2.1.0 report (`--format sarif`), for code-scanning dashboards.
//!
//! Every check of the catalog is a rule (id, title, level, requirement, the revisions it
//! applies to, and a link to its spec page), so a dashboard can explain a finding without
//! this tool. Only failures (`error`) and warnings (`warning`) become results: SARIF
//! lists problems, and a pass or a skip is not one. A server finding has no source file,
//! so results carry no location (SARIF allows that); the revision and the evidence go in
//! the message and, structured, in the result's properties.
//!
//! SARIF plain-text messages may embed links written `[text](target)`, with `\[`, `\]`
//! and `\\` standing for literal characters (SARIF 2.1.0, 3.11.6), so server text is
//! escaped that way, after control characters are made visible.

use serde_json::{json, Value};
use serde_sarif::sarif::{
    ArtifactLocation, Invocation, Location, Message, MultiformatMessageString, Notification,
    PhysicalLocation, PropertyBag, ReportingConfiguration, ReportingDescriptor,
    Result as SarifResult, ResultLevel, Run, Sarif, Tool, ToolComponent,
};

use super::escape::escape_server_text;
use super::junit::evidence_line;
use super::model::{RunReport, Summary};
use super::surface::{change_line, SurfaceReport};
use crate::checks::{links, Check, CheckResult, Status, CATALOG};
use crate::protocol::REVISIONS;
use crate::surface::{Class, SurfaceChange};

/// The JSON schema SARIF consumers validate against.
const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The tool has no home page of its own yet, so it points at the specification it checks.
const INFORMATION_URI: &str = "https://modelcontextprotocol.io/specification/2025-11-25";

/// Renders the report as a SARIF 2.1.0 log with one run.
///
/// The driver lists one rule per check of [`crate::checks::CATALOG`]; each failed check
/// of each revision is an `error` result and each warning a `warning` result, naming the
/// rule, the revision and the evidence.
///
/// # Errors
///
/// [`crate::Error::Serialize`] if serialization fails (it cannot for this shape).
pub fn to_sarif(report: &RunReport) -> crate::Result<String> {
    let mut rules: Vec<ReportingDescriptor> = CATALOG.iter().map(rule).collect();
    if report.surface.is_some() {
        rules.extend(
            SURFACE_CLASSES
                .iter()
                .map(|&(class, _, about)| surface_rule(class, about)),
        );
    }
    let driver = ToolComponent::builder()
        .name(report.tool.name)
        .version(report.tool.version)
        .semantic_version(report.tool.version)
        .information_uri(INFORMATION_URI)
        .rules(rules)
        .build();
    let mut results: Vec<SarifResult> = report
        .revisions
        .iter()
        .flat_map(|rev| {
            rev.results
                .iter()
                .filter(|r| matches!(r.status, Status::Fail | Status::Warn))
                .map(|r| {
                    let mut result = finding(rev.revision, rev.negotiated.as_deref(), r);
                    if let Some(reason) = report.baselined(rev.revision, r.check) {
                        // An accepted finding: suppressed with the baseline's reason, as
                        // code-scanning tools expect, not dropped.
                        result.suppressions =
                            Some(vec![serde_sarif::sarif::Suppression::builder()
                                .kind(json!("external"))
                                .justification(reason.to_string())
                                .build()]);
                    }
                    result
                })
        })
        .collect();
    if let Some(surface) = &report.surface {
        results.extend(surface.changes.iter().map(|c| surface_result(surface, c)));
    }
    let mut run = Run::builder()
        .tool(Tool::builder().driver(driver).build())
        .results(results)
        .properties(run_properties(report))
        .build();
    if let Some(cut) = &report.incomplete {
        // A cut run did not execute successfully: SARIF's way to say the results are partial.
        let note = Notification::builder()
            .level(json!("error"))
            .message(Message::builder().text(sarif_text(&cut.describe())).build())
            .build();
        run.invocations = Some(vec![Invocation::builder()
            .execution_successful(false)
            .tool_execution_notifications(vec![note])
            .build()]);
    }
    let sarif = Sarif::builder()
        .schema(SARIF_SCHEMA)
        .version(json!("2.1.0"))
        .runs(vec![run])
        .build();
    Ok(serde_json::to_string_pretty(&sarif)?)
}

/// The tool surface's rules, one per class: its level and what it means.
const SURFACE_CLASSES: &[(Class, &str, &str)] = &[
    (
        Class::Breaking,
        "error",
        "A change to the tool surface that can break a client that worked: a tool removed \
         or renamed, an input narrowed, an output widened, structured output no longer \
         promised, a revision no longer offered.",
    ),
    (
        Class::Review,
        "warning",
        "A change to the tool surface a person must judge: a description, title, \
         annotation or icon changed (what a model reads and a user approved), or a schema \
         combinator changed.",
    ),
    (
        Class::Compatible,
        "note",
        "A change to the tool surface that clients that worked still meet: a tool or an \
         optional input added, an input widened.",
    ),
];

/// The rule id of a class of tool surface change.
fn surface_rule_id(class: Class) -> String {
    format!("tool-surface-{}", class.name())
}

fn surface_rule(class: Class, about: &str) -> ReportingDescriptor {
    let level = SURFACE_CLASSES
        .iter()
        .find(|(c, _, _)| *c == class)
        .map_or("note", |(_, level, _)| level);
    let id = surface_rule_id(class);
    ReportingDescriptor::builder()
        .name(pascal_case(&id))
        .id(id)
        .short_description(text(&format!("Tool surface change: {}", class.name())))
        .full_description(text(about))
        .default_configuration(
            ReportingConfiguration::builder()
                .level(json!(level))
                .build(),
        )
        .properties(bag(json!({"tags": ["mcp", "tool-surface", class.name()]})))
        .build()
}

/// One change as a result, located in the snapshot file it changes.
fn surface_result(surface: &SurfaceReport, change: &SurfaceChange) -> SarifResult {
    let level = match change.class {
        Class::Breaking => ResultLevel::Error,
        Class::Review => ResultLevel::Warning,
        Class::Compatible => ResultLevel::Note,
    };
    let location = Location::builder()
        .physical_location(
            PhysicalLocation::builder()
                .artifact_location(
                    ArtifactLocation::builder()
                        .uri(surface.snapshot.replace('\\', "/"))
                        .build(),
                )
                .build(),
        )
        .build();
    SarifResult::builder()
        .rule_id(surface_rule_id(change.class))
        .level(level)
        .message(
            Message::builder()
                .text(sarif_text(&change_line(change)))
                .build(),
        )
        .locations(vec![location])
        .properties(bag(escaped(json!({
            "revisions": change.revisions,
            "pointer": change.pointer,
            "what": change.what,
            "before": change.before,
            "after": change.after,
        }))))
        .build()
}

fn rule(check: &Check) -> ReportingDescriptor {
    let default_level = match check.level.latest().violation_status() {
        Status::Fail => "error",
        _ => "warning",
    };
    let revisions: Vec<&str> = REVISIONS
        .iter()
        .filter(|r| check.applies.includes(r))
        .map(|r| r.id)
        .collect();
    let mut rule = ReportingDescriptor::builder()
        .id(check.id.as_str())
        .name(pascal_case(check.id.as_str()))
        .short_description(text(&sarif_text(check.title)))
        .full_description(text(&sarif_text(&format!(
            "{}. {} {}; spec: {}.",
            check.title,
            check.level.describe(),
            check.requirement,
            check.source.describe_eras()
        ))))
        .default_configuration(
            ReportingConfiguration::builder()
                .level(json!(default_level))
                .build(),
        )
        .properties(bag(json!({
            "level": check.level.describe(),
            "requirement": check.requirement,
            "source": check.source.describe_eras(),
            "revisions": revisions,
            "tags": ["mcp", check.level.latest().as_str()],
        })))
        .build();
    // Typed builders cannot set an optional field conditionally; set it afterwards.
    rule.help_uri = help_uri(check.source.latest());
    rule
}

fn finding(revision: &str, negotiated: Option<&str>, r: &CheckResult) -> SarifResult {
    let level = if r.status == Status::Fail {
        ResultLevel::Error
    } else {
        ResultLevel::Warning
    };
    let mut message = format!("{} ({revision}): {}", r.check, sarif_text(&r.message));
    for e in &r.evidence {
        message.push('\n');
        message.push_str(&sarif_text(&evidence_line(e)));
    }
    let mut result = SarifResult::builder()
        .rule_id(r.check)
        .level(level)
        .message(Message::builder().text(message).build())
        .properties(bag(escaped(json!({
            "revision": revision,
            "negotiated": negotiated,
            "status": r.status,
            "level": r.level,
            "requirement": r.requirement,
            "source": r.source,
            "title": r.title,
            "evidence": r.evidence,
        }))))
        .build();
    result.rule_index = CATALOG
        .iter()
        .position(|c| c.id.as_str() == r.check)
        .and_then(|i| i64::try_from(i).ok());
    result
}

/// The seed, the target and what each revision negotiated, for replaying the run.
fn run_properties(report: &RunReport) -> PropertyBag {
    let revisions: Vec<Value> = report
        .revisions
        .iter()
        .map(|rev| {
            json!({
                "revision": rev.revision,
                "negotiated": rev.negotiated,
                "summary": Summary::of(&rev.results),
            })
        })
        .collect();
    bag(escaped(json!({
        "seed": report.seed,
        "target": report.target,
        "revisions": revisions,
        "summary": report.summary,
        "incomplete": report.incomplete,
    })))
}

/// The spec page of a check's newest `source` (a rule spans revisions: its link is the
/// newest page; a finding's own revision is in its message).
fn help_uri(source: &str) -> Option<String> {
    links::spec_page(source, links::default_revision())
}

/// `lc-init-result` -> `LcInitResult`, the name style of SARIF rules (and of our types).
fn pascal_case(id: &str) -> String {
    id.split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// Escapes text for a SARIF plain-text message: controls become visible `\u{..}`, then
/// `\`, `[` and `]` are backslash-escaped so no embedded link can be formed.
/// Structured properties with their server text (evidence, negotiated versions, the
/// target's command line) escaped by the one rule.
fn escaped(mut value: Value) -> Value {
    super::json::escape_strings(&mut value);
    value
}

fn sarif_text(text: &str) -> String {
    let text = escape_server_text(text);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '[' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn text(s: &str) -> MultiformatMessageString {
    MultiformatMessageString::builder().text(s).build()
}

fn bag(value: Value) -> PropertyBag {
    let Value::Object(map) = value else {
        unreachable!("property bags are built from object literals")
    };
    PropertyBag::builder()
        .additional_properties(
            map.into_iter()
                .collect::<std::collections::BTreeMap<_, _>>(),
        )
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::{Evidence, Level};
    use crate::protocol::Direction;
    use crate::report::{RevisionReport, TargetInfo};

    const HOSTILE: &str = "see [here](http://evil) \u{1b}[31m\\ {0} \"q\"\u{0}";

    fn result(check: &'static str, level: Level, status: Status, message: &str) -> CheckResult {
        let c = crate::checks::find(check).expect("a catalog check");
        CheckResult {
            check,
            title: c.title,
            level,
            requirement: c.requirement.latest(),
            source: c.source.latest(),
            status,
            message: message.to_string(),
            evidence: Vec::new(),
            same_cause_as: None,
        }
    }

    fn sample() -> RunReport {
        let mut fail = result("lc-ping", Level::Must, Status::Fail, HOSTILE);
        fail.evidence = vec![
            Evidence {
                direction: Direction::Sent,
                text: r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.into(),
            },
            Evidence {
                direction: Direction::Received,
                text: r#"{"jsonrpc":"2.0","id":1,"result":{"s":[1]}}"#.into(),
            },
        ];
        RunReport::new(
            TargetInfo {
                transport: "stdio",
                command: "server".into(),
                args: vec![],
                reference: false,
                url: None,
            },
            9,
            vec![
                RevisionReport {
                    revision: "2025-06-18",
                    negotiated: Some("2025-06-18".into()),
                    results: vec![
                        result("lc-init-result", Level::Must, Status::Pass, "ok"),
                        fail,
                        result("tool-name-case", Level::Should, Status::Warn, "case"),
                        result("rpc-batch", Level::Must, Status::Skip, "not here"),
                    ],
                },
                RevisionReport {
                    revision: "2025-11-25",
                    negotiated: None,
                    results: vec![
                        result("lc-init-result", Level::Must, Status::Fail, "no answer"),
                        result("lc-ping", Level::Must, Status::Skip, "not probed"),
                    ],
                },
            ],
        )
    }

    fn parse(report: &RunReport) -> Sarif {
        serde_json::from_str(&to_sarif(report).unwrap()).expect("a SARIF log")
    }

    #[test]
    fn log_has_one_run_a_rule_per_check_and_a_result_per_finding() {
        let report = sample();
        let raw: Value = serde_json::from_str(&to_sarif(&report).unwrap()).unwrap();
        assert_eq!(raw["version"], "2.1.0");
        assert_eq!(raw["$schema"], SARIF_SCHEMA);
        let sarif = parse(&report);
        assert_eq!(sarif.runs.len(), 1);
        let run = &sarif.runs[0];
        let driver = &run.tool.driver;
        assert_eq!(driver.name, "mcp-conformance");
        assert_eq!(driver.version.as_deref(), Some(report.tool.version));
        assert!(driver.information_uri.is_some());

        let rules = driver.rules.as_ref().unwrap();
        assert_eq!(rules.len(), CATALOG.len());
        for (rule, check) in rules.iter().zip(CATALOG) {
            assert_eq!(rule.id, check.id.as_str());
            assert_eq!(rule.short_description.as_ref().unwrap().text, check.title);
            let props = &rule.properties.as_ref().unwrap().additional_properties;
            assert_eq!(props["level"], check.level.describe());
            assert_eq!(props["requirement"], check.requirement.describe());
            assert!(
                !props["revisions"].as_array().unwrap().is_empty(),
                "{}",
                check.id
            );
            let uri = rule
                .help_uri
                .as_deref()
                .unwrap_or_else(|| panic!("{} has no link", check.id));
            assert!(uri.starts_with("https://"), "{uri}");
        }

        let results = run.results.as_ref().unwrap();
        assert_eq!(results.len(), report.summary.fail + report.summary.warn);
        let levels: Vec<_> = results
            .iter()
            .map(|r| (r.rule_id.as_deref().unwrap(), r.level.unwrap()))
            .collect();
        assert_eq!(
            levels,
            [
                ("lc-ping", ResultLevel::Error),
                ("tool-name-case", ResultLevel::Warning),
                ("lc-init-result", ResultLevel::Error),
            ]
        );
        for r in results {
            let index = r.rule_index.unwrap() as usize;
            assert_eq!(rules[index].id, r.rule_id.as_deref().unwrap());
            assert!(r.locations.is_none());
        }
        let props = &results[2]
            .properties
            .as_ref()
            .unwrap()
            .additional_properties;
        assert_eq!(props["revision"], "2025-11-25");
        assert_eq!(props["negotiated"], Value::Null);
        let run_props = &run.properties.as_ref().unwrap().additional_properties;
        assert_eq!(run_props["seed"], 9);
        assert_eq!(run_props["summary"]["fail"], report.summary.fail);
    }

    #[test]
    fn message_names_revision_and_carries_escaped_evidence() {
        let sarif = parse(&sample());
        let result = &sarif.runs[0].results.as_ref().unwrap()[0];
        let text = result.message.text.as_deref().unwrap();
        let lines: Vec<_> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "lc-ping (2025-06-18): see \\[here\\](http://evil) \\\\u{1b}\\[31m\\\\ {0} \"q\"\\\\u{0}",
                r#"-> {"jsonrpc":"2.0","id":1,"method":"ping"}"#,
                r#"<- {"jsonrpc":"2.0","id":1,"result":{"s":\[1\]}}"#,
            ]
        );
        // Structured evidence keeps the server's text as it was, as the JSON report does.
        let props = &result.properties.as_ref().unwrap().additional_properties;
        assert_eq!(props["evidence"][1]["direction"], "received");
        assert_eq!(
            props["evidence"][1]["text"],
            r#"{"jsonrpc":"2.0","id":1,"result":{"s":[1]}}"#
        );
        assert_eq!(props["status"], "fail");
        assert_eq!(props["level"], "MUST");
    }

    #[test]
    fn escaped_message_has_no_unescaped_link() {
        let escaped = sarif_text(HOSTILE);
        // An unescaped `[` is one preceded by an even number of backslashes.
        for (i, c) in escaped.char_indices() {
            if c == '[' || c == ']' {
                let run = escaped[..i]
                    .chars()
                    .rev()
                    .take_while(|&c| c == '\\')
                    .count();
                assert_eq!(run % 2, 1, "unescaped {c} at {i}: {escaped}");
            }
        }
        assert!(!escaped.chars().any(char::is_control));
    }

    #[test]
    fn a_clean_run_has_rules_but_no_results() {
        let mut report = sample();
        for rev in &mut report.revisions {
            rev.results
                .retain(|r| matches!(r.status, Status::Pass | Status::Skip));
        }
        let report = RunReport::new(report.target, report.seed, report.revisions);
        let sarif = parse(&report);
        assert_eq!(sarif.runs[0].results.as_ref().map(Vec::len), Some(0));
        assert_eq!(
            sarif.runs[0].tool.driver.rules.as_ref().map(Vec::len),
            Some(CATALOG.len())
        );
    }

    #[test]
    fn rule_links_use_the_newest_page() {
        let uri = help_uri("tools.mdx, Error Handling").unwrap();
        assert!(uri.ends_with("/2025-11-25/server/tools"), "{uri}");
        assert_eq!(help_uri("REQUIREMENTS.md 10 A2"), None);
        assert_eq!(pascal_case("lc-init-result"), "LcInitResult");
    }
}
