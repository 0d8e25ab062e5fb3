//! `snapshot`: the server's tool surface as a committed file (README, "Tool surface
//! snapshots"), and the comparison `snapshot --check` and `run --snapshot` make with it.
//!
//! Writing takes the revisions walked from the server and keeps the file's others; a
//! check writes what the file would become beside it (`FILE.new`) when the tools differ,
//! so that `--accept` (or a commit of it) is a reviewed step, as insta's pending snapshots
//! are. The library compares ([`mcp_conformance::surface::diff`]); this module reads,
//! writes and says.

use std::path::{Path, PathBuf};
use std::time::Duration;

use mcp_conformance::config::options::CONFIG;
use mcp_conformance::protocol::SessionConfig;
use mcp_conformance::records::LiveSurface;
use mcp_conformance::report::{counted, render_surface, SurfaceReport};
use mcp_conformance::runner::{take_surface, RunConfig};
use mcp_conformance::surface::{diff, Class, Snapshot};
use mcp_conformance::{Error, Result};

use crate::args::SnapshotArgs;
use crate::exit::Exit;
use crate::plan::{config_file, reference_server};

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
        (true, _) | (false, true) => Some(load(&path)?),
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
    let live = take_surface(&config)?;
    if live.scope.is_empty() {
        for note in &live.notes {
            eprintln!("mcp-conformance: {note}");
        }
        return Err(Error::Config {
            path: path.clone(),
            message: "no revision's tools could be listed; nothing was written".into(),
        });
    }
    let report = compare(
        &path,
        &recorded.clone().unwrap_or_default(),
        &live,
        args.check,
    )?;
    if args.check {
        out!("{}", render_surface(&report, false));
        return Ok(Exit::failed_if(report.count(Class::Breaking) > 0));
    }
    write(&path, recorded.as_ref(), &live, &report)
}

/// Reads a snapshot file; a missing or malformed one is a setup error.
pub(crate) fn load(path: &Path) -> Result<Snapshot> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::Config {
        path: path.to_path_buf(),
        message: if e.kind() == std::io::ErrorKind::NotFound {
            "no such snapshot; take one with `mcp-conformance snapshot FILE`".to_string()
        } else {
            e.to_string()
        },
    })?;
    Snapshot::parse(&text).map_err(|message| Error::Config {
        path: path.to_path_buf(),
        message: format!("not a tool surface snapshot: {message}"),
    })
}

/// `FILE.new`.
fn pending_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".new");
    PathBuf::from(name)
}

/// Compares the live surface with `recorded` over the revisions it speaks for. When
/// `pending`, the file it would become is written as `FILE.new` if they differ (and a
/// stale one removed if they do not).
pub(crate) fn compare(
    path: &Path,
    recorded: &Snapshot,
    live: &LiveSurface,
    pending: bool,
) -> Result<SurfaceReport> {
    let changes = diff(recorded, &live.snapshot, &live.scope);
    let next = recorded.updated(&live.snapshot, &live.scope);
    let new_path = pending_path(path);
    let differs = next.to_bytes() != recorded.to_bytes();
    let written = if pending && differs {
        write_file(&new_path, &next.to_bytes())?;
        Some(new_path.display().to_string())
    } else {
        if pending && new_path.exists() {
            let _ = std::fs::remove_file(&new_path);
        }
        None
    };
    Ok(SurfaceReport {
        snapshot: path.display().to_string(),
        changes,
        compared: live.scope.clone(),
        notes: live.notes.clone(),
        pending: written,
    })
}

/// Writes the snapshot: the file's revisions outside the walk kept, the walked ones
/// replaced; says what changed against the file it replaces.
fn write(
    path: &Path,
    recorded: Option<&Snapshot>,
    live: &LiveSurface,
    report: &SurfaceReport,
) -> Result<Exit> {
    let next = recorded
        .cloned()
        .unwrap_or_default()
        .updated(&live.snapshot, &live.scope);
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
    if recorded.is_some() {
        out!("{}", render_surface(report, false));
    } else {
        for note in &report.notes {
            out!(
                "note: {}\n",
                mcp_conformance::report::escape_server_text(note)
            );
        }
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
    load(&pending)?;
    std::fs::rename(&pending, path).map_err(|source| Error::WriteReport {
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

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|source| Error::WriteReport {
        path: path.to_path_buf(),
        source,
    })
}
