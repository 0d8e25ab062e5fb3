//! The record of everything exchanged with one server process.
//!
//! Checks judge the transcript, and every finding cites entries of it as evidence, so a
//! reader can replay the exchange from the report alone. The transcript is bounded per
//! server process: our requests and their responses keep their place and, up to a byte
//! budget, their bodies; what the server sent unprompted (notifications, its own
//! requests, stray lines, stderr) is kept up to a small budget and then only counted, so
//! a flooding server costs a few counters, and the report says what was left out.

use std::sync::Arc;

use serde_json::Value;

use super::client::values_at_most;
use super::jsonrpc::IdMatch;
use super::ListingTail;

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
    /// The harness's own scheduling: a wait it could not judge because the machine kept
    /// it from running ([`Silence::Starved`](crate::protocol::Silence::Starved)). Only
    /// the harness writes these, so a finding that cites one rests on the load, never on
    /// text a server chose.
    Load,
}

/// What is wrong with a stdout line at the framing level (`RPC-STDIO-FRAMING`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FrameProblem {
    /// Not valid UTF-8.
    InvalidUtf8,
    /// Longer than the line cap.
    Overlong {
        /// The line had at least this many bytes (the cap plus one).
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
                format!("a line of at least {length} bytes, over the line cap")
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
    /// The parsed message, when it was JSON and within budget; shared with the
    /// [`crate::protocol::Exchange`] that answers it, so a large response is held once.
    pub json: Option<Arc<Value>>,
    /// For a tools/list page too wide for one tree: the tools past those in `json`.
    pub listing_tail: Option<Arc<ListingTail>>,
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
/// Bytes of message bodies kept per transcript for our requests and their responses,
/// a kept body's parsed tree counted too ([`TREE_BYTES_PER_VALUE`] a value: a request of
/// 5,000 arguments is 40 KB of text and about 600 KB as a tree); past it, an entry keeps
/// its place but not its body.
const BUDGET_BYTES: usize = 16 * 1024 * 1024;
/// Bytes of unprompted traffic (see [`Unprompted`]) kept per transcript; past it, or
/// past [`UNPROMPTED_ENTRIES`], it is counted, not kept. Enough for evidence: the first
/// examples of each kind.
const UNPROMPTED_BYTES: usize = 1024 * 1024;
/// Entries of unprompted traffic kept per transcript.
const UNPROMPTED_ENTRIES: usize = 2_000;
/// What a parsed message kept for unprompted traffic may take, estimated from its values
/// ([`TREE_BYTES_PER_VALUE`] each), per transcript. Text bytes alone undercount it: an
/// 8 KB notification of 800 small objects is a tree of about 200 KB, and the 1 MiB of
/// such text each session kept held the harness at 406 MB over a run's sessions. Small
/// messages meet [`UNPROMPTED_ENTRIES`] first (2,000 log lines are about 1.5 MB as trees).
const UNPROMPTED_TREE_BYTES: usize = 2 * 1024 * 1024;
/// Bytes a value of a parsed message takes, about: an ordered map per object
/// (`{"k":1}`, eight bytes of text, is about 260 bytes as a tree: two values).
const TREE_BYTES_PER_VALUE: usize = 128;
/// Dropped stderr lines still kept, the last ones: they explain a crash.
const STDERR_RING: usize = 16;

/// What the server sent that no request of ours asked for, and our automatic answers
/// to it: kept up to a small budget, then counted (a flooding server cannot grow the
/// record).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unprompted {
    /// A notification from the server.
    Notification,
    /// A request from the server.
    Request,
    /// A response that answers no outstanding request of ours.
    Response,
    /// A stdout line that is not a JSON-RPC message.
    Stray,
    /// A stderr line.
    Stderr,
    /// Our automatic answer to a request of the server.
    Reply,
    /// A `notifications/progress` for a `progressToken` one of our requests carried: it
    /// answers (in part) a request of ours, so it is not unprompted; it still counts
    /// against the flood bound, like everything on stdout that is not a response.
    Progress,
}

