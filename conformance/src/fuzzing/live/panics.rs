//! A panic in an in-process server, reported before libFuzzer's hook ends the process.
//!
//! Under cargo-fuzz a panic anywhere aborts at once (libfuzzer-sys's panic hook), so the
//! oracle never sees the case end: libFuzzer kept the input, but there was no case file,
//! no exchange, nothing `mcp-conformance replay` could run against the built binary. An
//! in-process target therefore leaves each case where a panic hook can read it before it
//! is run, and a panic on any thread but the fuzzer's (the server's thread and its tasks)
//! writes that case's file and prints the report, then hands on to the hook before it
//! (libFuzzer's, which aborts). A panic of the fuzzer's own thread is ours (a finding's
//! report, or a bug of the harness) and is left alone.

use std::sync::{Mutex, OnceLock};
use std::thread::ThreadId;

use crate::fuzzing::cases::Case;
use crate::protocol::{Direction, Line, Transcript};
use crate::rules::{CheckId, FailureKind};

use super::findings::case_file;
use super::{Finding, LiveConfig};

/// The fuzzer's thread: the one that started the watch.
static FUZZER: OnceLock<ThreadId> = OnceLock::new();
/// The target's configuration and the case under way.
static WATCH: Mutex<Option<Watch>> = Mutex::new(None);

struct Watch {
    /// The fuzz target's name, for its messages.
    name: String,
    config: LiveConfig,
    /// The case under way (or the last one, between cases).
    case: Option<Case>,
}

/// Watches for server panics from now on, in this process; `name` is the fuzz target's.
pub(super) fn watch(name: &str, config: &LiveConfig) {
    let fuzzer = *FUZZER.get_or_init(|| std::thread::current().id());
    let mut watch = WATCH.lock().unwrap_or_else(|e| e.into_inner());
    let first = watch.is_none();
    *watch = Some(Watch {
        name: name.to_string(),
        config: config.clone(),
        case: None,
    });
    drop(watch);
    if first {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().id() != fuzzer {
                if let Some(report) = server_panicked(info) {
                    eprintln!("{report}");
                }
            }
            before(info);
        }));
    }
}

/// `case` is about to run (a no-op but on the thread that called [`watch`]).
pub(super) fn running(case: &Case) {
    if FUZZER.get() != Some(&std::thread::current().id()) {
        return;
    }
    if let Some(watch) = WATCH.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        watch.case = Some(case.clone());
    }
}

/// The report of a server panic, its case file written; `None` when no case was under
/// way, or its panic was reported already (one file per case, whatever the threads).
fn server_panicked(info: &std::panic::PanicHookInfo<'_>) -> Option<String> {
    let mut guard = WATCH.lock().unwrap_or_else(|e| e.into_inner());
    let watch = guard.as_mut()?;
    let case = watch.case.take()?;
    let message = crate::transport::panic_message(info.payload());
    let place = info
        .location()
        .map(|l| format!(" (at {}:{})", l.file(), l.line()))
        .unwrap_or_default();
    let (kind, check) = (FailureKind::Crash, CheckId::PropServerSurvives);
    let mut finding = Finding {
        check,
        kind,
        summary: format!("the server panicked: {message}{place}"),
        case: case_file(&watch.config, &case, kind, check, None),
        transcript: sent(&case),
        reproduced: false,
        saved: None,
    };
    if let Some(dir) = &watch.config.cases_dir {
        if let Err(e) = finding.save(dir) {
            let shown = dir.display();
            finding.summary += &format!(" (the case file could not be written to {shown}: {e})");
        }
    }
    let confirmation = "not run again: the panic ends this process (libFuzzer writes the \
                        input it panicked on; `cargo fuzz run TARGET CRASH_FILE` runs it again)";
    Some(format!(
        "{}: the server panicked\n{}",
        watch.name,
        finding.report_with(confirmation)
    ))
}

/// The case's lines, as sent (what the server had read when it panicked is not known).
fn sent(case: &Case) -> Transcript {
    let mut transcript = Transcript::default();
    for line in &case.lines {
        match line {
            Line::Message(m) => {
                transcript.push(Direction::Sent, &m.to_string(), Some(m.clone()));
            }
            Line::Raw(bytes) => {
                transcript.push(Direction::Sent, &String::from_utf8_lossy(bytes), None);
            }
        }
    }
    transcript
}
