//! The request metadata headers of 2026-07-28 Streamable HTTP (streamable-http.mdx,
//! Request Metadata): the body fields a modern POST mirrors into HTTP headers so that
//! intermediaries can route without parsing the body.
//!
//! - `MCP-Protocol-Version`: the request's `_meta` protocol version;
//! - `Mcp-Method`: the JSON-RPC method;
//! - `Mcp-Name`: `params.name` (`tools/call`, `prompts/get`) or `params.uri`
//!   (`resources/read`);
//! - `Mcp-Param-{Name}`: each tool argument whose property the tool's `inputSchema` marks
//!   with `x-mcp-header` (learned from the `tools/list` results that pass through).
//!
//! Values that are not plain visible ASCII are carried in the Base64 sentinel form
//! `=?base64?...?=` (Value Encoding). Apart from `http.rs` because it is pure: what to
//! send is a function of the body and of the annotations seen, testable without a server.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use base64::Engine as _;
use serde_json::Value;

/// The `_meta` key of the protocol version (2026-07-28 index.mdx).
pub const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The method header (streamable-http.mdx, Standard Request Headers).
pub const METHOD_HEADER: &str = "Mcp-Method";
/// The name header.
pub const NAME_HEADER: &str = "Mcp-Name";
/// The prefix of a tool parameter's header.
pub const PARAM_PREFIX: &str = "Mcp-Param-";
/// The version header as a modern POST writes it.
pub const VERSION_HEADER_NAME: &str = "MCP-Protocol-Version";
/// The Base64 sentinel's prefix and suffix (Value Encoding).
const SENTINEL: (&str, &str) = ("=?base64?", "?=");
/// Annotated properties kept per tool (a schema naming more is not mirrored past this).
const MAX_ANNOTATIONS: usize = 64;
/// Tools whose annotations are kept.
const MAX_TOOLS: usize = 4096;

/// The `_meta` protocol version of a modern request, if the body carries one.
pub fn modern_version(message: &Value) -> Option<&str> {
    message
        .pointer("/params/_meta")
        .and_then(|m| m.get(META_VERSION))
        .and_then(Value::as_str)
}

/// `value` as a header value: as is when it is plain visible ASCII (spaces inside
/// allowed), otherwise (non-ASCII, control characters, leading or trailing whitespace, or
/// a value that looks like the sentinel itself) Base64 of its UTF-8 in the sentinel.
pub fn encode(value: &str) -> String {
    let visible = value.bytes().all(|b| (0x20..=0x7e).contains(&b));
    let padded = value.starts_with(' ') || value.ends_with(' ');
    let sentinel = value.starts_with(SENTINEL.0) && value.ends_with(SENTINEL.1);
    let plain = visible && !padded && !sentinel;
    if plain {
        value.to_string()
    } else {
        let encoded = base64::engine::general_purpose::STANDARD.encode(value.as_bytes());
        format!("{}{encoded}{}", SENTINEL.0, SENTINEL.1)
    }
}

/// The inverse of [`encode`] (for the reference server and tests): `None` for a sentinel
/// whose inside is not Base64 of UTF-8.
pub fn decode(header: &str) -> Option<String> {
    match header
        .strip_prefix(SENTINEL.0)
        .and_then(|h| h.strip_suffix(SENTINEL.1))
    {
        Some(inner) => base64::engine::general_purpose::STANDARD
            .decode(inner)
            .ok()
            .and_then(|b| String::from_utf8(b).ok()),
        None => Some(header.to_string()),
    }
}

/// A parameter value as text (Value Encoding, Type conversion): a string as is, an
/// integer in decimal, a boolean as `true`/`false`; `None` for null and anything else
/// (the header is then omitted).
pub fn param_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
        _ => None,
    }
}

/// One annotated property: the header's name part and the property path to its value.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Annotation {
    /// The `x-mcp-header` value.
    pub header: String,
    /// The chain of `properties` keys from the schema root.
    pub path: Vec<String>,
}

