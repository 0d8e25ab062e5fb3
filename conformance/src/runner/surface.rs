//! The tool surface of a run: gathered from the revisions' records when a run checks a
//! snapshot (`--snapshot`), or walked on its own by [`take_surface`] for `mcp-conformance
//! snapshot`, which lists the tools twice per revision and calls none. Either way each
//! revision is seen through [`RevisionRecord::surface`], so the two agree.

use std::path::{Path, PathBuf};

use crate::records::{LiveSurface, RevisionRecord};
use crate::report::SurfaceReport;
use crate::scenarios::list_revision;
use crate::surface::{diff, Snapshot};

use super::{dead_on_start, reach, Finished, RunConfig, RUN_STACK};

/// The surface the finished revisions listed; a revision that did not finish (a cut run)
/// or was not run (not spoken over the transport) is noted, not compared.
pub(super) fn gather(config: &RunConfig, finished: &[Option<Finished>]) -> LiveSurface {
    let mut live = LiveSurface::default();
    for (revision, f) in config.revisions.iter().zip(finished) {
        let seen = match f {
            Some(f) => Ok(f.record.surface()),
            None => Err("the run was cut before it finished".to_string()),
        };
        live.add(revision.id, seen);
    }
    for (revision, why) in &config.not_run {
        live.add(revision.id, Err(why.clone()));
    }
    live
}

/// Walks the tool surface of every revision of `config`, one fresh process (or HTTP
/// session) at a time, on a thread of [`RUN_STACK`]: the handshake, two walks of
/// `tools/list`, the shutdown. `Err` as for a run: the server cannot be reached, or it
/// exits before answering anything.
pub fn take_surface(config: &RunConfig) -> crate::Result<LiveSurface> {
    std::thread::scope(|scope| {
        let driver = std::thread::Builder::new()
            .name("mcp-conformance-snapshot".into())
            .stack_size(RUN_STACK)
            .spawn_scoped(scope, || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(crate::Error::Runtime)?;
                runtime.block_on(walk_surface(config))
            })
            .map_err(crate::Error::Runtime)?;
        driver
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// [`take_surface`] on the caller's runtime, whose thread needs [`RUN_STACK`]. Dropping
/// the future ends the walk and its servers (each session's process group, and a server
/// started for `--url`).
pub async fn walk_surface(config: &RunConfig) -> crate::Result<LiveSurface> {
    let (launched, detected) = reach(config).await?;
    let walking = detected.as_ref().unwrap_or(config);
    let mut records: Vec<RevisionRecord> = Vec::new();
    let mut failed = None;
    for revision in &walking.revisions {
        match list_revision(&walking.command, revision, &walking.session).await {
            Ok(record) => records.push(record),
            Err(err) => {
                failed = Some(err);
                break;
            }
        }
    }
    if let Some(server) = launched {
        server.stop(config.session.shutdown_grace).await;
    }
    if let Some(err) = failed.or_else(|| dead_on_start(&walking.command, &records)) {
        return Err(err);
    }
    let mut live = LiveSurface::default();
    for record in &records {
        live.add(record.requested.id, Ok(record.surface()));
    }
    for (revision, why) in &walking.not_run {
        live.add(revision.id, Err(why.clone()));
    }
    Ok(live)
}

/// The pending snapshot beside `path`: `FILE.new`.
pub fn pending_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".new");
    PathBuf::from(name)
}

/// Compares `live` with `recorded` (the snapshot file at `path`) over the revisions `live`
/// speaks for: every change, classified. When `pending`, the file the snapshot would become
/// (its other revisions kept) is written beside it as `FILE.new` if the two differ, and a
/// stale one is removed if they do not.
pub fn check_surface(
    path: &Path,
    recorded: &Snapshot,
    live: &LiveSurface,
    pending: bool,
) -> crate::Result<SurfaceReport> {
    let changes = diff(recorded, &live.snapshot, &live.scope);
    let next = recorded.updated(&live.snapshot, &live.scope).to_bytes();
    let new_path = pending_path(path);
    let written = if pending && next != recorded.to_bytes() {
        std::fs::write(&new_path, &next).map_err(|source| crate::Error::WriteReport {
            path: new_path.clone(),
            source,
        })?;
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
