//! What one revision's conversation showed of the tool surface: the revision not offered,
//! its listing cut short, or its tools merged from the walks made (the first walk, and the
//! second when the conversation made one: [`Listing::merge`]). Read by `snapshot` and by a
//! run given a snapshot to check, so both see a revision's tools the same way.

use serde_json::Value;

use super::revision::RevisionRecord;
use super::tools::each_listed_tool;
use crate::protocol::{cut_text, Exchange};
use crate::surface::{Listing, Snapshot, VARIES};

/// One revision's tool surface, as far as its conversation saw it.
#[derive(Debug, Clone)]
pub enum SurfaceSeen {
    /// The server does not speak the revision (why).
    NotOffered(String),
    /// The listing could not be walked to its end (why): nothing is snapshotted or
    /// compared for this revision.
    Incomplete(String),
    /// The tools (none when the server does not declare the tools capability).
    Listed(Listing),
}

impl RevisionRecord {
    /// What this revision's conversation saw of the tool surface. Only an answer makes a
    /// revision not offered (another version negotiated, a modern server naming others, a
    /// legacy server's refusal of the modern discovery): silence, or an answer without a
    /// version, makes it incomplete, so a server slow to start never reads as one that
    /// dropped a revision.
    pub fn surface(&self) -> SurfaceSeen {
        if let Some(why) = &self.stopped {
            let unanswered = self.initialize.silence().is_some()
                || (self.modern.is_none()
                    && self.initialize.result().is_some()
                    && self.negotiated.is_none());
            return match unanswered {
                true => SurfaceSeen::Incomplete(why.clone()),
                false => SurfaceSeen::NotOffered(why.clone()),
            };
        }
        if self.modern.is_none() && self.negotiated.as_deref() != Some(self.requested.id) {
            let answer = self.negotiated.as_deref().unwrap_or("nothing");
            return SurfaceSeen::NotOffered(format!("the server negotiated {answer}"));
        }
        if !self.declares_tools() {
            return SurfaceSeen::Listed(Listing::default());
        }
        if self.tools_pages.is_empty() {
            return SurfaceSeen::Incomplete("the conversation ended before tools/list".to_string());
        }
        if let Some(why) = walk_problem(&self.tools_pages, self.tools_walk_stopped.as_deref()) {
            return SurfaceSeen::Incomplete(why);
        }
        // A second walk cut short (a page cap, a cursor met again) would mark every tool
        // past the cut as varying: only a whole one is merged.
        let second = self
            .tools
            .as_ref()
            .map(|t| &t.second_walk)
            .filter(|w| walk_problem(w, None).is_none() && ended(w));
        let first = tools_of(&self.tools_pages);
        let second = second.map(|w| tools_of(w));
        SurfaceSeen::Listed(Listing::merge(&first, second.as_deref()))
    }
}

/// Why a walk does not give the whole listing, if it does not.
fn walk_problem(pages: &[Exchange], stopped: Option<&str>) -> Option<String> {
    if let Some((i, page)) = pages.iter().enumerate().find(|(_, p)| p.result().is_none()) {
        let answer = match page.error() {
            Some(error) => format!("the error {}", cut_text(&error.to_string(), 300)),
            None => "no result".to_string(),
        };
        return Some(format!("tools/list page {} got {answer}", i + 1));
    }
    stopped.map(|why| format!("the tools/list walk {why}"))
}

/// Whether a walk reached its last page (one without `nextCursor`).
fn ended(pages: &[Exchange]) -> bool {
    pages
        .last()
        .and_then(Exchange::result)
        .is_some_and(|r| r.get("nextCursor").is_none_or(Value::is_null))
}

/// Every tool of a walk, in listing order.
fn tools_of(pages: &[Exchange]) -> Vec<Value> {
    let mut tools = Vec::new();
    each_listed_tool(pages, |tool| tools.push(tool.clone()));
    tools
}

/// The tool surface a run (or `snapshot`) saw: the snapshot of the revisions listed whole,
/// which revisions it speaks for, and what the reader should know about the rest.
#[derive(Debug, Clone, Default)]
pub struct LiveSurface {
    /// The revisions listed whole, with their tools.
    pub snapshot: Snapshot,
    /// The revisions it speaks for, in order: listed whole, or not offered by the server.
    /// A snapshot's other revisions are neither compared nor replaced.
    pub scope: Vec<&'static str>,
    /// The revisions of `scope` the server does not offer.
    pub not_offered: Vec<&'static str>,
    /// One line per revision not listed whole, and per listing that varied or repeated a
    /// name.
    pub notes: Vec<String>,
}

impl LiveSurface {
    /// Adds what one revision's conversation saw (`Err(why)`: it did not run).
    pub fn add(&mut self, revision: &'static str, seen: Result<SurfaceSeen, String>) {
        match seen {
            Err(why) => self.notes.push(format!("{revision}: not listed ({why})")),
            Ok(SurfaceSeen::NotOffered(why)) => {
                self.scope.push(revision);
                self.not_offered.push(revision);
                self.notes.push(format!("{revision}: not offered ({why})"));
            }
            Ok(SurfaceSeen::Incomplete(why)) => self.notes.push(format!(
                "{revision}: not listed whole, left as the snapshot had it ({why})"
            )),
            Ok(SurfaceSeen::Listed(listing)) => {
                self.scope.push(revision);
                self.note_listing(revision, &listing);
                self.snapshot
                    .revisions
                    .insert(revision.to_string(), listing.tools);
            }
        }
    }

    fn note_listing(&mut self, revision: &str, listing: &Listing) {
        if !listing.unstable.is_empty() {
            self.notes.push(format!(
                "{revision}: two walks of tools/list differ at {}; those places are \
                 snapshotted as {VARIES:?}",
                listing.unstable.join(", ")
            ));
        }
        if !listing.duplicates.is_empty() {
            self.notes.push(format!(
                "{revision}: tools listed more than once (the first kept): {}",
                listing.duplicates.join(", ")
            ));
        }
        if listing.unnamed > 0 {
            self.notes.push(format!(
                "{revision}: {} listed tool(s) without a string name left out",
                listing.unnamed
            ));
        }
    }
}
