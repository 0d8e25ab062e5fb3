//! The plain async API inside `#[tokio::test]`, as the README shows it, plus the report
//! formats parsed back and compared with the run model.

use mcp_conformance::checks::CATALOG;
use mcp_conformance::{
    render_text, run, Format, GateOptions, RunConfig, RunReport, ServerCommand, Status,
};

fn reference(fault: Option<&str>) -> RunConfig {
    let mut args = vec!["reference-server".to_string()];
    args.extend(fault.map(|f| format!("--fault={f}")));
    RunConfig::new(ServerCommand::new(
        env!("CARGO_BIN_EXE_mcp-conformance"),
        args,
    ))
}

#[tokio::test]
async fn the_reference_server_passes_the_gate() {
    let report = run(&reference(None), |_| {}).await.expect("the suite runs");
    let gate = report.gate(GateOptions {
        strict: true,
        strict_baseline: true,
    });
    assert!(gate.passed, "{:?}\n{}", gate.reasons, render_text(&report));
}

fn count(report: &RunReport, status: Status) -> usize {
    report
        .revisions
        .iter()
        .flat_map(|r| &r.results)
        .filter(|r| r.status == status)
        .count()
}

#[tokio::test]
async fn every_format_agrees_with_the_run_model() {
    // One fault that warns in every revision, one that fails in every revision.
    let warning = run(&reference(Some("invalid-cursor-accepted")), |_| {})
        .await
        .unwrap();
    let failing = run(&reference(Some("ping-nonempty")), |_| {})
        .await
        .unwrap();
    assert!(count(&warning, Status::Warn) > 0 && count(&failing, Status::Fail) > 0);
    for report in [&warning, &failing] {
        let json: serde_json::Value =
            serde_json::from_str(&Format::Json.render(report).unwrap()).unwrap();
        assert_eq!(json["summary"]["fail"], count(report, Status::Fail));
        assert_eq!(json["summary"]["warn"], count(report, Status::Warn));
        assert_eq!(
            json["revisions"].as_array().unwrap().len(),
            report.revisions.len()
        );

        let xml = Format::Junit.render(report).unwrap();
        let doc = roxmltree::Document::parse(&xml).expect("well-formed JUnit");
        let suites = doc
            .descendants()
            .filter(|n| n.has_tag_name("testsuite"))
            .count();
        let cases = doc
            .descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .count();
        let failures = doc
            .descendants()
            .filter(|n| n.has_tag_name("failure"))
            .count();
        assert_eq!(suites, report.revisions.len());
        assert_eq!(cases, report.revisions.len() * CATALOG.len());
        assert_eq!(failures, count(report, Status::Fail));

        let sarif: serde_json::Value =
            serde_json::from_str(&Format::Sarif.render(report).unwrap()).unwrap();
        assert_eq!(sarif["version"], "2.1.0");
        let results = sarif["runs"][0]["results"].as_array().map_or(0, Vec::len);
        assert_eq!(
            results,
            count(report, Status::Fail) + count(report, Status::Warn)
        );
        let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap()
            .len();
        assert_eq!(rules, CATALOG.len());

        let md = Format::Markdown.render(report).unwrap();
        for rev in &report.revisions {
            assert!(md.contains(rev.revision), "markdown names {}", rev.revision);
        }
    }
}

