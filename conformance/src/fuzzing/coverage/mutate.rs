//! How a kept input becomes the next one: libFuzzer's byte mutations, stacked one to four
//! at a time, with the server's own constants inserted and two kept inputs spliced.
//!
//! Bytes are the right level to mutate: the live target reads an input as a stream of
//! choices (`generate/bytes.rs`), so every byte string is a case valid for the tools'
//! schemas (with the odd rule bent on purpose), and a small change to the bytes is a small
//! change to the case: one argument's value, one string's length, one tool for another.
//! The dictionary's words are written as that decoder reads them (`fuzzing/dictionary.rs`),
//! so a word laid over the bytes of an integer or a string makes it the server's constant.

use crate::scenarios::splitmix64;

/// Longest input made (the live target's own inputs are 8 to 255 bytes).
pub const MAX_LEN: usize = 1024;
/// Most mutations stacked on one input (libFuzzer's default depth is five).
const DEPTH: u64 = 4;
/// Values that sit on the edges of the ranges a decoder reads (big-endian, as it reads).
const INTERESTING: &[&[u8]] = &[
    &[0],
    &[1],
    &[0x7f],
    &[0x80],
    &[0xff],
    &[0, 0],
    &[0xff, 0xff],
    &[0x7f, 0xff],
    &[0x80, 0x00],
    &[0, 0, 0, 0],
    &[0xff, 0xff, 0xff, 0xff],
    &[0x7f, 0xff, 0xff, 0xff],
    &[0x80, 0, 0, 0],
];

/// A seeded mutator.
#[derive(Debug, Clone)]
pub struct Mutator {
    state: u64,
    words: Vec<Vec<u8>>,
}

impl Mutator {
    /// A mutator drawing from `seed`, inserting `words` (a dictionary) now and then.
    pub fn new(seed: u64, words: Vec<Vec<u8>>) -> Self {
        Self { state: seed, words }
    }

    /// The dictionary's size.
    pub fn words(&self) -> usize {
        self.words.len()
    }

    /// A random number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (splitmix64(&mut self.state) % n.max(1) as u64) as usize
    }

    /// `input` with one to [`DEPTH`] mutations; `other` (another kept input) may be spliced
    /// in. Never empty, never over [`MAX_LEN`].
    pub fn mutate(&mut self, input: &[u8], other: Option<&[u8]>) -> Vec<u8> {
        let mut out = input.to_vec();
        let depth = 1 + self.below(DEPTH as usize);
        for _ in 0..depth {
            self.once(&mut out, other);
        }
        if out.is_empty() {
            out.push(self.below(256) as u8);
        }
        out.truncate(MAX_LEN);
        out
    }

    fn once(&mut self, data: &mut Vec<u8>, other: Option<&[u8]>) {
        // Dictionary mutations weigh as much as all the others when there are words.
        let kinds = if self.words.is_empty() { 9 } else { 13 };
        match self.below(kinds) {
            0 => self.flip_bit(data),
            1 => self.set_byte(data),
            2 => self.insert_bytes(data),
            3 => self.erase(data),
            4 => self.copy_within(data, false),
            5 => self.copy_within(data, true),
            6 => self.add_to_byte(data),
            7 => self.interesting(data),
            8 => self.splice(data, other),
            9 | 10 => self.word(data, false),
            _ => self.word(data, true),
        }
    }

    fn flip_bit(&mut self, data: &mut [u8]) {
        if !data.is_empty() {
            let i = self.below(data.len());
            data[i] ^= 1 << self.below(8);
        }
    }

    fn set_byte(&mut self, data: &mut [u8]) {
        if !data.is_empty() {
            let i = self.below(data.len());
            data[i] = self.below(256) as u8;
        }
    }

    fn insert_bytes(&mut self, data: &mut Vec<u8>) {
        let at = self.below(data.len() + 1);
        let n = 1 + self.below(4);
        let fill: Vec<u8> = (0..n).map(|_| self.below(256) as u8).collect();
        data.splice(at..at, fill);
    }

    fn erase(&mut self, data: &mut Vec<u8>) {
        if data.len() > 1 {
            let n = 1 + self.below((data.len() / 4).max(1));
            let at = self.below(data.len() - n + 1);
            data.drain(at..at + n);
        }
    }

    fn copy_within(&mut self, data: &mut Vec<u8>, insert: bool) {
        if data.len() < 2 {
            return;
        }
        let n = 1 + self.below(data.len().min(32));
        let from = self.below(data.len() - n + 1);
        let chunk = data[from..from + n].to_vec();
        let to = self.below(data.len() + 1);
        self.place(data, to, &chunk, insert);
    }

    fn add_to_byte(&mut self, data: &mut [u8]) {
        if !data.is_empty() {
            let i = self.below(data.len());
            let delta = 1 + self.below(35) as u8;
            data[i] = if self.below(2) == 0 {
                data[i].wrapping_add(delta)
            } else {
                data[i].wrapping_sub(delta)
            };
        }
    }

    fn interesting(&mut self, data: &mut Vec<u8>) {
        let value = INTERESTING[self.below(INTERESTING.len())];
        let at = self.below(data.len() + 1);
        self.place(data, at, value, false);
    }

    /// Bytes of this input up to a point, then another kept input's from a point.
    fn splice(&mut self, data: &mut Vec<u8>, other: Option<&[u8]>) {
        let Some(other) = other.filter(|o| !o.is_empty()) else {
            return self.flip_bit(data);
        };
        let cut = self.below(data.len() + 1);
        let from = self.below(other.len());
        data.truncate(cut);
        data.extend_from_slice(&other[from..]);
    }

    fn word(&mut self, data: &mut Vec<u8>, insert: bool) {
        if self.words.is_empty() {
            return;
        }
        let pick = self.below(self.words.len());
        let word = self.words[pick].clone();
        let at = self.below(data.len() + 1);
        self.place(data, at, &word, insert);
    }

    /// `chunk` inserted at `at`, or laid over the bytes from `at` (growing the input
    /// where it runs past the end).
    fn place(&mut self, data: &mut Vec<u8>, at: usize, chunk: &[u8], insert: bool) {
        let at = at.min(data.len());
        if insert {
            data.splice(at..at, chunk.iter().copied());
        } else {
            let end = (at + chunk.len()).min(data.len());
            data.splice(at..end, chunk.iter().copied());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_are_seeded_bounded_and_use_the_dictionary() {
        let words = vec![b"MCP!".to_vec()];
        let mut a = Mutator::new(7, words.clone());
        let mut b = Mutator::new(7, words);
        let input = vec![0u8; 40];
        let mut saw_word = false;
        for _ in 0..500 {
            let x = a.mutate(&input, Some(b"other"));
            assert_eq!(
                x,
                b.mutate(&input, Some(b"other")),
                "same seed, same mutation"
            );
            assert!(!x.is_empty() && x.len() <= MAX_LEN);
            saw_word |= x.windows(4).any(|w| w == b"MCP!");
        }
        assert!(saw_word, "the dictionary's word is written now and then");
        let long = vec![1u8; MAX_LEN];
        assert!(a.mutate(&long, None).len() <= MAX_LEN);
        assert!(!a.mutate(&[], None).is_empty());
    }
}
