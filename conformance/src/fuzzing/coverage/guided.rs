//! The coverage-guided loop of `fuzz --coverage`: the live target's cases, chosen by what
//! the server's own code did with the ones before.
//!
//! libFuzzer's loop, with the agent's counters for its coverage: run every kept input once
//! (the corpus folder's, or the seed's first inputs when it is empty), then over and over
//! take a kept input, mutate it (`mutate.rs`, with the words of the server's own source),
//! run it, and keep it when it reached an edge or a hit-count bucket no input before it
//! reached (`feedback.rs`). A finding is judged, shrunk, confirmed and saved by the live
//! target as without coverage; this loop only chooses the inputs.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::agent::{Agent, EDGES};
use super::corpus::Corpus;
use super::feedback::Feedback;
use super::lines::LineCoverage;
use super::mutate::Mutator;
use crate::fuzzing::dictionary;
use crate::fuzzing::{seeded_input, Finding, LiveTarget};

/// Inputs from the seed alone before mutation starts, on an empty corpus.
const FIRST_INPUTS: u64 = 64;
/// One input in this many is fresh from the seed rather than a mutation (exploration).
const FRESH_EVERY: usize = 16;
/// How many of the newest entries are picked from half of the time (they reach deepest).
const RECENT: usize = 8;
/// Largest source file read for words.
const MAX_SOURCE: u64 = 1 << 20;
/// How often a progress event is given.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// How long, from what seed, and what may stop it.
#[derive(Debug, Clone)]
pub struct GuidedConfig {
    /// The seed of fresh inputs and of mutation.
    pub seed: u64,
    /// Time to fuzz.
    pub budget: Duration,
    /// Set from elsewhere (Ctrl-C) to stop after the case under way.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Stop after this many cases too (tests: a count, not a time).
    pub max_execs: Option<u64>,
}

/// What the loop tells its caller as it goes.
#[derive(Debug)]
pub enum GuidedEvent<'a> {
    /// A case failed the oracle (shrunk, confirmed and saved by the live target).
    Finding {
        /// What failed.
        finding: Box<Finding>,
        /// The lines reached so far.
        lines: &'a LineCoverage,
        /// Cases run, this one included.
        execs: u64,
        /// Seconds from the start to when the failing case was sent (its shrinking and
        /// confirmation come after).
        seconds: f64,
    },
    /// Every ten seconds: cases run, entries kept, edges reached.
    Progress {
        /// Cases run.
        execs: u64,
        /// Entries in the corpus.
        corpus: usize,
        /// Edges reached.
        edges: usize,
        /// Seconds since the start.
        seconds: f64,
    },
}

/// How a guided run went.
#[derive(Debug, Default)]
pub struct GuidedOutcome {
    /// Cases run (the corpus's replay included).
    pub execs: u64,
    /// Entries read from the corpus folder.
    pub loaded: usize,
    /// Entries this run added.
    pub kept: usize,
    /// Edges (hit-count buckets aside) reached.
    pub edges: usize,
    /// Words of the server's source used for mutation.
    pub words: usize,
    /// The lines of the server's own files that ran.
    pub lines: LineCoverage,
    /// Seconds spent.
    pub seconds: f64,
    /// Stopped after the first inputs because none of them reached any code counted: a
    /// run so guided would be a blind one.
    pub blind: bool,
}

