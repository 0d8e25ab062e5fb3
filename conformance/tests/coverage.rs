//! The coverage agents of `fuzz --coverage` (issue 47), on servers of our own in plain
//! Python and Node (`fixtures/python/branchy_server.py`, `fixtures/node/branchy-server.cjs`:
//! one tool whose answer takes another branch for `n > 500` and for `n == 0`):
//!
//! - the agent loads in the server without touching it, says what it is, and counts only
//!   the server's own file;
//! - coverage is received after each case and grows exactly when a case takes a new branch
//!   (the same branch again adds nothing);
//! - the lines that ran are counted per file;
//! - the guided loop keeps inputs that reached new code in its corpus folder, and a later
//!   run resumes from them;
//! - what cannot be counted is a setup error (exit 2) or a note, never a blind run.
//!
//! Every Python found on the machine is tried: 3.10 and 3.11 count with `sys.settrace`,
//! 3.12 and later with `sys.monitoring`; a kind with no interpreter here is said on stderr.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use mcp_conformance::fuzzing::cases::decode_for;
use mcp_conformance::fuzzing::coverage::{self, Agent, Corpus, Feedback, GuidedConfig, EDGES};
use mcp_conformance::fuzzing::{LiveConfig, LiveTarget};
use mcp_conformance::protocol::Revision;
use mcp_conformance::scenarios::CallPolicy;
use mcp_conformance::transport::ServerCommand;
use serde_json::json;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace")
        .to_path_buf()
}

fn python_server() -> String {
    repo()
        .join("fixtures/python/branchy_server.py")
        .display()
        .to_string()
}

fn node_server() -> String {
    repo()
        .join("fixtures/node/branchy-server.cjs")
        .display()
        .to_string()
}

/// `(major, minor)` of a Python interpreter that runs.
fn python_version(python: &Path) -> Option<(u32, u32)> {
    let out = Command::new(python)
        .args([
            "-c",
            "import sys; print(sys.version_info[0], sys.version_info[1])",
        ])
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut parts = text.split_whitespace().map(|p| p.parse().ok());
    Some((parts.next()??, parts.next()??))
}

/// Python interpreters here, one per minor version: `python3` on PATH, then pyenv's.
fn pythons() -> Vec<(PathBuf, (u32, u32))> {
    let mut candidates = vec![PathBuf::from("python3")];
    let pyenv_root = Command::new("pyenv")
        .arg("root")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    if let Some(root) = pyenv_root {
        let mut versions: Vec<PathBuf> = std::fs::read_dir(root.join("versions"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path().join("bin/python"))
            .collect();
        versions.sort();
        candidates.extend(versions);
    }
    let mut found: Vec<(PathBuf, (u32, u32))> = Vec::new();
    for python in candidates {
        if let Some(version) = python_version(&python) {
            if !found.iter().any(|(_, v)| *v == version) {
                found.push((python, version));
            }
        }
    }
    found
}

fn revision() -> &'static Revision {
    Revision::named("2025-11-25").expect("known")
}

fn start(agent: &Agent, program: &str, args: &[&str]) -> LiveTarget {
    let command = ServerCommand::new(program, args.iter().map(|a| a.to_string()));
    LiveTarget::start(LiveConfig {
        command: agent.wrap(&command),
        revision: revision(),
        timeout: Duration::from_secs(10),
        policy: CallPolicy::default(),
        cases_dir: None,
        interrupt: None,
        ignore: Vec::new(),
    })
    .expect("the server starts with the agent")
}

/// A case calling `classify` with `n`, made from the first generated case that calls it.
fn classify(target: &LiveTarget, n: u64) -> mcp_conformance::fuzzing::cases::Case {
    let mut state = 1u64;
    for _ in 0..10_000 {
        let data = mcp_conformance::fuzzing::seeded_input(&mut state);
        let case = decode_for(&data, target.tools(), "ping");
        // The server lists one tool: a call with arguments calls it.
        let call = (0..case.steps().len()).find(|&i| case.arguments(i).is_some());
        if let (Some(i), 1) = (call, case.steps().len()) {
            return case.with_arguments(i, json!({ "n": n }));
        }
    }
    panic!("no generated case calls classify alone");
}