/// The `x-mcp-header` annotations of an `inputSchema`, reached only through `properties`
/// (Schema Extension). A tool whose annotations break the constraints (empty, not a
/// token, duplicated) gets none: a client excludes such a tool, and this one only stops
/// mirroring it.
pub fn annotations(schema: &Value) -> Vec<Annotation> {
    let mut found = Vec::new();
    walk(schema, &mut Vec::new(), &mut found);
    let mut seen: Vec<String> = Vec::new();
    for a in &found {
        let lower = a.header.to_ascii_lowercase();
        if a.header.is_empty() || !a.header.bytes().all(is_tchar) || seen.contains(&lower) {
            return Vec::new();
        }
        seen.push(lower);
    }
    found
}

fn walk(schema: &Value, path: &mut Vec<String>, found: &mut Vec<Annotation>) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (key, property) in properties {
        if found.len() >= MAX_ANNOTATIONS || path.len() > 32 {
            return;
        }
        path.push(key.clone());
        if let Some(header) = property.get("x-mcp-header").and_then(Value::as_str) {
            found.push(Annotation {
                header: header.to_string(),
                path: path.clone(),
            });
        }
        walk(property, path, found);
        path.pop();
    }
}

/// RFC 9110 tchar.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// The annotations of the tools listed so far, by tool name.
#[derive(Debug, Default, Clone)]
pub struct ToolHeaders {
    tools: HashMap<String, Vec<Annotation>>,
}

impl ToolHeaders {
    /// Learns from a `tools/list` result (a later listing of a tool replaces the earlier).
    pub fn learn(&mut self, result: &Value) {
        for tool in result
            .get("tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                continue;
            };
            let found = tool.get("inputSchema").map(annotations).unwrap_or_default();
            if found.is_empty() {
                self.tools.remove(name);
            } else if self.tools.len() < MAX_TOOLS || self.tools.contains_key(name) {
                self.tools.insert(name.to_string(), found);
            }
        }
    }

    /// Sets the annotations of `tool` (none: forgets it), within the same bounds as a
    /// listing.
    pub fn set(&mut self, tool: &str, annotations: &[Annotation]) {
        let annotations = &annotations[..annotations.len().min(MAX_ANNOTATIONS)];
        if annotations.is_empty() {
            self.tools.remove(tool);
        } else if self.tools.len() < MAX_TOOLS || self.tools.contains_key(tool) {
            self.tools.insert(tool.to_string(), annotations.to_vec());
        }
    }

    /// The annotations of `tool`.
    pub fn of(&self, tool: &str) -> &[Annotation] {
        self.tools.get(tool).map_or(&[], Vec::as_slice)
    }
}

/// What the `tools/list` results of this process taught, per endpoint URL: shared by every
/// session of a run (the property phase's and replay's fresh sessions call tools without
/// listing them first), replaced tool by tool by each later listing.
static LEARNED: Mutex<BTreeMap<String, ToolHeaders>> = Mutex::new(BTreeMap::new());
/// Endpoints remembered at once (a test process runs many servers).
const MAX_ENDPOINTS: usize = 256;

/// Learns the annotations of a `tools/list` result from `url`.
pub fn learn(url: &str, result: &Value) {
    let mut learned = LEARNED.lock().unwrap_or_else(|e| e.into_inner());
    if learned.len() >= MAX_ENDPOINTS && !learned.contains_key(url) {
        learned.clear();
    }
    learned.entry(url.to_string()).or_default().learn(result);
}

/// Teaches `url` the annotations of `tool` without a listing: replay, from what a case
/// file saved of the run's listing (a fresh `replay` process has listed nothing).
pub fn teach(url: &str, tool: &str, annotations: &[Annotation]) {
    let mut learned = LEARNED.lock().unwrap_or_else(|e| e.into_inner());
    if learned.len() >= MAX_ENDPOINTS && !learned.contains_key(url) {
        learned.clear();
    }
    learned
        .entry(url.to_string())
        .or_default()
        .set(tool, annotations);
}

/// The annotations learned for `url` so far.
pub fn learned(url: &str) -> ToolHeaders {
    let learned = LEARNED.lock().unwrap_or_else(|e| e.into_inner());
    learned.get(url).cloned().unwrap_or_default()
}

