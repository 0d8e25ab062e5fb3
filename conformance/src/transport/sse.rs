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
//! `data` makes the frames (and, for 2024-11-05's HTTP+SSE transport, `event`:
//! [`SseDecoder::push_events`]). `id` and `retry` are kept as the standard keeps them, for
//! resuming a stream whose connection the server closed (Streamable HTTP, Resumability and
//! Redelivery): the last event id is the id buffer as of the last dispatch (an `id` with a
//! NUL is ignored), the reconnection time the last `retry` made of digits only. Whether the
//! stream opened with a priming event (an id and empty data, 2025-11-25) is noted too.
//! Comments are ignored, an event without data is not dispatched, and an event cut by the
//! end of the stream is dropped, as the standard says. A lone `\r` as a line end is not
//! recognised (only `\n` and `\r\n`).

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
    /// The event type buffer (`event:`), empty for the default `message`.
    event: String,
    /// Skipping the rest of an event already reported (over-long or not UTF-8).
    skipping: bool,
    /// The last event id buffer (`id:`), kept across events.
    id_buffer: String,
    /// The last event id as of the last dispatch (empty: none).
    last_event_id: String,
    /// The reconnection time the server asked for (`retry:`), in milliseconds.
    retry: Option<u64>,
    /// Whether the first event dispatched was a priming one (`None`: none dispatched yet).
    primed: Option<bool>,
}

impl SseDecoder {
    /// A decoder whose lines and events are at most `max` bytes.
    pub(crate) fn new(max: usize) -> Self {
        Self {
            framer: LineFramer::new(max),
            max: max.max(1),
            data: String::new(),
            has_data: false,
            event: String::new(),
            skipping: false,
            id_buffer: String::new(),
            last_event_id: String::new(),
            retry: None,
            primed: None,
        }
    }

    /// The id to resume from (`Last-Event-ID`), when an event set one.
    pub(crate) fn last_event_id(&self) -> Option<&str> {
        Some(self.last_event_id.as_str()).filter(|id| !id.is_empty())
    }

    /// The reconnection time the server asked for, in milliseconds.
    pub(crate) fn retry(&self) -> Option<u64> {
        self.retry
    }

    /// Whether the stream's first event was a priming one: an event id and empty data
    /// (`None`: no event came).
    pub(crate) fn primed(&self) -> Option<bool> {
        self.primed
    }

    /// A decoder for the next connection of the same stream: the last event id and the
    /// reconnection time carry over (as an `EventSource`'s do), the rest starts afresh.
    pub(crate) fn reconnected(&self) -> Self {
        let mut next = Self::new(self.max);
        next.id_buffer.clone_from(&self.last_event_id);
        next.last_event_id.clone_from(&self.last_event_id);
        next.retry = self.retry;
        next.primed = self.primed;
        next
    }

    /// Bytes held for the event being read.
    pub(crate) fn buffered(&self) -> usize {
        self.framer.buffered() + self.data.len()
    }

    /// Feeds bytes and appends a frame per complete event to `out`.
    pub(crate) fn push(&mut self, bytes: &[u8], out: &mut Vec<Frame>) {
        let mut events = Vec::new();
        self.push_events(bytes, &mut events);
        out.extend(events.into_iter().map(|(_, frame)| frame));
    }

    /// Like [`SseDecoder::push`], with each event's type (`message` when it names none,
    /// as the standard says).
    pub(crate) fn push_events(&mut self, bytes: &[u8], out: &mut Vec<(String, Frame)>) {
        let mut lines = Vec::new();
        self.framer.push(bytes, &mut lines);
        for line in lines {
            self.line(line, out);
        }
    }

    fn reset(&mut self) {
        self.data.clear();
        self.has_data = false;
        self.event.clear();
    }

    fn event_type(&self) -> String {
        if self.event.is_empty() {
            "message".to_string()
        } else {
            self.event.clone()
        }
    }

