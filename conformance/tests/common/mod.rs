//! Helpers shared by the integration tests: running the suite from a plain `#[test]`,
//! matching a report against an expectation table, and telling whether a process is gone.
//! [`expect`] is the machinery the reference server's fault tables share.
#![allow(dead_code)] // each test binary uses its own subset

pub mod expect;

use mcp_conformance::checks::Status;
use mcp_conformance::report::RunReport;
use mcp_conformance::runner::RunConfig;

/// A check that must come out with a status, in some revisions (empty: every one).
pub type Expect = (&'static str, Status, &'static [&'static str]);

/// Runs the suite to completion on a thread and runtime of its own (a large stack: the
/// threads tests spawn have 2 MiB).
pub fn run_blocking(config: &RunConfig) -> RunReport {
    mcp_conformance::runner::run_blocking(config).expect("the harness runs")
}

/// Every result that differs from `expected`: a listed check must have exactly its listed
/// status, every other check must pass or skip. A revision the server does not speak
/// (`RunReport::not_spoken`; the caller asserts the server's era) has every check skipped
/// and is left out. Empty when the report matches.
pub fn mismatches(report: &RunReport, expected: &[Expect]) -> Vec<String> {
    let mut out = Vec::new();
    for rev in &report.revisions {
        if report.not_spoken(rev.revision).is_some() {
            if let Some(r) = rev.results.iter().find(|r| r.status != Status::Skip) {
                out.push(format!(
                    "{} is not spoken, yet {} is {:?}",
                    rev.revision, r.check, r.status
                ));
            }
            continue;
        }
        for result in &rev.results {
            let want = expected
                .iter()
                .find(|(id, _, revs)| {
                    *id == result.check && (revs.is_empty() || revs.contains(&rev.revision))
                })
                .map(|(_, s, _)| *s);
            let ok = match want {
                Some(status) => result.status == status,
                None => matches!(result.status, Status::Pass | Status::Skip),
            };
            if !ok {
                out.push(format!(
                    "{} {} is {:?}, expected {}: {}",
                    rev.revision,
                    result.check,
                    result.status,
                    want.map_or("pass or skip".to_string(), |s| format!("{s:?}")),
                    result.message
                ));
            }
        }
    }
    out
}

/// A process is gone, or a zombie nobody has reaped yet (it runs no code).
pub fn is_gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

/// A port free a moment ago on 127.0.0.1 (the server binds it right after), never one this
/// test process handed out before. Tests start servers from parallel threads: between a
/// port's release here and its server's bind, the OS may hand the same port to another
/// thread, whose server then fails to bind while its run talks to the first thread's
/// server (a CI run saw `http-origin-ignored` judged on the `http-content-type` fault's
/// server). The port is taken below the kernel's ephemeral range, which every outgoing
/// connection of the machine draws its local port from: a port of that range, free here,
/// was once the local port of some connection before the server could bind it, and the
/// fault's whole run met "connection refused".
pub fn free_port() -> u16 {
    static GIVEN: std::sync::Mutex<std::collections::BTreeSet<u16>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    let below = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|r| r.split_whitespace().next()?.parse::<u16>().ok())
        .unwrap_or(32768);
    // Where this process starts looking: test processes run one after another, and a
    // port a server of the previous one held may still be in TIME_WAIT.
    let first = 10_000 + (std::process::id() % 8_000) as u16;
    let candidates = (first..below).chain(10_000..first);
    for port in candidates {
        if GIVEN
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(&port)
        {
            continue;
        }
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok()
            && GIVEN.lock().unwrap_or_else(|e| e.into_inner()).insert(port)
        {
            return port;
        }
    }
    panic!("no free port below {below}");
}

/// libtest-mimic arguments for a nested run of the harness inside a test, its own lines
/// (the `test result: FAILED.` of a run meant to fail) written to a log file under the
/// temp folder rather than into `cargo test`'s output, where a passing run would read as
/// failing.
pub fn nested_args(args: &[&str]) -> libtest_mimic::Arguments {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("mcp-nested-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp folder");
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let log = dir.join(format!("{n}.log")).to_string_lossy().into_owned();
    let all = args
        .iter()
        .map(|a| a.to_string())
        .chain(["--logfile".into(), log]);
    libtest_mimic::Arguments::from_iter(all)
}
