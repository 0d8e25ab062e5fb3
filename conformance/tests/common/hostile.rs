//! Running the built binary against one hostile server of
//! `fixtures/python/hostile_server.py`, measured from outside: wall time, peak RSS (the
//! harness's `VmHWM`, polled from `/proc` while it runs) and the processes left once it
//! exits (found by a marker in their environment, or by the pid a server wrote to
//! `HOSTILE_PIDFILE` for a process that has no environment; then killed so a failing row
//! leaks nothing either).

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The environment variable that marks one run's processes (the harness passes its
/// environment on to the server, and the server to everything it starts).
pub const MARKER: &str = "HOSTILE_TEST_MARKER";

/// What one run of the harness came to.
#[derive(Debug)]
pub struct Outcome {
    /// The JSON report.
    pub report: Value,
    /// From start to the harness's exit.
    pub wall: Duration,
    /// Peak resident memory of the harness, in KiB.
    pub peak_rss_kib: u64,
    /// Marked processes still running a moment after the harness exited.
    pub left: Vec<u32>,
    /// Pids the server wrote to `HOSTILE_PIDFILE`.
    pub listed: Vec<u32>,
}

impl Outcome {
    /// `(status, message, evidence text)` of a check in the only revision run.
    pub fn result(&self, check: &str) -> (String, String, String) {
        let result = self.report["revisions"][0]["results"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|r| r["check"] == check)
            .unwrap_or_else(|| panic!("{check} is not in the report"));
        let evidence: Vec<&str> = result["evidence"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| e["text"].as_str())
            .collect();
        (
            result["status"].as_str().unwrap_or_default().to_string(),
            result["message"].as_str().unwrap_or_default().to_string(),
            evidence.join("\n"),
        )
    }

    /// Every check that failed or warned, as "id status".
    pub fn findings(&self) -> Vec<String> {
        self.report["revisions"][0]["results"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|r| r["status"] == "fail" || r["status"] == "warn")
            .map(|r| {
                let (check, status) = (r["check"].as_str(), r["status"].as_str());
                format!("{} {}", check.unwrap_or(""), status.unwrap_or(""))
            })
            .collect()
    }
}

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Peak resident memory of a live process, in KiB (0 once it is gone).
fn vm_hwm(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// Live (not zombie) processes whose environment holds `MARKER=marker`.
pub fn marked(marker: &str) -> Vec<u32> {
    let wanted = format!("{MARKER}={marker}");
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|b| *b == 0).any(|v| v == wanted.as_bytes()))
        })
        .filter(|&pid| !crate::common::is_gone(pid))
        .collect()
}

/// The pids listed in `pidfile` (one per line) that are still running.
fn listed_alive(pidfile: &std::path::Path) -> Vec<u32> {
    std::fs::read_to_string(pidfile)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .filter(|&pid| !crate::common::is_gone(pid))
        .collect()
}

/// Runs `mcp-conformance run` on revision 2025-06-18 against `hostile_server.py
/// <args>`, with `--timeout timeout_secs`, no property cases unless `flags` ask for some
/// (their cost is not what most rows measure) and the JSON report to a temporary file.
/// `flags` go to the harness before `--`.
pub fn run(args: &[&str], flags: &[&str], timeout_secs: f64) -> Outcome {
    let server = repo().join("fixtures/python/hostile_server.py");
    run_with(args[0], |command, report, dir| {
        command
            .args(["run", "--revision", "2025-06-18"])
            .args(if flags.contains(&"--cases") {
                &[][..]
            } else {
                &["--cases", "0"][..]
            })
            .args(["--timeout", &timeout_secs.to_string()])
            .args(flags)
            .args(["--format", "json", "--output"])
            .arg(report)
            .arg("--cases-dir")
            .arg(dir.join("cases"))
            .arg("--")
            .arg("python3")
            .arg(&server)
            .args(args);
    })
}

/// Runs the built binary with the arguments `args` adds (given the JSON report's path,
/// which they must name with `--format json --output`, and a scratch folder), and
/// measures it like [`run`]; `name` goes into the marker.
pub fn run_with(
    name: &str,
    args: impl FnOnce(&mut Command, &std::path::Path, &std::path::Path),
) -> Outcome {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let marker = format!(
        "{}-{}-{}",
        name,
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let dir = std::env::temp_dir().join(format!("mcp-conformance-hostile-{marker}"));
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join("report.json");
    let pidfile = dir.join("pids");
    let started = Instant::now();
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-conformance"));
    args(&mut command, &report, &dir);
    let mut child = command
        .env(MARKER, &marker)
        .env("HOSTILE_PIDFILE", &pidfile)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the harness starts");
    let mut peak = 0;
    // A hang guard, not a speed target: a harness that outlives it is killed and the
    // row fails on its wall time.
    let guard = Duration::from_secs(170);
    while child.try_wait().unwrap().is_none() {
        peak = peak.max(vm_hwm(child.id()));
        if started.elapsed() > guard {
            let _ = child.kill();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let wall = started.elapsed();
    // What the harness leaves is ended at its exit; give the kernel a moment.
    let deadline = Instant::now() + Duration::from_secs(2);
    let leftovers = || {
        let mut left = marked(&marker);
        left.extend(listed_alive(&pidfile));
        left.sort_unstable();
        left.dedup();
        left
    };
    let mut left = leftovers();
    while !left.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        left = leftovers();
    }
    for &pid in &left {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    let listed = std::fs::read_to_string(&pidfile)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    let report = std::fs::read_to_string(&report)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null);
    let _ = std::fs::remove_dir_all(&dir);
    Outcome {
        report,
        wall,
        peak_rss_kib: peak,
        left,
        listed,
    }
}
