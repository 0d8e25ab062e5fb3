//! Expected failures: a baseline file, and the gate that decides a run's verdict.
//!
//! A project adopting the suite rarely fixes every finding on day one. A baseline lists
//! the findings it accepts for now, each with a reason; they stop failing the gate but
//! stay visible in every report. An entry that no longer matches a finding is *stale*
//! and is reported too, so the baseline shrinks as the server improves.
//!
//! This module reads and matches baselines and decides the gate; what it finds is plain
//! data of the run model ([`BaselineOutcome`], in `model.rs`), so the dependency goes one
//! way: baseline -> model.
//!
//! ```toml
//! [[expected]]
//! check = "rpc-batch"
//! revision = "2025-03-26"            # optional: every revision when left out
//! reason = "the SDK does not support batches (upstream issue #275)"
//! ```

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::model::{
    counted, BaselineEntry, BaselineOutcome, Baselined, Gate, GateOptions, RunReport,
};
use crate::checks::Status;
use crate::errors::{Error, Result};

/// What `--write-baseline` gives each entry's reason until someone writes why the finding
/// is accepted (the text report counts the entries still saying it).
pub const REASON_PLACEHOLDER: &str = "TODO: why this finding is accepted for now";

/// A baseline file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// The accepted findings.
    #[serde(default)]
    pub expected: Vec<BaselineEntry>,
}

impl Baseline {
    /// Parses a baseline from TOML text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &Path) -> Result<Self> {
        let baseline: Baseline = toml::from_str(text).map_err(|e| Error::Config {
            path: origin.to_path_buf(),
            message: e.to_string(),
        })?;
        for entry in &baseline.expected {
            if crate::checks::find(&entry.check).is_none() {
                return Err(Error::Config {
                    path: origin.to_path_buf(),
                    message: crate::suggest::unknown_check(&entry.check),
                });
            }
            // A misspelt revision would never match, and never be stale either.
            if let Some(revision) = entry
                .revision
                .as_deref()
                .filter(|r| crate::protocol::Revision::find(r).is_none())
            {
                return Err(Error::Config {
                    path: origin.to_path_buf(),
                    message: format!(
                        "check {:?}: {}",
                        entry.check,
                        crate::suggest::unknown_revision(revision)
                    ),
                });
            }
        }
        Ok(baseline)
    }

    /// Reads and parses a baseline file.
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::Config {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        Self::parse(&text, path)
    }
}

impl RunReport {
    /// Matches a baseline against the results: accepted findings and stale entries are
    /// recorded in `self.baseline`; statuses are left as they are (still visible).
    pub fn apply_baseline(&mut self, baseline: &Baseline) {
        let mut outcome = BaselineOutcome::default();
        let mut used = vec![false; baseline.expected.len()];
        for rev in &self.revisions {
            for result in rev
                .results
                .iter()
                .filter(|r| matches!(r.status, Status::Fail | Status::Warn))
            {
                if let Some(i) = baseline
                    .expected
                    .iter()
                    .position(|e| covers(e, rev.revision, result.check))
                {
                    used[i] = true;
                    outcome.baselined.push(Baselined {
                        revision: rev.revision.to_string(),
                        check: result.check.to_string(),
                        status: result.status,
                        reason: baseline.expected[i].reason.clone(),
                    });
                }
            }
        }
        // An entry for a revision that did not run is not stale: nothing was judged. In a
        // run cut short, neither is an entry for every revision.
        let complete = self.incomplete.is_none();
        let ran = |e: &BaselineEntry| match e.revision.as_deref() {
            None => complete,
            Some(r) => self.revisions.iter().any(|rev| rev.revision == r),
        };
        outcome.stale = baseline
            .expected
            .iter()
            .zip(used)
            .filter(|(e, used)| !used && ran(e))
            .map(|(e, _)| e.clone())
            .collect();
        self.baseline = Some(outcome);
    }

    /// The verdict under the run's own gate options: what the exit code says.
    pub fn verdict(&self) -> Gate {
        self.gate(self.gate_options)
    }

    /// The headline every readable report opens its verdict with, agreeing with the exit
    /// code: "FAILED", "INCOMPLETE", "PASSED, 2 baselined" (distinct findings the
    /// baseline accepts wherever they hold; ", with warnings" when others warn), "PASSED
    /// with warnings", "PASSED".
    pub fn headline(&self) -> String {
        // Distinct findings the baseline accepts in every revision they hold in.
        let accepted = self
            .distinct_findings()
            .iter()
            .filter(|f| {
                f.occurrences
                    .iter()
                    .all(|(rev, r)| self.baselined(rev, r.check).is_some())
            })
            .count();
        let warned = self.revisions.iter().any(|rev| {
            rev.results.iter().any(|r| {
                r.status == Status::Warn && self.baselined(rev.revision, r.check).is_none()
            })
        });
        let with_warnings = if warned { " with warnings" } else { "" };
        if self.incomplete.is_some() {
            "INCOMPLETE".to_string()
        } else if !self.verdict().passed {
            "FAILED".to_string()
        } else if accepted > 0 {
            format!(
                "PASSED, {accepted} baselined{}",
                if warned { ", with warnings" } else { "" }
            )
        } else {
            format!("PASSED{with_warnings}")
        }
    }

