//! Entry points for the cargo-fuzz targets in `fuzz/` (not a public API), and the
//! live-server target they share with `mcp-conformance fuzz --input`.
//!
//! Each function takes raw fuzzer bytes and asserts an invariant of the harness, not only
//! "no panic"; the targets in `fuzz/fuzz_targets/` are one-line calls into here so the
//! logic is compiled, linted and unit-tested with the rest of the library.

pub mod cases;
pub mod coverage;
pub mod dictionary;
pub mod live;

pub use live::{Finding, LiveConfig, LiveTarget};

use crate::transport::{Frame, InProcessServer, LineFramer};

/// The next pseudo-random input of `fuzz --live` (splitmix64 from `state`): 8 to 255
/// bytes, the same for the same state.
pub fn seeded_input(state: &mut u64) -> Vec<u8> {
    let mut next = || crate::scenarios::splitmix64(state);
    let len = 8 + (next() % 248) as usize;
    (0..len).map(|_| next() as u8).collect()
}

thread_local! {
    static LIVE: std::cell::RefCell<Option<LiveTarget>> = const { std::cell::RefCell::new(None) };
    /// The live target's coverage agent, when `MCP_FUZZ_COVERAGE` asks for one.
    static AGENT: std::cell::RefCell<Option<coverage::Agent>> = const { std::cell::RefCell::new(None) };
}

/// Starts the live-server target's server from `MCP_FUZZ_SERVER` (see
/// [`LiveConfig::from_env`]) before the first input (libFuzzer's init hook), so a bad
/// configuration stops the run without being blamed on an input.
pub fn live_server_init() {
    live_server_init_with(&[]);
}

/// [`live_server_init`] with the target's own defaults for the `MCP_FUZZ_*` variables
/// (`MCP_FUZZ_SERVER` and `MCP_FUZZ_COVERAGE` included; see [`LiveConfig::from_env_with`]):
/// a target built for ClusterFuzzLite, whose runner sets none of them, names its server
/// and asks for its coverage in its code.
///
/// ```no_run
/// // A Python server copied beside the fuzz target by the build script:
/// const SETTINGS: &[(&str, &str)] = &[
///     ("MCP_FUZZ_SERVER", "{exe_dir}/server/.venv/bin/python {exe_dir}/server/server.py"),
///     ("MCP_FUZZ_COVERAGE", "1"),
/// ];
/// mcp_conformance::fuzzing::live_server_init_with(SETTINGS);
/// ```
pub fn live_server_init_with(defaults: &[(&str, &str)]) {
    start_live("live_server", || {
        let config = LiveConfig::from_env_with(defaults)?;
        if !LiveConfig::coverage_from_env(defaults)? {
            return LiveTarget::configured(config);
        }
        let include = LiveConfig::coverage_include_from_env(defaults);
        let agent = coverage::Agent::new(&include).map_err(|e| e.to_string())?;
        let mut config = config;
        config.command = agent.wrap(&config.command);
        let target = LiveTarget::configured(config)?;
        let (owner, partial) = agent.loaded()?;
        eprintln!(
            "live_server: coverage from inside the server: {} {} (pid {}), counted by {}",
            owner.language, owner.version, owner.pid, owner.mode
        );
        for note in partial {
            eprintln!("live_server: {note}");
        }
        AGENT.with(|cell| *cell.borrow_mut() = Some(agent));
        Ok(target)
    });
}

