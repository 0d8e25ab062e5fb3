//! Orphans of a server: descendants that left its process group *and* scrubbed their
//! environment (so neither the group kill nor the marker finds them).
//!
//! On Linux a process may declare itself a child subreaper (`PR_SET_CHILD_SUBREAPER`):
//! then a descendant whose parent dies is re-parented to it instead of to init, whatever
//! its group, session or environment. With that set, every child of ours that we did not
//! spawn ourselves is an orphan of some server, and ending it is ours to do: after a
//! server is ended, each such child is killed and reaped by its own pid. Never
//! `waitpid(-1)`: that would take the exit statuses tokio waits for on the servers we
//! spawned.
//!
//! The switch changes the host process for good, so a library does not flip it behind its
//! user's back: the `mcp-conformance` binary turns it on at start ([`adopt_orphans`]); a
//! library user opts in (the libtest harness has `Suite::adopt_orphans`), and only in a
//! process that starts no other children it wants to keep. Without it, sweeping does
//! nothing.
//!
//! Servers are spawned under the same lock the sweep takes, and registered before it is
//! released: a sweep never mistakes another session's freshly spawned server (`--jobs`)
//! for an orphan.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::Pid;

/// Whether this process is a child subreaper (set by [`adopt_orphans`]).
static ADOPTING: AtomicBool = AtomicBool::new(false);

/// The pids of the servers we spawned and tokio has not been seen to reap yet.
static SPAWNED: Mutex<Option<HashSet<u32>>> = Mutex::new(None);

/// Makes this process a child subreaper, so that every descendant of a server it runs,
/// however it hides (`setsid()`, a scrubbed environment, a double fork), is re-parented
/// to it when its parent dies, and is killed and reaped when a session ends.
///
/// Call it once, early, in a process whose only children are the servers this crate
/// starts: from then on, at the end of each session, **every** child of this process
/// that this crate did not spawn is taken for a server's orphan and killed. The
/// `mcp-conformance` binary does; a test process that runs other children should not.
///
/// Returns whether the switch is on (Linux only; elsewhere it is `false` and orphans are
/// found by the process group and the environment marker alone).
pub fn adopt_orphans() -> bool {
    #[cfg(target_os = "linux")]
    {
        if nix::sys::prctl::set_child_subreaper(true).is_ok() {
            ADOPTING.store(true, Ordering::SeqCst);
        }
    }
    ADOPTING.load(Ordering::SeqCst)
}

/// Whether [`adopt_orphans`] is in effect.
pub fn adopting_orphans() -> bool {
    ADOPTING.load(Ordering::SeqCst)
}

fn spawned() -> MutexGuard<'static, Option<HashSet<u32>>> {
    // A panic while the lock was held leaves a set that is still a set.
    SPAWNED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `spawn` under the sweep's lock and registers the pid it returns, so that no sweep
/// can see the new process before it is known as ours.
pub(crate) fn register_spawn<T>(
    spawn: impl FnOnce() -> std::io::Result<T>,
    pid: impl FnOnce(&T) -> Option<u32>,
) -> std::io::Result<T> {
    let mut set = spawned();
    let child = spawn()?;
    if let Some(pid) = pid(&child) {
        set.get_or_insert_with(HashSet::new).insert(pid);
    }
    Ok(child)
}

/// tokio has reaped `pid`: it is no longer ours to spare (the pid may be reused).
pub(crate) fn reaped(pid: Option<u32>) {
    if let (Some(pid), Some(set)) = (pid, spawned().as_mut()) {
        set.remove(&pid);
    }
}

/// `(state, parent pid)` of a process, from `/proc/PID/stat`.
fn state_and_parent(pid: u32) -> Option<(char, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let mut fields = super::procfs::stat_fields(&stat)?;
    let state = fields.next()?.chars().next()?;
    let parent = fields.next()?.parse().ok()?;
    Some((state, parent))
}

/// Our children that we did not spawn: orphans of servers, re-parented to us.
fn adopted(set: &mut HashSet<u32>) -> Vec<u32> {
    let me = std::process::id();
    // A spawned pid that is gone from /proc was reaped by tokio (a zombie still shows).
    set.retain(|&pid| std::path::Path::new(&format!("/proc/{pid}")).exists());
    super::procfs::pids()
        .filter(|pid| !set.contains(pid))
        .filter(|&pid| state_and_parent(pid).is_some_and(|(_, parent)| parent == me))
        .collect()
}

/// Reaps each of `pids` that has exited, without waiting; returns those still running.
fn reap(pids: Vec<u32>) -> Vec<u32> {
    pids.into_iter()
        .filter(|&pid| {
            let Ok(raw) = i32::try_from(pid) else {
                return false;
            };
            match waitpid(Pid::from_raw(raw), Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::StillAlive) => true,
                // Exited and reaped, or not our child (any more): nothing left to do.
                _ => false,
            }
        })
        .collect()
}

/// Kills every adopted orphan and reaps it, waiting at most `bound` (a zombie left
/// behind is reaped by the next sweep, or by init when we exit). Returns how many were
/// found. Does nothing unless [`adopt_orphans`] is in effect.
pub(crate) fn sweep_orphans(bound: Duration) -> usize {
    if !adopting_orphans() {
        return 0;
    }
    let orphans = {
        let mut guard = spawned();
        let set = guard.get_or_insert_with(HashSet::new);
        let orphans = adopted(set);
        for &pid in &orphans {
            if let Ok(raw) = i32::try_from(pid) {
                // Already a zombie or gone: the reaping below is all it needs.
                let _ = kill(Pid::from_raw(raw), Signal::SIGKILL);
            }
        }
        orphans
    };
    let found = orphans.len();
    let deadline = Instant::now() + bound;
    let mut left = reap(orphans);
    while !left.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
        left = reap(left);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parent_is_read_past_a_command_name_with_parentheses() {
        let me = std::process::id();
        let (state, parent) = state_and_parent(me).expect("our own stat");
        assert!(state.is_ascii_alphabetic());
        assert_eq!(parent, std::os::unix::process::parent_id());
    }

    #[test]
    fn without_the_switch_a_sweep_touches_nothing() {
        if !adopting_orphans() {
            assert_eq!(sweep_orphans(Duration::from_millis(1)), 0);
        }
    }
}