#[tokio::test]
async fn baselined_failures_stay_visible_in_every_format() {
    use mcp_conformance::Baseline;
    let mut report = run(&reference(Some("ping-nonempty")), |_| {})
        .await
        .unwrap();
    let baseline = Baseline::parse(
        "[[expected]]\ncheck = \"lc-ping\"\nreason = \"known: fixed in 2.0\"\n",
        std::path::Path::new("baseline.toml"),
    )
    .unwrap();
    report.apply_baseline(&baseline);
    assert!(report.gate(GateOptions::default()).passed);
    assert!(render_text(&report).contains("(baselined: known: fixed in 2.0)"));

    let xml = Format::Junit.render(&report).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("failure"))
            .count(),
        0
    );
    let accepted = doc
        .descendants()
        .filter(|n| n.has_tag_name("skipped"))
        .filter(|n| {
            n.attribute("message")
                .is_some_and(|m| m.contains("expected failure"))
        })
        .count();
    assert_eq!(accepted, count(&report, Status::Fail));

    let sarif: serde_json::Value =
        serde_json::from_str(&Format::Sarif.render(&report).unwrap()).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert!(results
        .iter()
        .all(|r| r["suppressions"][0]["justification"] == "known: fixed in 2.0"));

    let md = Format::Markdown.render(&report).unwrap();
    assert!(md.contains("(baselined)") && md.contains("fixed in 2.0"));
    let json: serde_json::Value =
        serde_json::from_str(&Format::Json.render(&report).unwrap()).unwrap();
    assert_eq!(
        json["baseline"]["baselined"].as_array().unwrap().len(),
        count(&report, Status::Fail)
    );
}

/// Determinism: the same seed gives the same report, shrunk minimal cases included.
#[tokio::test]
async fn the_same_seed_gives_the_same_report() {
    let mut config = reference(Some("crash-on-astral"));
    config.revisions.truncate(1);
    config.seed = 7;
    let mut first = run(&config, |_| {}).await.unwrap();
    let mut second = run(&config, |_| {}).await.unwrap();
    // Only the measured timing section may differ.
    assert!(first.timing.take().is_some() && second.timing.take().is_some());
    assert!(
        count(&first, Status::Fail) > 0,
        "the fault is found: {}",
        render_text(&first)
    );
    assert_eq!(
        Format::Json.render(&first).unwrap(),
        Format::Json.render(&second).unwrap()
    );
}

/// What a budget cut is said at the top of the readable reports and in the JSON report,
/// not only inside a passing check's message (issue 52). A zero budget cuts before the
/// first generated case.
#[tokio::test]
async fn a_time_budget_cut_is_a_note_of_the_report() {
    let mut config = reference(None);
    config.revisions = vec![mcp_conformance::protocol::Revision::find("2025-06-18").unwrap()];
    if let Some(p) = config.properties.as_mut() {
        p.time_budget = Some(std::time::Duration::ZERO);
    }
    let report = run(&config, |_| {}).await.unwrap();
    assert_eq!(report.budget.len(), 1, "{:?}", report.budget);
    assert!(report.budget[0].what.contains("time budget exhausted"));
    let text = render_text(&report);
    assert!(
        text.contains("NOTE 2025-06-18: time budget exhausted"),
        "{text}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&Format::Json.render(&report).unwrap()).unwrap();
    assert_eq!(json["budget"][0]["revision"], "2025-06-18");
}

/// A raised interrupt (what the binary's signal handlers raise) makes every tool's
/// strategy build give up at once, so a build holding the runtime's thread never keeps a
/// signal waiting (issue 48); the run itself goes on until its stop future says so, and
/// says why each tool got no generated arguments.
#[tokio::test]
async fn an_interrupt_makes_every_strategy_build_give_up() {
    let mut config = reference(None);
    config.revisions = vec![mcp_conformance::protocol::Revision::find("2025-06-18").unwrap()];
    let interrupt = mcp_conformance::generate::Interrupt::default();
    interrupt.raise();
    if let Some(p) = config.properties.as_mut() {
        p.interrupt = interrupt;
    }
    let report = run(&config, |_| {}).await.unwrap();
    let said: Vec<&str> = report
        .revisions
        .iter()
        .flat_map(|r| &r.results)
        .filter(|r| r.check == "prop-valid-call-result")
        .map(|r| r.message.as_str())
        .collect();
    assert_eq!(said.len(), 1);
    assert!(
        said[0].contains("valid arguments not generated: interrupted"),
        "{said:?}"
    );
}