/// [`live_server`] that also hands the server's own coverage to libFuzzer: with
/// `MCP_FUZZ_COVERAGE=1`, the server runs with the coverage agent of `fuzz --coverage`
/// (started by [`live_server_init`] or [`live_server_init_with`], the target's init hook)
/// (a Python or Node server) and each input's edge counters are copied into `counters`,
/// which the fuzz target places in libFuzzer's extra-counters section, so libFuzzer keeps
/// the inputs that reach new code in the server. Without it, `counters` stay zero.
///
/// ```no_run
/// use std::sync::atomic::AtomicU8;
/// use mcp_conformance::fuzzing::coverage::EDGES;
///
/// // In fuzz/fuzz_targets/live_server.rs (with #![no_main]), placed where libFuzzer reads
/// // them: #[link_section = "__libfuzzer_extra_counters"]
/// static COUNTERS: [AtomicU8; EDGES] = [const { AtomicU8::new(0) }; EDGES];
/// // libfuzzer_sys::fuzz_target!(
/// //     init: mcp_conformance::fuzzing::live_server_init(),
/// //     |data: &[u8]| mcp_conformance::fuzzing::live_server_counted(data, &COUNTERS)
/// // );
/// mcp_conformance::fuzzing::live_server_counted(b"some input", &COUNTERS);
/// ```
pub fn live_server_counted(data: &[u8], counters: &[std::sync::atomic::AtomicU8]) {
    AGENT.with(|cell| {
        if let Some(agent) = cell.borrow_mut().as_mut() {
            agent.before_case();
        }
    });
    // A finding panics (libFuzzer keeps the input): the counters do not matter then.
    run_live("live_server", data);
    AGENT.with(|cell| {
        let mut slot = cell.borrow_mut();
        let Some(agent) = slot.as_mut() else { return };
        let mut read = Box::new([0u8; coverage::EDGES]);
        agent.after_case(&mut read);
        for (counter, value) in counters.iter().zip(read.iter()) {
            counter.store(*value, std::sync::atomic::Ordering::Relaxed);
        }
    });
}

/// The live-server target: each input is one case against the server started by
/// [`live_server_init`]. A finding prints a readable report (and the replayable case
/// file's path), kills the server, and panics so libFuzzer keeps the input.
pub fn live_server(data: &[u8]) {
    live_server_init();
    run_live("live_server", data);
}

/// Starts the in-process target: `server()` linked into the fuzz target, configured by
/// the `MCP_FUZZ_*` variables but `MCP_FUZZ_SERVER` (libFuzzer's init hook). The server's
/// own code is instrumented with the target, so libFuzzer's coverage, value profile and
/// comparison tracing steer into its branches.
///
/// ```no_run
/// # fn my_server() -> mcp_conformance::InProcessServer { unimplemented!() }
/// // fuzz/fuzz_targets/in_process.rs, with #![no_main]:
/// // libfuzzer_sys::fuzz_target!(
/// //     init: mcp_conformance::fuzzing::in_process_init(my_server),
/// //     |data: &[u8]| mcp_conformance::fuzzing::in_process_server(data, my_server)
/// // );
/// mcp_conformance::fuzzing::in_process_server(b"some input", my_server);
/// ```
pub fn in_process_init(server: impl FnOnce() -> InProcessServer) {
    in_process_init_with(server, &[]);
}

/// [`in_process_init`] with the target's own defaults for the `MCP_FUZZ_*` variables
/// (all but `MCP_FUZZ_SERVER`): written in the target, they hold wherever it runs
/// (ClusterFuzzLite sets no variables of ours); a variable that is set overrides its
/// default. A name that is not one of them, or a value that does not parse, stops the run
/// as a setup error.
///
/// ```no_run
/// # fn my_server() -> mcp_conformance::InProcessServer { unimplemented!() }
/// // rmcp 3.11 answers a malformed request whose id it could read with an error without
/// // that id: a MUST of JSON-RPC (rpc-error-id), rmcp's to fix; pass over it so a run
/// // goes on to what is new.
/// const SETTINGS: &[(&str, &str)] = &[("MCP_FUZZ_IGNORE", "rpc-error-id")];
/// mcp_conformance::fuzzing::in_process_init_with(my_server, SETTINGS);
/// ```
pub fn in_process_init_with(server: impl FnOnce() -> InProcessServer, defaults: &[(&str, &str)]) {
    start_live("in_process", || {
        let target = LiveTarget::in_process(server(), defaults)?;
        target.watch_panics("in_process");
        Ok(target)
    });
}

