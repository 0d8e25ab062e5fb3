//! The harness never hangs, panics or leaks on a hostile server: it crashes, stalls,
//! prints garbage, forks children, floods. Each case ends with findings and no process
//! left.
//!
//! The hostile family (issue 11) runs the built binary against
//! `fixtures/python/hostile_server.py`, one row per behaviour: each asserts the finding
//! that names the behaviour, a generous wall-time bound (a hang guard, not a speed
//! target: `benches/hostile.sh` measures speed), peak RSS measured from outside, and
//! that nothing the server started is left running.

mod common;
#[path = "common/hostile.rs"]
mod hostile;

use common::is_gone;

use std::time::Duration;

use mcp_conformance::checks::Status;
use mcp_conformance::protocol::{Revision, SessionConfig};
use mcp_conformance::report::RunReport;
use mcp_conformance::runner::RunConfig;
use mcp_conformance::scenarios::PropertyConfig;
use mcp_conformance::transport::ServerCommand;

/// 2025-06-18 against `sh -c SCRIPT` (`$0` is the built binary), with `session`.
fn sh_config(script: &str, session: SessionConfig) -> RunConfig {
    let mut config = RunConfig::new(ServerCommand::new(
        "sh",
        [
            "-c".to_string(),
            script.to_string(),
            env!("CARGO_BIN_EXE_mcp-conformance").to_string(),
        ],
    ));
    config.revisions = vec![Revision::find("2025-06-18").unwrap()];
    config.session = session;
    config
}

fn run_sh(script: &str) -> RunReport {
    let session = SessionConfig {
        timeout: Duration::from_millis(1500),
        shutdown_grace: Duration::from_millis(500),
        max_line: 1024,
    };
    common::run_blocking(&sh_config(script, session))
}