/// Counts of unprompted traffic, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    /// Notifications.
    pub notifications: u64,
    /// Requests from the server.
    pub requests: u64,
    /// Responses that answered nothing outstanding.
    pub responses: u64,
    /// stdout lines that are not messages.
    pub stray: u64,
    /// stderr lines.
    pub stderr: u64,
    /// Our automatic answers.
    pub replies: u64,
    /// Progress notifications for a `progressToken` of ours (not unprompted, but bounded).
    pub progress: u64,
    /// Bytes of all of the above but stderr and our answers.
    pub bytes: u64,
}

impl Tally {
    fn add(&mut self, kind: Unprompted, bytes: usize) {
        let slot = match kind {
            Unprompted::Notification => &mut self.notifications,
            Unprompted::Request => &mut self.requests,
            Unprompted::Response => &mut self.responses,
            Unprompted::Stray => &mut self.stray,
            Unprompted::Stderr => &mut self.stderr,
            Unprompted::Reply => &mut self.replies,
            Unprompted::Progress => &mut self.progress,
        };
        *slot += 1;
        if !matches!(kind, Unprompted::Stderr | Unprompted::Reply) {
            self.bytes = self.bytes.saturating_add(bytes as u64);
        }
    }

    /// Messages on stdout that are not responses to our requests, as the flood bound
    /// counts them: those nobody asked for and progress for our own tokens (stderr and our
    /// answers excluded).
    pub fn stdout_messages(&self) -> u64 {
        self.unprompted_messages() + self.progress
    }

    /// Messages on stdout that nobody asked for: [`Tally::stdout_messages`] without the
    /// progress notifications for our own tokens.
    pub fn unprompted_messages(&self) -> u64 {
        self.notifications + self.requests + self.responses + self.stray
    }

    /// Whether nothing was counted.
    pub fn is_empty(&self) -> bool {
        *self == Tally::default()
    }

    /// "12,403 notifications, 2 requests" (kinds with a count only).
    pub fn describe(&self) -> String {
        let parts: Vec<String> = [
            (self.notifications, "notification", "notifications"),
            (self.requests, "request", "requests"),
            (
                self.responses,
                "unsolicited response",
                "unsolicited responses",
            ),
            (self.stray, "stray line", "stray lines"),
            (self.stderr, "stderr line", "stderr lines"),
            (
                self.replies,
                "automatic answer of ours",
                "automatic answers of ours",
            ),
            (
                self.progress,
                "progress notification for our own progressToken",
                "progress notifications for our own progressToken",
            ),
        ]
        .into_iter()
        .filter(|(n, ..)| *n > 0)
        .map(|(n, one, many)| format!("{} {}", thousands(n), if n == 1 { one } else { many }))
        .collect();
        parts.join(", ")
    }
}

/// `12403` as "12,403".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The ordered record of one server process.
#[derive(Debug, Clone, Default)]
pub struct Transcript {
    entries: Vec<Entry>,
    /// Body bytes kept of our requests and their responses.
    bytes: usize,
    /// Entries that lost their body to [`BUDGET_BYTES`].
    bodies_dropped: usize,
    /// Body bytes and entries kept of unprompted traffic.
    unprompted_bytes: usize,
    unprompted_kept: usize,
    /// Estimated tree bytes kept of unprompted traffic, and whether that budget
    /// ([`UNPROMPTED_TREE_BYTES`]) is what turned a message away.
    unprompted_trees: usize,
    tree_bound: bool,
    /// Every unprompted message seen, kept or not.
    seen: Tally,
    /// Unprompted messages not kept.
    dropped: Tally,
    /// The last stderr lines not kept (with the seq they would have had).
    stderr_ring: std::collections::VecDeque<Entry>,
    /// The harness note saying the session was cut for flooding, if it was.
    flood_cut: Option<usize>,
    /// Notifications recorded without their tree, and the budget of values they passed.
    skimmed: (u64, usize),
}