/// The in-process target: each input is one case against the server [`in_process_init`]
/// started, judged as [`live_server`] judges. A panic in the server is the fuzz target's
/// crash: its case file is written and its report printed, then libFuzzer's hook aborts,
/// keeping the input; an oracle finding panics with its report, as `live_server`'s does.
pub fn in_process_server(data: &[u8], server: impl FnOnce() -> InProcessServer) {
    in_process_init(server);
    run_live("in_process", data);
}

/// Starts the target once per process; a target that cannot start ends the process with
/// status 2 and why (a setup error, never an input's fault). `name` is the fuzz target's,
/// for its messages.
fn start_live(name: &str, start: impl FnOnce() -> Result<LiveTarget, String>) {
    LIVE.with(|cell| {
        if cell.borrow().is_some() {
            return;
        }
        match start() {
            Ok(t) => {
                let names: Vec<&str> = t
                    .tools()
                    .iter()
                    .filter(|t| t.enabled)
                    .map(|t| t.name.as_str())
                    .collect();
                eprintln!(
                    "{name}: fuzzing {} ({}) with tools {names:?}{}",
                    t.command().display(),
                    t.revision().id,
                    known_note(t.ignored())
                );
                *cell.borrow_mut() = Some(t);
            }
            Err(e) => {
                eprintln!("{name}: {e}");
                std::process::exit(2);
            }
        }
    });
}

/// What the start line says of the checks passed over.
fn known_note(ignored: &[crate::rules::CheckId]) -> String {
    if ignored.is_empty() {
        return String::new();
    }
    let ids: Vec<&str> = ignored.iter().map(|c| c.as_str()).collect();
    format!(
        ", passing over {} findings (MCP_FUZZ_IGNORE)",
        ids.join(", ")
    )
}

/// One input against the started target.
fn run_live(name: &str, data: &[u8]) {
    LIVE.with(|cell| {
        let mut slot = cell.borrow_mut();
        let Some(target) = slot.as_mut() else { return };
        let noted = target.notes().len();
        let found = target.run(data);
        for note in &target.notes()[noted..] {
            eprintln!("{name}: {note}");
        }
        if let Some(finding) = found {
            let report = finding.report();
            target.shutdown();
            panic!("{name} found a violation\n{report}");
        }
    });
}