    /// Decides the run: what, if anything, fails the gate.
    pub fn gate(&self, options: GateOptions) -> Gate {
        let mut reasons = Vec::new();
        let count = |status: Status| {
            self.revisions
                .iter()
                .flat_map(|rev| rev.results.iter().map(move |r| (rev.revision, r)))
                .filter(|(rev, r)| r.status == status && self.baselined(rev, r.check).is_none())
                .count()
        };
        let fails = count(Status::Fail);
        let warns = count(Status::Warn);
        if fails > 0 {
            reasons.push(format!("{} failed", counted(fails, "check")));
        }
        if options.strict && warns > 0 {
            reasons.push(format!(
                "{}, and --strict makes warnings fail",
                counted(warns, "warning")
            ));
        }
        if let Some(cut) = &self.incomplete {
            reasons.push(format!(
                "the run is incomplete ({}): a cut run never passes",
                cut.reason
            ));
        }
        if let Some(surface) = &self.surface {
            let breaking = surface.count(crate::surface::Class::Breaking);
            if breaking > 0 {
                reasons.push(format!(
                    "{} against {}",
                    counted(breaking, "breaking tool surface change"),
                    surface.snapshot
                ));
            }
            let review = surface.count(crate::surface::Class::Review);
            if options.strict && review > 0 {
                reasons.push(format!(
                    "{} to review against {}, and --strict makes them fail",
                    counted(review, "tool surface change"),
                    surface.snapshot
                ));
            }
        }
        let stale = self.baseline.as_ref().map_or(0, |b| b.stale.len());
        if options.strict_baseline && stale > 0 {
            reasons.push(format!(
                "{}, and --strict-baseline makes them fail",
                counted(stale, "stale baseline entry")
            ));
        }
        Gate {
            passed: reasons.is_empty(),
            reasons,
        }
    }
}

/// Whether a baseline entry accepts the finding of `check` in `revision`.
fn covers(entry: &BaselineEntry, revision: &str, check: &str) -> bool {
    entry.check == check && entry.revision.as_deref().is_none_or(|r| r == revision)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::{CheckResult, Level};
    use crate::report::{RevisionReport, TargetInfo};

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

    fn report() -> RunReport {
        let target = TargetInfo {
            transport: "stdio",
            command: "x".into(),
            args: vec![],
            reference: false,
            url: None,
        };
        let rev = |revision| RevisionReport {
            revision,
            negotiated: Some(revision.to_string()),
            results: vec![
                result(
                    "rpc-batch",
                    if revision == "2025-03-26" {
                        Status::Fail
                    } else {
                        Status::Skip
                    },
                ),
                result("pag-invalid-cursor", Status::Warn),
                result("lc-ping", Status::Pass),
            ],
        };
        RunReport::new(target, 0, vec![rev("2025-03-26"), rev("2025-06-18")])
    }

    fn baseline(text: &str) -> Baseline {
        Baseline::parse(text, Path::new("baseline.toml")).unwrap()
    }

    #[test]
    fn baselined_failures_pass_the_gate_and_stay_visible() {
        let mut r = report();
        assert!(!r.gate(GateOptions::default()).passed);
        r.apply_baseline(&baseline(
            "[[expected]]\ncheck = \"rpc-batch\"\nrevision = \"2025-03-26\"\nreason = \"no batches\"\n",
        ));
        assert!(r.gate(GateOptions::default()).passed);
        assert_eq!(r.baselined("2025-03-26", "rpc-batch"), Some("no batches"));
        assert_eq!(r.summary.fail, 1, "the failure is still counted and shown");
        let strict = r.gate(GateOptions {
            strict: true,
            ..Default::default()
        });
        assert!(!strict.passed && strict.reasons[0].contains("warning"));
    }

    #[test]
    fn an_entry_that_matches_nothing_is_stale() {
        let mut r = report();
        r.apply_baseline(&baseline(
            "[[expected]]\ncheck = \"rpc-batch\"\nreason = \"a\"\n[[expected]]\ncheck = \"lc-ping\"\nreason = \"fixed since\"\n[[expected]]\ncheck = \"lc-ping\"\nrevision = \"2024-11-05\"\nreason = \"not run\"\n",
        ));
        let outcome = r.baseline.clone().unwrap();
        assert_eq!(outcome.stale.len(), 1, "{outcome:?}");
        assert_eq!(outcome.stale[0].reason, "fixed since");
        assert!(r.gate(GateOptions::default()).passed);
        assert!(
            !r.gate(GateOptions {
                strict_baseline: true,
                ..Default::default()
            })
            .passed
        );
    }

    #[test]
    fn unknown_revisions_are_rejected() {
        let err = Baseline::parse(
            "[[expected]]\ncheck = \"rpc-batch\"\nrevision = \"2025-3-26\"\nreason = \"x\"\n",
            Path::new("b.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("unknown revision `2025-3-26`"), "{err}");
        assert!(err.contains("did you mean `2025-03-26`?"), "{err}");
    }

    #[test]
    fn unknown_check_ids_and_fields_are_rejected() {
        let err = Baseline::parse(
            "[[expected]]\ncheck = \"no-such\"\nreason = \"x\"\n",
            Path::new("b.toml"),
        );
        assert!(err.unwrap_err().to_string().contains("no-such"));
        let err = Baseline::parse(
            "[[expected]]\ncheck = \"rpc-bacth\"\nreason = \"x\"\n",
            Path::new("b.toml"),
        );
        let err = err.unwrap_err().to_string();
        assert!(err.contains("did you mean `rpc-batch`?"), "{err}");
        assert!(Baseline::parse(
            "[[expected]]\ncheck = \"lc-ping\"\nwhy = \"x\"\n",
            Path::new("b.toml")
        )
        .is_err());
    }
}
