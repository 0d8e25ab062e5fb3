//! Newline framing with a hard cap on line length.
//!
//! stdio MCP is newline-delimited JSON (`transports.mdx`, stdio). A hostile or broken
//! server may send a line that never ends or bytes that are not UTF-8; the framer turns
//! both into frames so the harness stays bounded in memory and never crashes on them.

/// One unit read from a server's stdout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// A complete line of valid UTF-8 (newline and a trailing `\r` removed).
    Line(String),
    /// A complete line that is not valid UTF-8; the bytes are kept (bounded by the cap).
    InvalidUtf8(Vec<u8>),
    /// A line longer than the cap, reported as soon as the cap is passed (a line that
    /// never ends is still seen); its bytes are then discarded up to the next newline.
    Overlong {
        /// The first bytes of the line, for evidence.
        head: Vec<u8>,
        /// The cap plus one: the line had at least this many bytes. (Its whole length
        /// is not waited for, and reporting the count at the cut would depend on where
        /// reads split the stream.)
        length: usize,
    },
}

/// How many leading bytes of an over-long line are kept as evidence.
const OVERLONG_HEAD: usize = 256;

/// Splits a byte stream into [`Frame`]s, never buffering more than `max_line` bytes.
#[derive(Debug)]
pub struct LineFramer {
    max_line: usize,
    buf: Vec<u8>,
    /// Set while skipping the rest of an over-long line (already reported).
    skipping: bool,
}

impl LineFramer {
    /// A framer that reports any line longer than `max_line` bytes as [`Frame::Overlong`].
    pub fn new(max_line: usize) -> Self {
        Self {
            max_line: max_line.max(1),
            buf: Vec::new(),
            skipping: false,
        }
    }

    /// Bytes held for the line being read (at most the cap).
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// Feeds bytes and appends every frame they complete to `out`.
    pub fn push(&mut self, mut bytes: &[u8], out: &mut Vec<Frame>) {
        while !bytes.is_empty() {
            let newline = bytes.iter().position(|&b| b == b'\n');
            let (chunk, rest, complete) = match newline {
                Some(i) => (&bytes[..i], &bytes[i + 1..], true),
                None => (bytes, &[][..], false),
            };
            bytes = rest;
            if self.skipping {
                self.skipping = !complete;
                continue;
            }
            if self.buf.len() + chunk.len() > self.max_line {
                // The head is the line's first bytes, as many as are sure to be there
                // (the cap plus one), so it does not depend on where reads split.
                let keep = OVERLONG_HEAD.min(self.max_line + 1);
                let mut head = std::mem::take(&mut self.buf);
                let room = keep.saturating_sub(head.len()).min(chunk.len());
                head.extend_from_slice(&chunk[..room]);
                head.truncate(keep);
                // Not the cap's worth of capacity behind 256 bytes while the frame waits
                // in a queue to be read.
                head.shrink_to_fit();
                out.push(Frame::Overlong {
                    head,
                    length: self.max_line + 1,
                });
                self.skipping = !complete;
                continue;
            }
            self.buf.extend_from_slice(chunk);
            if complete {
                out.push(Self::finish(std::mem::take(&mut self.buf)));
            }
        }
    }

    /// Flushes a final line that had no newline before end of stream.
    pub fn finish_stream(&mut self) -> Option<Frame> {
        self.skipping = false;
        if self.buf.is_empty() {
            return None;
        }
        Some(Self::finish(std::mem::take(&mut self.buf)))
    }

    fn finish(mut line: Vec<u8>) -> Frame {
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        match String::from_utf8(line) {
            Ok(text) => Frame::Line(text),
            Err(err) => Frame::InvalidUtf8(err.into_bytes()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(max: usize, chunks: &[&[u8]]) -> Vec<Frame> {
        let mut framer = LineFramer::new(max);
        let mut out = Vec::new();
        for chunk in chunks {
            framer.push(chunk, &mut out);
        }
        out.extend(framer.finish_stream());
        out
    }

    #[test]
    fn lines_split_across_chunks_are_joined() {
        let got = frames(64, &[b"{\"a\":", b"1}\n{\"b\"", b":2}\r\n"]);
        assert_eq!(
            got,
            vec![
                Frame::Line("{\"a\":1}".into()),
                Frame::Line("{\"b\":2}".into())
            ]
        );
    }

    #[test]
    fn overlong_line_is_reported_and_the_next_line_survives() {
        let long = [b'x'; 100];
        let got = frames(10, &[&long[..50], &long[50..], b"\nok\n"]);
        assert_eq!(got.len(), 2);
        let Frame::Overlong { head, length } = &got[0] else {
            panic!("expected an over-long frame, got {got:?}");
        };
        assert_eq!(*length, 11, "the cap plus one: at least that long");
        assert_eq!(
            head.len(),
            11,
            "the head is the line's first bytes, up to the cap plus one"
        );
        assert!(head.iter().all(|&b| b == b'x'));
        assert_eq!(got[1], Frame::Line("ok".into()));
    }

    /// A line that never ends is reported once the cap is passed, not never.
    #[test]
    fn a_line_that_never_ends_is_reported_at_the_cap() {
        let mut framer = LineFramer::new(10);
        let mut out = Vec::new();
        for _ in 0..1000 {
            framer.push(b"xxxxxxxx", &mut out);
        }
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(matches!(&out[0], Frame::Overlong { length: 11, .. }));
        assert_eq!(framer.buffered(), 0, "nothing of the line is kept");
        assert_eq!(framer.finish_stream(), None);
    }

    #[test]
    fn invalid_utf8_is_a_frame_not_an_error() {
        let got = frames(64, &[b"\xff\xfe bad\n"]);
        assert_eq!(got, vec![Frame::InvalidUtf8(b"\xff\xfe bad".to_vec())]);
    }

    #[test]
    fn unterminated_last_line_is_flushed() {
        assert_eq!(frames(64, &[b"tail"]), vec![Frame::Line("tail".into())]);
    }
}
