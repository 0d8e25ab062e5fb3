//! The one machinery the fault tables share: the reference server passes every check, each
//! fault fails exactly its checks, the table names every fault, and every check can fail.
//!
//! tests/faults.rs (stdio), http.rs (Streamable HTTP), http_sse.rs (HTTP+SSE) and
//! http_modern.rs (2026-07-28 over HTTP) each keep one [`Table`]: a row per fault of its
//! [`Transport`] saying which checks must come out `fail` or `warn` and in which revisions,
//! and a [`Skip`] row per skip the reference server's own run may show, each with its why
//! (rustls's BoGo `config.json`: every disabled test names why). Their `#[test]` functions
//! call the functions here, so the four tests are written once, not once per transport
//! (nextest's fixture-data model), and a skip row nothing uses fails, so the table stays true.

use mcp_conformance::checks::{Status, CATALOG};
use mcp_conformance::reference;
use mcp_conformance::rules::CheckId;

use mcp_conformance::protocol::{Revision, SessionConfig, TransportKind, REVISIONS};
use mcp_conformance::report::{render_text, RunReport};
use mcp_conformance::runner::RunConfig;
use mcp_conformance::transport::{HttpKind, HttpTarget, ServerCommand};
use reference_server::{Era, Fault, HttpFault, SseFault};

use super::{free_port, mismatches, run_blocking, Expect};

/// Revision ids; [`ALL`] (empty) is every revision the transport runs.
pub type Revs = &'static [&'static str];

// The revision sets, named for what they hold: `Rn` is the n-th revision of `REVISIONS`,
// `Ra_Rb` the ones from a to b, `Rn_UP` the ones from n on
// (`assert_revision_sets` checks each name against its content).

/// Every revision the transport runs.
pub const ALL: Revs = &[];
pub const R1: Revs = &["2024-11-05"];
pub const R2: Revs = &["2025-03-26"];
pub const R3: Revs = &["2025-06-18"];
pub const R4: Revs = &["2025-11-25"];
pub const R5: Revs = &["2026-07-28"];
pub const R1_R2: Revs = &["2024-11-05", "2025-03-26"];
pub const R1_R3: Revs = &["2024-11-05", "2025-03-26", "2025-06-18"];
pub const R1_UP: Revs = &[
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];
pub const R2_R3: Revs = &["2025-03-26", "2025-06-18"];
pub const R2_R4: Revs = &["2025-03-26", "2025-06-18", "2025-11-25"];
pub const R2_UP: Revs = &["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];
pub const R3_R4: Revs = &["2025-06-18", "2025-11-25"];
pub const R3_UP: Revs = &["2025-06-18", "2025-11-25", "2026-07-28"];
pub const R4_UP: Revs = &["2025-11-25", "2026-07-28"];
/// The handshake revisions (2024-11-05..2025-11-25): where faults that act on the
/// handshake or on legacy traffic only can show.
pub const LEGACY: Revs = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// Every named set, for [`assert_revision_sets`].
const REVISION_SETS: &[(&str, Revs)] = &[
    ("R1", R1),
    ("R2", R2),
    ("R3", R3),
    ("R4", R4),
    ("R5", R5),
    ("R1_R2", R1_R2),
    ("R1_R3", R1_R3),
    ("R1_UP", R1_UP),
    ("R2_R3", R2_R3),
    ("R2_R4", R2_R4),
    ("R2_UP", R2_UP),
    ("R3_R4", R3_R4),
    ("R3_UP", R3_UP),
    ("R4_UP", R4_UP),
    ("LEGACY", LEGACY),
];

/// A fault and what it must do; every check not listed must pass or skip.
pub type Row = (&'static str, &'static [Expect]);

/// A skip the reference server's own run may show, and why it is not a gap.
#[derive(Clone, Copy, Debug)]
pub struct Skip {
    /// The check that skips; [`ANY_CHECK`] for a reason any check may give.
    pub check: &'static str,
    /// Where it skips ([`ALL`]: every revision the transport runs); it must skip in each.
    pub revisions: Revs,
    /// A substring of the skip's message.
    pub matching: &'static str,
    /// Why the reference server skips there.
    pub why: &'static str,
}

/// A [`Skip`] row's `check` for a reason any check may give (not applicable there).
pub const ANY_CHECK: &str = "*";

// Skip rows that more than one transport's table holds, with the same reason.

/// Any check, where the catalog says it does not apply.
pub const NOT_APPLICABLE: Skip = Skip {
    check: ANY_CHECK,
    revisions: ALL,
    matching: "applies to revisions",
    why: "the check is not for this revision or this transport",
};

/// A `notifications/tools/list_changed` check, in `revisions`: the reference server never
/// sends one.
pub const fn never_notifies(check: &'static str, revisions: Revs) -> Skip {
    Skip {
        check,
        revisions,
        matching: "sent no notifications/tools/list_changed",
        why: "the reference tool list never changes, so it never notifies",
    }
}

/// `lc-shutdown-stdio` over HTTP.
pub const NO_STDIN_OVER_HTTP: Skip = Skip {
    check: "lc-shutdown-stdio",
    revisions: ALL,
    matching: "applies to servers on stdio only",
    why: "closing stdin is how a stdio server is shut down; over HTTP there is none",
};

/// How the runner reaches the reference server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wire {
    /// A child on stdin and stdout.
    Stdio,
    /// `--http PORT`, at `/mcp`.
    StreamableHttp,
    /// `--sse PORT`, at `/sse` (2024-11-05's HTTP+SSE).
    Sse,
    /// Linked into the test's process (`reference::in_process`), over an in-memory pipe.
    InProcess,
}

