//! The rule book is the one judge: check ids are named only by the catalog, and the four
//! phases (scripted, property, live fuzz, replay) give the same faulty exchange the same
//! check id.

use std::path::{Path, PathBuf};
use std::time::Duration;

mod common;

use mcp_conformance::checks::{CheckId, Status, CATALOG};
use mcp_conformance::fuzzing::{LiveConfig, LiveTarget};
use mcp_conformance::protocol::{Rev, SessionConfig};
use mcp_conformance::runner::RunConfig;
use mcp_conformance::scenarios::{replay, CallPolicy};
use mcp_conformance::transport::ServerCommand;

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The non-test code of a source file: less its `#[cfg(test)]` modules (skipped by brace
/// depth) and comments, and nothing of a file that is a test module itself.
fn non_test(path: &Path, text: &str) -> String {
    if path.file_name().is_some_and(|n| n == "tests.rs") {
        return String::new();
    }
    let mut code = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        code.push_str(&rest[..at]);
        let after = &rest[at..];
        let Some(open) = after.find('{') else {
            rest = "";
            break;
        };
        let mut depth = 0usize;
        let mut end = after.len();
        for (i, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    code.push_str(rest);
    code.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn no_check_id_is_written_as_a_string_outside_the_catalog() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let mut found = Vec::new();
    for path in &files {
        // The catalog's rows: the one place ids are written.
        if path.ends_with("rules/rows.rs") {
            continue;
        }
        let text = std::fs::read_to_string(path).expect("readable source");
        let code = non_test(path, &text);
        for check in CATALOG {
            let literal = format!("\"{}\"", check.id.as_str());
            if code.contains(&literal) {
                found.push(format!("{}: {literal}", path.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "check ids written as strings outside the catalog (use CheckId):\n{}",
        found.join("\n")
    );
}

fn reference(fault: &str) -> ServerCommand {
    ServerCommand::new(
        env!("CARGO_BIN_EXE_mcp-conformance"),
        ["reference-server", "--fault", fault].map(String::from),
    )
}

/// A reference server whose tool answers `structuredContent` that breaks its own
/// outputSchema: the same faulty exchange, met by every phase.
#[test]
fn the_four_phases_name_the_same_rule_for_the_same_faulty_exchange() {
    const FAULT: &str = "structured-content-mismatch";
    let rule = CheckId::TcOutputschemaConform;
    let revision = Rev::R2025_11_25.revision();

    // Scripted and property phases: one run.
    let mut config = RunConfig::new(reference(FAULT));
    config.revisions = vec![revision];
    let report = common::run_blocking(&config);
    let results = &report.revisions[0].results;
    let scripted = results.iter().find(|r| r.check == rule.as_str()).unwrap();
    assert_eq!(
        scripted.status,
        Status::Fail,
        "scripted: {}",
        scripted.message
    );
    let property = results
        .iter()
        .find(|r| r.check == CheckId::PropValidCallResult.as_str())
        .unwrap();
    assert_eq!(
        property.status,
        Status::Fail,
        "property: {}",
        property.message
    );
    let named = format!("rule broken: {rule}");
    assert!(
        property.evidence.iter().any(|e| e.text == named),
        "property: the finding names its rule ({named}): {:?}",
        property.evidence
    );

    // The live fuzz target.
    let mut target = LiveTarget::start(LiveConfig {
        command: reference(FAULT),
        revision,
        timeout: Duration::from_secs(2),
        policy: CallPolicy::default(),
        cases_dir: None,
        interrupt: None,
        ignore: Vec::new(),
    })
    .expect("the reference server starts");
    let mut finding = (0u8..=255)
        .map(|b| vec![b; 64])
        .find_map(|data| target.run(&data))
        .expect("the live target finds the fault");
    assert_eq!(finding.check, rule, "live: {}", finding.report());

    // Replay of the live target's case file.
    let dir = std::env::temp_dir().join(format!("mcp-rule-book-{}", std::process::id()));
    let path = finding.save(&dir).expect("the case is saved");
    let case = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let session = SessionConfig {
        timeout: Duration::from_secs(2),
        ..SessionConfig::default()
    };
    let outcome = runtime
        .block_on(replay(&case, &reference(FAULT), &session))
        .expect("the replay runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(outcome.reproduced, "replay: {}", outcome.observed);
    assert_eq!(outcome.rule, Some(rule), "replay: {}", outcome.observed);
}
