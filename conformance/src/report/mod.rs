//! One run model, several renderers.
//!
//! The runner builds a [`RunReport`]; each renderer reads only that model (never a
//! transport or a check). Server text is escaped by one rule (`escape.rs`) in every renderer, then for its medium.

mod badge;
mod baseline;
mod causes;
mod escape;
mod format;
mod json;
mod junit;
mod markdown;
mod model;
mod sarif;
mod surface;
mod text;

pub use badge::to_badge;
pub use baseline::{Baseline, REASON_PLACEHOLDER};
pub use escape::{escape_server_text, needs_escape};
pub use format::Format;
pub use json::to_json;
pub use junit::to_junit;
pub(crate) use markdown::is_own_markup;
pub use markdown::to_markdown;
pub use model::{
    counted, policy_grade, BaselineEntry, BaselineOutcome, Baselined, BudgetNote, CoverageNote,
    DistinctFinding, Gate, GateOptions, Incomplete, NotSpoken, PartTiming, RevisionReport,
    RevisionTiming, RunReport, RunTiming, Summary, TargetInfo, ToolGap, ToolInfo,
};
pub use sarif::to_sarif;
pub use surface::{change_line, SurfaceReport};
pub use text::{
    render_finding, render_surface, render_text, render_text_styled, render_text_with,
    render_transcript, Detail, TextOptions,
};
