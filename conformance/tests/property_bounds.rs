//! The property phase stays bounded and blames the right rule on hostile servers: a
//! failure that happens whatever the input is reported once, under the check about
//! answering at all, never shrunk as an input-validation finding; a schema whose smallest
//! instance is huge is skipped with the reason; a long listing shares one case budget; a
//! tool with thousands of rules gets them sampled within the planning budget.
//!
//! Each server is a small Python script (the family of issue 11), run for one revision.

mod common;

use std::time::Duration;

use mcp_conformance::checks::Status;
use mcp_conformance::protocol::{Revision, SessionConfig};
use mcp_conformance::report::RunReport;
use mcp_conformance::runner::RunConfig;
use mcp_conformance::scenarios::PropertyConfig;
use mcp_conformance::transport::ServerCommand;

/// A server with `echo` and any number of tools; `MODE` (first argument) says how it
/// misbehaves after initialize, `SCHEMA` (second, optional) is echo's inputSchema, `TOOLS`
/// (third, optional) how many more tools it lists.
const SERVER: &str = r#"
import json, os, sys, time
MODE = sys.argv[1]
SCHEMA = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {"type": "object", "properties": {"text": {"type": "string"}}}
MORE = int(sys.argv[3]) if len(sys.argv) > 3 else 0
TOOLS = [{"name": "echo", "inputSchema": SCHEMA}] + [
    {"name": "t%d" % i, "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}
    for i in range(MORE)]
def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n"); sys.stdout.flush()
for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
        continue
    if not isinstance(msg, dict):
        continue
    m, i = msg.get("method"), msg.get("id")
    if m == "initialize":
        send({"jsonrpc": "2.0", "id": i, "result": {"protocolVersion": msg["params"]["protocolVersion"],
              "capabilities": {"tools": {}}, "serverInfo": {"name": "h", "version": "1"}}})
        continue
    if m == "notifications/initialized":
        marker = os.environ.get("MARKER")
        # "later-exit": the first process works; every later one exits after initialize.
        later = MODE == "later-exit" and marker and os.path.exists(marker)
        if marker and not os.path.exists(marker):
            open(marker, "w").close()
        if MODE == "fork-exit" or later:
            # A grandchild keeps stdout open; the server itself exits.
            if os.fork() == 0:
                time.sleep(300); os._exit(0)
            os._exit(0)
        continue
    if i is None:
        continue
    if m == "ping":
        send({"jsonrpc": "2.0", "id": i, "result": {}})
    elif m == "tools/list":
        send({"jsonrpc": "2.0", "id": i, "result": {"tools": TOOLS}})
    elif m == "tools/call" and MODE == "reject":
        send({"jsonrpc": "2.0", "id": i, "error": {"code": -32602, "message": "invalid arguments"}})
    elif m == "tools/call":
        send({"jsonrpc": "2.0", "id": i, "result": {"content": [{"type": "text", "text": "ok"}]}})
    else:
        send({"jsonrpc": "2.0", "id": i, "error": {"code": -32601, "message": "no such method"}})
"#;

const REVISION: &str = "2025-06-18";

fn config(args: &[&str], timeout: Duration) -> RunConfig {
    let mut argv = vec!["-c".to_string(), SERVER.to_string()];
    argv.extend(args.iter().map(|a| a.to_string()));
    let mut config = RunConfig::new(ServerCommand::new("python3", argv));
    config.revisions = vec![Revision::find(REVISION).unwrap()];
    config.session = SessionConfig {
        timeout,
        shutdown_grace: Duration::from_millis(500),
        ..SessionConfig::default()
    };
    config
}

fn result<'r>(report: &'r RunReport, check: &str) -> &'r mcp_conformance::checks::CheckResult {
    report.result(REVISION, check).expect("check present")
}

/// A scratch folder of this test's own (the "later-exit" server's marker file).
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "mcp-conformance-property-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Before: the exit was shrunk case by case and reported as "servers MUST validate all
/// tool inputs" ("minimal case: -53"), at a restart and a wait per step (minutes).
#[test]
fn a_server_gone_after_initialize_is_one_finding_not_an_input_validation_one() {
    let config = config(&["fork-exit"], Duration::from_secs(30));
    let started = std::time::Instant::now();
    let report = common::run_blocking(&config);
    // A hang check, not a speed target: not even one 30 s timeout is waited out twice.
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
    let survives = result(&report, "prop-server-survives");
    assert_eq!(survives.status, Status::Skip, "{}", survives.message);
    assert!(
        survives.message.contains("whatever it is sent")
            && survives.message.contains("rpc-response-required"),
        "{}",
        survives.message
    );
    for check in [
        "prop-valid-call-result",
        "prop-invalid-call-rejected",
        "prop-id-roundtrip",
        "prop-unknown-method",
        "seq-pipelined",
        "seq-cancel",
    ] {
        let r = result(&report, check);
        assert_eq!(r.status, Status::Skip, "{check}: {}", r.message);
        assert!(
            r.message.contains("whatever it is sent"),
            "{check}: {}",
            r.message
        );
    }
    assert_eq!(
        result(&report, "rpc-response-required").status,
        Status::Fail
    );
}

