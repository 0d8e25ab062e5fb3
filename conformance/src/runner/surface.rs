//! The tool surface of a run: gathered from the revisions' records when a run checks a
//! snapshot (`--snapshot`), or walked on its own by [`take_surface`] for `mcp-conformance
//! snapshot`, which lists the tools twice per revision and calls none. Either way each
//! revision is seen through [`RevisionRecord::surface`], so the two agree.

use std::path::{Path, PathBuf};

use crate::protocol::Silence;
use crate::records::{LiveSurface, RevisionRecord};
use crate::report::SurfaceReport;
use crate::scenarios::list_revision;
use crate::surface::{diff, updated, Snapshot};

use super::{dead_on_start, on_run_thread, reach, Finished, RunConfig};

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
/// session) at a time, on a thread of [`RUN_STACK`](super::RUN_STACK): the handshake, two walks of
/// `tools/list`, the shutdown. `Err` as for a run: the server cannot be reached, or it
/// exits before answering anything.
pub fn take_surface(config: &RunConfig) -> crate::Result<LiveSurface> {
    on_run_thread("mcp-conformance-snapshot", || walk_surface(config))
}

/// [`take_surface`] on the caller's runtime, whose thread needs [`RUN_STACK`](super::RUN_STACK). Dropping
/// the future ends the walk and its servers (each session's process group, and a server
/// started for `--url`).
pub async fn walk_surface(config: &RunConfig) -> crate::Result<LiveSurface> {
    let (launched, detected) = reach(config).await?;
    let walking = detected.as_ref().unwrap_or(config);
    let walked = walk_each(walking).await;
    if let Some(server) = launched {
        server.stop(config.session.shutdown_grace).await;
    }
    let (records, skipped) = walked?;
    if let Some(err) = dead_on_start(&walking.command, &records) {
        return Err(err);
    }
    let mut live = LiveSurface::default();
    for record in &records {
        live.add(record.requested.id, Ok(record.surface()));
    }
    for (revision, why) in walking
        .not_run
        .iter()
        .map(|(r, w)| (r.id, w.clone()))
        .chain(skipped)
    {
        live.add(revision, Err(why));
    }
    Ok(live)
}

/// Each revision's listing conversation, in order. Once two handshake revisions in a row
/// timed out on `initialize`, the other handshake revisions are not tried (each would wait
/// out the same silence: a hung server costs two revisions, not four; one timeout may be a
/// cold start); the modern one still is, as it opens another way. A server that exits is
/// tried in every revision, as `run` tries it. Returns the records and the revisions
/// skipped, with why.
async fn walk_each(
    walking: &RunConfig,
) -> crate::Result<(Vec<RevisionRecord>, Vec<(&'static str, String)>)> {
    let mut records: Vec<RevisionRecord> = Vec::new();
    let mut skipped = Vec::new();
    let mut timed_out: Vec<&'static str> = Vec::new();
    for revision in &walking.revisions {
        if timed_out.len() >= 2 && !revision.modern() {
            let why = format!(
                "not tried: initialize timed out in {} in a row",
                timed_out.join(" and ")
            );
            skipped.push((revision.id, why));
            continue;
        }
        let record = list_revision(&walking.command, revision, &walking.session).await?;
        if !revision.modern() {
            match record.initialize.silence() {
                Some(Silence::Timeout(_)) => timed_out.push(revision.id),
                _ => timed_out.clear(),
            }
        }
        records.push(record);
    }
    Ok((records, skipped))
}

/// The pending snapshot beside `path`: `FILE.new`.
pub fn pending_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".new");
    PathBuf::from(name)
}

/// Compares `live` with `recorded` (the snapshot file at `path`) over the revisions `live`
/// speaks for: every change, classified. When `pending`, the file the snapshot would become
/// ([`updated`]) is written beside it as `FILE.new` if it differs, and a stale one is
/// removed when nothing differs in every revision the snapshot holds. A pending file that
/// cannot be written is a note: the comparison stands.
pub fn check_surface(
    path: &Path,
    recorded: &Snapshot,
    live: &LiveSurface,
    pending: bool,
) -> SurfaceReport {
    let changes = diff(recorded, &live.snapshot, &live.scope);
    let next = updated(recorded, &live.snapshot, &live.scope).to_bytes();
    let new_path = pending_path(path);
    let mut notes = live.notes.clone();
    let differs = next != recorded.to_bytes();
    let whole = recorded
        .revisions
        .keys()
        .all(|r| live.scope.contains(&r.as_str()));
    let mut written = None;
    if pending && differs {
        match write_bytes(&new_path, &next) {
            Ok(()) => written = Some(new_path.display().to_string()),
            Err(e) => notes.push(format!("{} could not be written: {e}", new_path.display())),
        }
    } else if pending && whole && new_path.exists() {
        let _ = std::fs::remove_file(&new_path);
    }
    SurfaceReport {
        snapshot: path.display().to_string(),
        changes,
        compared: live.scope.clone(),
        not_offered: live.not_offered.clone(),
        notes,
        pending: written,
    }
}

/// Writes a snapshot (or its pending file), making its folder first.
pub fn write_file(path: &Path, bytes: &[u8]) -> crate::Result<()> {
    write_bytes(path, bytes).map_err(|source| crate::Error::WriteSnapshot {
        path: path.to_path_buf(),
        source,
    })
}

fn write_bytes(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, bytes)
}
