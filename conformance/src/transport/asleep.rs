//! Whether a server's processes are all asleep: the test that lets a revision waiting on
//! its server lend its `--jobs` slot (`scenarios::slot`).
//!
//! A server that takes seconds to answer is either waiting on a timer of its own (a
//! "long-running operation" that sleeps, a process kept alive by an interval) or
//! computing. Only the first may lend its slot: starting another revision beside a server
//! that computes would slow it down, and on a loaded machine could push its answer past
//! the timeout, a verdict that depends on `--jobs`. A process that computes, or is ready
//! to and waits for a CPU, is in state `R` (or `D` in the middle of I/O); one waiting
//! on a timer or a pipe is in `S`. Linux `/proc` only; elsewhere nothing is known and no
//! slot is lent.

use super::procfs::{pids, stat_fields};

/// Whether every thread of every process in process group `group` (the server and
/// whatever it started, see `StdioTransport::spawn`) is asleep now: `None` when it cannot
/// be told (not Linux, or no such process left).
pub fn group_asleep(group: u32) -> Option<bool> {
    if cfg!(target_os = "linux") {
        linux_group_asleep(group)
    } else {
        None
    }
}

fn linux_group_asleep(group: u32) -> Option<bool> {
    let mut found = false;
    for pid in pids() {
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        if stat_field(&stat, PGRP).and_then(|g| g.parse::<u32>().ok()) != Some(group) {
            continue;
        }
        found = true;
        let Ok(threads) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for thread in threads.flatten() {
            let path = thread.path().join("stat");
            let Ok(stat) = std::fs::read_to_string(path) else {
                continue;
            };
            if stat_field(&stat, STATE).is_some_and(busy) {
                return Some(false);
            }
        }
    }
    found.then_some(true)
}

/// Fields of a `stat` line after the command name ([`stat_fields`]), counted from 0.
const STATE: usize = 0;
const PGRP: usize = 2;

fn stat_field(stat: &str, n: usize) -> Option<&str> {
    stat_fields(stat)?.nth(n)
}

/// Running or ready to run (`R`), or in uninterruptible I/O (`D`).
fn busy(state: &str) -> bool {
    matches!(state, "R" | "D")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_and_group_fields_are_read_from_a_stat_line() {
        let stat = "4242 (node (x) y) S 1 4240 4240 0 -1 4194560";
        assert_eq!(stat_field(stat, STATE), Some("S"));
        assert_eq!(stat_field(stat, PGRP), Some("4240"));
        assert!(!busy("S") && busy("R") && busy("D"));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_sleeping_child_is_asleep_and_a_gone_group_is_unknown() {
        use std::os::unix::process::CommandExt;
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .process_group(0)
            .spawn()
            .expect("sleep starts");
        let group = child.id();
        // `sleep` may still be starting (state R) for a moment: asleep once it runs.
        let asleep = (0..200).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(10));
            group_asleep(group) == Some(true)
        });
        let _ = child.kill();
        let _ = child.wait();
        assert!(asleep, "a process in sleep(1) is asleep");
        assert_eq!(group_asleep(group), None, "no process left in the group");
    }
}