/// A transport the reference server is judged over, and what its table must cover.
#[derive(Clone, Copy)]
pub struct Transport {
    /// What the report calls it (`target.transport`, "over ...").
    pub name: &'static str,
    pub wire: Wire,
    /// The reference server's `--era`, when not its default (dual-era).
    pub era: Option<&'static str>,
    /// More arguments of the reference server (a conformant mode, such as `--http-poll`).
    pub args: &'static [&'static str],
    /// The revisions judged over it.
    pub revisions: Revs,
    /// The revisions the report lists as not run over it, every check skipped.
    pub not_run: Revs,
    /// The reference server's faults for it (its table has a row for each).
    pub faults: fn() -> Vec<&'static str>,
    /// The checks its faults must prove able to fail.
    pub proves: fn(&str) -> bool,
}

/// The prefix of the 2026-07-28 HTTP faults and checks (tests/http_modern.rs).
const MODERN_HTTP: &str = "http-m-";

/// stdio, every revision; its faults prove every check but the HTTP and SSE ones.
pub const STDIO: Transport = Transport {
    name: "stdio",
    wire: Wire::Stdio,
    era: None,
    args: &[],
    revisions: R1_UP,
    not_run: &[],
    faults: || Fault::ALL.iter().map(|f| f.name()).collect(),
    proves: |id| !id.starts_with("http-") && !id.starts_with("sse-"),
};

/// In-process, every revision; its faults prove what stdio's do but the checks of rules
/// about a process (which skip, [`NO_PROCESS`]).
pub const IN_PROCESS: Transport = Transport {
    name: "in-process",
    wire: Wire::InProcess,
    proves: |id| (STDIO.proves)(id) && !needs_process(id),
    ..STDIO
};

/// Whether the catalog says check `id` is about the server's process.
pub fn needs_process(id: &str) -> bool {
    CheckId::parse(id).is_some_and(CheckId::needs_process)
}

/// Any check of a rule about the server's process, in-process.
pub const NO_PROCESS: Skip = Skip {
    check: ANY_CHECK,
    revisions: ALL,
    matching: "applies to servers run as a process",
    why: "an in-process server has no process to exit when its input closes",
};

