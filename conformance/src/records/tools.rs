//! What the Tools conversation recorded ([`ToolsRecord`]): listings, every call and the
//! reason a call was not made, the error and argument probes; and what checks and
//! scenarios both read off a listing (its tools, a tool's inputSchema compiled in the
//! dialect that applies).

use std::sync::Arc;

use serde_json::{json, Value};

use crate::protocol::{Exchange, ListingTail, Revision};

/// A cursor no server issued.
pub const INVALID_CURSOR: &str = "conformance-invalid-cursor-\u{e9}";

/// A tool name no server has.
pub const UNKNOWN_TOOL: &str = "conformance_no_such_tool_7f3a";

/// The progressToken of the progress probe: an integer (a server that stringifies it is
/// caught) that is no request id of ours (a server that sends the request id instead is too).
pub const PROGRESS_TOKEN: u64 = 9_007_001;

/// A `_meta` key no spec defines, outside the reserved prefixes (2025-11-25 index.mdx,
/// `_meta`): a server must take it as it takes any unknown `_meta` key.
pub const META_PROBE_KEY: &str = "dev.mcp-conformance/probe";

/// A tools/call with a `progressToken` in `_meta`, fenced by a ping.
#[derive(Debug, Clone)]
pub struct ProgressProbe {
    /// The call: the tool and arguments of a valid call that was answered.
    pub call: ToolCall,
    /// The ping sent right after the call's response: progress the server writes after
    /// that response is read before the ping's answer (`PROG-STOP`).
    pub fence: Exchange,
}

/// One tools/call, or the reason it was not made.
#[derive(Debug, Clone)]
pub struct ToolCall {
    /// The tool's name.
    pub name: String,
    /// The tool definition as listed, held by the listing that carried it (a definition
    /// may be megabytes: a 100,000-member `enum`).
    pub tool: ToolDef,
    /// What the arguments are (for invalid-argument probes: which rule they break).
    pub intent: String,
    /// The exchange, when the call was made.
    pub exchange: Option<Exchange>,
    /// Why it was not made.
    pub skipped: Option<String>,
}

/// What the Tools conversation recorded.
#[derive(Debug, Clone, Default)]
pub struct ToolsRecord {
    /// A second walk of tools/list, to compare with the first (`PAG-STABLE`).
    pub second_walk: Vec<Exchange>,
    /// tools/list with [`INVALID_CURSOR`].
    pub invalid_cursor: Option<Exchange>,
    /// One call per listed tool with minimal valid arguments.
    pub calls: Vec<ToolCall>,
    /// tools/call of [`UNKNOWN_TOOL`].
    pub unknown_tool: Option<Exchange>,
    /// tools/call without `name`, and with a non-string `name`.
    pub malformed: Vec<Exchange>,
    /// Calls whose arguments break the tool's inputSchema.
    pub invalid_arguments: Vec<ToolCall>,
    /// Calls whose `arguments` is not an object (an array, a string, a number, null), to
    /// one tool that answered its valid call.
    pub arguments_type: Vec<ToolCall>,
    /// A call of the same tool without `arguments`, the last call of the conversation
    /// (a server that crashes on it still had every other tools probe judged).
    pub arguments_omitted: Option<ToolCall>,
    /// The same tool called with `"arguments": {}` right after, when the call without
    /// `arguments` got a JSON-RPC error and the tool's valid call had sent other arguments:
    /// what the omission is compared with (an error `{}` gets too is the tool's, not the
    /// omission's).
    pub arguments_empty: Option<ToolCall>,
    /// Task-augmented calls (`params.task`), made only when the server declares
    /// `tasks.requests.tools.call`: each tool offering tasks, and one tool that does not.
    pub task_calls: Vec<ToolCall>,
    /// tools/list with `params: {}`, then with `params` holding only `_meta`
    /// (`TL-PARAMS-OPTIONAL`: a first walk sends no params at all).
    pub params_forms: Vec<Exchange>,
    /// A call with a `progressToken` (`PROG-*`), to the tool the `arguments` probes call.
    pub progress: Option<ProgressProbe>,
    /// Tools whose valid call answered, but only after more than a tenth of the timeout
    /// (at least 1 s) while the server slept on it (a timer or I/O of its own, not a
    /// loaded machine's scheduler; any answer that slow where the server's processes
    /// cannot be seen): a slow tool, called the fewest times the checks need.
    pub answered_slowly: Vec<String>,
}

