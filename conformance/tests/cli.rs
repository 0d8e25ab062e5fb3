//! The binary's documented exit codes and report files (README, "Exit codes").

mod common;

use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mcp-conformance"))
}

#[test]
fn reference_server_run_exits_0_and_writes_the_json_report() {
    let dir = std::env::temp_dir().join(format!("mcp-conformance-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("report.json");
    let status = bin()
        .args([
            "run",
            "--revision",
            "2025-11-25",
            "--format",
            "json",
            "--output",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        status.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert!(stdout.contains("== 2025-11-25"), "{stdout}");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(json["schema_version"], 1);
    assert_eq!(json["tool"]["name"], "mcp-conformance");
    assert_eq!(json["revisions"][0]["revision"], "2025-11-25");
    assert_eq!(json["revisions"][0]["negotiated"], "2025-11-25");
    assert_eq!(json["summary"]["fail"], 0);
    let first = &json["revisions"][0]["results"][0];
    for key in ["check", "level", "status", "message", "evidence"] {
        assert!(first.get(key).is_some(), "result lacks {key}: {first}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failing_server_exits_1() {
    let exe = env!("CARGO_BIN_EXE_mcp-conformance");
    let status = bin()
        .args([
            "run",
            "--revision",
            "2024-11-05",
            "--",
            exe,
            "reference-server",
            "--fault",
            "ping-nonempty",
        ])
        .output()
        .unwrap();
    assert_eq!(status.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert!(
        stdout.contains("FAIL lc-ping (2024-11-05) [MUST LC-PING"),
        "{stdout}"
    );
    assert!(
        stdout.contains("<- {\"jsonrpc\":\"2.0\",\"id\":"),
        "evidence shows the response: {stdout}"
    );
}

#[test]
fn a_server_that_cannot_be_spawned_exits_2() {
    let status = bin()
        .args(["run", "--", "/nonexistent/mcp-server"])
        .output()
        .unwrap();
    assert_eq!(status.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&status.stderr);
    assert!(
        stderr.contains("failed to spawn server command"),
        "{stderr}"
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(
        bin()
            .args(["run", "--revision", "2023-01-01"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        bin()
            .args(["run", "--no-such-flag"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn list_prints_every_check() {
    let out = bin().arg("list").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for check in mcp_conformance::checks::CATALOG {
        assert!(
            text.contains(check.id.as_str()),
            "{} missing from list",
            check.id
        );
    }
}

/// Ctrl-C ends the run with 130 and kills the server's whole process group first.
#[test]
fn interrupt_exits_130_and_leaves_no_server_behind() {
    interrupted_with_no_server_behind(&["run", "--timeout", "60"], "int");
}

/// The same for the live fuzz mode, stuck in the handshake of a server that never answers.
#[test]
fn live_fuzz_interrupt_exits_130_and_leaves_no_server_behind() {
    interrupted_with_no_server_behind(&["fuzz", "--live", "--timeout", "60"], "int-live");
}

fn interrupted_with_no_server_behind(args: &[&str], label: &str) {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    use std::time::{Duration, Instant};

    let dir = std::env::temp_dir().join(format!("mcp-conformance-{label}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pidfile = dir.join("server.pid");
    let script = format!("echo $$ > '{}'; exec sleep 300", pidfile.display());
    let mut harness = bin()
        .args(args)
        .args(["--", "sh", "-c", &script])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !pidfile.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let server: i32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    kill(Pid::from_raw(harness.id() as i32), Signal::SIGINT).unwrap();
    let status = harness.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let gone = |pid: i32| common::is_gone(pid.unsigned_abs());
    let deadline = Instant::now() + Duration::from_secs(5);
    while !gone(server) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(gone(server), "server {server} survived the interrupt");
    let _ = std::fs::remove_dir_all(&dir);
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-conformance-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The gate's documented exit codes: baselined failures pass, a stale entry fails only
/// with --strict-baseline, warnings fail only with --strict.
#[test]
fn baseline_and_strict_exit_codes() {
    let dir = temp_dir("gate");
    let exe = env!("CARGO_BIN_EXE_mcp-conformance");
    let run = |fault: &str, extra: &[&str]| {
        let mut cmd = bin();
        cmd.args(["run", "--revision", "2025-06-18", "--cases", "4"])
            .args(extra);
        cmd.args(["--", exe, "reference-server", "--fault", fault]);
        cmd.output().unwrap().status.code()
    };
    let baseline = dir.join("baseline.toml");
    std::fs::write(
        &baseline,
        "[[expected]]\ncheck = \"lc-ping\"\nreason = \"known, fixed in 2.0\"\n",
    )
    .unwrap();
    let b = baseline.to_str().unwrap();
    assert_eq!(
        run("ping-nonempty", &[]),
        Some(1),
        "an unexpected failure fails the run"
    );
    assert_eq!(
        run("ping-nonempty", &["--baseline", b]),
        Some(0),
        "only baselined failures"
    );
    assert_eq!(
        run("ping-nonempty", &["--baseline", b, "--strict-baseline"]),
        Some(0)
    );
    // The same baseline against a server that no longer fails lc-ping: a stale entry.
    assert_eq!(
        run("ignore-stdin-eof", &["--baseline", b]),
        Some(0),
        "a stale entry is reported, not fatal"
    );
    assert_eq!(
        run("ignore-stdin-eof", &["--baseline", b, "--strict-baseline"]),
        Some(1)
    );
    // ignore-stdin-eof only warns: fine unless --strict.
    assert_eq!(
        run("ignore-stdin-eof", &["--strict"]),
        Some(1),
        "strict warnings"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A config file is enough for a CI step: server, revisions and report formats from it.
#[test]
fn a_config_file_drives_the_run_and_writes_every_format() {
    let dir = temp_dir("config");
    let exe = env!("CARGO_BIN_EXE_mcp-conformance");
    let config = format!(
        "[server]\ncommand = {exe:?}\nargs = [\"reference-server\"]\n\n[run]\nrevisions = [\"2025-11-25\"]\ncases = 4\nformats = [\"junit\", \"sarif\", \"markdown\", \"json\"]\noutput_dir = \"out\"\n"
    );
    std::fs::write(dir.join("mcp-conformance.toml"), config).unwrap();
    let out = bin().arg("run").current_dir(&dir).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for file in [
        "mcp-conformance.junit.xml",
        "mcp-conformance.sarif",
        "mcp-conformance.md",
        "mcp-conformance.json",
    ] {
        assert!(dir.join("out").join(file).is_file(), "{file} written");
    }
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("out/mcp-conformance.json")).unwrap())
            .unwrap();
    assert_eq!(json["revisions"].as_array().unwrap().len(), 1);
    // A typo in the config file is a setup error, not silently ignored.
    std::fs::write(dir.join("mcp-conformance.toml"), "[run]\ntimout = 3\n").unwrap();
    assert_eq!(
        bin()
            .arg("run")
            .current_dir(&dir)
            .output()
            .unwrap()
            .status
            .code(),
        Some(2)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A failing generated case is saved, and `replay` repeats it: it reproduces against the
/// faulty server (exit 1) and not against the conformant one (exit 0).
#[test]
fn a_saved_case_replays() {
    let dir = temp_dir("replay");
    let exe = env!("CARGO_BIN_EXE_mcp-conformance");
    let cases = dir.join("cases");
    let out = bin()
        .args([
            "run",
            "--revision",
            "2025-11-25",
            "--cases-dir",
            cases.to_str().unwrap(),
        ])
        .args(["--", exe, "reference-server", "--fault", "crash-on-astral"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("replay: mcp-conformance replay"),
        "{stdout}"
    );
    let file = std::fs::read_dir(&cases)
        .unwrap()
        .next()
        .expect("a saved case")
        .unwrap()
        .path();
    let replay = bin().arg("replay").arg(&file).output().unwrap();
    let text = String::from_utf8_lossy(&replay.stdout);
    assert_eq!(replay.status.code(), Some(1), "{text}");
    assert!(text.contains("reproduced"), "{text}");
    let fixed = bin()
        .arg("replay")
        .arg(&file)
        .args(["--", exe, "reference-server"])
        .output()
        .unwrap();
    assert_eq!(
        fixed.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&fixed.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn explain_prints_the_requirement_and_the_fix() {
    let out = bin().args(["explain", "rpc-id-echo"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    for part in [
        "RPC-ID-ECHO",
        "What is required",
        "Why it matters",
        "How to fix",
    ] {
        assert!(text.contains(part), "{part} in {text}");
    }
    assert_eq!(
        bin()
            .args(["explain", "no-such-check"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(2)
    );
}

/// The built-in fuzz mode finds an input-dependent crash within its budget (exit 1, with a
/// minimal input) and finds nothing on the conformant server (exit 0).
#[test]
fn fuzz_mode_finds_a_rare_crash_and_nothing_else() {
    let exe = env!("CARGO_BIN_EXE_mcp-conformance");
    let out = bin()
        .args([
            "fuzz",
            "--time",
            "3",
            "--timeout",
            "2",
            "--",
            exe,
            "reference-server",
            "--fault",
            "crash-on-astral",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("FAIL prop-server-survives") && text.contains("minimal input"),
        "{text}"
    );
    let clean = bin()
        .args(["fuzz", "--time", "2", "--", exe, "reference-server"])
        .output()
        .unwrap();
    assert_eq!(
        clean.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&clean.stdout)
    );
}

#[test]
fn live_fuzz_mode_finds_a_rare_crash_and_a_crash_input_becomes_a_case_file() {
    let exe = env!("CARGO_BIN_EXE_mcp-conformance");
    let dir = std::env::temp_dir().join(format!("mcp-conformance-cli-live-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let faulty = [exe, "reference-server", "--fault", "crash-on-astral"];
    let dir_arg = dir.to_string_lossy().into_owned();
    let live = bin()
        .args([
            "fuzz",
            "--live",
            "--time",
            "3",
            "--cases-dir",
            &dir_arg,
            "--",
        ])
        .args(faulty)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&live.stdout);
    assert_eq!(live.status.code(), Some(1), "{text}");
    assert!(text.contains("FAIL prop-server-survives (Crash)"), "{text}");
    let clean = bin()
        .args([
            "fuzz",
            "--live",
            "--time",
            "2",
            "--",
            exe,
            "reference-server",
        ])
        .output()
        .unwrap();
    assert_eq!(
        clean.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&clean.stdout)
    );
    // A saved crash input of the cargo-fuzz target, turned back into a case file.
    let _ = std::fs::remove_dir_all(&dir);
    let input = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fuzz/artifacts/live_server/crash-on-astral"
    );
    let converted = bin()
        .args(["fuzz", "--input", input, "--cases-dir", &dir_arg, "--"])
        .args(faulty)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&converted.stdout);
    assert_eq!(converted.status.code(), Some(1), "{text}");
    let case = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .expect("a case file")
        .unwrap()
        .path();
    let replayed = bin()
        .arg("replay")
        .arg(&case)
        .arg("--")
        .args(faulty)
        .output()
        .unwrap();
    assert_eq!(
        replayed.status.code(),
        Some(1),
        "the case file replays the crash"
    );
    let fixed = bin()
        .arg("replay")
        .arg(&case)
        .args(["--", exe, "reference-server"])
        .output()
        .unwrap();
    assert_eq!(
        fixed.status.code(),
        Some(0),
        "the conformant server passes it"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