/// `table` (stdio's) as the in-process server must meet it: the same faults failing the
/// same checks, less the checks about a process, which skip ([`NO_PROCESS`]) instead of
/// passing or failing; its skips plus that one. Leaked: a test's table lives as long as
/// the test.
pub fn in_process(table: &Table<'static>) -> Table<'static> {
    let rows: Vec<Row> = table
        .rows
        .iter()
        .map(|(fault, expected)| {
            let kept: Vec<Expect> = expected
                .iter()
                .filter(|(id, _, _)| !needs_process(id))
                .copied()
                .collect();
            (*fault, &*Vec::leak(kept))
        })
        .collect();
    let mut skips = table.skips.to_vec();
    skips.push(NO_PROCESS);
    Table {
        transport: IN_PROCESS,
        rows: Vec::leak(rows),
        skips: Vec::leak(skips),
        ..*table
    }
}

/// The session-based Streamable HTTP revisions (2026-07-28, stateless, is
/// [`HTTP_2026`]'s), and their `http-*` checks.
pub const STREAMABLE_HTTP: Transport = Transport {
    name: "streamable-http",
    wire: Wire::StreamableHttp,
    era: None,
    args: &[],
    revisions: R2_R4,
    not_run: &[],
    faults: || {
        let names = HttpFault::ALL.iter().map(|f| f.name());
        names.filter(|n| !n.starts_with(MODERN_HTTP)).collect()
    },
    proves: |id| id.starts_with("http-") && !id.starts_with(MODERN_HTTP),
};

/// 2024-11-05's HTTP+SSE, the other revisions reported as not run over it, as the CLI does.
pub const HTTP_SSE: Transport = Transport {
    name: "sse",
    wire: Wire::Sse,
    era: None,
    args: &[],
    revisions: R1,
    not_run: R2_UP,
    faults: || SseFault::ALL.iter().map(|f| f.name()).collect(),
    proves: |id| id.starts_with("sse-"),
};

/// 2026-07-28 over Streamable HTTP against a modern-only server (`http-m-legacy-traffic`
/// binds only those, and `http-m-headers` judges a request without
/// `MCP-Protocol-Version` only there); its `http-m-*` faults and checks.
pub const HTTP_2026: Transport = Transport {
    name: "streamable-http",
    wire: Wire::StreamableHttp,
    era: Some("modern"),
    args: &[],
    revisions: R5,
    not_run: &[],
    faults: || {
        let names = HttpFault::ALL.iter().map(|f| f.name());
        names.filter(|n| n.starts_with(MODERN_HTTP)).collect()
    },
    proves: |id| id.starts_with(MODERN_HTTP),
};

/// One transport's expectations: what the four tests walk.
#[derive(Clone, Copy)]
pub struct Table<'a> {
    pub transport: Transport,
    /// One row per fault of the transport.
    pub rows: &'a [Row],
    /// The skips the reference server's run may show, each with its why.
    pub skips: &'a [Skip],
    /// Faults run after the others, on an idle machine: they wait out short timeouts.
    pub late: &'a [&'a str],
    /// The waits of a fault's run (the reference server's own run gets the defaults).
    pub waits: fn(&str) -> SessionConfig,
}

/// The suite's default waits, for a table whose faults need no others.
pub fn default_waits(_fault: &str) -> SessionConfig {
    SessionConfig::default()
}

/// The revisions of `REVISIONS` the transport runs that `ids` names (all for [`ALL`]).
pub fn revisions(transport: &Transport, ids: &[&str]) -> Vec<&'static Revision> {
    REVISIONS
        .iter()
        .filter(|r| transport.revisions.contains(&r.id))
        .filter(|r| ids.is_empty() || ids.contains(&r.id))
        .collect()
}

/// A run of the reference server (with `fault`, when some) over `transport`, started by
/// the runner, in the transport's revisions that `ids` names.
pub fn run(
    transport: &Transport,
    fault: Option<&str>,
    ids: &[&str],
    session: SessionConfig,
) -> RunReport {
    let mut config = RunConfig::new(reference_command(transport, fault));
    config.reference = true;
    config.revisions = revisions(transport, ids);
    config.session = session;
    if transport.wire == Wire::Sse {
        config.not_run = REVISIONS
            .iter()
            .filter_map(|r| Some((r, r.not_spoken_over(HttpKind::Sse)?)))
            .collect();
    }
    // The rows already run in parallel threads; revisions one at a time within a row
    // keep the number of live servers what the machine can answer within the timeouts.
    config.jobs = 1;
    run_blocking(&config)
}

/// A run of `fault` in the revisions `ids` names, with the table's waits for it.
pub fn run_fault(table: &Table, fault: &str, ids: &[&str]) -> RunReport {
    run(&table.transport, Some(fault), ids, (table.waits)(fault))
}