/// The scripted conversation's process works; the property phase's fresh ones exit after
/// initialize: reported once, by rpc-response-required, with the fresh process as
/// evidence.
#[test]
fn a_failure_only_fresh_processes_show_is_reported_under_rpc_response_required() {
    let dir = scratch("later-exit");
    let mut config = config(&["later-exit"], Duration::from_secs(30));
    config
        .command
        .env
        .push(("MARKER".into(), dir.join("started").display().to_string()));
    let report = common::run_blocking(&config);
    let _ = std::fs::remove_dir_all(&dir);
    let required = result(&report, "rpc-response-required");
    assert_eq!(required.status, Status::Fail, "{}", required.message);
    assert!(
        required.message.contains("in the property phase")
            && required.message.contains("the server exited"),
        "{}",
        required.message
    );
    assert!(
        required
            .evidence
            .iter()
            .any(|e| e.text.contains("\"method\":\"ping\"")),
        "{:?}",
        required.evidence
    );
    assert_eq!(result(&report, "lc-ping").status, Status::Pass);
    let survives = result(&report, "prop-server-survives");
    assert_eq!(survives.status, Status::Skip, "{}", survives.message);
}

/// Before: `minItems: 1000000` took over 6 GB; now the tool's argument properties are
/// skipped with the reason, and the rest of the phase runs.
#[test]
fn a_tool_whose_smallest_arguments_are_huge_is_skipped_with_the_reason() {
    let schema = r#"{"type": "object", "properties": {"a": {"type": "array", "minItems": 1000000}}, "required": ["a"]}"#;
    let report = common::run_blocking(&config(&["ok", schema], Duration::from_secs(10)));
    let valid = result(&report, "prop-valid-call-result");
    assert_eq!(valid.status, Status::Skip, "{}", valid.message);
    assert!(
        valid.message.contains("too large to generate"),
        "{}",
        valid.message
    );
    assert_eq!(result(&report, "prop-id-roundtrip").status, Status::Pass);
    assert_eq!(result(&report, "prop-server-survives").status, Status::Pass);
}

/// A long listing shares one budget of generated calls: 200 tools (of which the first 128
/// are called at all) and a budget of 64 make 64 calls, one for each of the first 64
/// tools, and the report says both.
#[test]
fn many_tools_share_one_case_budget() {
    let mut config = config(
        &["ok", "{\"type\": \"object\"}", "199"],
        Duration::from_secs(10),
    );
    config.properties = Some(PropertyConfig {
        cases: 8,
        tool_case_budget: 64,
        ..PropertyConfig::default()
    });
    let report = common::run_blocking(&config);
    let valid = result(&report, "prop-valid-call-result");
    assert_eq!(valid.status, Status::Pass, "{}", valid.message);
    assert!(
        valid.message.starts_with("64 generated case(s)"),
        "{}",
        valid.message
    );
    let survives = result(&report, "prop-server-survives");
    for note in [
        "only the first 128 listed tools get generated cases",
        "only the first 64 of 128 callable tools",
    ] {
        assert!(survives.message.contains(note), "{}", survives.message);
    }
}

/// Before: 5,000 bounded properties planned 20,501 rules at 128 draws of a whole instance
/// each and did not end in 10 minutes. 1,500 of them (6,001 rules) get a sample within the
/// planning budget, and the report says how many of how many (the server rejects every
/// call, so the invalid cases pass and nothing is shrunk).
#[test]
fn a_tool_with_thousands_of_rules_gets_a_sample_of_them_and_a_note() {
    let properties: Vec<String> = (0..1500)
        .map(|i| {
            format!("\"p{i:04}\": {{\"type\": \"integer\", \"minimum\": {i}, \"maximum\": 9999}}")
        })
        .collect();
    let schema = format!(
        "{{\"type\": \"object\", \"properties\": {{{}}}, \"additionalProperties\": false}}",
        properties.join(", ")
    );
    let report = common::run_blocking(&config(&["reject", &schema], Duration::from_secs(10)));
    let survives = result(&report, "prop-server-survives");
    assert_eq!(survives.status, Status::Pass, "{}", survives.message);
    let note = "tool \"echo\": invalid arguments for ";
    let at = survives.message.find(note).expect(&survives.message) + note.len();
    let (tried, rest) = survives.message[at..].split_once(" of its ").unwrap();
    let tried: usize = tried.parse().unwrap();
    assert!(
        rest.starts_with("6001 breakable rules, spread evenly"),
        "{rest}"
    );
    assert!((1..6001).contains(&tried), "{tried}");
    let rejected = result(&report, "prop-invalid-call-rejected");
    assert_eq!(rejected.status, Status::Pass, "{}", rejected.message);
}
