//! The badge (`--format badge`): a shields.io endpoint JSON
//! (<https://shields.io/badges/endpoint-badge>) that a README shows as
//! `https://img.shields.io/endpoint?url=URL-OF-THIS-FILE`.
//!
//! Its message names each revision the server speaks with its verdict, "passed" or how many
//! checks failed it (baselined failures pass, warnings fail only under `--strict`, as the
//! gate decides); its colour is the run's verdict. Only our own words: no server text
//! reaches it.

use serde_json::json;

use super::model::{counted, RunReport};
use crate::checks::Status;
use crate::surface::Class;

/// Renders the endpoint JSON.
pub fn to_badge(report: &RunReport) -> crate::Result<String> {
    let strict = report.gate_options.strict;
    let mut parts = Vec::new();
    for rev in &report.revisions {
        if report.not_spoken(rev.revision).is_some() {
            continue;
        }
        let failed = rev
            .results
            .iter()
            .filter(|r| r.status == Status::Fail || (strict && r.status == Status::Warn))
            .filter(|r| report.baselined(rev.revision, r.check).is_none())
            .count();
        parts.push(match failed {
            0 => format!("{} passed", rev.revision),
            n => format!("{} {n} failed", rev.revision),
        });
    }
    let verdict = report.verdict();
    // Every revision passed, yet the gate failed: said why, so the red badge is not read
    // as a contradiction.
    if let Some(surface) = &report.surface {
        let breaking = surface.count(Class::Breaking);
        let reviewed = if strict {
            surface.count(Class::Review)
        } else {
            0
        };
        if breaking > 0 {
            parts.push(counted(breaking, "breaking tool change"));
        }
        if reviewed > 0 {
            parts.push(format!("{} to review", counted(reviewed, "tool change")));
        }
    }
    let stale = report
        .baseline
        .as_ref()
        .is_some_and(|b| !b.stale.is_empty());
    let all_passed = !parts.is_empty() && parts.iter().all(|p| p.ends_with(" passed"));
    if !verdict.passed && stale && report.gate_options.strict_baseline && all_passed {
        parts.push("stale baseline".to_string());
    }
    let (message, color) = if report.incomplete.is_some() {
        ("incomplete".to_string(), "lightgrey")
    } else if parts.is_empty() {
        ("no revision spoken".to_string(), "lightgrey")
    } else if verdict.passed {
        (parts.join(" | "), "brightgreen")
    } else {
        (parts.join(" | "), "red")
    };
    let badge = json!({
        "schemaVersion": 1,
        "label": "MCP conformance",
        "message": message,
        "color": color,
    });
    Ok(serde_json::to_string_pretty(&badge)? + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::{CheckResult, Level};
    use crate::report::{Baseline, RevisionReport, TargetInfo};

    fn result(check: &'static str, status: Status) -> CheckResult {
        CheckResult {
            check,
            title: "t",
            level: Level::Must,
            requirement: "R",
            source: "s",
            status,
            message: "m".into(),
            evidence: vec![],
            same_cause_as: None,
        }
    }

    fn report(second: Vec<CheckResult>) -> RunReport {
        let target = TargetInfo {
            transport: "stdio",
            command: "x".into(),
            args: vec![],
            reference: false,
            url: None,
        };
        let rev = |revision, results| RevisionReport {
            revision,
            negotiated: Some(revision.to_string()),
            results,
        };
        RunReport::new(
            target,
            0,
            vec![
                rev("2025-06-18", vec![result("lc-ping", Status::Pass)]),
                rev("2025-11-25", second),
            ],
        )
    }

    fn badge(report: &RunReport) -> serde_json::Value {
        serde_json::from_str(&to_badge(report).unwrap()).unwrap()
    }

    #[test]
    fn each_revision_spoken_with_its_verdict_and_the_runs_colour() {
        let clean = report(vec![result("lc-ping", Status::Pass)]);
        let b = badge(&clean);
        assert_eq!(b["schemaVersion"], 1);
        assert_eq!(b["message"], "2025-06-18 passed | 2025-11-25 passed");
        assert_eq!(b["color"], "brightgreen");

        let mut failing = report(vec![
            result("lc-ping", Status::Fail),
            result("rpc-batch", Status::Fail),
            result("tool-name-case", Status::Warn),
        ]);
        let b = badge(&failing);
        assert_eq!(b["message"], "2025-06-18 passed | 2025-11-25 2 failed");
        assert_eq!(b["color"], "red");
        failing.gate_options.strict = true;
        assert_eq!(
            badge(&failing)["message"],
            "2025-06-18 passed | 2025-11-25 3 failed"
        );

        // Baselined failures pass, as the gate says.
        let mut accepted = report(vec![result("lc-ping", Status::Fail)]);
        accepted.apply_baseline(
            &Baseline::parse(
                "[[expected]]\ncheck = \"lc-ping\"\nreason = \"x\"\n",
                std::path::Path::new("b.toml"),
            )
            .unwrap(),
        );
        let b = badge(&accepted);
        assert_eq!(b["message"], "2025-06-18 passed | 2025-11-25 passed");
        assert_eq!(b["color"], "brightgreen");

        // A stale entry under --strict-baseline fails the gate: the red badge says why.
        let mut stale = report(vec![result("lc-ping", Status::Pass)]);
        stale.apply_baseline(
            &Baseline::parse(
                "[[expected]]\ncheck = \"rpc-batch\"\nreason = \"x\"\n",
                std::path::Path::new("b.toml"),
            )
            .unwrap(),
        );
        stale.gate_options.strict_baseline = true;
        let b = badge(&stale);
        assert_eq!(
            b["message"],
            "2025-06-18 passed | 2025-11-25 passed | stale baseline"
        );
        assert_eq!(b["color"], "red");
    }

    #[test]
    fn a_revision_not_spoken_is_left_out_and_a_cut_run_is_grey() {
        let mut r = report(vec![result("lc-ping", Status::Skip)]);
        r.not_spoken.push(crate::report::NotSpoken {
            revision: "2025-11-25",
            reason: "legacy-only".into(),
            transport: None,
        });
        assert_eq!(badge(&r)["message"], "2025-06-18 passed");
        r.incomplete = Some(crate::report::Incomplete {
            reason: "interrupted".into(),
            not_run: vec![],
            negotiation_ran: true,
        });
        let b = badge(&r);
        assert_eq!(
            (b["message"].as_str(), b["color"].as_str()),
            (Some("incomplete"), Some("lightgrey"))
        );
    }
}
