//! What a request gets back: an [`Exchange`] pairs a request with its [`Reply`], a
//! response or a [`Silence`] that says why none came; a [`BatchExchange`] says how a batch
//! was answered. A pipelined write is made of [`Line`]s.
//!
//! These are plain values, kept apart from the session that produces them: the scenarios
//! keep them and the checks judge them long after the session is gone.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::ListingTail;
use crate::protocol::jsonrpc::IdMatch;
use crate::transport::ExitInfo;

/// Why no response came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Silence {
    /// Nothing within the timeout.
    Timeout(Duration),
    /// Nothing within the timeout, but the harness itself was kept from running for more
    /// of it than a wait is stretched by ([`STRETCH_CAP`](super::lag::STRETCH_CAP) times
    /// the wait): the machine was too loaded to judge whether the server was slow.
    Starved {
        /// The wait, before it was stretched.
        waited: Duration,
        /// How long the harness was kept from running meanwhile.
        lag: Duration,
    },
    /// The server process exited.
    Exited(ExitInfo),
    /// stdout closed, the process still running.
    StdoutClosed,
    /// The server did not read our request (stdin closed or stuck).
    WriteFailed,
    /// No response, and a ping sent right after it was answered first: the server
    /// passed over the request (used for malformed probes, so silence costs no timeout).
    Overtaken,
    /// The session was cut: the server sent more unprompted messages (notifications,
    /// requests of its own, stray lines) than the bound allows.
    Flooded {
        /// Unprompted stdout messages when the session was cut.
        messages: u64,
        /// Lines we had written by then.
        ours: u64,
        /// How many of `messages` were progress notifications for our own tokens.
        progress: u64,
    },
    /// The session was ended: two requests in a row got no response and the server wrote
    /// nothing in between, so the server has stalled on everything, and waiting out the
    /// timeout for every later step would only multiply the cost of one stall.
    Stalled(Duration),
    /// The server answered with a line the harness does not read as a message (JSON
    /// nested past the depth bound) but whose `id` it could read: the request was
    /// answered, unreadably, and waiting on would only cost the timeout.
    Unreadable {
        /// Transcript seq of the unreadable line; `None` when the record had spent its
        /// budget for unprompted lines (it was counted, not kept).
        seq: Option<usize>,
    },
}

impl Silence {
    /// Whether the server may be dead or stuck (so its last stderr lines are evidence),
    /// as opposed to alive and merely passing over one request.
    pub fn suggests_trouble(&self) -> bool {
        !matches!(
            self,
            Silence::Overtaken | Silence::Unreadable { .. } | Silence::Starved { .. }
        )
    }

    /// Whether the wait ran out with the server alive and nothing read: a slow answer, a
    /// stall, or a machine too loaded to tell.
    pub fn timed_out(&self) -> bool {
        matches!(self, Silence::Timeout(_) | Silence::Starved { .. })
    }

    /// One line for reports.
    pub fn describe(&self) -> String {
        match self {
            Silence::Timeout(d) => format!("no response within {:.1} s", d.as_secs_f64()),
            Silence::Starved { waited, lag } => format!(
                "no response within {:.1} s, but the machine was too loaded to judge: the \
                 harness itself was kept from running for {:.1} s meanwhile (a wait is \
                 stretched by at most {} times its length)",
                waited.as_secs_f64(),
                lag.as_secs_f64(),
                super::lag::STRETCH_CAP
            ),
            Silence::Exited(exit) => format!("the server exited ({})", exit.describe()),
            Silence::StdoutClosed => "the server closed its stdout".into(),
            Silence::WriteFailed => "the server did not read its stdin".into(),
            Silence::Overtaken => {
                "no response; a ping sent right after it was answered first".into()
            }
            Silence::Unreadable { .. } => {
                "answered with a line nested deeper than 128 levels (the harness's depth \
                 bound), whose id was read without the rest"
                    .into()
            }
            Silence::Stalled(each) => format!(
                "not sent: two requests in a row got no response within {:.1} s and the server \
                 wrote nothing in between; the session was ended",
                each.as_secs_f64()
            ),
            Silence::Flooded {
                messages,
                ours,
                progress: 0,
            } => format!(
                "the session was cut: the server sent {} unprompted messages against {} of ours",
                crate::protocol::thousands(*messages),
                crate::protocol::thousands(*ours)
            ),
            Silence::Flooded {
                messages,
                ours,
                progress,
            } => format!(
                "the session was cut: the server sent {} messages that were not responses \
                 ({} of them progress notifications for our own progressToken) against {} of ours",
                crate::protocol::thousands(*messages),
                crate::protocol::thousands(*progress),
                crate::protocol::thousands(*ours)
            ),
        }
    }
}

