//! Entry points for the cargo-fuzz targets in `fuzz/` (not a public API).
//!
//! Each function takes raw fuzzer bytes and asserts an invariant of the harness, not only
//! "no panic"; the targets in `fuzz/fuzz_targets/` are one-line calls into here so the
//! logic is compiled, linted and unit-tested with the rest of the library.

use crate::transport::{Frame, LineFramer};

/// The line framer's output does not depend on how the input is split into reads, and
/// no frame holds a newline or exceeds the cap.
///
/// The first byte picks the chunk size, the second the line cap; the rest is the stream.
pub fn line_framer(data: &[u8]) {
    let [chunk, cap, stream @ ..] = data else {
        return;
    };
    let chunk = usize::from(*chunk).max(1);
    let cap = usize::from(*cap).max(1);
    let frames = |size: usize| {
        let mut framer = LineFramer::new(cap);
        let mut out = Vec::new();
        for piece in stream.chunks(size) {
            framer.push(piece, &mut out);
        }
        out.extend(framer.finish_stream());
        out
    };
    let whole = frames(stream.len().max(1));
    assert_eq!(frames(chunk), whole, "framing depends on read boundaries");
    for frame in &whole {
        match frame {
            Frame::Line(text) => assert!(!text.contains('\n') && text.len() <= cap),
            Frame::InvalidUtf8(bytes) => assert!(!bytes.contains(&b'\n') && bytes.len() <= cap),
            Frame::Overlong { length, .. } => assert!(*length > cap),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn framer_invariant_holds_on_awkward_inputs() {
        super::line_framer(b"\x03\x04abcdef\n\xff\n\nxy");
        super::line_framer(b"\x01\x01\n\n\r\n");
        super::line_framer(&[7, 200, b'a', b'\n', 0xc3]);
    }

    /// Found by the line_framer fuzz target: the head kept of an over-long line
    /// depended on where reads split it.
    #[test]
    fn overlong_head_does_not_depend_on_read_boundaries() {
        super::line_framer(b"\x01\x08aaaaaaaaaaaaaaaaaaaa\nok\n");
    }
}