/// The line framer's output does not depend on how the input is split into reads, and
/// no frame holds a newline or exceeds the cap.
///
/// The first byte picks the chunk size, the second the line cap; the rest is the stream.
pub fn line_framer(data: &[u8]) {
    let [chunk, cap, stream @ ..] = data else {
        return;
    };
    let chunk = usize::from(*chunk).max(1);
    let cap = usize::from(*cap).max(1);
    let frames = |size: usize| {
        let mut framer = LineFramer::new(cap);
        let mut out = Vec::new();
        for piece in stream.chunks(size) {
            framer.push(piece, &mut out);
        }
        out.extend(framer.finish_stream());
        out
    };
    let whole = frames(stream.len().max(1));
    assert_eq!(frames(chunk), whole, "framing depends on read boundaries");
    for frame in &whole {
        match frame {
            Frame::Line(text) => assert!(!text.contains('\n') && text.len() <= cap),
            Frame::InvalidUtf8(bytes) => assert!(!bytes.contains(&b'\n') && bytes.len() <= cap),
            Frame::Overlong { length, .. } => assert!(*length > cap),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn framer_invariant_holds_on_awkward_inputs() {
        super::line_framer(b"\x03\x04abcdef\n\xff\n\nxy");
        super::line_framer(b"\x01\x01\n\n\r\n");
        super::line_framer(&[7, 200, b'a', b'\n', 0xc3]);
    }

    /// Found by the line_framer fuzz target: the head kept of an over-long line
    /// depended on where reads split it.
    #[test]
    fn overlong_head_does_not_depend_on_read_boundaries() {
        super::line_framer(b"\x01\x08aaaaaaaaaaaaaaaaaaaa\nok\n");
    }
}

/// Decoding a server line and encoding it again is stable: decode -> encode -> decode
/// gives the same value and the same classification, and nothing panics on any bytes.
pub fn jsonrpc_roundtrip(data: &[u8]) {
    use crate::protocol::classify;
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let kind = classify(&value);
    let encoded = serde_json::to_string(&value).expect("a decoded value encodes");
    let again: serde_json::Value = serde_json::from_str(&encoded).expect("our encoding decodes");
    assert_eq!(again, value, "decode -> encode -> decode changed the value");
    assert_eq!(classify(&again), kind, "the classification changed");
    // The id matcher is total and reflexive on anything a server may send as an id.
    if let Some(id) = value.get("id") {
        if !id.is_null() {
            assert_eq!(
                crate::protocol::id_match(id, id),
                Some(crate::protocol::IdMatch::Exact)
            );
        }
    }
}

/// Validating any message against any revision's schema always gives a verdict (never an
/// error or a panic for our compiled definitions), and the same verdict twice.
///
/// The first byte picks the revision and the definition; the rest is the message.
pub fn schema_verdict(data: &[u8]) {
    use crate::protocol::{SchemaSet, REVISIONS};
    const DEFINITIONS: &[&str] = &[
        "InitializeResult",
        "ListToolsResult",
        "CallToolResult",
        "EmptyResult",
        "ServerNotification",
        "ServerRequest",
    ];
    let [pick, rest @ ..] = data else { return };
    let Ok(instance) = serde_json::from_slice::<serde_json::Value>(rest) else {
        return;
    };
    let revision = &REVISIONS[usize::from(*pick) % REVISIONS.len()];
    let definition = DEFINITIONS[usize::from(*pick / 4) % DEFINITIONS.len()];
    thread_local! {
        static SETS: std::cell::RefCell<Vec<SchemaSet>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    SETS.with(|sets| {
        let mut sets = sets.borrow_mut();
        if sets.is_empty() {
            *sets = REVISIONS
                .iter()
                .map(|r| SchemaSet::new(r).expect("embedded schema"))
                .collect();
        }
        let set = &sets[usize::from(*pick) % REVISIONS.len()];
        assert_eq!(set.revision().id, revision.id);
        let first = set.validate(definition, &instance).expect("a verdict");
        let second = set.validate(definition, &instance).expect("a verdict");
        assert_eq!(first, second, "validation is deterministic");
    });
}

/// Hostile server text survives every renderer without becoming markup or control
/// sequences: no control character but newlines in text and Markdown, well-formed JUnit
/// XML, valid SARIF JSON, no HTML tag or link opened by server text in Markdown.
pub fn render_hostile(data: &[u8]) {
    use crate::checks::{CheckId, CheckResult, Evidence, Level, Status};
    use crate::protocol::Direction;
    use crate::report::{Format, RevisionReport, RunReport, TargetInfo};
    let hostile = String::from_utf8_lossy(data).into_owned();
    let result = |check, status| CheckResult {
        check,
        title: "t",
        level: Level::Must,
        requirement: "R",
        source: "s",
        status,
        message: hostile.clone(),
        evidence: vec![
            Evidence {
                direction: Direction::Received,
                text: hostile.clone(),
            },
            Evidence {
                direction: Direction::Stderr,
                text: hostile.clone(),
            },
        ],
        same_cause_as: None,
    };
    let target = TargetInfo {
        transport: "stdio",
        command: hostile.clone(),
        args: vec![hostile.clone()],
        reference: false,
        url: None,
    };
    let report = RunReport::new(
        target,
        0,
        vec![RevisionReport {
            revision: "2025-11-25",
            negotiated: Some(hostile.clone()),
            results: vec![
                result(CheckId::LcPing.as_str(), Status::Fail),
                result(CheckId::RpcIdEcho.as_str(), Status::Warn),
                result(CheckId::LcInitResult.as_str(), Status::Skip),
            ],
        }],
    );
    let text = Format::Text.render(&report).expect("text renders");
    assert!(
        !text
            .chars()
            .any(|c| c != '\n' && crate::report::needs_escape(c)),
        "raw server text reached the text report"
    );
    let markdown = Format::Markdown.render(&report).expect("markdown renders");
    assert!(
        !markdown
            .chars()
            .any(|c| c != '\n' && crate::report::needs_escape(c)),
        "raw server text reached Markdown"
    );
    // Inside a fenced code block nothing is markup; outside, server text must not open
    // an HTML tag or a link.
    let mut fence: Option<usize> = None;
    for line in markdown.lines() {
        let ticks = line.chars().take_while(|c| *c == '`').count();
        match fence {
            Some(open) if ticks >= open && line.trim_start_matches('`').trim().is_empty() => {
                fence = None
            }
            Some(_) => {}
            None if ticks >= 3 => fence = Some(ticks),
            None if crate::report::is_own_markup(line) => {}
            None => {
                assert!(
                    !line.contains('<'),
                    "server text opened an HTML tag in Markdown: {line}"
                );
                let link = line
                    .match_indices("](")
                    .any(|(i, _)| !line[..i].ends_with('\\'));
                assert!(!link, "server text opened a link in Markdown: {line}");
            }
        }
    }
    assert!(fence.is_none(), "a code fence was left open");
    let xml = Format::Junit.render(&report).expect("junit renders");
    if let Err(e) = roxmltree::Document::parse(&xml) {
        panic!("JUnit XML is not well-formed: {e}");
    }
    let sarif = Format::Sarif.render(&report).expect("sarif renders");
    let parsed: serde_json::Value = serde_json::from_str(&sarif).expect("SARIF is valid JSON");
    assert_eq!(parsed["version"], "2.1.0");
    no_raw_server_text(&parsed, "SARIF");
    let json = Format::Json.render(&report).expect("json renders");
    let parsed: serde_json::Value =
        serde_json::from_str(&json).expect("the JSON report is valid JSON");
    assert_eq!(
        parsed["revisions"][0]["results"][0]["message"],
        serde_json::Value::String(crate::report::escape_server_text(&hostile))
    );
    no_raw_server_text(&parsed, "the JSON report");
}

/// Every string of a parsed report is free of what the escaping rule escapes.
fn no_raw_server_text(value: &serde_json::Value, what: &str) {
    use serde_json::Value;
    match value {
        Value::String(s) => {
            // SARIF's messages keep our own newlines between evidence lines.
            let raw = s
                .chars()
                .any(|c| c != '\n' && crate::report::needs_escape(c));
            assert!(!raw, "{what} carries raw server text: {s:?}");
        }
        Value::Array(items) => items.iter().for_each(|v| no_raw_server_text(v, what)),
        Value::Object(map) => map.values().for_each(|v| no_raw_server_text(v, what)),
        _ => {}
    }
}

#[cfg(test)]
mod invariant_tests {
    const HOSTILE: &[&[u8]] = &[
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}",
        b"\x1b[31m<script>alert(1)</script>]]></x>[link](http://x)\r\n\x00\xff\xfe`|*_",
        b"\xef\xbf\xbe\xef\xbf\xbf \xe2\x80\xae rtl",
        b"",
    ];

    #[test]
    fn invariants_hold_on_hostile_inputs() {
        for data in HOSTILE {
            super::jsonrpc_roundtrip(data);
            super::render_hostile(data);
            for pick in 0..24u8 {
                let mut input = vec![pick];
                input.extend_from_slice(data);
                super::schema_verdict(&input);
            }
        }
        super::schema_verdict(b"\x05{\"content\":[{\"type\":\"audio\",\"data\":\"x\",\"mimeType\":\"a\"}],\"isError\":\"true\"}");
    }
}