/// What came back for one request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A response, correlated to the request.
    Response {
        /// Transcript seq of the response.
        seq: usize,
        /// The response message (the same allocation as its transcript entry's).
        message: Arc<Value>,
        /// How its id matched.
        id_match: IdMatch,
        /// For a tools/list page too wide for one tree: the tools past those in
        /// `message` (see [`ListingTail`]).
        listing_tail: Option<Arc<ListingTail>>,
    },
    /// No response.
    Silent(Silence),
}

/// One request and its reply.
#[derive(Debug, Clone)]
pub struct Exchange {
    /// The method (or a description for raw probes).
    pub method: String,
    /// Transcript seq of the request line.
    pub request_seq: usize,
    /// The request as sent (a JSON string holding the raw line for raw probes).
    pub request: Value,
    /// What came back.
    pub reply: Reply,
}

impl Exchange {
    /// For a tools/list page too wide for one tree, the tools past those its response
    /// holds.
    pub fn listing_tail(&self) -> Option<&ListingTail> {
        match &self.reply {
            Reply::Response { listing_tail, .. } => listing_tail.as_deref(),
            Reply::Silent(_) => None,
        }
    }

    /// The response message, if any.
    pub fn response(&self) -> Option<&Value> {
        match &self.reply {
            Reply::Response { message, .. } => Some(message),
            Reply::Silent(_) => None,
        }
    }

    /// The response message as held by the record (shared, not copied).
    pub fn shared_response(&self) -> Option<&Arc<Value>> {
        match &self.reply {
            Reply::Response { message, .. } => Some(message),
            Reply::Silent(_) => None,
        }
    }

    /// `result` of a response that has one.
    pub fn result(&self) -> Option<&Value> {
        self.response().and_then(|m| m.get("result"))
    }

    /// `error` of a response that has one.
    pub fn error(&self) -> Option<&Value> {
        self.response().and_then(|m| m.get("error"))
    }

    /// `error.code` as an integer, if the error has one.
    pub fn error_code(&self) -> Option<i64> {
        self.error()
            .and_then(|e| e.get("code"))
            .and_then(Value::as_i64)
    }

    /// Transcript seqs of the request and its response, for evidence.
    pub fn seqs(&self) -> Vec<usize> {
        match &self.reply {
            Reply::Response { seq, .. } => vec![self.request_seq, *seq],
            Reply::Silent(Silence::Unreadable { seq: Some(seq) }) => {
                vec![self.request_seq, *seq]
            }
            Reply::Silent(_) => vec![self.request_seq],
        }
    }

    /// Why there was no response, if there was none.
    pub fn silence(&self) -> Option<&Silence> {
        match &self.reply {
            Reply::Silent(s) => Some(s),
            Reply::Response { .. } => None,
        }
    }

    /// Whether the answer was a line the harness could not read ([`Silence::Unreadable`]):
    /// the server did answer, and rpc-stdio-framing judges that line, so a check about
    /// whether it answers at all must not blame it again.
    pub fn unreadable(&self) -> bool {
        matches!(self.silence(), Some(Silence::Unreadable { .. }))
    }

    /// Why the server did not answer at all: [`Exchange::silence`], less an unreadable
    /// answer (which is an answer).
    pub fn unanswered(&self) -> Option<&Silence> {
        self.silence().filter(|_| !self.unreadable())
    }
}

/// One line of a pipelined write.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    /// A JSON-RPC message; a request among them is waited for.
    Message(Value),
    /// Bytes written as they are (a malformed frame); nothing is waited for.
    Raw(Vec<u8>),
}

impl Line {
    /// The id of a request (a message with both `method` and `id`).
    pub fn request_id(&self) -> Option<&Value> {
        match self {
            Line::Message(m) => m.get("id").filter(|_| m.get("method").is_some()),
            Line::Raw(_) => None,
        }
    }
}

/// How a batch of requests was answered.
#[derive(Debug, Clone)]
pub struct BatchExchange {
    /// Transcript seq of the batch line.
    pub request_seq: usize,
    /// The ids of the requests in the batch.
    pub ids: Vec<Value>,
    /// Ids answered inside array responses.
    pub in_array: Vec<Value>,
    /// Transcript seqs of single (non-array) messages answering the batch.
    pub separate: Vec<usize>,
    /// The ping sent after the batch.
    pub fence: Exchange,
}

impl BatchExchange {
    /// Why the ping after the batch got no answer, when the server is to blame (it exited
    /// or stopped answering; not a machine too loaded to judge, nor a session cut for
    /// flooding): the batch's own check then reports it.
    pub fn fence_lost(&self) -> Option<&Silence> {
        self.fence
            .unanswered()
            .filter(|s| !matches!(s, Silence::Starved { .. } | Silence::Flooded { .. }))
    }
}
