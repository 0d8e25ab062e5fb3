//! `run`: the suite against one server, the reports written where the plan says, and the
//! gate's verdict.

use std::cell::Cell;
use std::io::IsTerminal;
use std::path::Path;

use mcp_conformance::report::{render_text_styled, Baseline, Format, RunReport};
use mcp_conformance::runner::{run_until, RunEvent};
use mcp_conformance::{Error, Result};

use crate::args::RunArgs;
use crate::exit::Exit;
use crate::plan::{plan, Plan};
use crate::signals::Signals;

/// Runs the suite; `Fail` when the gate fails (its reasons on stderr).
pub(crate) fn run_command(args: RunArgs) -> Result<Exit> {
    let plan = plan(args)?;
    let baseline = plan.baseline.as_deref().map(Baseline::load).transpose()?;
    eprintln!("mcp-conformance: seed {}", plan.config.seed);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    // A signal cuts the run: the servers are ended, what finished is judged and written
    // (marked incomplete), and the exit code still says which signal it was.
    let signalled = Cell::new(None);
    let mut report = runtime.block_on(async {
        let mut signals = Signals::register()?;
        let stop = async {
            let n = signals.recv().await;
            signalled.set(Some(n));
            format!("interrupted by {}", signal_name(n))
        };
        run_until(&plan.config, progress, stop).await
    })?;
    if let Some(baseline) = &baseline {
        report.apply_baseline(baseline);
    }
    emit(&report, &plan)?;
    let gate = report.gate(plan.gate);
    if let Some(n) = signalled.get() {
        eprintln!("mcp-conformance: interrupted (signal {n}); the servers were ended");
        return Ok(Exit::Signalled(n));
    }
    if !gate.passed {
        eprintln!("mcp-conformance: {}", gate.reasons.join("; "));
    }
    Ok(Exit::failed_if(!gate.passed))
}

fn signal_name(n: i32) -> String {
    match n {
        2 => "SIGINT".to_string(),
        15 => "SIGTERM".to_string(),
        1 => "SIGHUP".to_string(),
        n => format!("signal {n}"),
    }
}

fn progress(event: RunEvent) {
    match event {
        RunEvent::RevisionStarted(rev) => eprintln!("mcp-conformance: running {rev}"),
        RunEvent::NegotiationStarted => eprintln!("mcp-conformance: probing version negotiation"),
        RunEvent::RevisionJudged(..) => {}
        RunEvent::Cut(reason) => {
            eprintln!("mcp-conformance: {reason}; judging what finished")
        }
    }
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|source| Error::WriteReport {
        path: path.to_path_buf(),
        source,
    })
}

/// The text report always goes to stdout (coloured on a terminal); other formats go to
/// `--output`, `--output-dir`, or, when neither is given, to stdout instead of the text.
fn emit(report: &RunReport, plan: &Plan) -> Result<()> {
    let stdout_text = || render_text_styled(report, std::io::stdout().is_terminal());
    if let Some(dir) = &plan.output_dir {
        std::fs::create_dir_all(dir).map_err(|source| Error::WriteReport {
            path: dir.clone(),
            source,
        })?;
        let formats = if plan.formats.is_empty() {
            Format::ALL
        } else {
            &plan.formats[..]
        };
        for format in formats {
            write(&dir.join(format.file_name()), &format.render(report)?)?;
        }
        print!("{}", stdout_text());
        return Ok(());
    }
    match (&plan.output, plan.formats.as_slice()) {
        (Some(path), formats) => {
            write(
                path,
                &formats
                    .first()
                    .copied()
                    .unwrap_or(Format::Text)
                    .render(report)?,
            )?;
            print!("{}", stdout_text());
        }
        (None, [] | [Format::Text]) => print!("{}", stdout_text()),
        (None, formats) => {
            for format in formats {
                print!("{}", format.render(report)?);
            }
        }
    }
    Ok(())
}
