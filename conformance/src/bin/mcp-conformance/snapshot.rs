//! `snapshot`: the server's tool surface as a committed file (README, "Tool surface
//! snapshots"), and the comparison `snapshot --check` and `run --snapshot` make with it.
//!
//! Writing takes the revisions walked from the server and keeps the file's others; a
//! check writes what the file would become beside it (`FILE.new`) when the tools differ,
//! so that `--accept` (or a commit of it) is a reviewed step, as insta's pending snapshots
//! are. The library walks, compares and writes the pending file
//! ([`mcp_conformance::runner::check_surface`]); this module chooses what to do and says it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use mcp_conformance::config::options::CONFIG;
use mcp_conformance::protocol::SessionConfig;
use mcp_conformance::records::LiveSurface;
use mcp_conformance::report::{counted, escape_server_text, render_surface, SurfaceReport};
use mcp_conformance::runner::{check_surface, pending_path, walk_surface, write_file, RunConfig};
use mcp_conformance::surface::{updated, Class, Snapshot};
use mcp_conformance::{Error, Result};

use crate::args::SnapshotArgs;
use crate::exit::Exit;
use crate::plan::{config_file, reference_server};
use crate::signals::Signals;

/// The file `snapshot` writes when neither the command line nor the config file names one.
pub(crate) const DEFAULT_FILE: &str = "mcp-tools.snapshot.json";

/// Runs `snapshot`, `snapshot --check` or `snapshot --accept`.
pub(crate) fn snapshot(args: SnapshotArgs) -> Result<Exit> {
    let file = config_file(args.options.path(&CONFIG))?;
    let path = args
        .file
        .clone()
        .or_else(|| file.run.snapshot.clone())
        .unwrap_or_else(|| PathBuf::from(DEFAULT_FILE));
    if path.extension().is_none_or(|e| e != "json") {
        // `snapshot ./server.sh` (the `--` forgotten) would write the reference server's
        // tools over the server's own script.
        return Err(Error::Config {
            path,
            message: "a snapshot file's name ends in .json (the server command goes after \
                      `--`: `mcp-conformance snapshot FILE.json -- CMD`)"
                .into(),
        });
    }
    if args.accept {
        return accept(&path);
    }
    let settings = file.merge(args.options.flags(), reference_server)?;
    if let Some(note) = &settings.command_note {
        eprintln!("mcp-conformance: {note}");
    }
    if settings.default_server {
        eprintln!(
            "mcp-conformance: no server named (no command after `--`, no [server] in a config \
             file): taking the bundled reference server's tools"
        );
    }
    // Read first: a check against a file that is not there fails before any server starts.
    let recorded = match (args.check, path.exists()) {
        (true, _) | (false, true) => Some(Snapshot::load(&path)?),
        (false, false) => None,
    };
    let mut config = RunConfig::new(settings.server);
    config.revisions = settings.revisions;
    config.not_run = settings.not_run;
    config.detect_sse = settings.detect_sse;
    config.session = SessionConfig {
        timeout: Duration::from_secs_f64(settings.timeout),
        max_line: settings.max_line,
        ..SessionConfig::default()
    };
    let live = match walk(&config)? {
        Ok(live) => live,
        Err(n) => return Ok(Exit::after_signal(Some(n))),
    };
    // Nothing listed: a server that never answered, or refused every revision; an empty
    // snapshot would be committed, and accepted over a good one.
    if live.snapshot.revisions.is_empty() {
        let notes: Vec<String> = live.notes.iter().map(|n| escape_server_text(n)).collect();
        return Err(Error::NothingListed(notes.join("; ")));
    }
    let recorded = recorded.unwrap_or_default();
    let report = check_surface(&path, &recorded, &live, args.check);
    if args.check {
        out!("{}", render_surface(&report, false));
        return Ok(Exit::failed_if(report.count(Class::Breaking) > 0));
    }
    write(&path, &recorded, &live, &report)
}

/// Walks the surface until it is done (`Ok`) or a signal arrives (`Err(n)`: the walk and
/// its servers are dropped, which ends them). This thread has the run stack (`main`).
fn walk(config: &RunConfig) -> Result<std::result::Result<LiveSurface, i32>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    runtime.block_on(async {
        let mut signals = Signals::register()?;
        tokio::select! {
            live = walk_surface(config) => live.map(Ok),
            n = signals.recv() => Ok(Err(n)),
        }
    })
}

/// Writes the snapshot ([`updated`]: the file's revisions outside the walk kept, a tool
/// that did not change kept as it was); says what changed against the file it replaces.
fn write(
    path: &Path,
    recorded: &Snapshot,
    live: &LiveSurface,
    report: &SurfaceReport,
) -> Result<Exit> {
    let next = updated(recorded, &live.snapshot, &live.scope);
    write_file(path, &next.to_bytes())?;
    let pending = pending_path(path);
    if pending.exists() {
        let _ = std::fs::remove_file(&pending);
    }
    let tools: usize = live.snapshot.revisions.values().map(|t| t.len()).sum();
    eprintln!(
        "mcp-conformance: wrote {} ({} across {})",
        path.display(),
        counted(tools, "tool listing"),
        counted(live.snapshot.revisions.len(), "revision")
    );
    if recorded.revisions.is_empty() {
        for note in &report.notes {
            out!("note: {}\n", escape_server_text(note));
        }
    } else {
        out!("{}", render_surface(report, false));
    }
    Ok(Exit::Pass)
}

/// `--accept`: FILE.new becomes FILE, once it reads as a snapshot.
fn accept(path: &Path) -> Result<Exit> {
    let pending = pending_path(path);
    if !pending.exists() {
        return Err(Error::Config {
            path: pending,
            message: "nothing to accept: no pending snapshot (`snapshot --check` or `run \
                      --snapshot` writes one when the tools differ)"
                .into(),
        });
    }
    Snapshot::load(&pending)?;
    std::fs::rename(&pending, path).map_err(|source| Error::WriteSnapshot {
        path: path.to_path_buf(),
        source,
    })?;
    eprintln!(
        "mcp-conformance: accepted {} as {}",
        pending.display(),
        path.display()
    );
    Ok(Exit::Pass)
}