/// `mcp-conformance reference-server` with the transport's flags, reached at its URL
/// with a header (which the report must never show).
fn reference_command(transport: &Transport, fault: Option<&str>) -> ServerCommand {
    if transport.wire == Wire::InProcess {
        let fault = fault.map(|f| f.parse().expect("a reference server fault"));
        let era = transport
            .era
            .map_or(Era::default(), |e| e.parse().expect("an era"));
        return ServerCommand::in_process(reference::in_process(fault, era));
    }
    let mut args = vec!["reference-server".to_string()];
    let (mode, path, fault_flag) = match transport.wire {
        Wire::Stdio => (None, "", "--fault"),
        Wire::StreamableHttp => (Some("--http"), "mcp", "--http-fault"),
        Wire::Sse => (Some("--sse"), "sse", "--sse-fault"),
        Wire::InProcess => unreachable!("answered above"),
    };
    let port = mode.map(|mode| {
        let port = free_port();
        args.extend([mode.to_string(), port.to_string()]);
        port
    });
    if let Some(era) = transport.era {
        args.extend(["--era".to_string(), era.to_string()]);
    }
    args.extend(transport.args.iter().map(|a| a.to_string()));
    if let Some(f) = fault {
        args.extend([fault_flag.to_string(), f.to_string()]);
    }
    let mut command = ServerCommand::new(env!("CARGO_BIN_EXE_mcp-conformance"), args);
    command.http = port.map(|port| HttpTarget {
        url: format!("http://127.0.0.1:{port}/{path}"),
        headers: vec![("Authorization".into(), "Bearer test-secret".into())],
        ca_certs: Vec::new(),
    });
    if transport.wire == Wire::Sse {
        command.http_kind = HttpKind::Sse;
    }
    command
}

/// The reference server passes every check in every revision its transport runs: no
/// fail or warn, each skip allowed by a [`Skip`] row, each row used in each of its
/// revisions, every check a fault row names judged (passed, not skipped) where the row
/// names it unless a row skips that check there, and the not-run revisions reported as
/// such. The report, for the caller's snapshots.
pub fn reference_passes(table: &Table) -> RunReport {
    let transport = &table.transport;
    let started = std::time::Instant::now();
    let report = run(transport, None, ALL, SessionConfig::default());
    eprintln!(
        "reference server ({}) over {}, {} revisions: {:.2} s",
        transport.era.unwrap_or("dual"),
        transport.name,
        report.revisions.len(),
        started.elapsed().as_secs_f64()
    );
    let text = render_text(&report);
    assert_eq!(report.target.transport, transport.name, "{text}");
    let mut problems = revisions_reported(transport, &report, &text);
    problems.extend(unallowed_results(table, &report));
    problems.extend(unused_skips(table, &report));
    problems.extend(unjudged_fault_checks(table, &report));
    assert!(problems.is_empty(), "{}\n{text}", problems.join("\n"));
    assert_eq!(report.summary.fail + report.summary.warn, 0);
    assert!(text.contains(&format!("over {}", transport.name)), "{text}");
    assert!(
        !text.contains("test-secret"),
        "a header value leaked:\n{text}"
    );
    report
}

/// The report holds the transport's revisions, spoken, and its not-run ones, said so.
fn revisions_reported(transport: &Transport, report: &RunReport, text: &str) -> Vec<String> {
    let want: Vec<&str> = REVISIONS
        .iter()
        .map(|r| r.id)
        .filter(|id| transport.revisions.contains(id) || transport.not_run.contains(id))
        .collect();
    let got: Vec<&str> = report.revisions.iter().map(|r| r.revision).collect();
    if got != want {
        return vec![format!("revisions run: {got:?}, expected {want:?}")];
    }
    let mut problems = Vec::new();
    for rev in got {
        let not_run = report.not_spoken(rev);
        if not_run.is_some() != transport.not_run.contains(&rev) {
            problems.push(format!("{rev}: not spoken: {not_run:?}"));
        }
        let said = format!(
            "== {rev}: not run over {}, every check skipped",
            transport.name
        );
        if transport.not_run.contains(&rev) && !text.contains(&said) {
            problems.push(format!("{rev}: the report does not say {said:?}"));
        }
    }
    problems
}

/// Whether `skip` allows a skip of `check` in `rev` whose message is `message`.
fn allows(transport: &Transport, skip: &Skip, rev: &str, check: &str, message: &str) -> bool {
    (skip.check == ANY_CHECK || skip.check == check)
        && revisions(transport, skip.revisions)
            .iter()
            .any(|r| r.id == rev)
        && message.contains(skip.matching)
}

/// Every result of the transport's revisions that is a fail, a warn, or a skip no
/// [`Skip`] row allows.
fn unallowed_results(table: &Table, report: &RunReport) -> Vec<String> {
    let transport = &table.transport;
    let spoken = report
        .revisions
        .iter()
        .filter(|r| transport.revisions.contains(&r.revision));
    spoken
        .flat_map(|r| r.results.iter().map(move |c| (r.revision, c)))
        .filter(|(rev, c)| match c.status {
            Status::Pass => false,
            Status::Skip => !table
                .skips
                .iter()
                .any(|s| allows(transport, s, rev, c.check, &c.message)),
            Status::Fail | Status::Warn => true,
        })
        .map(|(rev, c)| format!("{rev} {} {:?}: {}", c.check, c.status, c.message))
        .collect()
}

