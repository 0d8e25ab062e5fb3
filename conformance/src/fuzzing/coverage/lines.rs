//! The lines of the server's own files that ran, gathered from what every process's agent
//! left in the coverage folder: how far a run reached, shown with its findings and at its
//! end ("412 of 1,020 lines, 40.4%, in 6 files").
//!
//! The agents write them as they can: a Python agent a manifest (each file's executable
//! lines and the slot of its first) and a byte per slot that it maps and sets; a Node
//! agent a JSON file of each file's lines and those run. Both are written by the server's
//! processes, so each is read with a size bound, and what does not parse is passed over.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// Largest manifest or lines file read (a server's own files list far less).
const MAX_FILE: u64 = 16 << 20;
/// Most files counted.
const MAX_FILES: usize = 10_000;

/// One file's lines: all that can run, and those that did.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct FileLines {
    /// Executable lines (Python) or non-blank lines (Node, as c8 counts them).
    pub lines: BTreeSet<u32>,
    /// Those that ran in any process of the run.
    pub hit: BTreeSet<u32>,
}

/// The lines that ran in the server's own files over a run.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LineCoverage {
    files: BTreeMap<PathBuf, FileLines>,
}

#[derive(Deserialize)]
struct ManifestLine {
    file: PathBuf,
    lines: Vec<u32>,
    slot: Option<usize>,
}

#[derive(Deserialize)]
struct NodeLines {
    files: BTreeMap<PathBuf, NodeFile>,
}

#[derive(Deserialize)]
struct NodeFile {
    lines: Vec<u32>,
    hit: Vec<u32>,
}

impl LineCoverage {
    /// Adds what the agents in `folder` wrote (run again: the union). Files of processes
    /// that have ended are removed once read.
    pub fn harvest(&mut self, folder: &Path) {
        let Ok(entries) = std::fs::read_dir(folder) else {
            return;
        };
        let mut names: Vec<String> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        for name in names {
            if let Some(pid) = pid_of(&name, "manifest-", ".jsonl") {
                self.python(folder, pid);
                if ended(pid) {
                    let _ = std::fs::remove_file(folder.join(&name));
                    let _ = std::fs::remove_file(folder.join(format!("lines-{pid}")));
                }
            } else if let Some(pid) = pid_of(&name, "lines-", ".json") {
                self.node(&folder.join(&name));
                if ended(pid) {
                    let _ = std::fs::remove_file(folder.join(&name));
                }
            }
        }
    }

    fn python(&mut self, folder: &Path, pid: u32) {
        let Some(manifest) = read_bounded(&folder.join(format!("manifest-{pid}.jsonl"))) else {
            return;
        };
        let hits = read_bounded(&folder.join(format!("lines-{pid}"))).unwrap_or_default();
        for line in manifest.split(|b| *b == b'\n') {
            let Ok(entry) = serde_json::from_slice::<ManifestLine>(line) else {
                continue;
            };
            let Some(file) = self.file(entry.file) else {
                return;
            };
            for (i, number) in entry.lines.iter().enumerate() {
                file.lines.insert(*number);
                let ran = entry
                    .slot
                    .and_then(|s| s.checked_add(i))
                    .and_then(|s| hits.get(s))
                    .is_some_and(|b| *b != 0);
                if ran {
                    file.hit.insert(*number);
                }
            }
        }
    }

    fn node(&mut self, path: &Path) {
        let Some(bytes) = read_bounded(path) else {
            return;
        };
        let Ok(parsed) = serde_json::from_slice::<NodeLines>(&bytes) else {
            return;
        };
        for (name, lines) in parsed.files {
            let Some(file) = self.file(name) else {
                return;
            };
            file.lines.extend(&lines.lines);
            file.hit
                .extend(lines.hit.iter().filter(|n| lines.lines.contains(n)));
        }
    }

    /// A file's entry, or `None` past [`MAX_FILES`] files.
    fn file(&mut self, path: PathBuf) -> Option<&mut FileLines> {
        if self.files.len() >= MAX_FILES && !self.files.contains_key(&path) {
            return None;
        }
        Some(self.files.entry(path).or_default())
    }

    /// The files counted, in path order.
    pub fn files(&self) -> impl Iterator<Item = (&Path, &FileLines)> {
        self.files.iter().map(|(p, f)| (p.as_path(), f))
    }

    /// Lines run, and lines that can run, over every file.
    pub fn totals(&self) -> (usize, usize) {
        self.files
            .values()
            .fold((0, 0), |(h, l), f| (h + f.hit.len(), l + f.lines.len()))
    }

    /// "412 of 1,020 lines (40.4%) in 6 files counted".
    pub fn summary(&self) -> String {
        let (hit, lines) = self.totals();
        let percent = if lines == 0 {
            0.0
        } else {
            100.0 * hit as f64 / lines as f64
        };
        format!(
            "{hit} of {} ({percent:.1}%) in {} counted",
            crate::report::counted(lines, "line"),
            crate::report::counted(self.files.len(), "file")
        )
    }
}

/// The pid in a file name `PREFIX<pid>SUFFIX`.
fn pid_of(name: &str, prefix: &str, suffix: &str) -> Option<u32> {
    name.strip_prefix(prefix)?
        .strip_suffix(suffix)?
        .parse()
        .ok()
}

/// Whether process `pid` is gone (or a zombie).
fn ended(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state == "Z"),
        Err(_) => true,
    }
}

/// A file's bytes, if it is no larger than [`MAX_FILE`].
fn read_bounded(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_and_node_files_merge_into_one_count_per_file() {
        let dir = std::env::temp_dir().join(format!("mcp-lines-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        // A pid that cannot be alive: the files are removed once read.
        let pid = u32::MAX - 7;
        std::fs::write(
            dir.join(format!("manifest-{pid}.jsonl")),
            "{\"file\": \"/s/a.py\", \"lines\": [1, 2, 5], \"slot\": 0}\nnot json\n",
        )
        .expect("manifest");
        std::fs::write(dir.join(format!("lines-{pid}")), [1u8, 0, 1]).expect("hits");
        std::fs::write(
            dir.join(format!("lines-{}.json", pid - 1)),
            r#"{"files": {"/s/b.js": {"lines": [1, 2, 3, 4], "hit": [1, 4, 9]}}}"#,
        )
        .expect("node");
        let mut coverage = LineCoverage::default();
        coverage.harvest(&dir);
        let files: Vec<_> = coverage
            .files()
            .map(|(p, f)| (p.to_path_buf(), f.clone()))
            .collect();
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].1.hit, BTreeSet::from([1, 5]));
        // A hit on a line the file does not list is not counted.
        assert_eq!(files[1].1.hit, BTreeSet::from([1, 4]));
        assert_eq!(coverage.totals(), (4, 7));
        assert_eq!(
            coverage.summary(),
            "4 of 7 lines (57.1%) in 2 files counted"
        );
        // Read once, the files of ended processes are gone; the count stays.
        assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 0);
        coverage.harvest(&dir);
        assert_eq!(coverage.totals(), (4, 7));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