/// Runs a call of `classify` with `n` and says how many edges it reached that no case before it did.
fn new_edges(target: &mut LiveTarget, agent: &mut Agent, feedback: &mut Feedback, n: u64) -> usize {
    let case = classify(target, n);
    let mut counters = Box::new([0u8; EDGES]);
    agent.before_case();
    assert!(target.run_case(case).is_none(), "the case passes");
    agent.after_case(&mut counters);
    feedback.add(&counters[..]).edges
}

/// The agent loads, counts only the server's file, and coverage grows with each new
/// branch and only then.
fn coverage_grows_with_each_new_branch(program: &str, args: &[&str], language: &str, mode: &str) {
    let mut agent = Agent::new(&[]).expect("agent folder");
    let mut target = start(&agent, program, args);
    let (owner, partial) = agent.loaded().expect("an agent counts");
    assert_eq!(owner.language, language);
    assert_eq!(owner.mode, mode);
    assert!(partial.is_empty(), "{partial:?}");
    // As the loop does first: what the server's start ran is not a case's (a Node agent's
    // counts are since its last take).
    agent.flush_lines();
    let mut feedback = Feedback::default();
    let first = new_edges(&mut target, &mut agent, &mut feedback, 10);
    assert!(
        first > 0,
        "{language}: the first call reaches the tool's code"
    );
    let again = new_edges(&mut target, &mut agent, &mut feedback, 20);
    assert_eq!(
        again, 0,
        "{language}: the same branch again reaches nothing new"
    );
    let high = new_edges(&mut target, &mut agent, &mut feedback, 900);
    assert!(high > 0, "{language}: n > 500 takes a new branch");
    let zero = new_edges(&mut target, &mut agent, &mut feedback, 0);
    assert!(zero > 0, "{language}: n == 0 takes another");
    assert_eq!(
        new_edges(&mut target, &mut agent, &mut feedback, 901),
        0,
        "{language}: a high n again reaches nothing new"
    );
    // While the server runs: a Node agent writes its lines when asked.
    agent.flush_lines();
    drop(target);
    let mut lines = coverage::LineCoverage::default();
    lines.harvest(agent.folder());
    let files: Vec<_> = lines.files().collect();
    assert_eq!(files.len(), 1, "only the server's own file: {files:?}");
    let (path, counted) = files[0];
    assert!(path.ends_with(Path::new(&args[0]).file_name().expect("name")));
    let source = std::fs::read_to_string(path).expect("source");
    let high_line = source
        .lines()
        .position(|l| l.trim_start().starts_with("return") && l.contains("high"))
        .map(|i| i as u32 + 1)
        .expect("the high branch's line");
    assert!(
        counted.hit.contains(&high_line),
        "{language}: the high branch ran"
    );
    // The error paths no case took (a parse error, an invalid request) are lines not run.
    assert!(
        counted.hit.len() < counted.lines.len(),
        "{language}: lines never run are not counted as run: {counted:?}"
    );
}

#[test]
fn python_coverage_grows_with_each_new_branch_in_every_python_here() {
    let server = python_server();
    let mut kinds = [false, false];
    for (python, (major, minor)) in pythons() {
        if (major, minor) < (3, 10) {
            continue;
        }
        let monitoring = (major, minor) >= (3, 12);
        kinds[usize::from(monitoring)] = true;
        let mode = if monitoring {
            "sys.monitoring"
        } else {
            "sys.settrace"
        };
        coverage_grows_with_each_new_branch(
            &python.display().to_string(),
            &[&server],
            "python",
            mode,
        );
    }
    assert!(kinds.iter().any(|k| *k), "no Python 3.10+ here");
    for (found, kind) in kinds
        .iter()
        .zip(["sys.settrace (3.10, 3.11)", "sys.monitoring (3.12+)"])
    {
        if !found {
            eprintln!("skipped: no Python here counts with {kind}");
        }
    }
}

#[test]
fn node_coverage_grows_with_each_new_branch() {
    coverage_grows_with_each_new_branch("node", &[&node_server()], "node", "v8 precise coverage");
}

