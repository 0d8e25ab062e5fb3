//! The rule book: each requirement that can be judged on one message or one exchange,
//! judged here and nowhere else.
//!
//! The scripted checks (the catalog's judges), the property phase, the live fuzz target
//! and replay all ask these functions, so "-32601 for an unknown method" or "structured
//! content conforms to the outputSchema" is written once. A rule is a pure function of
//! what was exchanged (and the revision's facts); it returns `None` when the rule holds,
//! or a [`Breach`] tagged with the catalog check it belongs to and the [`FailureKind`] the
//! generated phases shrink by. Wording that a phase adds (counts, "minimal case") stays in
//! the phase; the decision never does.

//!
//! The rule book is beneath the scenarios and the checks, beside the records: both ask it,
//! and it names neither. Its vocabulary is the catalog's ids ([`CheckId`], expanded from the
//! catalog's one table of rows, `rows.rs`, which `checks/catalog.rs` expands again with
//! each row's judge) and the failure kinds of the generated phases ([`FailureKind`]).

mod book;
mod ids;
pub mod meta;
mod modern;
mod policies;
mod tasks;

pub use book::*;
pub(crate) use book::{breach, code_text};
pub use ids::CheckId;
pub use modern::{
    cache_hint_problems, cache_hints, discover_result, error_code_range, input_request_capability,
    input_required_shape, is_modern_request, required_capabilities_error, result_type, server_info,
    undeclared_input_requests, version_unsupported_error, DEFINED_RESERVED_CODES,
    INPUT_REQUIRED_METHODS,
};
pub use policies::{policy_title, POLICIES};
pub use tasks::{declares_task_calls, plain_call_of_task_tool, task_call, TaskSupport};
