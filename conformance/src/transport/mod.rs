//! Bytes to and from a server under test.
//!
//! The transport knows nothing of JSON-RPC: it frames stdout into lines, captures stderr,
//! and owns the child process so that it is reaped on every path. Everything a server
//! can do wrong at this layer (invalid UTF-8, an over-long line, exiting) arrives as an
//! event for the layers above to judge, never as a harness error.

mod framing;
mod reaper;
mod stdio;

pub use framing::{Frame, LineFramer};
pub use reaper::{adopt_orphans, adopting_orphans};
pub use stdio::{
    marked_processes, ExitInfo, ServerCommand, StdioTransport, TransportEvent, MARKER_VAR,
};