/// The loop keeps what reached new code, in its folder, and a second run reads it back.
fn corpus_is_kept_and_resumed(program: &str, server: &str) {
    let dir = std::env::temp_dir().join(format!(
        "mcp-coverage-corpus-{}-{}",
        std::process::id(),
        Path::new(server)
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("x")
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let config = GuidedConfig {
        seed: 3,
        budget: Duration::from_secs(600),
        interrupt: None,
        max_execs: Some(300),
    };
    let mut kept = 0;
    for round in 0..2 {
        let mut agent = Agent::new(&[]).expect("agent folder");
        let mut target = start(&agent, program, &[server]);
        let corpus = Corpus::open(Some(&dir)).expect("corpus");
        let mut findings = 0;
        let outcome = coverage::fuzz(&mut target, &mut agent, corpus, &config, |event| {
            if matches!(event, coverage::GuidedEvent::Finding { .. }) {
                findings += 1;
            }
        });
        assert_eq!(
            findings, 0,
            "the branchy servers are conformant to the oracle"
        );
        assert_eq!(outcome.execs, 300);
        assert!(outcome.edges > 0 && outcome.words > 0, "{outcome:?}");
        if round == 0 {
            assert_eq!(outcome.loaded, 0);
            assert!(outcome.kept > 1, "new branches were kept: {outcome:?}");
            kept = outcome.kept;
            let files = std::fs::read_dir(&dir).expect("dir").count();
            assert_eq!(files, kept, "one file per kept input");
        } else {
            assert_eq!(
                outcome.loaded, kept,
                "the second run reads the first's inputs"
            );
        }
        let (hit, lines) = outcome.lines.totals();
        assert!(hit > 0 && hit <= lines);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn python_corpus_is_kept_and_resumed() {
    corpus_is_kept_and_resumed("python3", &python_server());
}

#[test]
fn node_corpus_is_kept_and_resumed() {
    corpus_is_kept_and_resumed("node", &node_server());
}

/// The CLI's `fuzz --coverage` with `args` after `--`: its status and output.
fn fuzz_coverage(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-conformance"))
        .args(["fuzz", "--coverage", "--time", "2", "--cases-dir"])
        .arg(std::env::temp_dir().join(format!("mcp-coverage-cases-{}", std::process::id())))
        .arg("--")
        .args(args)
        .output()
        .expect("runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn a_server_no_agent_can_count_is_a_setup_error_not_a_blind_run() {
    let reference = env!("CARGO_BIN_EXE_mcp-conformance");
    // A compiled binary (the bundled reference server): no agent loads.
    let (code, text) = fuzz_coverage(&[reference, "reference-server"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("no coverage agent started"), "{text}");
    // Python's isolated mode ignores PYTHONPATH: no agent loads either.
    let (code, text) = fuzz_coverage(&["python3", "-I", &python_server()]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("no coverage agent started"), "{text}");
    // A launcher in front of the server: the process counted runs none of its code when
    // cases come, which is said, not fuzzed blind.
    let launcher = std::env::temp_dir().join(format!("mcp-launcher-{}.py", std::process::id()));
    std::fs::write(
        &launcher,
        format!(
            "import subprocess, sys\nsubprocess.call([sys.executable, {:?}])\n",
            python_server()
        ),
    )
    .expect("write");
    let (code, text) = fuzz_coverage(&["python3", &launcher.display().to_string()]);
    let _ = std::fs::remove_file(&launcher);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("ran none of its counted code"), "{text}");
    assert!(
        text.contains("starts the server in another process"),
        "{text}"
    );
    // A Python too old for the agent says so.
    match pythons()
        .into_iter()
        .find(|(_, v)| *v < (3, 10) && *v >= (3, 6))
    {
        Some((old, _)) => {
            let (code, text) = fuzz_coverage(&[&old.display().to_string(), &python_server()]);
            assert_eq!(code, 2, "{text}");
            assert!(text.contains("older than 3.10"), "{text}");
        }
        None => eprintln!("skipped: no Python older than 3.10 here"),
    }
}

#[test]
fn a_server_that_starts_another_python_is_counted_partially_and_says_so() {
    let (code, text) = fuzz_coverage(&["python3", &python_server(), "--spawn-child"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("coverage is partial: the server started"),
        "{text}"
    );
    assert!(text.contains("with coverage"), "{text}");
}

#[test]
fn replay_runs_a_corpus_entry_as_a_fuzz_input() {
    let entry = std::env::temp_dir().join(format!("mcp-coverage-entry-{}", std::process::id()));
    std::fs::write(&entry, [7u8, 1, 200, 3, 99, 42, 0, 17, 5, 5, 5, 5]).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-conformance"))
        .arg("replay")
        .arg(&entry)
        .args(["--", "python3", &python_server()])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stderr.contains("is a fuzz input, not a case file"),
        "{stderr}"
    );
    assert!(
        stdout.contains(": no finding") && stdout.contains("ran 1 case"),
        "{stdout}"
    );
    let _ = std::fs::remove_file(&entry);
}
