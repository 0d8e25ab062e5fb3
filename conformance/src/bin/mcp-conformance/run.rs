//! `run`: the suite against one server, the reports written where the plan says, and the
//! gate's verdict.

use std::cell::Cell;
use std::path::Path;

use anstream::{AutoStream, ColorChoice};
use mcp_conformance::config::options::{COLOR, QUIET, REFERENCE, VERBOSE, WRITE_BASELINE};
use mcp_conformance::report::{
    counted, render_text_with, Baseline, Detail, Format, RunReport, TextOptions,
};
use mcp_conformance::runner::{check_surface, run_until};
use mcp_conformance::surface::Snapshot;
use mcp_conformance::{Error, Result};

use crate::args::RunArgs;
use crate::exit::Exit;
use crate::plan::{plan, Plan};
use crate::signals::Signals;
use crate::status::Status;

/// Runs the suite; `Fail` when the gate fails (its reasons on stderr).
pub(crate) fn run_command(args: RunArgs) -> Result<Exit> {
    let text = TextChoice::of(&args);
    let asked_for_reference = args.on(&REFERENCE);
    let write_baseline = args.path(&WRITE_BASELINE);
    let plan = plan(&args)?;
    if plan.config.reference {
        // A CI job in the wrong folder would otherwise test our server and pass.
        if asked_for_reference {
            eprintln!("mcp-conformance: testing the bundled reference server (--reference)");
        } else {
            eprintln!(
                "mcp-conformance: no server named (no command after `--`, no [server] in a \
                 config file): testing the bundled reference server (--reference asks for it)"
            );
        }
    }
    if let Some(note) = &plan.command_note {
        eprintln!("mcp-conformance: {note}");
    }
    let baseline = plan.baseline.as_deref().map(Baseline::load).transpose()?;
    // Read before the run: a snapshot that is not there fails before any server starts.
    let snapshot = plan
        .snapshot
        .as_deref()
        .map(|path| Snapshot::load(path).map(|s| (path, s)))
        .transpose()?;
    eprintln!("mcp-conformance: seed {}", plan.config.seed);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    // A signal cuts the run: the servers are ended, what finished is judged and written
    // (marked incomplete), and the exit code still says which signal it was.
    let signalled = Cell::new(None);
    let mut status = Status::new();
    let mut report = runtime.block_on(async {
        let mut signals = Signals::register()?;
        if let Some(properties) = &plan.config.properties {
            signals.raise(&properties.interrupt)?;
        }
        let stop = async {
            let n = signals.recv().await;
            signalled.set(Some(n));
            format!("interrupted by {}", signal_name(n))
        };
        run_until(&plan.config, |e| status.event(e), stop).await
    })?;
    drop(status);
    report.gate_options = plan.gate;
    if let (Some((path, recorded)), Some(live)) = (&snapshot, report.live_surface.take()) {
        report.surface = Some(check_surface(path, recorded, &live, true));
    }
    if let Some(baseline) = &baseline {
        report.apply_baseline(baseline);
    }
    // The written baseline is the run's from then on: the reports say what it accepts,
    // and the exit code is what a run with it would give.
    let written = match &write_baseline {
        Some(path) => match write_and_apply(path, &mut report, plan.gate.strict) {
            Ok(said) => Some(said),
            // The reports still go out: the run happened, only the baseline was not written.
            Err(e) => {
                emit(&report, &plan, text)?;
                return Err(e);
            }
        },
        None => None,
    };
    emit(&report, &plan, text)?;
    if let Some(said) = written {
        eprintln!("mcp-conformance: {said}");
    }
    let gate = report.verdict();
    if let Some(n) = signalled.get() {
        return Ok(Exit::after_signal(Some(n)));
    }
    if !gate.passed {
        eprintln!("mcp-conformance: {}", gate.reasons.join("; "));
    }
    Ok(Exit::failed_if(!gate.passed))
}

/// Writes the baseline of a complete run and applies it to the report; says what was done.
fn write_and_apply(path: &Path, report: &mut RunReport, strict: bool) -> Result<String> {
    // Not from a cut run: what did not run would be missing from it.
    if report.incomplete.is_some() {
        return Ok("the run is incomplete: no baseline written".to_string());
    }
    let entries = crate::write_baseline::write_baseline(path, report, strict)?;
    report.apply_baseline(&Baseline::load(path)?);
    Ok(format!(
        "wrote {} to {}; give each its reason, then run with --baseline {}",
        counted(entries, "baseline entry"),
        path.display(),
        path.display()
    ))
}

/// `-v`, `-q` and `--color`: how the text report is rendered on stdout and in files.
#[derive(Clone, Copy)]
struct TextChoice {
    detail: Detail,
    color: bool,
}

impl TextChoice {
    fn of(args: &RunArgs) -> Self {
        let detail = if args.on(&VERBOSE) {
            Detail::Verbose
        } else if args.on(&QUIET) {
            Detail::Quiet
        } else {
            Detail::Normal
        };
        let color = match args.text(&COLOR) {
            Some("always") => true,
            Some("never") => false,
            // `auto`: terminal, NO_COLOR, CLICOLOR(_FORCE), TERM, as clap decides for its help.
            _ => AutoStream::<std::io::Stdout>::choice(&std::io::stdout()) != ColorChoice::Never,
        };
        Self { detail, color }
    }

    /// On stdout: as asked.
    fn stdout(self) -> TextOptions {
        TextOptions {
            detail: self.detail,
            color: self.color,
        }
    }

    /// In a file: never coloured, never only the summary line.
    fn file(self) -> TextOptions {
        TextOptions {
            detail: match self.detail {
                Detail::Quiet => Detail::Normal,
                other => other,
            },
            color: false,
        }
    }
}

fn signal_name(n: i32) -> String {
    match n {
        2 => "SIGINT".to_string(),
        15 => "SIGTERM".to_string(),
        1 => "SIGHUP".to_string(),
        n => format!("signal {n}"),
    }
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|source| Error::WriteReport {
        path: path.to_path_buf(),
        source,
    })
}

/// A format as written to a file (the text report never coloured).
fn render_file(format: Format, report: &RunReport, text: TextChoice) -> Result<String> {
    match format {
        Format::Text => Ok(render_text_with(report, text.file())),
        other => other.render(report),
    }
}

/// The text report goes to stdout (coloured as `--color` says) and the formats asked for
/// to `--output` or `--output-dir`; with neither, the one format asked for goes to stdout
/// instead of the text.
fn emit(report: &RunReport, plan: &Plan, text: TextChoice) -> Result<()> {
    let stdout_text = || render_text_with(report, text.stdout());
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
            write(
                &dir.join(format.file_name()),
                &render_file(*format, report, text)?,
            )?;
        }
        out!("{}", stdout_text());
        eprintln!(
            "mcp-conformance: wrote {} to {}",
            counted(formats.len(), "report"),
            dir.display()
        );
        return Ok(());
    }
    match (&plan.output, plan.formats.as_slice()) {
        (Some(path), formats) => {
            let format = formats.first().copied().unwrap_or(Format::Text);
            write(path, &render_file(format, report, text)?)?;
            out!("{}", stdout_text());
            eprintln!(
                "mcp-conformance: wrote the {} report to {}",
                format.name(),
                path.display()
            );
        }
        (None, [] | [Format::Text]) => out!("{}", stdout_text()),
        // The config merge allows one format here (several need --output-dir).
        (None, formats) => {
            for format in formats {
                out!("{}", format.render(report)?);
            }
        }
    }
    Ok(())
}
