//! One run model, several renderers.
//!
//! The runner builds a [`RunReport`]; each renderer reads only that model (never a
//! transport or a check). Server text is escaped by each renderer for its medium.

mod escape;
mod json;
mod model;
mod text;

pub use escape::escape_for_terminal;
pub use json::to_json;
pub use model::{RevisionReport, RunReport, Summary, TargetInfo, ToolInfo};
pub use text::render_text;