/// The `Mcp-Param-*` headers of a `tools/call` of `tool` with `arguments`: one per
/// annotated property whose value is present and not null.
pub fn param_headers(annotations: &[Annotation], arguments: &Value) -> Vec<(String, String)> {
    annotations
        .iter()
        .filter_map(|a| {
            let value = a
                .path
                .iter()
                .try_fold(arguments, |v, key| v.get(key.as_str()))?;
            let text = param_text(value)?;
            Some((format!("{PARAM_PREFIX}{}", a.header), encode(&text)))
        })
        .collect()
}

/// Every metadata header a modern request `message` carries (the version header only when
/// the body has a version to mirror).
pub fn request_headers(message: &Value, tools: &ToolHeaders) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    if let Some(version) = modern_version(message) {
        headers.push((VERSION_HEADER_NAME.to_string(), encode(version)));
    }
    let Some(method) = message.get("method").and_then(Value::as_str) else {
        return headers;
    };
    headers.push((METHOD_HEADER.to_string(), encode(method)));
    let source = match method {
        "tools/call" | "prompts/get" => message.pointer("/params/name"),
        "resources/read" => message.pointer("/params/uri"),
        _ => None,
    };
    if let Some(name) = source.and_then(Value::as_str) {
        headers.push((NAME_HEADER.to_string(), encode(name)));
        if method == "tools/call" {
            let arguments = message.pointer("/params/arguments").unwrap_or(&Value::Null);
            headers.extend(param_headers(tools.of(name), arguments));
        }
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_are_encoded_as_the_spec_table_shows() {
        // streamable-http.mdx, Value Encoding, Encoding examples.
        assert_eq!(encode("us-west1"), "us-west1");
        assert_eq!(encode("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
        assert_eq!(encode(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(encode("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
        assert_eq!(
            encode("=?base64?literal?="),
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
        );
        for v in ["us-west1", "Hello, 世界", " padded ", "=?base64?literal?="] {
            assert_eq!(decode(&encode(v)).as_deref(), Some(v));
        }
    }

    #[test]
    fn a_tools_call_mirrors_name_and_annotated_arguments() {
        let mut tools = ToolHeaders::default();
        tools.learn(&json!({"tools": [{"name": "execute_sql", "inputSchema": {
            "type": "object",
            "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "opts": {"type": "object", "properties": {"n": {"type": "integer", "x-mcp-header": "N"}}},
                "flag": {"type": "boolean", "x-mcp-header": "Flag"},
                "query": {"type": "string"}
            }}}]}));
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "execute_sql",
            "arguments": {"region": "us-west1", "opts": {"n": 42}, "flag": null, "query": "x"},
            "_meta": {META_VERSION: "2026-07-28"}}});
        let headers = request_headers(&call, &tools);
        let find = |n: &str| {
            headers
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(find("MCP-Protocol-Version"), Some("2026-07-28"));
        assert_eq!(find("Mcp-Method"), Some("tools/call"));
        assert_eq!(find("Mcp-Name"), Some("execute_sql"));
        assert_eq!(find("Mcp-Param-Region"), Some("us-west1"));
        assert_eq!(find("Mcp-Param-N"), Some("42"));
        // Null: the header is omitted.
        assert_eq!(find("Mcp-Param-Flag"), None);
    }

    #[test]
    fn invalid_or_duplicate_annotations_are_not_mirrored() {
        let dup = json!({"properties": {
            "a": {"x-mcp-header": "X"}, "b": {"x-mcp-header": "x"}}});
        assert!(annotations(&dup).is_empty());
        let bad = json!({"properties": {"a": {"x-mcp-header": "a b"}}});
        assert!(annotations(&bad).is_empty());
        let resource = json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read",
            "params": {"uri": "file:///a b", "_meta": {META_VERSION: "2026-07-28"}}});
        let headers = request_headers(&resource, &ToolHeaders::default());
        assert!(headers.contains(&("Mcp-Name".to_string(), "file:///a b".to_string())));
    }
}