/// Whether a tool's inputSchema names a required property.
pub(crate) fn requires_arguments(tool: &Value) -> bool {
    tool.pointer("/inputSchema/required")
        .and_then(Value::as_array)
        .is_some_and(|r| !r.is_empty())
}

/// A tool definition as listed: its place in the tools/list response that carried it.
/// That response is kept in the record anyway, so a definition of megabytes is held once
/// whatever the number of calls, probes and cases that refer to it. Reads as the
/// definition (`Deref<Target = Value>`).
#[derive(Debug, Clone)]
pub struct ToolDef {
    page: Arc<Value>,
    index: usize,
}

impl ToolDef {
    /// A definition held on its own (tests, calls not made from a listing).
    pub fn new(definition: Value) -> Self {
        Self {
            page: Arc::new(json!({"result": {"tools": [definition]}})),
            index: 0,
        }
    }

    /// Every tool of `pages`, in listing order.
    pub fn listed(pages: &[Exchange]) -> Vec<ToolDef> {
        let mut out = Vec::new();
        for page in pages {
            let Some(message) = page.shared_response() else {
                continue;
            };
            let count = message
                .pointer("/result/tools")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            out.extend((0..count).map(|index| ToolDef {
                page: Arc::clone(message),
                index,
            }));
        }
        out
    }
}

impl std::ops::Deref for ToolDef {
    type Target = Value;

    fn deref(&self) -> &Value {
        &self.page["result"]["tools"][self.index]
    }
}

/// The tools of `pages` held as trees, in order (a page too wide for one tree holds its
/// first tools so: see [`each_listed_tool`] for all of them).
pub fn listed_tools(pages: &[Exchange]) -> Vec<&Value> {
    pages
        .iter()
        .filter_map(|p| p.result())
        .filter_map(|r| r.get("tools"))
        .filter_map(Value::as_array)
        .flatten()
        .collect()
}

/// Every tool of `pages`, in listing order (duplicates kept): each page's tree, then, on a
/// page too wide for one tree, the rest of its tools parsed one at a time
/// ([`ListingTail`]), so that no more than one of them is a tree at once.
pub fn each_listed_tool(pages: &[Exchange], mut f: impl FnMut(&Value)) {
    for page in pages {
        for tool in listed_tools(std::slice::from_ref(page)) {
            f(tool);
        }
        for tool in page.listing_tail().into_iter().flat_map(ListingTail::tools) {
            f(&tool);
        }
    }
}

/// What the record says when a page of `pages` was too wide for one tree: how many tools
/// were judged one at a time (the first such page, and how many more there were).
pub fn listing_cut_note(pages: &[Exchange]) -> Option<String> {
    let mut tails = pages.iter().filter_map(Exchange::listing_tail);
    let first = tails.next()?;
    let more = tails.count();
    Some(match more {
        0 => first.describe(),
        n => format!("{}; {n} more page(s) so", first.describe()),
    })
}

/// Compiles a tool's inputSchema in the dialect that applies: its `$schema`, else
/// 2020-12 from 2025-11-25 on and draft-07 before (REQUIREMENTS.md 10 A8).
pub fn compile_input_schema(
    schema: &Value,
    revision: &Revision,
) -> Result<jsonschema::Validator, String> {
    compile_input_schema_with(schema, revision, false)
}

/// [`compile_input_schema`], asserting `format`s when `formats` is set (what a server that
/// validates formats would reject, too).
pub fn compile_input_schema_with(
    schema: &Value,
    revision: &Revision,
    formats: bool,
) -> Result<jsonschema::Validator, String> {
    if schema.get("$schema").is_some() {
        return jsonschema::options()
            .should_validate_formats(formats)
            .build(schema)
            .map_err(|e| e.to_string());
    }
    let draft = if revision.draft_2020_12 {
        jsonschema::Draft::Draft202012
    } else {
        jsonschema::Draft::Draft7
    };
    jsonschema::options()
        .with_draft(draft)
        .should_validate_formats(formats)
        .build(schema)
        .map_err(|e| e.to_string())
}
