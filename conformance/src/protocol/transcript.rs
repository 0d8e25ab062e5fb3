//! The record of everything exchanged with one server process.
//!
//! Checks judge the transcript, and every finding cites entries of it as evidence, so a
//! reader can replay the exchange from the report alone. The transcript is bounded:
//! past its byte budget it keeps classifying messages but stops storing their bodies.

use serde_json::Value;

use super::jsonrpc::IdMatch;

/// Who produced an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// A line we wrote to the server's stdin.
    Sent,
    /// A line the server wrote to stdout.
    Received,
    /// A line the server wrote to stderr.
    Stderr,
    /// Something the harness observed (exit, closed stdout, timeout).
    Harness,
}

/// What is wrong with a stdout line at the framing level (`RPC-STDIO-FRAMING`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FrameProblem {
    /// Not valid UTF-8.
    InvalidUtf8,
    /// Longer than the line cap.
    Overlong {
        /// Length in bytes when cut.
        length: usize,
    },
    /// Not JSON at all.
    NotJson,
    /// JSON nested deeper than the parser's bound (serde_json's 128 levels): refused
    /// before it can cost time or stack, and named as such rather than "not JSON".
    TooDeep,
    /// JSON, but not a JSON-RPC message.
    NotAMessage,
}

impl FrameProblem {
    /// In words, for reports.
    pub fn describe(&self) -> String {
        match self {
            FrameProblem::InvalidUtf8 => "invalid UTF-8".to_string(),
            FrameProblem::Overlong { length } => {
                format!("a line of {length} bytes, over the line cap")
            }
            FrameProblem::NotJson => "not JSON".to_string(),
            FrameProblem::TooDeep => {
                "JSON nested deeper than 128 levels (the harness's depth bound)".to_string()
            }
            FrameProblem::NotAMessage => "JSON but not a JSON-RPC message".to_string(),
        }
    }
}

/// One line of the transcript.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Position in the transcript, from 0.
    pub seq: usize,
    /// Who produced it.
    pub direction: Direction,
    /// The line as text (lossy for invalid UTF-8), cut to a display length.
    pub text: String,
    /// The parsed message, when it was JSON and within budget.
    pub json: Option<Value>,
    /// Set on stdout lines that are not a JSON-RPC message.
    pub problem: Option<FrameProblem>,
    /// For a received response: the `seq` of our request it answers.
    pub answers: Option<usize>,
    /// For a received response: how its id matched the request id.
    pub id_match: Option<IdMatch>,
    /// For a received response: no request of ours has (or had) this id.
    pub unsolicited: bool,
    /// For a sent line: we answered a request the server made.
    pub auto_reply: bool,
}

/// Longest text kept per entry for display; the parsed JSON is kept whole.
const MAX_TEXT: usize = 8 * 1024;
/// Total bytes of message bodies kept per transcript.
const BUDGET_BYTES: usize = 64 * 1024 * 1024;
/// Most entries kept per transcript.
const MAX_ENTRIES: usize = 200_000;

/// The ordered record of one server process.
#[derive(Debug, Clone, Default)]
pub struct Transcript {
    entries: Vec<Entry>,
    bytes: usize,
    dropped: usize,
}

impl Transcript {
    /// Appends an entry and returns its `seq`. Past the budget, the body is dropped.
    pub fn push(&mut self, direction: Direction, raw: &str, json: Option<Value>) -> usize {
        self.push_owned(direction, raw.to_string(), json)
    }

    /// [`Transcript::push`] for text the caller owns (no copy when it is short enough).
    pub fn push_owned(&mut self, direction: Direction, raw: String, json: Option<Value>) -> usize {
        let seq = self.entries.len();
        if seq >= MAX_ENTRIES {
            self.dropped += 1;
            return seq.saturating_sub(1);
        }
        self.bytes = self.bytes.saturating_add(raw.len());
        let (text, json) = if self.bytes > BUDGET_BYTES {
            self.dropped += 1;
            (
                format!("[{} bytes not kept: transcript budget exceeded]", raw.len()),
                None,
            )
        } else if raw.len() <= MAX_TEXT {
            (raw, json)
        } else {
            (cut(&raw, MAX_TEXT), json)
        };
        self.entries.push(Entry {
            seq,
            direction,
            text,
            json,
            problem: None,
            answers: None,
            id_match: None,
            unsolicited: false,
            auto_reply: false,
        });
        seq
    }

    /// Empties the transcript, keeping its allocation (a long-lived session reuses it).
    pub fn clear(&mut self) {
        self.entries.clear();
        self.bytes = 0;
        self.dropped = 0;
    }

    /// Mutable access to an entry just pushed (to annotate it).
    pub fn get_mut(&mut self, seq: usize) -> Option<&mut Entry> {
        self.entries.get_mut(seq)
    }

    /// An entry by `seq`.
    pub fn get(&self, seq: usize) -> Option<&Entry> {
        self.entries.get(seq)
    }

    /// All entries, in order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Received stdout entries, in order.
    pub fn received(&self) -> impl Iterator<Item = &Entry> {
        self.entries
            .iter()
            .filter(|e| e.direction == Direction::Received)
    }

    /// The last `n` stderr lines, for evidence when a server dies.
    pub fn stderr_tail(&self, n: usize) -> Vec<&Entry> {
        let mut tail: Vec<_> = self
            .entries
            .iter()
            .rev()
            .filter(|e| e.direction == Direction::Stderr)
            .take(n)
            .collect();
        tail.reverse();
        tail
    }

    /// How many entries lost their body to the budget.
    pub fn dropped(&self) -> usize {
        self.dropped
    }
}

/// Cuts `text` to at most `max` bytes on a character boundary, saying so.
pub fn cut(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… [{} bytes in all]", &text[..end], text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_on_a_char_boundary() {
        let text = "é".repeat(10);
        let out = cut(&text, 5);
        assert!(out.starts_with("éé…"), "{out}");
        assert!(out.ends_with("[20 bytes in all]"));
    }

    #[test]
    fn stderr_tail_keeps_order() {
        let mut t = Transcript::default();
        for i in 0..5 {
            t.push(Direction::Stderr, &format!("line {i}"), None);
        }
        let tail: Vec<_> = t.stderr_tail(2).iter().map(|e| e.text.clone()).collect();
        assert_eq!(tail, vec!["line 3", "line 4"]);
    }
}