/// Each [`Skip`] row, in each of its revisions, that no skip of the report matches: the
/// table says more than the run shows, so it is no longer true.
fn unused_skips(table: &Table, report: &RunReport) -> Vec<String> {
    let transport = &table.transport;
    let mut problems = Vec::new();
    for skip in table.skips {
        for rev in revisions(transport, skip.revisions) {
            let used = report.revisions.iter().any(|r| {
                r.revision == rev.id
                    && r.results.iter().any(|c| {
                        c.status == Status::Skip
                            && allows(transport, skip, rev.id, c.check, &c.message)
                    })
            });
            if !used {
                problems.push(format!(
                    "{} no skip of {} matches {:?} ({}): an unused skip row",
                    rev.id, skip.check, skip.matching, skip.why
                ));
            }
        }
    }
    problems
}

/// Each check a fault row names that the reference run skips where the row names it,
/// though no [`Skip`] row names that check there: it was never judged, so the fault's
/// failure would prove nothing.
fn unjudged_fault_checks(table: &Table, report: &RunReport) -> Vec<String> {
    let transport = &table.transport;
    let mut problems = Vec::new();
    for (fault, expected) in table.rows {
        for (id, _, ids) in *expected {
            for rev in revisions(transport, ids) {
                let Some(result) = report.result(rev.id, id) else {
                    problems.push(format!("{} {id}: no result ({fault} names it)", rev.id));
                    continue;
                };
                let named = table
                    .skips
                    .iter()
                    .any(|s| s.check == *id && allows(transport, s, rev.id, id, &result.message));
                if result.status == Status::Skip && !named {
                    problems.push(format!(
                        "{} {id} is skipped, not judged ({fault} names it): {}",
                        rev.id, result.message
                    ));
                }
            }
        }
    }
    problems
}

/// The revisions a row runs in: every one when an expectation says [`ALL`], else the ones
/// its expectations name. "Every check not listed passes or skips" is then asserted only
/// in the revisions run: a trade that keeps the tests fast, as the reference server's own
/// run covers every revision.
fn revisions_for(expected: &[Expect]) -> Vec<&'static str> {
    if expected.iter().any(|(_, _, ids)| ids.is_empty()) {
        return Vec::new();
    }
    expected
        .iter()
        .flat_map(|(_, _, ids)| ids.iter().copied())
        .collect()
}

/// Runs the rows in `table.late` (or the others), each on a thread of its own.
fn run_rows<'t>(table: &'t Table, late: bool) -> Vec<(&'t Row, RunReport)> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = table
            .rows
            .iter()
            .filter(|row| table.late.contains(&row.0) == late)
            .map(|row| scope.spawn(move || (row, run_fault(table, row.0, &revisions_for(row.1)))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("fault thread"))
            .collect()
    })
}

