//! The corpus: inputs that reached new coverage, kept in memory for mutation and in a
//! folder so a later run starts where this one stopped (`--corpus DIR`). Each file is one
//! raw input named by the hash of its bytes, as libFuzzer names them, so a folder can be
//! shared with `cargo fuzz run live_server` and any entry replayed with `replay FILE`.

use std::path::{Path, PathBuf};

use super::mutate::MAX_LEN;

/// Most entries read from a folder (a larger folder is read in name order up to this).
const MAX_ENTRIES: usize = 100_000;

/// Inputs kept, and where they are saved.
#[derive(Debug, Default)]
pub struct Corpus {
    dir: Option<PathBuf>,
    entries: Vec<Vec<u8>>,
    /// Entries read from the folder at the start (the rest were found by this run).
    loaded: usize,
}

impl Corpus {
    /// The entries of `dir` (made if missing) in name order, or an empty corpus kept in
    /// memory only. Files over [`MAX_LEN`] bytes are cut (what the decoder would read of
    /// them differs little), empty ones skipped.
    pub fn open(dir: Option<&Path>) -> crate::Result<Self> {
        let mut corpus = Self {
            dir: dir.map(Path::to_path_buf),
            ..Self::default()
        };
        let Some(dir) = dir else {
            return Ok(corpus);
        };
        let unreadable = |e: std::io::Error| crate::Error::Config {
            path: dir.to_path_buf(),
            message: format!("the corpus folder: {e}"),
        };
        std::fs::create_dir_all(dir).map_err(unreadable)?;
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(unreadable)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        files.truncate(MAX_ENTRIES);
        for path in files {
            use std::io::Read;
            let mut bytes = Vec::new();
            let read = std::fs::File::open(&path)
                .and_then(|f| f.take(MAX_LEN as u64).read_to_end(&mut bytes));
            if read.is_ok() && !bytes.is_empty() {
                corpus.entries.push(bytes);
            }
        }
        corpus.loaded = corpus.entries.len();
        Ok(corpus)
    }

    /// Keeps `input` (and saves it, when there is a folder).
    pub fn add(&mut self, input: Vec<u8>) -> std::io::Result<()> {
        if let Some(dir) = &self.dir {
            std::fs::write(dir.join(name(&input)), &input)?;
        }
        self.entries.push(input);
        Ok(())
    }

    /// The entries, oldest first.
    pub fn entries(&self) -> &[Vec<u8>] {
        &self.entries
    }

    /// How many entries came from the folder.
    pub fn loaded(&self) -> usize {
        self.loaded
    }

    /// The folder, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }
}

/// An entry's file name: the FNV-1a hash of its bytes, 16 hex digits (the same bytes,
/// the same file; no crate needed for a name).
fn name(input: &[u8]) -> String {
    let hash = input.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corpus_folder_is_resumed_in_name_order() {
        let dir = std::env::temp_dir().join(format!("mcp-corpus-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut corpus = Corpus::open(Some(&dir)).expect("made");
        corpus.add(b"second".to_vec()).expect("saved");
        corpus.add(b"first".to_vec()).expect("saved");
        corpus
            .add(b"first".to_vec())
            .expect("saved again, same file");
        std::fs::write(dir.join("empty"), b"").expect("write");
        let again = Corpus::open(Some(&dir)).expect("read");
        assert_eq!(again.loaded(), 2);
        let mut expected = vec![b"second".to_vec(), b"first".to_vec()];
        expected.sort_by_key(|e| name(e));
        assert_eq!(again.entries(), expected);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
