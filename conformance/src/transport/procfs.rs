//! Linux `/proc`, read one way for the three parts of the transport that look at the
//! server's processes: the orphan reaper (`reaper`), the marker scan (`stdio`) and the
//! sleep test that lends a `--jobs` slot (`asleep`). Where there is no `/proc`, there are
//! no pids and nothing is known.

/// Every pid in `/proc` now (none where it cannot be read).
pub(super) fn pids() -> impl Iterator<Item = u32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
}

/// The fields of a `stat` line (`/proc/PID/stat` or `/proc/PID/task/TID/stat`) after the
/// command name, which may hold spaces and parentheses and so is skipped up to its last
/// `)`: `state` first, then `ppid`, `pgrp` (proc(5)).
pub(super) fn stat_fields(stat: &str) -> Option<std::str::SplitWhitespace<'_>> {
    Some(stat.rsplit_once(')')?.1.split_whitespace())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_is_read_past_a_command_name_with_spaces_and_parentheses() {
        let stat = "4242 (node (x) y) S 1 4240 4240 0 -1 4194560";
        let fields: Vec<&str> = stat_fields(stat).unwrap().take(3).collect();
        assert_eq!(fields, ["S", "1", "4240"]);
        assert!(stat_fields("no command name").is_none());
    }
}