/// Each fault fails exactly its checks: a listed check has exactly its listed status in
/// its listed revisions, every other check passes or skips, and every revision run is
/// spoken (else its checks all skip and prove nothing). The rows run in parallel, the
/// `late` ones after the others. The reports, for the caller's snapshots.
pub fn faults_fail_exactly_their_checks<'t>(table: &'t Table) -> Vec<(&'t Row, RunReport)> {
    let mut reports = run_rows(table, false);
    reports.extend(run_rows(table, true));
    let mut problems = Vec::new();
    for (row, report) in &reports {
        let found = row_mismatches(&table.transport, row, report);
        if !found.is_empty() {
            problems.extend(found);
            problems.push(render_text(report));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    reports
}

/// The mismatches between a fault's report and its row, empty when the row holds.
fn row_mismatches(transport: &Transport, row: &Row, report: &RunReport) -> Vec<String> {
    let (fault, expected) = row;
    let unspoken = report
        .revisions
        .iter()
        .filter(|r| transport.revisions.contains(&r.revision))
        .filter_map(|r| {
            let why = report.not_spoken(r.revision)?;
            Some(format!("{} is not spoken: {why}", r.revision))
        });
    mismatches(report, expected)
        .into_iter()
        .chain(unspoken)
        .map(|m| format!("{fault}: {m}"))
        .collect()
}

/// The faults whose row expects nothing: each proves a check stays silent on a server
/// that looks broken and is not (a tools/list answered with a server error declares a
/// capability it has). Every other row makes some check fail or warn.
pub const NO_FINDING: &[&str] = &["tools-list-server-error"];

/// The table has one row per fault of its transport and no other, each naming real
/// checks in revisions the transport runs; its skip rows likewise; its late faults are
/// rows; and the revision sets hold what their names say.
pub fn table_names_every_fault(table: &Table) {
    let transport = &table.transport;
    let mut in_table: Vec<&str> = table.rows.iter().map(|r| r.0).collect();
    let mut faults = (transport.faults)();
    in_table.sort_unstable();
    faults.sort_unstable();
    assert_eq!(
        in_table, faults,
        "the table and the reference server's {} faults disagree",
        transport.name
    );
    for fault in table.late {
        assert!(in_table.contains(fault), "late names {fault}");
    }
    for (fault, expected) in table.rows {
        assert!(
            !expected.is_empty() || NO_FINDING.contains(fault),
            "{fault} expects nothing"
        );
        for (id, _, ids) in *expected {
            assert_known(transport, id, ids, fault);
        }
    }
    for skip in table.skips {
        assert!(
            !skip.why.is_empty() && !skip.matching.is_empty(),
            "{skip:?}"
        );
        if skip.check != ANY_CHECK {
            assert_known(transport, skip.check, skip.revisions, "a skip row");
        }
    }
    assert_revision_sets();
    // The transport's revisions are ones the revision facts say it carries.
    let kind = match transport.wire {
        Wire::Stdio => TransportKind::Stdio,
        Wire::StreamableHttp => TransportKind::StreamableHttp,
        Wire::Sse => TransportKind::HttpSse,
        Wire::InProcess => TransportKind::InProcess,
    };
    for id in transport.revisions {
        let revision = Revision::find(id).expect("a known revision");
        assert!(
            revision.runs_over(kind),
            "{id} does not run over {}",
            transport.name
        );
    }
}

/// `id` is a catalog check and `ids` revisions the transport runs.
fn assert_known(transport: &Transport, id: &str, ids: &[&str], row: &str) {
    assert!(
        mcp_conformance::checks::find(id).is_some(),
        "{row}: unknown check {id}"
    );
    for rev in ids {
        assert!(
            REVISIONS.iter().any(|r| r.id == *rev),
            "{row}: unknown revision {rev}"
        );
        assert!(
            transport.revisions.contains(rev),
            "{row}: {id} names {rev}, not run over {}",
            transport.name
        );
    }
}

/// Each revision set holds what its name says (`R3_UP`: from the third revision on).
pub fn assert_revision_sets() {
    let ids: Vec<&str> = REVISIONS.iter().map(|r| r.id).collect();
    for (name, set) in REVISION_SETS {
        let want: Vec<&str> = if *name == "LEGACY" {
            REVISIONS
                .iter()
                .filter(|r| !r.modern())
                .map(|r| r.id)
                .collect()
        } else {
            let (from, to) = span(name, ids.len());
            ids[from - 1..to].to_vec()
        };
        assert_eq!(
            set.to_vec(),
            want,
            "{name} does not hold what its name says"
        );
    }
}

/// The revisions (1-based, inclusive) a set's name says: `R3` 3 to 3, `R1_R3` 1 to 3,
/// `R3_UP` 3 to the last.
fn span(name: &str, count: usize) -> (usize, usize) {
    let n = |s: &str| -> usize {
        let n = s.strip_prefix('R').and_then(|d| d.parse().ok());
        n.unwrap_or_else(|| panic!("a revision set named {name}"))
    };
    match name.split_once('_') {
        None => (n(name), n(name)),
        Some((from, "UP")) => (n(from), count),
        Some((from, to)) => (n(from), n(to)),
    }
}

/// Every check the transport's faults must prove is made to fail (or warn) by a row.
pub fn every_check_can_fail(table: &Table) {
    let proven: Vec<&str> = table
        .rows
        .iter()
        .flat_map(|(_, expected)| expected.iter().map(|(id, _, _)| *id))
        .collect();
    let unproven: Vec<&str> = CATALOG
        .iter()
        .map(|c| c.id.as_str())
        .filter(|id| (table.transport.proves)(id) && !proven.contains(id))
        .collect();
    assert!(
        unproven.is_empty(),
        "checks no {} fault makes fail: {unproven:?}",
        table.transport.name
    );
}
