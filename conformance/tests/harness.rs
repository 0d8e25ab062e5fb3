//! The libtest harness (`Suite`) as a server author's `tests/mcp.rs` drives it, for what
//! issue 15 found giving a green result for a broken setup: a misspelt revision ran zero
//! tests, a check skipped at run time showed as `ok`, stale baseline entries were silent,
//! and nextest's `--exact '[mcp] NAME'` found no result. Each runs one revision of the
//! bundled reference server.

mod common;

use std::path::PathBuf;

use libtest_mimic::Conclusion;
use mcp_conformance::harness::{SETUP_TEST, STALE_TEST, SURFACE_TEST};
use mcp_conformance::protocol::Revision;
use mcp_conformance::{ServerCommand, Suite};

fn reference() -> Suite {
    Suite::new(ServerCommand::new(
        env!("CARGO_BIN_EXE_mcp-conformance"),
        ["reference-server".to_string()],
    ))
}

fn run(suite: Suite, args: &[&str]) -> Conclusion {
    let all: Vec<&str> = std::iter::once("mcp").chain(args.iter().copied()).collect();
    let args = common::nested_args(&all);
    let trials = suite.trials(&args);
    libtest_mimic::run(&args, trials)
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-harness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `.revisions(&["2025-06-19"])` ran zero tests and passed.
#[test]
fn a_misspelt_revision_fails_with_the_nearest_name() {
    let suite = reference().revisions(&["2025-06-19"]);
    let problem = suite.misconfiguration().expect("a misconfiguration");
    assert!(problem.contains("did you mean `2025-06-18`?"), "{problem}");
    let args = common::nested_args(&["mcp"]);
    let trials = suite.trials(&args);
    assert_eq!(trials.len(), 1);
    assert_eq!(trials[0].name(), SETUP_TEST);
    assert!(libtest_mimic::run(&args, trials).has_failed());
    assert!(reference()
        .revisions(&["2025-06-18"])
        .misconfiguration()
        .is_none());
}

/// nextest lists `[mcp] NAME` and runs each test with `--exact '[mcp] NAME'`: the
/// harness found no result ("no result for 2025-06-18 lc-init-result").
#[test]
fn nextest_exact_names_with_the_kind_prefix_run_their_revision() {
    let conclusion = run(
        reference(),
        &["--quiet", "--exact", "[mcp] 2025-06-18::lc-init-result"],
    );
    assert_eq!(
        (conclusion.num_passed, conclusion.num_failed),
        (1, 0),
        "{conclusion:?}"
    );
}

/// A check skipped at run time (an HTTP check over stdio) showed as `ok`; now ignored
/// with its reason. Stale entries are ignored with theirs, and fail under strict_baseline.
#[test]
fn run_time_skips_and_stale_baseline_entries_are_not_passes() {
    let conclusion = run(
        reference().revisions(&["2025-06-18"]),
        &["--quiet", "--exact", "[mcp] 2025-06-18::http-origin"],
    );
    assert_eq!(
        (
            conclusion.num_passed,
            conclusion.num_ignored,
            conclusion.num_failed
        ),
        (0, 1, 0),
        "{conclusion:?}"
    );

    // One entry for a check the reference server passes, one for a revision not run.
    let baseline = temp_file(
        "stale.toml",
        "[[expected]]\ncheck = \"lc-ping\"\nreason = \"fixed since\"\n\
         [[expected]]\ncheck = \"lc-ping\"\nrevision = \"2024-11-05\"\nreason = \"not run\"\n",
    );
    let suite = reference()
        .revisions(&["2025-06-18"])
        .baseline(&baseline)
        .unwrap();
    // Every test of the revision: the ones that apply pass or are ignored at run time.
    let conclusion = run(suite.clone(), &["--quiet"]);
    let rev = Revision::find("2025-06-18").unwrap();
    let not_applicable = mcp_conformance::checks::CATALOG
        .iter()
        .filter(|c| !c.applies.includes(rev))
        .count() as u64;
    assert_eq!(conclusion.num_failed, 0, "{conclusion:?}");
    // The stale-entries test and at least the nine HTTP checks over stdio.
    assert!(
        conclusion.num_ignored >= not_applicable + 10,
        "{conclusion:?} ({not_applicable} not applicable)"
    );
    let stale = run(suite.clone(), &["--quiet", "--exact", STALE_TEST]);
    assert_eq!((stale.num_ignored, stale.num_failed), (1, 0), "{stale:?}");
    let strict = run(
        suite.strict_baseline(true),
        &["--quiet", "--exact", STALE_TEST],
    );
    assert_eq!(strict.num_failed, 1, "{strict:?}");
}

/// A server that dies on start (a missing module) gave a dozen findings about a protocol
/// it never spoke; now the run is one error with its stderr, and every test says so.
#[test]
fn a_server_dead_on_start_is_one_error_with_its_stderr() {
    let dead = ServerCommand::new(
        "sh",
        [
            "-c".to_string(),
            "echo 'ModuleNotFoundError: srv' >&2; exit 1".to_string(),
        ],
    );
    let mut config = mcp_conformance::RunConfig::new(dead.clone());
    config.revisions = vec![Revision::find("2025-06-18").unwrap()];
    let err = mcp_conformance::runner::run_blocking(&config)
        .expect_err("a setup error")
        .to_string();
    assert!(
        err.contains("exited before answering initialize (exit status 1)")
            && err.contains("ModuleNotFoundError: srv"),
        "{err}"
    );
    let conclusion = run(
        Suite::new(dead).revisions(&["2025-06-18"]),
        &["--quiet", "2025-06-18::lc-"],
    );
    assert!(
        conclusion.num_failed > 0 && conclusion.num_passed == 0,
        "{conclusion:?}"
    );
}

/// A warning passes its test and is kept for after the run (printed by `run_tests`, or by
/// a caller of `trials` through `notes`), not printed in the middle of libtest's lines.
#[test]
fn warnings_pass_and_are_kept_for_after_the_run() {
    let suite = Suite::new(ServerCommand::new(
        env!("CARGO_BIN_EXE_mcp-conformance"),
        [
            "reference-server".to_string(),
            "--fault".to_string(),
            "error-message-multiline".to_string(),
        ],
    ))
    .revisions(&["2025-11-25"]);
    let notes = suite.notes();
    let conclusion = run(suite, &["--quiet", "2025-11-25::rpc-error-message"]);
    assert_eq!(
        (conclusion.num_passed, conclusion.num_failed),
        (1, 0),
        "{conclusion:?}"
    );
    let lines = notes.lines();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("WARN rpc-error-message (2025-11-25)"),
        "{lines:?}"
    );
}

