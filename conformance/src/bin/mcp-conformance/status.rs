//! The status line on stderr while a run goes on: which revision is in which phase, and
//! how many generated cases of how many have run, rewritten in place a few times a second.
//!
//! Only on a terminal: in CI logs and pipes a rewritten line is noise, so there the
//! one-line-per-revision messages are all. The line is cleared before any other message
//! and at the end, so it never mixes with them.

use std::io::{IsTerminal, Write};

use mcp_conformance::runner::RunEvent;
use mcp_conformance::scenarios::progress::{Phase, Snapshot};

/// Longest status line written (a narrow terminal would wrap a longer one, and a wrapped
/// line cannot be rewritten in place).
const WIDTH: usize = 78;

/// Prints run events on stderr, with a status line when stderr is a terminal.
pub(crate) struct Status {
    live: bool,
    shown: bool,
}

impl Status {
    /// A status line only when stderr is a terminal.
    pub(crate) fn new() -> Self {
        Status {
            live: std::io::stderr().is_terminal(),
            shown: false,
        }
    }

    pub(crate) fn event(&mut self, event: RunEvent) {
        match event {
            RunEvent::RevisionStarted(rev) => self.say(&format!("running {rev}")),
            RunEvent::NegotiationStarted => self.say("probing version negotiation"),
            RunEvent::RevisionJudged(..) => {}
            RunEvent::Cut(reason) => self.say(&format!("{reason}; judging what finished")),
            RunEvent::Progress(now) if self.live && !now.is_empty() => {
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r\x1b[K{}", line(&now));
                let _ = err.flush();
                self.shown = true;
            }
            RunEvent::Progress(_) => {}
        }
    }

    /// A message of its own line, after clearing the status line.
    fn say(&mut self, text: &str) {
        self.clear();
        eprintln!("mcp-conformance: {text}");
    }

    /// Clears the status line, if one is shown.
    pub(crate) fn clear(&mut self) {
        if self.shown {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
            self.shown = false;
        }
    }
}

impl Drop for Status {
    fn drop(&mut self) {
        self.clear();
    }
}

/// `mcp-conformance: 2025-06-18 property 120/320 · 2025-11-25 scripted`, cut to [`WIDTH`].
fn line(now: &[(&str, Snapshot)]) -> String {
    let parts: Vec<String> = now
        .iter()
        .map(|(rev, s)| match s.phase {
            Phase::Property if s.total > 0 => {
                format!("{rev} {} {}/{}", s.phase.as_str(), s.done, s.total)
            }
            phase => format!("{rev} {}", phase.as_str()),
        })
        .collect();
    let mut text = format!("mcp-conformance: {}", parts.join(" · "));
    if text.chars().count() > WIDTH {
        text = text.chars().take(WIDTH - 1).collect::<String>() + "…";
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(phase: Phase, done: u64, total: u64) -> Snapshot {
        Snapshot { phase, done, total }
    }

    #[test]
    fn the_line_names_each_revision_its_phase_and_its_cases() {
        let now = [
            ("2025-06-18", at(Phase::Property, 120, 320)),
            ("2025-11-25", at(Phase::Scripted, 0, 0)),
        ];
        assert_eq!(
            line(&now),
            "mcp-conformance: 2025-06-18 property 120/320 · 2025-11-25 scripted"
        );
        let many: Vec<_> = (0..6)
            .map(|_| ("2025-06-18", at(Phase::Sequences, 0, 0)))
            .collect();
        let long = line(&many);
        assert_eq!(long.chars().count(), WIDTH);
        assert!(long.ends_with('…'));
    }
}
