//! What a conversation recorded: plain data, written by the scenarios and read by the
//! checks, the report's evidence and replay.
//!
//! The layer between the conversations and the judges: a record holds exchanges,
//! transcripts and probes' answers, never a session or a process, and names nothing above
//! the protocol (and the rule book's ids and kinds). So a check is a function of a record,
//! testable with a record built by hand, and a scenario knows nothing of how it is judged.
//! The fixed values a conversation sends and a judge compares answers against (a cursor no
//! server issued, the progress token, the ping ids) live here too: both sides read them.

mod case;
mod edges;
mod http;
mod http_probes;
mod modern;
mod negotiation;
mod property;
mod revision;
mod surface;
mod tools;

pub use case::{CaseFile, CaseMessage, RawFrame};
pub use edges::{CancelProbe, EarlySession, EdgeRecord, MalformedInit, UNKNOWN_NOTIFICATION};
pub use http::HttpRecord;
pub use http_probes::{
    HttpModernProbe, HttpProbe, ModernStep, OriginProbe, ParamTool, ProbeStep, SseOriginProbe,
    FOREIGN_ORIGIN,
};
pub use modern::{
    EraFinding, ModernRecord, MrtrProbe, SubscriptionProbe, INPUT_CAPABILITIES, LISTEN_ID,
};
pub(crate) use negotiation::answered;
pub use negotiation::{NegotiationRecord, ServerEra, VersionProbe, UNSUPPORTED_VERSION};
pub use property::{
    InputIndependent, PropertyFailure, PropertyRecord, Repeat, SlowCall, ToolError,
    MAX_TOOL_ERRORS, SHRUNK_PER_KIND,
};
pub use revision::{
    PhaseTimes, RevisionRecord, ShutdownRecord, MALFORMED_JSON, MAX_PAGES, PING_IDS,
};
pub use surface::{LiveSurface, SurfaceSeen};
pub(crate) use tools::requires_arguments;
pub use tools::{
    compile_input_schema, compile_input_schema_with, each_listed_tool, listed_tools,
    listing_cut_note, ProgressProbe, ToolCall, ToolDef, ToolsRecord, INVALID_CURSOR,
    META_PROBE_KEY, PROGRESS_TOKEN, UNKNOWN_TOOL,
};