impl Transcript {
    /// Appends an entry and returns its `seq`. Past the budget, the body is dropped.
    pub fn push(&mut self, direction: Direction, raw: &str, json: Option<Value>) -> usize {
        self.push_owned(direction, raw.to_string(), json)
    }

    /// [`Transcript::push`] for text the caller owns (no copy when it is short enough).
    pub fn push_owned(&mut self, direction: Direction, raw: String, json: Option<Value>) -> usize {
        self.push_shared(direction, raw, json.map(Arc::new))
    }

    /// [`Transcript::push_owned`] for a message the caller keeps too (a response its
    /// exchange holds): one parsed copy, shared.
    pub fn push_shared(
        &mut self,
        direction: Direction,
        raw: String,
        json: Option<Arc<Value>>,
    ) -> usize {
        self.bytes = self.bytes.saturating_add(raw.len());
        let tree = json
            .as_ref()
            .map_or(0, |_| values_at_most(&raw) * TREE_BYTES_PER_VALUE);
        let (text, json) = if self.bytes > BUDGET_BYTES {
            self.bodies_dropped += 1;
            (
                format!("[{} bytes not kept: transcript budget exceeded]", raw.len()),
                None,
            )
        } else {
            // The message that crosses the budget is kept whole; the next ones are not.
            self.bytes = self.bytes.saturating_add(tree);
            (cut_owned(raw, MAX_TEXT), json)
        };
        self.append(direction, text, json)
    }

    fn append(&mut self, direction: Direction, text: String, json: Option<Arc<Value>>) -> usize {
        let seq = self.entries.len();
        self.entries.push(Entry {
            seq,
            direction,
            text,
            json,
            listing_tail: None,
            problem: None,
            answers: None,
            id_match: None,
            unsolicited: false,
            auto_reply: false,
        });
        seq
    }

    /// Records unprompted traffic: kept (returning its `seq`) while its budget lasts,
    /// else only counted (`None`). Either way it counts in [`Transcript::unprompted`].
    pub fn push_unprompted(
        &mut self,
        kind: Unprompted,
        direction: Direction,
        raw: String,
        json: Option<Value>,
    ) -> Option<usize> {
        self.seen.add(kind, raw.len());
        let tree = json
            .as_ref()
            .map_or(0, |_| values_at_most(&raw) * TREE_BYTES_PER_VALUE);
        let within = self.unprompted_kept < UNPROMPTED_ENTRIES
            && self.unprompted_bytes.saturating_add(raw.len()) <= UNPROMPTED_BYTES;
        let kept = within && self.unprompted_trees.saturating_add(tree) <= UNPROMPTED_TREE_BYTES;
        self.tree_bound |= within && !kept;
        if kept {
            self.unprompted_kept += 1;
            self.unprompted_bytes += raw.len();
            self.unprompted_trees += tree;
            return Some(self.append(direction, cut_owned(raw, MAX_TEXT), json.map(Arc::new)));
        }
        self.dropped.add(kind, raw.len());
        if kind == Unprompted::Stderr {
            if self.stderr_ring.len() == STDERR_RING {
                self.stderr_ring.pop_front();
            }
            self.stderr_ring.push_back(Entry {
                seq: self.entries.len(),
                direction,
                text: cut_owned(raw, MAX_TEXT),
                json: None,
                listing_tail: None,
                problem: None,
                answers: None,
                id_match: None,
                unsolicited: false,
                auto_reply: false,
            });
        }
        None
    }

    /// Empties the transcript, keeping its allocation (a long-lived session reuses it).
    pub fn clear(&mut self) {
        self.entries.clear();
        self.bytes = 0;
        self.bodies_dropped = 0;
        self.unprompted_bytes = 0;
        self.unprompted_kept = 0;
        self.unprompted_trees = 0;
        self.tree_bound = false;
        self.seen = Tally::default();
        self.dropped = Tally::default();
        self.stderr_ring.clear();
        self.flood_cut = None;
    }

