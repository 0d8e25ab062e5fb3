//! The HTTP probes: requests a conformant client never sends (no session id, an unknown
//! one, a bad or missing metadata header, a foreign `Origin`, legacy traffic to a modern
//! server), each a single bounded request whose answer is read only as evidence; and the
//! look at a bare URL that tells a 2024-11-05 HTTP+SSE server from a Streamable HTTP one.
//!
//! They speak JSON-RPC (an `initialize`, a `ping`, a modern request with its `_meta`), so
//! they are conversations and live here, above the transport, which gives them HTTP only:
//! an endpoint to build requests on, facts to record them in, an SSE decoder. What they
//! record are plain records of `crate::records` (`records/http_probes.rs`, read by the HTTP
//! checks beside the session's own facts), whose `run` each probe file implements.
//!
//! `legacy.rs` runs the Streamable HTTP probe session and the foreign-`Origin` request;
//! `modern.rs` the 2026-07-28 probes; `sse.rs` the foreign-`Origin` probe over HTTP+SSE;
//! `evidence.rs` is one bounded POST and its answer, which they share; `detect.rs` tells
//! the HTTP transports apart.

mod detect;
mod evidence;
mod legacy;
mod modern;
mod sse;

pub use detect::{probe_url, probe_url_patiently, UrlKind};