/// Waits up to 5 s for the process whose pid `pidfile` holds to be gone; `what` names it
/// in the failure (`{}` is its pid).
fn assert_gone_soon(pidfile: &std::path::Path, what: &str) {
    let pid: u32 = std::fs::read_to_string(pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while !is_gone(pid) && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(is_gone(pid), "{}", what.replace("{}", &pid.to_string()));
}

fn status(report: &RunReport, check: &str) -> Status {
    report
        .result("2025-06-18", check)
        .map(|r| r.status)
        .expect("check present")
}

#[test]
fn garbage_then_exit_is_a_finding_with_exit_status_and_stderr() {
    let report = run_sh(
        r#"echo 'hello from a server'; printf '\377\376\n'; echo 'fatal: bad config' >&2; exit 3"#,
    );
    assert_eq!(status(&report, "lc-init-result"), Status::Fail);
    assert_eq!(status(&report, "rpc-stdio-framing"), Status::Fail);
    let init = report.result("2025-06-18", "lc-init-result").unwrap();
    assert!(init.message.contains("exit status 3"), "{}", init.message);
    assert!(
        init.evidence
            .iter()
            .any(|e| e.text.contains("fatal: bad config")),
        "{:?}",
        init.evidence
    );
}

#[test]
fn a_server_that_never_answers_times_out_without_hanging() {
    let report = run_sh("exec sleep 30");
    let init = report.result("2025-06-18", "lc-init-result").unwrap();
    assert_eq!(init.status, Status::Fail);
    assert!(
        init.message.contains("no response within"),
        "{}",
        init.message
    );
}

#[test]
fn an_over_long_line_is_a_framing_finding() {
    let report = run_sh(r#"head -c 5000 /dev/zero | tr '\0' x; echo; exec "$0" reference-server"#);
    let framing = report.result("2025-06-18", "rpc-stdio-framing").unwrap();
    assert_eq!(framing.status, Status::Fail);
    assert!(
        framing.message.contains("over the line cap"),
        "{}",
        framing.message
    );
    assert_eq!(status(&report, "lc-init-result"), Status::Pass);
}

/// A server whose timer still writes a line now and then after stdin closed (it never
/// exits: server-everything's `toggle-*` timers) has the rest of its shutdown grace
/// waited beside the property phase, as a quiet one does, not before it: the revision
/// takes less than its two phases one after the other. It is still warned about.
#[test]
fn a_server_chatting_after_stdin_closed_is_waited_beside_the_property_phase() {
    let tick = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"tick"}}"#;
    let script = format!(r#""$0" reference-server; while :; do echo '{tick}'; sleep 0.2; done"#);
    let session = SessionConfig {
        timeout: Duration::from_secs(5),
        shutdown_grace: Duration::from_secs(3),
        max_line: 1024,
    };
    let mut config = sh_config(&script, session);
    // Enough cases for a property phase far longer than the few milliseconds between the
    // end of the grace and the end of the revision: that is the margin asserted below.
    config.properties = Some(PropertyConfig {
        cases: 1024,
        ..PropertyConfig::default()
    });
    let report = common::run_blocking(&config);
    assert_eq!(status(&report, "lc-shutdown-stdio"), Status::Warn);
    let timing = &report.timing.as_ref().expect("timing").revisions[0];
    assert!(timing.property_ms > 0, "the property phase ran: {timing:?}");
    assert!(
        timing.total.wall_ms < timing.scripted_ms + timing.property_ms,
        "the grace and the property phase overlapped: {timing:?}"
    );
}

#[test]
fn children_of_the_server_are_killed_with_it() {
    let dir = std::env::temp_dir().join(format!("mcp-conformance-leak-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pidfile = dir.join("child.pid");
    // The server forks a long sleeper and then ignores stdin EOF, so only the harness's
    // process-group kill can end both.
    let script = format!(
        r#"sleep 300 & echo $! > '{}'; exec "$0" reference-server --fault ignore-stdin-eof"#,
        pidfile.display()
    );
    let report = run_sh(&script);
    assert_eq!(status(&report, "lc-shutdown-stdio"), Status::Warn);
    assert_gone_soon(&pidfile, "the server's child {} outlived the run");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_grandchild_that_left_the_process_group_is_killed_too() {
    let dir = std::env::temp_dir().join(format!("mcp-conformance-setsid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pidfile = dir.join("daemon.pid");
    // `setsid` puts the sleeper in a session (and group) of its own: a group kill cannot
    // reach it, the marker in its inherited environment does.
    let script = format!(
        r#"setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! > '{}'; exec "$0" reference-server"#,
        pidfile.display()
    );
    let report = run_sh(&script);
    assert_eq!(status(&report, "lc-init-result"), Status::Pass);
    assert_gone_soon(
        &pidfile,
        "the server's setsid grandchild {} outlived the run",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// -- The hostile family --

/// The per-request timeout of the rows, in seconds.
const TIMEOUT: f64 = 3.0;
/// Peak RSS every row stays under (the issue's bound), in KiB.
const RSS_BOUND_KIB: u64 = 256 * 1024;
/// Wall time every row stays under: one revision at `TIMEOUT`, including the shutdown
/// grace. The issue's target is 90 s for four revisions at `--timeout 3`.
const WALL_BOUND: Duration = Duration::from_secs(60);

/// Runs one row and asserts what every row must hold: a report, the wall-time and
/// memory bounds, nothing left running; then `check` has `status` and its message or
/// evidence says `names`.
fn hostile(args: &[&str], check: &str, status: &str, names: &str) -> hostile::Outcome {
    hostile_with(args, &[], check, status, names)
}

/// [`hostile`] with flags for the harness.
fn hostile_with(
    args: &[&str],
    flags: &[&str],
    check: &str,
    status: &str,
    names: &str,
) -> hostile::Outcome {
    let outcome = hostile::run(args, flags, TIMEOUT);
    assert!(
        !outcome.report.is_null(),
        "{args:?}: no report ({:?})",
        outcome.wall
    );
    assert!(
        outcome.wall < WALL_BOUND,
        "{args:?}: took {:?}",
        outcome.wall
    );
    assert!(
        outcome.peak_rss_kib < RSS_BOUND_KIB,
        "{args:?}: peak RSS {} KiB",
        outcome.peak_rss_kib
    );
    assert!(
        outcome.left.is_empty(),
        "{args:?}: left running: {:?}",
        outcome.left
    );
    let (got, message, evidence) = outcome.result(check);
    assert_eq!(
        got,
        status,
        "{args:?}: {check}: {message}; all findings: {:?}",
        outcome.findings()
    );
    assert!(
        message.contains(names) || evidence.contains(names),
        "{args:?}: {check} does not say {names:?}: {message}\n{evidence}"
    );
    outcome
}

/// `sh -c 'sleep 1001 &'`: a grandchild in the server's group holds stdout, the server
/// exits. The exit is seen at once (not after a timeout per request), and the
/// grandchild is ended with the run.
#[test]
fn hostile_group_grandchild_holding_stdout() {
    hostile(
        &["group-grandchild"],
        "rpc-response-required",
        "fail",
        "the server exited",
    );
}

/// The same with a grandchild that called `setsid()`: out of the group, found by the
/// marker.
#[test]
fn hostile_setsid_grandchild_holding_stdout() {
    hostile(
        &["setsid-grandchild"],
        "rpc-response-required",
        "fail",
        "the server exited",
    );
}

/// The same with a plain fork.
#[test]
fn hostile_fork_grandchild_holding_stdout() {
    hostile(
        &["fork-grandchild"],
        "rpc-response-required",
        "fail",
        "the server exited",
    );
}

/// A tool that answers every call well but after 2 s, its server asleep meanwhile
/// (within the 3 s timeout, over the 1 s that counts as slow): the tool's own latency,
/// not a loaded machine's, so its scripted call is its one timed call in the revision (a
/// slow tool costs its latency once, issue 48): it gets no generated case, and the phase
/// says why. The property phase then waits for one call only (the cancellation
/// sequence's, which the single-threaded server sleeps on before it reads the
/// cancellation): 2 s and its own work, where one generated case would make it 4 s.
#[test]
fn hostile_lagging_tool_costs_its_latency_once() {
    let outcome = hostile_with(
        &["lag-tool", "2000"],
        &["--cases", "8"],
        "prop-server-survives",
        "pass",
        "its scripted call was still unanswered after 1.0 s, its server asleep meanwhile",
    );
    let property_ms = outcome.report["timing"]["revisions"][0]["property_ms"]
        .as_u64()
        .expect("property timing");
    assert!(
        (2000..3800).contains(&property_ms),
        "no generated case waited: {property_ms} ms"
    );
}

/// A tool that answers every call 0.3 s past a 2 s timeout, its server asleep meanwhile:
/// the answer comes within the late window (a tenth of the timeout, at least 1 s), so the
/// scripted call is answered in every run, not only in those the scheduler favours (issue
/// 48: server-everything's 10 s tool against the default 10 s timeout).
#[test]
fn hostile_tool_answering_just_past_the_timeout_is_answered() {
    let outcome = hostile::run(&["lag-tool", "2300"], &[], 2.0);
    assert!(!outcome.report.is_null(), "no report ({:?})", outcome.wall);
    assert!(outcome.left.is_empty(), "left running: {:?}", outcome.left);
    let (status, message, _) = outcome.result("rpc-response-required");
    assert_eq!(status, "pass", "{message}");
    let (status, message, _) = outcome.result("tc-content-types");
    assert_eq!(status, "pass", "the late answer is judged: {message}");
    assert!(message.contains("content block"), "{message}");
}

/// A slow tool gets its generated cases all the same when the run asks for them
/// (`PropertyConfig::slow_tools_too`, which `--cases` above its default sets; issue 48):
/// a note says so, and its cases ran, each answered slowly and none cut short.
#[test]
fn a_slow_tool_gets_its_cases_when_the_run_asks_for_them() {
    let script = hostile::repo().join("fixtures/python/hostile_server.py");
    let mut config = RunConfig::new(ServerCommand::new(
        "python3",
        [
            script.display().to_string(),
            "lag-tool".into(),
            "1200".into(),
        ],
    ));
    config.revisions = vec![Revision::find("2025-06-18").unwrap()];
    config.session = SessionConfig {
        timeout: Duration::from_secs(3),
        ..SessionConfig::default()
    };
    config.properties = Some(PropertyConfig {
        cases: 3,
        slow_tools_too: true,
        ..PropertyConfig::default()
    });
    let report = common::run_blocking(&config);
    let survives = report.result("2025-06-18", "prop-server-survives").unwrap();
    assert_eq!(survives.status, Status::Pass, "{}", survives.message);
    assert!(
        survives
            .message
            .contains("its generated cases run all the same"),
        "{}",
        survives.message
    );
    let valid = report
        .result("2025-06-18", "prop-valid-call-accepted")
        .unwrap();
    assert!(
        valid.message.starts_with("3 generated case(s)"),
        "every valid case ran: {}",
        valid.message
    );
}

/// The property phase started beside a slow scripted call (issue 48) sends what it would
/// after it, whatever the slots: with one slot it runs while the scripted call's slot is
/// lent, with three at once beside it; the two reports are the same.
#[test]
fn hostile_lagging_tool_same_report_for_any_jobs() {
    let run = |jobs: &str| {
        let flags = ["--cases", "8", "--jobs", jobs];
        let mut outcome = hostile::run(&["lag-tool", "2000"], &flags, TIMEOUT);
        assert!(outcome.left.is_empty(), "left running: {:?}", outcome.left);
        let timing = outcome.report["timing"].take();
        assert!(
            timing["revisions"][0]["property_ms"].as_u64() > Some(0),
            "{timing}"
        );
        outcome.report
    };
    let (one, three) = (run("1"), run("3"));
    let note = "its scripted call was still unanswered after 1.0 s";
    assert!(one.to_string().contains(note), "{one}");
    assert_eq!(one, three);
}

/// A stall shrinks on one process while the server answers beside its stalled calls
/// (issue 48); a server that runs its tool calls one at a time stalls every call after a
/// stalled one, so that shrink reaches an input that does not stall alone. Its
/// confirmation says so, and the stall is shrunk again with a process per stalled
/// candidate: the minimal case is the true one, 65 characters, as for a server that
/// does not queue (`stall-long-string`).
#[test]
fn hostile_serial_stall_still_shrinks_to_its_true_minimum() {
    let minimal = format!("{{\"text\":\"{}\"}}", "0".repeat(65));
    for behaviour in ["stall-serial", "stall-long-string"] {
        let outcome = hostile_with(
            &[behaviour, "64"],
            &["--cases", "32"],
            "prop-server-survives",
            "fail",
            &format!("minimal case: {minimal}"),
        );
        let (_, message, _) = outcome.result("prop-server-survives");
        assert!(
            !message.contains("not reproduced"),
            "{behaviour}: {message}"
        );
    }
}

/// A tool slow on long strings only, answering them well after 7 s of a 10 s timeout
/// while ping is answered: the shrink a stall would need starts beside such a call once it
/// outlasts half the timeout (issue 48), and must leave nothing behind when the call is
/// answered in time after all. Slow is not broken: no failure (a warning at most, were
/// the machine so loaded that the answer came after the timeout), the slow answer noted,
/// no process left.
#[test]
fn hostile_slow_answer_in_time_is_no_stall_though_a_shrink_began() {
    let outcome = hostile::run(&["lag-long-string", "7000"], &["--cases", "32"], 10.0);
    assert!(!outcome.report.is_null(), "no report ({:?})", outcome.wall);
    assert!(outcome.wall < WALL_BOUND, "took {:?}", outcome.wall);
    assert!(outcome.left.is_empty(), "left running: {:?}", outcome.left);
    let (status, message, evidence) = outcome.result("prop-server-survives");
    assert!(
        status == "pass" || status == "warn",
        "{status}: {message}\n{evidence}"
    );
    let report = outcome.report.to_string();
    assert!(
        report.contains("its other generated cases were not run")
            || report.contains("outlasted the timeout"),
        "the slow answer is noted: {message}"
    );
}

/// Requests to the client (sampling, roots, elicitation) in a tight loop, stdin no
/// longer read: answered by policy until a write is not taken, then the session ends
/// (one timeout, not one per answer).
#[test]
fn hostile_request_loop() {
    hostile(
        &["request-loop"],
        "lc-no-undeclared-requests",
        "fail",
        "sampling/createMessage",
    );
}

/// ~8 KB notifications without end, tools/list never answered: cut by the bound on
/// unprompted traffic, the record keeping counts, memory bounded.
#[test]
fn hostile_notification_flood_8k() {
    let outcome = hostile(
        &["notify-flood", "8192"],
        "rpc-traffic-bounded",
        "warn",
        "notifications dropped from the record",
    );
    let (_, message, _) = outcome.result("rpc-traffic-bounded");
    assert!(message.contains("the session was cut"), "{message}");
}

/// Progress notifications for our own progressToken, without end: answers (in part) to
/// our request, so not called unprompted, but bounded all the same.
#[test]
fn hostile_progress_flood_for_our_own_token() {
    let outcome = hostile(
        &["progress-flood"],
        "rpc-traffic-bounded",
        "warn",
        "progress notification(s) for our own progressToken",
    );
    let (_, message, _) = outcome.result("rpc-traffic-bounded");
    assert!(message.contains("the session was cut"), "{message}");
    assert!(
        !message.contains("asked for"),
        "progress counted as unprompted: {message}"
    );
}

/// The same with small notifications.
#[test]
fn hostile_notification_flood_small() {
    hostile(
        &["notify-flood", "100"],
        "rpc-traffic-bounded",
        "warn",
        "notifications dropped from the record",
    );
}

/// A response nested 100,000 levels deep is refused by the depth bound at once and
/// named for what it is, not "not JSON". Each such answer still answers its request, by
/// the id read without the rest, also once the record keeps no more unprompted lines (each
/// is 200 KB): rpc-stdio-framing is the one check that blames the lines, none blames a
/// silence that was not.
#[test]
fn hostile_deep_json() {
    let outcome = hostile_with(
        &["deep", "100000"],
        &["--cases", "4"],
        "rpc-stdio-framing",
        "fail",
        "nested deeper than 128 levels",
    );
    for check in [
        "rpc-response-required",
        "rpc-err-parse",
        "prop-server-survives",
        "seq-pipelined",
        "seq-cancel",
    ] {
        let (status, message, _) = outcome.result(check);
        assert_eq!(status, "pass", "{check}: {message}");
    }
}

/// Forty notifications each wider than a message may be as a tree (300,000 values, past
/// the 262,144 budget; the bench's row is 7.5 million): recorded by their method only, and
/// rpc-traffic-bounded says so (24 MB in all, within its bound).
#[test]
fn hostile_wide_notifications() {
    hostile(
        &["wide-notify", "300000"],
        "rpc-traffic-bounded",
        "pass",
        "recorded by their method only",
    );
}

/// 2,000 notifications of 800 small objects each (8 KB of text, about 200 KB as a tree):
/// the record keeps about 2 MiB of them as trees per session, not 1 MiB of their text (20
/// times that), and says which budget turned the rest away.
#[test]
fn hostile_notifications_of_many_small_values() {
    hostile(
        &["notify-objects", "800"],
        "rpc-traffic-bounded",
        "pass",
        "about 2 MiB as parsed trees",
    );
}

/// 70,000 tools on one page, past the 262,144 JSON values a message may be as one tree:
/// the page keeps its first tools as a tree and the rest as text, judged one tool at a
/// time. The one bad tool is the last: the per-tool check and the schema check both find
/// it, at its place in the page, and say how the page was held. (One revision, no
/// property phase: the listing is the subject.)
#[test]
fn hostile_listing_too_wide_for_one_tree() {
    let flags = ["--revision", "2025-11-25", "--cases", "0"];
    let args = ["many-tools-last-bad", "70000"];
    let outcome = hostile_with(&args, &flags, "tool-inputschema-type", "fail", "t070000");
    let (_, message, _) = outcome.result("tool-inputschema-type");
    assert!(message.starts_with("1 of 70000 tool(s)"), "{message}");
    assert!(message.contains("judged one at a time"), "{message}");
    let (status, message, evidence) = outcome.result("schema-server-messages");
    assert_eq!(status, "fail", "{message}");
    assert!(
        evidence.contains("ListToolsResult at /tools/69999/inputSchema/type"),
        "{evidence}"
    );
    let (status, message, _) = outcome.result("tool-name-unique");
    assert_eq!(status, "pass", "{message}");
    assert!(
        message.starts_with("70000 tool name(s), all distinct"),
        "{message}"
    );
}

/// stdout closed, the process still running: the session ends at once.
#[test]
fn hostile_closes_stdout_and_keeps_running() {
    hostile(
        &["close-stdout"],
        "rpc-response-required",
        "fail",
        "closed its stdout",
    );
}

/// tools/list never answered: one timeout, blamed on the request that got no response.
#[test]
fn hostile_stalls_on_tools_list() {
    hostile(
        &["stall-tools-list"],
        "rpc-response-required",
        "fail",
        "tools/list",
    );
}

/// 5,000 pages of one tool each: the walk stops at its page bound.
#[test]
fn hostile_five_thousand_pages() {
    hostile(
        &["pages", "5000"],
        "pag-terminates",
        "warn",
        "stopped after 1000 pages",
    );
}

/// One line of 100 MB, far over the 16 MiB line cap: refused by the cap while it is
/// read, never held whole, and the harness's peak stays under 128 MB (issue 48; it was
/// 213 MB when the buffer doubled as it grew).
#[test]
fn hostile_one_long_line() {
    let outcome = hostile(
        &["long-line", "100000000"],
        "rpc-stdio-framing",
        "fail",
        "over the line cap",
    );
    assert!(
        outcome.peak_rss_kib < LONG_LINE_RSS_BOUND_KIB,
        "peak RSS {} KiB",
        outcome.peak_rss_kib
    );
}

/// The harness's peak while a server writes one 100 MB line (issue 48), in KiB.
const LONG_LINE_RSS_BOUND_KIB: u64 = 128 * 1024;

/// Ignores SIGTERM and the end of its stdin: killed, with a warning, nothing left.
#[test]
fn hostile_ignores_sigterm() {
    hostile(
        &["ignore-sigterm"],
        "lc-shutdown-stdio",
        "warn",
        "terminated",
    );
}

/// Answers initialize, then never reads stdin again.
#[test]
fn hostile_never_reads_stdin() {
    hostile(
        &["never-reads-stdin"],
        "rpc-response-required",
        "fail",
        "no response within",
    );
}

/// Bytes without a newline, forever: reported once the line passes the cap (1 MiB
/// here, so a loaded machine still gets there within the first wait), with no more
/// memory than the cap.
#[test]
fn hostile_partial_lines_forever() {
    hostile_with(
        &["partial-lines"],
        &["--max-line", "1048576"],
        "rpc-stdio-framing",
        "fail",
        "over the line cap",
    );
}

/// Every request answered twice: the second answers are responses to nothing. One rule
/// grades them wherever they are seen (a warning): the scripted judge and the property
/// sequences agree.
#[test]
fn hostile_answers_every_id_twice() {
    let outcome = hostile_with(
        &["answer-twice"],
        &["--cases", "1"],
        "rpc-id-echo",
        "warn",
        "answer a request that was already answered",
    );
    for check in ["seq-pipelined", "seq-cancel"] {
        let (status, message, _) = outcome.result(check);
        assert_eq!(status, "warn", "{check}: {message}");
        assert!(message.contains("answered again"), "{check}: {message}");
    }
    // A second answer is never taken for the answer to the next probe: not a null-id
    // error for a probe the server could not read (rpc-err-parse), nor a response to a
    // cancellation (cancel-ignore-invalid). The server's one real failure is its batches.
    let fails: Vec<String> = outcome
        .findings()
        .into_iter()
        .filter(|f| f.ends_with("fail") && !f.starts_with("rpc-batch "))
        .collect();
    assert!(fails.is_empty(), "misattributed: {fails:?}");
}

/// A server that degrades with use (every request answered twice once it has answered
/// 10 pings in one process): the sequences, sent on the property phase's process after
/// its cases, see the double answers there; sent again in a fresh process, they are
/// answered well, and that verdict stands (what earlier cases left behind never decides
/// it), with a note saying what the worn process did.
#[test]
fn a_sequence_broken_only_on_a_worn_process_is_judged_on_a_fresh_one() {
    let outcome = hostile_with(
        &["tired", "10"],
        &["--cases", "16"],
        "prop-server-survives",
        "pass",
        "a fresh process answered the sequence well",
    );
    let (_, message, _) = outcome.result("prop-server-survives");
    assert!(
        message.contains("seq-pipelined: on the property phase's process")
            && message.contains("\"pipe-1\" was answered again"),
        "{message}"
    );
    for check in ["seq-pipelined", "seq-cancel"] {
        let (status, message, _) = outcome.result(check);
        assert_eq!(status, "pass", "{check}: {message}");
    }
}

/// A flood of stderr between stdout lines: a conformant server otherwise, judged as
/// one (stderr is evidence, kept up to a budget and counted past it).
#[test]
fn hostile_stderr_flood_between_stdout_lines() {
    let outcome = hostile(
        &["stderr-flood"],
        "rpc-traffic-bounded",
        "pass",
        "within the bound",
    );
    assert!(outcome.findings().is_empty(), "{:?}", outcome.findings());
}

/// Forks a daemon that calls setsid() and re-forks a sleeper, then serves normally:
/// the sleeper (no longer the server's child, nor in its group) is ended with the run.
#[test]
fn hostile_daemon_that_reforks() {
    let outcome = hostile(
        &["daemon-refork"],
        "lc-init-result",
        "pass",
        "initialize answered",
    );
    assert!(outcome.findings().is_empty(), "{:?}", outcome.findings());
}

/// Forks a daemon that calls setsid() and execs a sleeper with an empty environment and
/// /dev/null for stdio: out of the group, no marker, no pipe. The harness, a child
/// subreaper, adopts it once its parent exits and ends it with the session; the row finds
/// it by the pid it wrote.
#[test]
fn hostile_scrubbed_daemon_out_of_group_and_marker() {
    let outcome = hostile(
        &["scrubbed-daemon"],
        "lc-init-result",
        "pass",
        "initialize answered",
    );
    assert!(outcome.findings().is_empty(), "{:?}", outcome.findings());
    assert!(!outcome.listed.is_empty(), "no daemon started");
}

/// A tool whose one argument is an `enum` of 100,000 strings, with the property phase on:
/// the generators hold the schema once, not once per rule broken (peak RSS was about
/// 540 MB for four revisions).
#[test]
fn hostile_hundred_thousand_member_enum() {
    hostile_with(
        &["big-enum", "100000"],
        &["--cases", "8"],
        "prop-invalid-call-rejected",
        "fail",
        "the call succeeded",
    );
}

/// A tool whose one argument has `minLength: 1000000` (just under the 1 MiB instance
/// budget), with the property phase on: generated, judged and sent within the bounds.
#[test]
fn hostile_million_character_min_length() {
    hostile_with(
        &["min-length", "1000000"],
        &["--cases", "8"],
        "prop-invalid-call-rejected",
        "fail",
        "the call succeeded",
    );
}
