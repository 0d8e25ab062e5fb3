//! A bounded decoder for `text/event-stream` bodies (the HTML Living Standard's
//! "event stream interpretation"), turning each event's data into one [`Frame`].
//!
//! Streamable HTTP sends JSON-RPC messages as SSE events (transports.mdx, Sending Messages
//! to the Server). A hostile server may send a line that never ends, an event whose data
//! never stops growing, or bytes that are not UTF-8: the decoder reuses [`LineFramer`] so a
//! line is capped like a stdio line, caps an event's joined data at the same length, and
//! reports both as frames rather than growing. (The SSE crates we looked at buffer an
//! event without a bound, which is why this is ours; it is small.)
//!
//! Only `data` matters to us: `event`, `id` and `retry` are read past (resumption is not
//! used), comments are ignored, an event without data is not dispatched, and an event cut
//! by the end of the stream is dropped, as the standard says. A lone `\r` as a line end is
//! not recognised (only `\n` and `\r\n`).

use super::framing::{Frame, LineFramer};

/// First bytes of an over-long event kept as evidence.
const HEAD: usize = 256;

/// Decodes SSE bytes into frames, one per dispatched event.
#[derive(Debug)]
pub(crate) struct SseDecoder {
    framer: LineFramer,
    max: usize,
    data: String,
    has_data: bool,
    /// Skipping the rest of an event already reported (over-long or not UTF-8).
    skipping: bool,
}

impl SseDecoder {
    /// A decoder whose lines and events are at most `max` bytes.
    pub(crate) fn new(max: usize) -> Self {
        Self {
            framer: LineFramer::new(max),
            max: max.max(1),
            data: String::new(),
            has_data: false,
            skipping: false,
        }
    }

    /// Bytes held for the event being read.
    #[cfg(test)]
    pub(crate) fn buffered(&self) -> usize {
        self.framer.buffered() + self.data.len()
    }

    /// Feeds bytes and appends a frame per complete event to `out`.
    pub(crate) fn push(&mut self, bytes: &[u8], out: &mut Vec<Frame>) {
        let mut lines = Vec::new();
        self.framer.push(bytes, &mut lines);
        for line in lines {
            self.line(line, out);
        }
    }

    fn reset(&mut self) {
        self.data.clear();
        self.has_data = false;
    }

    fn line(&mut self, line: Frame, out: &mut Vec<Frame>) {
        let text = match line {
            Frame::Line(text) => text,
            Frame::InvalidUtf8(bytes) => {
                if !self.skipping {
                    out.push(Frame::InvalidUtf8(bytes));
                }
                self.skipping = true;
                self.reset();
                return;
            }
            Frame::Overlong { head, length } => {
                if !self.skipping {
                    out.push(Frame::Overlong { head, length });
                }
                self.skipping = true;
                self.reset();
                return;
            }
        };
        if text.is_empty() {
            if !self.skipping && self.has_data {
                out.push(Frame::Line(std::mem::take(&mut self.data)));
            }
            self.skipping = false;
            self.reset();
            return;
        }
        if self.skipping {
            return;
        }
        let (field, value) = match text.find(':') {
            Some(0) => return, // a comment
            Some(i) => (&text[..i], &text[i + 1..]),
            None => (text.as_str(), ""),
        };
        if field != "data" {
            return;
        }
        let value = value.strip_prefix(' ').unwrap_or(value);
        let added = value.len() + usize::from(self.has_data);
        if self.data.len() + added > self.max {
            let mut head = std::mem::take(&mut self.data).into_bytes();
            if self.has_data {
                head.push(b'\n');
            }
            head.extend_from_slice(value.as_bytes());
            head.truncate(HEAD.min(self.max + 1));
            out.push(Frame::Overlong {
                head,
                length: self.max + 1,
            });
            self.skipping = true;
            self.reset();
            return;
        }
        if self.has_data {
            self.data.push('\n');
        }
        self.data.push_str(value);
        self.has_data = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(max: usize, chunks: &[&[u8]]) -> Vec<Frame> {
        let mut decoder = SseDecoder::new(max);
        let mut out = Vec::new();
        for chunk in chunks {
            decoder.push(chunk, &mut out);
        }
        out
    }

    #[test]
    fn events_split_across_chunks_are_joined_and_fields_ignored() {
        let got = decode(
            64,
            &[
                b": hi\nevent: message\nid: 1\nda",
                b"ta: {\"a\":1}\r\n\r\ndata:x\ndata: y\n\n",
            ],
        );
        assert_eq!(
            got,
            vec![Frame::Line("{\"a\":1}".into()), Frame::Line("x\ny".into())]
        );
    }

    #[test]
    fn an_event_without_data_or_cut_by_the_end_is_not_dispatched() {
        assert_eq!(decode(64, &[b"event: x\n\ndata: cut"]), vec![]);
    }

    /// An event whose data keeps growing over many short lines is cut at the cap, once.
    #[test]
    fn an_event_that_never_ends_is_reported_at_the_cap() {
        let mut decoder = SseDecoder::new(10);
        let mut out = Vec::new();
        for _ in 0..1000 {
            decoder.push(b"data: xxxx\n", &mut out);
        }
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(matches!(&out[0], Frame::Overlong { length: 11, .. }));
        assert!(decoder.buffered() <= 10);
        decoder.push(b"\ndata: ok\n\n", &mut out);
        assert_eq!(out[1], Frame::Line("ok".into()));
    }
}