/// Fuzzes `target` (started on `agent`'s wrapped command) until the budget is spent or
/// the interrupt is set, keeping new-coverage inputs in `corpus`.
pub fn fuzz(
    target: &mut LiveTarget,
    agent: &mut Agent,
    mut corpus: Corpus,
    config: &GuidedConfig,
    mut on_event: impl FnMut(GuidedEvent<'_>),
) -> GuidedOutcome {
    let started = Instant::now();
    let mut outcome = GuidedOutcome {
        loaded: corpus.loaded(),
        ..GuidedOutcome::default()
    };
    agent.flush_lines();
    outcome.lines.harvest(agent.folder());
    let words = source_words(&outcome.lines);
    outcome.words = words.len();
    let mut mutator = Mutator::new(config.seed, words);
    let mut feedback = Feedback::default();
    let mut counters = Box::new([0u8; EDGES]);
    let mut state = config.seed;
    let mut last_progress = Instant::now();
    let stopped = || {
        config
            .interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::SeqCst))
    };
    let mut replay = corpus.entries().to_vec().into_iter();
    // How often a mutation of each entry failed: an entry one edit away from a known crash
    // would spend the run restarting the server on it.
    let mut failed: Vec<u32> = vec![0; corpus.entries().len()];
    let spent = |execs: u64| config.max_execs.is_some_and(|m| execs >= m);
    while started.elapsed() < config.budget && !stopped() && !spent(outcome.execs) {
        let (input, parent) = match replay.next() {
            Some(entry) => (entry, Parent::Corpus),
            None => next_input(&corpus, &failed, &mut mutator, &mut state, outcome.execs),
        };
        let sent = started.elapsed().as_secs_f64();
        agent.before_case();
        let finding = target.run(&input);
        agent.after_case(&mut counters);
        outcome.execs += 1;
        if let Some(finding) = finding {
            if let Parent::Entry(i) = parent {
                failed[i] = failed[i].saturating_add(1);
            }
            agent.flush_lines();
            outcome.lines.harvest(agent.folder());
            on_event(GuidedEvent::Finding {
                finding: Box::new(finding),
                lines: &outcome.lines,
                execs: outcome.execs,
                seconds: sent,
            });
            continue;
        }
        if feedback.add(&counters[..]).is_new() && parent != Parent::Corpus {
            // A folder that cannot be written to keeps the entry in memory all the same.
            let _ = corpus.add(input);
            failed.push(0);
            outcome.kept += 1;
        }
        if outcome.execs == FIRST_INPUTS && feedback.edges() == 0 {
            // The process counted runs none of its code when cases come: a launcher in front
            // of the real server, or a server whose code lies outside the scope.
            outcome.blind = true;
            break;
        }
        if last_progress.elapsed() >= PROGRESS_EVERY {
            last_progress = Instant::now();
            on_event(GuidedEvent::Progress {
                execs: outcome.execs,
                corpus: corpus.entries().len(),
                edges: feedback.edges(),
                seconds: started.elapsed().as_secs_f64(),
            });
        }
    }
    agent.flush_lines();
    outcome.lines.harvest(agent.folder());
    outcome.edges = feedback.edges();
    outcome.seconds = started.elapsed().as_secs_f64();
    outcome
}

/// Where an input came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Parent {
    /// Read from the corpus folder (run once, not kept again).
    Corpus,
    /// Fresh from the seed.
    Seed,
    /// A mutation of this entry.
    Entry(usize),
}

/// The next input: fresh from the seed at first and now and then, else a mutation of a
/// kept entry (one of the newest half of the time), spliced now and then with another. An
/// entry whose mutations failed `n` times is passed over with odds `n` in `n + 1` (up to
/// three draws), so a known crash one edit away does not take the run.
fn next_input(
    corpus: &Corpus,
    failed: &[u32],
    mutator: &mut Mutator,
    state: &mut u64,
    execs: u64,
) -> (Vec<u8>, Parent) {
    let entries = corpus.entries();
    if entries.is_empty() || execs < FIRST_INPUTS || mutator.below(FRESH_EVERY) == 0 {
        return (seeded_input(state), Parent::Seed);
    }
    let mut pick = 0;
    for _ in 0..3 {
        pick = if mutator.below(2) == 0 {
            entries.len() - 1 - mutator.below(RECENT.min(entries.len()))
        } else {
            mutator.below(entries.len())
        };
        let n = failed.get(pick).copied().unwrap_or(0) as usize;
        if mutator.below(n + 1) == 0 {
            break;
        }
    }
    let other = &entries[mutator.below(entries.len())];
    (
        mutator.mutate(&entries[pick], Some(other)),
        Parent::Entry(pick),
    )
}

/// The words of the server's own source files, as its agent listed them.
fn source_words(lines: &LineCoverage) -> Vec<Vec<u8>> {
    use std::io::Read;
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for (path, _) in lines.files() {
        let python = path.extension().is_some_and(|e| e == "py");
        let mut text = String::new();
        let read =
            std::fs::File::open(path).and_then(|f| f.take(MAX_SOURCE).read_to_string(&mut text));
        if read.is_err() {
            continue;
        }
        for word in dictionary::script_words(&text, python) {
            if out.len() < dictionary::MAX_WORDS && seen.insert(word.clone()) {
                out.push(word);
            }
        }
    }
    out
}