/// `.snapshot(FILE)`: the test `tool-surface` fails on a breaking change, passes with the
/// other changes kept as a note, and a snapshot that is not there is an error at once.
#[test]
fn the_tool_surface_test_fails_on_a_breaking_change_and_notes_the_others() {
    let dir = std::env::temp_dir().join(format!("mcp-harness-surface-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tools.json");
    let taken = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-conformance"))
        .args(["snapshot", "--revision", "2025-11-25"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(taken.status.success(), "{taken:?}");
    let with = |surface: &str| {
        Suite::new(ServerCommand::new(
            env!("CARGO_BIN_EXE_mcp-conformance"),
            [
                "reference-server".to_string(),
                "--surface".to_string(),
                surface.to_string(),
            ],
        ))
        .revisions(&["2025-11-25"])
        .snapshot(&path)
        .expect("the snapshot reads")
    };
    let exact = ["--quiet", "--exact", SURFACE_TEST];
    let breaking = run(with("breaking"), &exact);
    assert_eq!(
        (breaking.num_passed, breaking.num_failed),
        (0, 1),
        "{breaking:?}"
    );
    let review = with("review");
    let notes = review.notes();
    let passed = run(review, &exact);
    assert_eq!((passed.num_passed, passed.num_failed), (1, 0), "{passed:?}");
    let lines = notes.lines();
    assert!(
        lines.iter().any(|l| l.contains("description changed")),
        "{lines:?}"
    );
    assert!(reference().snapshot(dir.join("none.json")).is_err());
}