    fn line(&mut self, line: Frame, out: &mut Vec<(String, Frame)>) {
        let text = match line {
            Frame::Line(text) => text,
            Frame::InvalidUtf8(bytes) => {
                if !self.skipping {
                    out.push((self.event_type(), Frame::InvalidUtf8(bytes)));
                }
                self.skipping = true;
                self.reset();
                return;
            }
            Frame::Overlong { head, length } => {
                if !self.skipping {
                    out.push((self.event_type(), Frame::Overlong { head, length }));
                }
                self.skipping = true;
                self.reset();
                return;
            }
        };
        if text.is_empty() {
            if !self.skipping {
                // Dispatch: the last event id is set before the empty-data test.
                self.last_event_id.clone_from(&self.id_buffer);
            }
            if !self.skipping && self.has_data {
                self.primed
                    .get_or_insert(self.data.is_empty() && !self.id_buffer.is_empty());
                let event = self.event_type();
                out.push((event, Frame::Line(std::mem::take(&mut self.data))));
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
        if field == "id" || field == "retry" {
            self.id_or_retry(field, value.strip_prefix(' ').unwrap_or(value));
            return;
        }
        if field == "event" {
            let value = value.strip_prefix(' ').unwrap_or(value);
            self.event = value.chars().take(HEAD).collect();
            return;
        }
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
            let event = self.event_type();
            out.push((
                event,
                Frame::Overlong {
                    head,
                    length: self.max + 1,
                },
            ));
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

    /// An `id` (ignored when it holds a NUL) or `retry` (ignored unless all digits) field.
    fn id_or_retry(&mut self, field: &str, value: &str) {
        if field == "id" {
            if !value.contains('\0') {
                value.clone_into(&mut self.id_buffer);
            }
        } else if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
            self.retry = Some(value.parse().unwrap_or(u64::MAX));
        }
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
    fn event_types_default_to_message_and_reset_after_each_event() {
        let mut decoder = SseDecoder::new(64);
        let mut out = Vec::new();
        decoder.push_events(
            b"event: endpoint\ndata: /m?s=1\n\ndata: {}\n\nevent: x\n\n",
            &mut out,
        );
        decoder.push_events(b"data: 1\n\n", &mut out);
        let types: Vec<&str> = out.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(types, ["endpoint", "message", "message"]);
        assert_eq!(out[0].1, Frame::Line("/m?s=1".into()));
    }

    #[test]
    fn an_event_without_data_or_cut_by_the_end_is_not_dispatched() {
        assert_eq!(decode(64, &[b"event: x\n\ndata: cut"]), vec![]);
    }

    #[test]
    fn the_last_event_id_retry_and_priming_are_kept_as_the_standard_says() {
        let mut decoder = SseDecoder::new(64);
        let mut out = Vec::new();
        decoder.push(b"id: s1-0\ndata:\n\nretry: 250\nretry: x\n\n", &mut out);
        assert_eq!(out, vec![Frame::Line(String::new())]);
        assert_eq!(decoder.primed(), Some(true));
        assert_eq!(decoder.last_event_id(), Some("s1-0"));
        assert_eq!(decoder.retry(), Some(250));
        // An id is committed at dispatch only; one with a NUL is ignored.
        decoder.push(b"id: a\0b\ndata: {}\n\nid: s1-7\ndata: cut", &mut out);
        assert_eq!(decoder.last_event_id(), Some("s1-0"));
        let next = decoder.reconnected();
        assert_eq!(
            (next.last_event_id(), next.retry()),
            (Some("s1-0"), Some(250))
        );
        assert_eq!(next.buffered(), 0);
        // A stream whose first event carries a message was not primed.
        let mut plain = SseDecoder::new(64);
        plain.push(b"data: {}\n\nid: 1\ndata:\n\n", &mut out);
        assert_eq!(plain.primed(), Some(false));
        assert_eq!(plain.last_event_id(), Some("1"));
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