    /// Marks the last entry (a harness note) as the place the session was cut for
    /// flooding.
    pub fn mark_flood_cut(&mut self) {
        self.flood_cut = self.entries.len().checked_sub(1);
    }

    /// The seq of the note saying the session was cut for flooding, if it was.
    pub fn flood_cut(&self) -> Option<usize> {
        self.flood_cut
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

    /// The ids of every request we sent (batched ones included), in order.
    pub fn request_ids(&self) -> Vec<&Value> {
        let request = |j: &&Value| j.get("result").is_none() && j.get("error").is_none();
        self.entries
            .iter()
            .filter(|e| e.direction == Direction::Sent)
            .filter_map(|e| e.json.as_deref())
            .flat_map(|j| match j.as_array() {
                Some(batch) => batch.iter().collect::<Vec<_>>(),
                None => vec![j],
            })
            .filter(request)
            .filter_map(|j| j.get("id"))
            .collect()
    }

    /// Received stdout entries, in order.
    pub fn received(&self) -> impl Iterator<Item = &Entry> {
        self.entries
            .iter()
            .filter(|e| e.direction == Direction::Received)
    }

    /// The last `n` stderr lines, for evidence when a server dies (those past the
    /// budget included: the last lines are the ones that explain a crash).
    pub fn stderr_tail(&self, n: usize) -> Vec<&Entry> {
        let mut tail: Vec<_> = self
            .entries
            .iter()
            .filter(|e| e.direction == Direction::Stderr)
            .map(|e| ((e.seq, 1), e))
            .chain(self.stderr_ring.iter().map(|e| ((e.seq, 0), e)))
            .collect();
        // A dropped line with seq s came after entry s - 1 and before entry s.
        tail.sort_by_key(|(key, _)| *key);
        let skip = tail.len().saturating_sub(n);
        tail.into_iter().skip(skip).map(|(_, e)| e).collect()
    }

    /// How many entries lost their body, or their place, to a budget.
    pub fn dropped(&self) -> usize {
        let d = &self.dropped;
        let lost = d.notifications + d.requests + d.responses + d.stray + d.stderr + d.replies;
        self.bodies_dropped + usize::try_from(lost).unwrap_or(usize::MAX)
    }

    /// Every unprompted message seen, kept in the record or not.
    pub fn unprompted(&self) -> &Tally {
        &self.seen
    }

    /// Unprompted messages counted but not kept in the record.
    pub fn unprompted_dropped(&self) -> &Tally {
        &self.dropped
    }

    /// Counts a notification recorded without its tree: it held more than `budget` JSON
    /// values (`client/skim.rs`).
    pub fn count_skimmed(&mut self, budget: usize) {
        self.skimmed = (self.skimmed.0 + 1, budget);
    }

    /// What the record left out, in words ("12,403 notifications dropped from the
    /// record ..."), or `None` when it is complete.
    pub fn dropped_summary(&self) -> Option<String> {
        let mut parts = Vec::new();
        if let (n @ 1.., budget) = self.skimmed {
            parts.push(format!(
                "{} notification(s) of more than {} JSON values recorded by their method only, \
                 not checked (a message that wide is not parsed into a tree)",
                thousands(n),
                thousands(budget as u64)
            ));
        }
        if !self.dropped.is_empty() {
            let trees = if self.tree_bound {
                format!(
                    ", about {} MiB as parsed trees",
                    UNPROMPTED_TREE_BYTES >> 20
                )
            } else {
                String::new()
            };
            parts.push(format!(
                "{} dropped from the record (it keeps the first {} unprompted messages or {} KiB{trees}; the rest is counted)",
                self.dropped.describe(),
                thousands(UNPROMPTED_ENTRIES as u64),
                UNPROMPTED_BYTES / 1024
            ));
        }
        if self.bodies_dropped > 0 {
            parts.push(format!(
                "{} message bodies not kept (over the record's {} MiB)",
                thousands(self.bodies_dropped as u64),
                BUDGET_BYTES >> 20
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// [`cut`] without a copy when `text` is short enough.
fn cut_owned(text: String, max: usize) -> String {
    if text.len() <= max {
        text
    } else {
        cut(&text, max)
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
    fn a_flood_is_counted_not_kept() {
        let mut t = Transcript::default();
        let note = r#"{"jsonrpc":"2.0","method":"notifications/message"}"#;
        for _ in 0..(UNPROMPTED_ENTRIES + 12_403) {
            let kind = Unprompted::Notification;
            t.push_unprompted(kind, Direction::Received, note.to_string(), None);
        }
        assert_eq!(t.entries().len(), UNPROMPTED_ENTRIES);
        assert_eq!(
            t.unprompted().notifications,
            UNPROMPTED_ENTRIES as u64 + 12_403
        );
        let summary = t.dropped_summary().unwrap();
        assert!(
            summary.starts_with("12,403 notifications dropped from the record"),
            "{summary}"
        );
        // Our own traffic is still recorded.
        let seq = t.push(Direction::Sent, "{}", None);
        assert_eq!(seq, UNPROMPTED_ENTRIES);
    }

    /// Notifications of many small values: a few megabytes of trees are kept, not the
    /// 1 MiB of text's worth (twenty times that as trees), and the summary says which
    /// budget turned the rest away. Log lines of a few values still meet the entry cap.
    #[test]
    fn unprompted_trees_are_kept_within_their_own_budget() {
        let objects = vec![r#"{"k":1}"#; 800].join(",");
        let line = format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"data":[{objects}]}}}}"#
        );
        let mut t = Transcript::default();
        for _ in 0..128 {
            let json = serde_json::from_str(&line).unwrap();
            t.push_unprompted(
                Unprompted::Notification,
                Direction::Received,
                line.clone(),
                Some(json),
            );
        }
        let kept = t.entries().len();
        assert!(kept * line.len() < UNPROMPTED_BYTES / 4, "{kept} kept");
        assert!(
            kept * 1_600 * TREE_BYTES_PER_VALUE <= UNPROMPTED_TREE_BYTES,
            "{kept} kept"
        );
        let summary = t.dropped_summary().unwrap();
        assert!(summary.contains("about 2 MiB as parsed trees"), "{summary}");

        let mut t = Transcript::default();
        let note = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"debug","data":"flushing log line 0"}}"#;
        for _ in 0..(UNPROMPTED_ENTRIES + 10) {
            let json = serde_json::from_str(note).unwrap();
            t.push_unprompted(
                Unprompted::Notification,
                Direction::Received,
                note.into(),
                Some(json),
            );
        }
        assert_eq!(t.entries().len(), UNPROMPTED_ENTRIES);
        assert!(!t.dropped_summary().unwrap().contains("parsed trees"));
    }

    #[test]
    fn the_stderr_tail_includes_lines_past_the_budget() {
        let mut t = Transcript::default();
        t.push(Direction::Stderr, "kept", None);
        for i in 0..(UNPROMPTED_ENTRIES + 20) {
            t.push_unprompted(
                Unprompted::Stderr,
                Direction::Stderr,
                format!("line {i}"),
                None,
            );
        }
        let tail: Vec<_> = t.stderr_tail(2).iter().map(|e| e.text.clone()).collect();
        let last = UNPROMPTED_ENTRIES + 19;
        assert_eq!(
            tail,
            vec![format!("line {}", last - 1), format!("line {last}")]
        );
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(12_403), "12,403");
        assert_eq!(thousands(1_234_567), "1,234,567");
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
