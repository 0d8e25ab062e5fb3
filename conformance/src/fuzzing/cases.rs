//! Fuzzer bytes -> the lines of one live-server case.
//!
//! Decoding goes through [`arbitrary::Unstructured`], so every byte string is some case and
//! a small change to the bytes is a small change to the case: libFuzzer's mutations stay
//! meaningful. Most cases are well-formed `tools/call` requests whose arguments follow the
//! tool's `inputSchema`, with the odd node mutated (wrong type, out of range, a property
//! dropped or added); the rest probe ids, cursors, other methods, notifications and
//! malformed frames. A case is one to four lines written in one go; the live target
//! appends a ping behind them. The arguments are built by the schema-instance generator
//! ([`crate::generate`], its byte-driven builder), from the same bytes as the case.

use serde_json::{json, Map, Value};

use crate::generate::{Choices, Compiled};
use crate::protocol::Line;

/// A tool the server listed.
#[derive(Debug, Clone)]
pub struct Tool {
    /// Its name.
    pub name: String,
    /// Its `inputSchema`, compiled for the generator.
    pub input: Compiled,
    /// Whether it may be called. A tool the call policy forbids, or that outlasted the
    /// timeout, stays in the list (so the same bytes keep decoding the same way) but is
    /// never called: a case that picks it pings instead, and no generated tool name
    /// equals its name.
    pub enabled: bool,
}

impl Tool {
    /// A tool named `name` whose arguments follow `input_schema`.
    pub fn new(name: impl Into<String>, input_schema: &Value) -> Self {
        Self {
            name: name.into(),
            input: Compiled::new(input_schema),
            enabled: true,
        }
    }
}

/// One line of a case, as the generator makes it.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    /// A request (it has an `id`): exactly one response is due.
    Request(Value),
    /// A request whose id is the point (the id round trip).
    Probe(Value),
    /// A notification: no response is due.
    Notification(Value),
    /// A malformed frame, written as is. `ids` are request ids the frame shows, which a
    /// lenient server may answer.
    Raw {
        /// The bytes.
        bytes: Vec<u8>,
        /// Ids a response to the frame may carry.
        ids: Vec<Value>,
    },
}

/// The lines of one case, in order, ending with the ping.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Case {
    /// What is written, in one write; the last line is the ping.
    pub lines: Vec<Line>,
    /// Request ids that malformed frames show: a lenient server may answer them.
    pub tolerated: Vec<Value>,
    /// Lines whose id is the point of the case (the id round trip); every other request
    /// gets a fresh id of the session when it is first sent (ids MUST NOT be reused
    /// within a session).
    pub probes: Vec<usize>,
    /// Whether the session ids have been given out (a case keeps them when it is run
    /// again, to confirm it or cut it down, on a fresh process).
    pub ids_assigned: bool,
}

impl Case {
    /// The case's own lines (without the ping).
    pub fn steps(&self) -> &[Line] {
        &self.lines[..self.lines.len().saturating_sub(1)]
    }

    /// The tool arguments line `i` sends, when it is a `tools/call` that has them: what
    /// a case's values are cut to (the method, the tool's name and the rest of the
    /// message say what the case is, and stay).
    pub fn arguments(&self, i: usize) -> Option<&Value> {
        match self.lines.get(i)? {
            Line::Message(message) if message["method"] == "tools/call" => {
                message.get("params")?.get("arguments")
            }
            _ => None,
        }
    }

    /// The case with the tool arguments of line `i` (see [`Case::arguments`]) replaced.
    pub fn with_arguments(&self, i: usize, arguments: Value) -> Case {
        let mut out = self.clone();
        if self.arguments(i).is_some() {
            if let Some(Line::Message(message)) = out.lines.get_mut(i) {
                message["params"]["arguments"] = arguments;
            }
        }
        out
    }

    /// The case without its own line `i`.
    pub fn without(&self, i: usize) -> Case {
        let mut out = self.clone();
        if i + 1 < out.lines.len() {
            out.lines.remove(i);
            out.probes = out
                .probes
                .iter()
                .filter(|p| **p != i)
                .map(|p| if *p > i { p - 1 } else { *p })
                .collect();
        }
        out
    }

    /// Whether any line is a malformed frame (an error response with a null id may then
    /// come back: the server could not read an id).
    pub fn has_raw(&self) -> bool {
        self.lines.iter().any(|l| matches!(l, Line::Raw(_)))
    }

    /// Methods of the notifications the case sends.
    pub fn notifications(&self) -> Vec<&str> {
        self.lines
            .iter()
            .filter_map(|l| match l {
                Line::Message(m) if m.get("id").is_none() => m["method"].as_str(),
                _ => None,
            })
            .collect()
    }
}

/// A JSON-RPC request or notification, built without the deep copies `json!` makes of
/// interpolated values.
fn message(id: Option<Value>, method: &str, params: Option<Value>) -> Value {
    let mut m = Map::with_capacity(4);
    m.insert("jsonrpc".into(), Value::String("2.0".into()));
    if let Some(id) = id {
        m.insert("id".into(), id);
    }
    m.insert("method".into(), Value::String(method.into()));
    if let Some(params) = params {
        m.insert("params".into(), params);
    }
    Value::Object(m)
}

/// The id of the ping written behind every case.
pub const PING_ID: &str = "live-ping";

/// The ping written behind every case.
pub fn ping() -> Value {
    liveness("ping")
}

/// The liveness request written behind every case: `method` is the revision's
/// ([`crate::protocol::Revision::liveness_method`]: ping, or `server/discover` in
/// 2026-07-28, which removed ping).
pub fn liveness(method: &str) -> Value {
    message(Some(Value::String(PING_ID.into())), method, None)
}

/// Methods other than the tools ones: MCP methods of capabilities a server may or may not
/// declare, and names no server implements.
const OTHER_METHODS: &[&str] = &[
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "prompts/list",
    "prompts/get",
    "logging/setLevel",
    "completion/complete",
    "resources/subscribe",
    "tasks/list",
    "conformance/unknown",
    "",
    "tools/call/extra",
    "rpc.discover",
];

/// Notifications a client may send.
const NOTIFICATIONS: &[&str] = &[
    "notifications/cancelled",
    "notifications/initialized",
    "notifications/roots/list_changed",
    "notifications/progress",
    "notifications/conformance/unknown",
];

/// Decodes `data` into a case for a server with these tools (a legacy revision's: the
/// liveness request is ping).
pub fn decode(data: &[u8], tools: &[Tool]) -> Case {
    decode_for(data, tools, "ping")
}

/// [`decode`] for a revision whose liveness request is `liveness` (its
/// [`crate::protocol::Revision::liveness_method`]): the requests that ask nothing but
/// "are you there?" (the id round trip, a call of a tool that must not be called, the
/// line behind the case) use it. The same bytes make the same case otherwise.
pub fn decode_for(data: &[u8], tools: &[Tool], liveness_method: &str) -> Case {
    let mut g = Choices::new(data);
    let count = if g.chance(48) { 2 + g.below(3) } else { 1 };
    let mut case = Case {
        lines: Vec::with_capacity(count + 1),
        ..Case::default()
    };
    let mut used_ids: Vec<Value> = Vec::new();
    for k in 0..count {
        match g.step(tools, k, &used_ids, liveness_method) {
            Step::Request(r) => {
                used_ids.push(r["id"].clone());
                case.lines.push(Line::Message(r));
            }
            Step::Probe(r) => {
                used_ids.push(r["id"].clone());
                case.probes.push(case.lines.len());
                case.lines.push(Line::Message(r));
            }
            Step::Notification(n) => case.lines.push(Line::Message(n)),
            Step::Raw { bytes, ids } => {
                case.tolerated.extend(ids);
                case.lines.push(Line::Raw(bytes));
            }
        }
    }
    case.lines.push(Line::Message(liveness(liveness_method)));
    // A cancellation never names a request of its own case: a cancelled request need not
    // be answered, and waiting for it would be a false stall.
    let ids: Vec<Value> = case
        .lines
        .iter()
        .filter_map(Line::request_id)
        .cloned()
        .collect();
    for (k, line) in case.lines.iter_mut().enumerate() {
        if let Line::Message(m) = line {
            if m["method"] == "notifications/cancelled"
                && m.pointer("/params/requestId")
                    .is_some_and(|t| ids.contains(t))
            {
                m["params"]["requestId"] = json!(format!("gone-{k}"));
            }
        }
    }
    case
}

/// The lines of a case, read from the same choices as the values in them.
trait Steps {
    /// Line `k` of a case (`used`: the ids of the requests before it; `liveness`: the
    /// revision's liveness method).
    fn step(&mut self, tools: &[Tool], k: usize, used: &[Value], liveness: &str) -> Step;
    /// A frame that is not a valid request.
    fn malformed(&mut self, tools: &[Tool], k: usize) -> Step;
}

impl Steps for Choices<'_> {
    fn step(&mut self, tools: &[Tool], k: usize, used: &[Value], liveness: &str) -> Step {
        let id = json!(k + 1);
        let request = |id: Value, method: &str, params: Value| {
            Step::Request(message(Some(id), method, Some(params)))
        };
        match self.byte() {
            0..=139 if !tools.is_empty() => {
                let tool = &tools[self.below(tools.len())];
                let arguments = self.value(&tool.input.root, &tool.input.defs, 0);
                if !tool.enabled {
                    return Step::Request(message(Some(id), liveness, None));
                }
                request(id, "tools/call", {
                    let mut p = Map::new();
                    p.insert("name".into(), Value::String(tool.name.clone()));
                    p.insert("arguments".into(), arguments);
                    Value::Object(p)
                })
            }
            0..=159 => {
                let name = if !tools.is_empty() && self.chance(64) {
                    // A listed name, bent.
                    let mut name = self.pick(tools).name.clone();
                    name.push_str(&self.string(0, 3));
                    name
                } else {
                    self.string(0, 24)
                };
                // Never the name of a tool that must not be called.
                let forbidden = tools.iter().any(|t| !t.enabled && t.name == name);
                let name = if forbidden {
                    "conformance-unknown-tool".to_string()
                } else {
                    name
                };
                let mut params = json!({"name": name});
                if self.chance(200) {
                    params["arguments"] = self.any(0);
                }
                request(id, "tools/call", params)
            }
            160..=179 => {
                let params = match self.below(4) {
                    0 => json!({}),
                    1 => json!({"cursor": self.string(0, 200)}),
                    2 => json!({"cursor": self.any(1)}),
                    _ => json!({"cursor": "", "_meta": {"progressToken": self.int_in(0, 9)}}),
                };
                request(id, "tools/list", params)
            }
            180..=194 => {
                // The id round trip: any integer within ±(2^53-1), or any string.
                const MAX_SAFE: i64 = (1 << 53) - 1;
                let probe = match self.below(3) {
                    0 => json!(self.int_in(-MAX_SAFE, MAX_SAFE)),
                    1 => json!(self.int_in(-1000, 1000)),
                    _ => Value::String(self.string(0, 24)),
                };
                // Ids the harness uses for itself are strings starting with "live-".
                let ours = probe.as_str().is_some_and(|s| s.starts_with("live-"));
                if used.contains(&probe) || ours {
                    Step::Request(message(Some(id), liveness, None))
                } else {
                    Step::Probe(message(Some(probe), liveness, None))
                }
            }
            195..=209 => {
                let method = *self.pick(OTHER_METHODS);
                let params = self.any(1);
                let params = if params.is_object() {
                    params
                } else {
                    json!({})
                };
                request(id, method, params)
            }
            210..=229 => {
                let method = *self.pick(NOTIFICATIONS);
                let params = match method {
                    "notifications/cancelled" => {
                        // Never a request of this case: a cancelled request need
                        // not be answered, and waiting for it would cost a timeout.
                        let target = match self.below(2) {
                            0 => json!(self.int_in(100, 999)),
                            _ => Value::String(format!("gone-{}", self.string(0, 8))),
                        };
                        // Never an id this case sends (session ids are 10^9 and up).
                        let target = if used.contains(&target) {
                            json!(format!("gone-{k}"))
                        } else {
                            target
                        };
                        json!({"requestId": target, "reason": self.string(0, 16)})
                    }
                    "notifications/progress" => {
                        json!({"progressToken": self.int_in(0, 9), "progress": self.int_in(0, 100)})
                    }
                    _ => json!({}),
                };
                Step::Notification(message(None, method, Some(params)))
            }
            _ => self.malformed(tools, k),
        }
    }

    /// A frame that is not a valid request: never a JSON-RPC request the server must
    /// answer, never an array (a batch is a valid message in 2025-03-26).
    fn malformed(&mut self, tools: &[Tool], k: usize) -> Step {
        let id = json!(format!("raw-{}", k + 1));
        let valid = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"}).to_string();
        let raw = |bytes: Vec<u8>, ids: Vec<Value>| Step::Raw { bytes, ids };
        match self.below(8) {
            0 => {
                // A request cut short.
                let cut = 1 + self.below(valid.len() - 1);
                raw(valid.as_bytes()[..cut].to_vec(), vec![])
            }
            1 => {
                // Bytes that are not UTF-8 inside a string: 0xFF never is, whatever
                // follows it.
                let mut bytes =
                    br#"{"jsonrpc":"2.0","id":"raw-utf8","method":"ping","params":{"x":""#.to_vec();
                bytes.push(0xFF);
                let n = self.below(4);
                for _ in 0..n {
                    bytes.push(0x80 | self.byte());
                }
                bytes.extend_from_slice(b"\"}}");
                raw(bytes, vec![json!("raw-utf8")])
            }
            2 => raw(
                format!("{{\"jsonrpc\":\"1.0\",\"id\":{id},\"method\":\"ping\"}}").into_bytes(),
                vec![id],
            ),
            3 => raw(
                format!("{{\"jsonrpc\":\"2.0\",\"id\":{id}}}").into_bytes(),
                vec![id],
            ),
            4 => {
                let method = match self.below(3) {
                    0 => json!(self.int_in(-9, 9)),
                    1 => Value::Null,
                    _ => json!({"name": "ping"}),
                };
                raw(
                    json!({"jsonrpc": "2.0", "id": id, "method": method})
                        .to_string()
                        .into_bytes(),
                    vec![id],
                )
            }
            5 => {
                // An id of a type JSON-RPC does not allow.
                let bad = match self.below(3) {
                    0 => json!(true),
                    1 => json!({"id": 1}),
                    _ => json!([1]),
                };
                let method = if tools.is_empty() {
                    "ping"
                } else {
                    "tools/list"
                };
                raw(
                    json!({"jsonrpc": "2.0", "id": bad, "method": method})
                        .to_string()
                        .into_bytes(),
                    vec![bad],
                )
            }
            6 => {
                // Garbage text: whatever the bytes say, made sure not to parse as JSON.
                let mut text = String::from("\u{1}");
                // One line: a newline would split it into frames of its own.
                text.extend(
                    self.string(0, 40)
                        .chars()
                        .filter(|c| !matches!(c, '\n' | '\r')),
                );
                raw(text.into_bytes(), vec![])
            }
            _ => {
                // A JSON value that is no message at all.
                let value = match self.below(4) {
                    0 => json!(self.int_in(-9, 9)),
                    1 => Value::String(self.string(0, 12)),
                    2 => json!({}),
                    _ => Value::Null,
                };
                raw(value.to_string().into_bytes(), vec![])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tools() -> Vec<Tool> {
        vec![Tool::new(
            "echo",
            &json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
        )]
    }

    #[test]
    fn every_input_decodes_and_requests_have_distinct_ids() {
        let tools = tools();
        let mut state = 1u64;
        for len in 0..400 {
            let data: Vec<u8> = (0..len)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (state >> 56) as u8
                })
                .collect();
            let case = decode(&data, &tools);
            assert!((1..=4).contains(&case.steps().len()));
            assert_eq!(case.lines.last(), Some(&Line::Message(ping())));
            let ids: Vec<&Value> = case.lines.iter().filter_map(Line::request_id).collect();
            for (i, id) in ids.iter().enumerate() {
                assert!(!ids[..i].contains(id), "duplicate id {id} in {case:?}");
            }
            for line in case.steps() {
                if let Line::Raw(bytes) = line {
                    let parsed = serde_json::from_slice::<Value>(bytes).ok();
                    let is_request = parsed.as_ref().is_some_and(|v| {
                        v.get("jsonrpc") == Some(&json!("2.0"))
                            && v.get("method").is_some_and(Value::is_string)
                            && v.get("id").is_some_and(|i| i.is_string() || i.is_number())
                    });
                    assert!(
                        !is_request,
                        "a malformed frame is a valid request: {parsed:?}"
                    );
                    assert!(!parsed.is_some_and(|v| v.is_array()));
                }
            }
        }
    }

    #[test]
    fn a_case_never_cancels_its_own_requests() {
        let tools = tools();
        let mut state = 9u64;
        let mut cancels = 0;
        for _ in 0..20_000 {
            let case = decode(&crate::fuzzing::seeded_input(&mut state), &tools);
            let ids: Vec<&Value> = case.lines.iter().filter_map(Line::request_id).collect();
            for line in &case.lines {
                if let Line::Message(m) = line {
                    if m["method"] == "notifications/cancelled" {
                        cancels += 1;
                        let target = &m["params"]["requestId"];
                        assert!(!ids.contains(&target), "{case:?}");
                    }
                }
            }
        }
        assert!(cancels > 100, "{cancels}");
    }

    #[test]
    fn disabled_tools_are_never_called_or_named() {
        let mut tools = tools();
        tools.push(Tool::new("echo_all", &json!({"type": "object"})));
        tools[1].enabled = false;
        let mut state = 5u64;
        for _ in 0..20_000 {
            let data = crate::fuzzing::seeded_input(&mut state);
            for line in decode(&data, &tools).lines {
                if let Line::Message(m) = line {
                    assert_ne!(m.pointer("/params/name"), Some(&json!("echo_all")), "{m}");
                }
            }
        }
    }

    /// 2026-07-28 removed ping: a modern case asks `server/discover` wherever a legacy
    /// one pings, and is otherwise the same case.
    #[test]
    fn a_modern_case_uses_the_liveness_method_instead_of_ping() {
        let tools = tools();
        let mut state = 3u64;
        let mut probes = 0;
        for _ in 0..5_000 {
            let data = crate::fuzzing::seeded_input(&mut state);
            let legacy = decode(&data, &tools);
            let modern = decode_for(&data, &tools, "server/discover");
            assert_eq!(
                modern.lines.last(),
                Some(&Line::Message(liveness("server/discover")))
            );
            assert_eq!(legacy.lines.len(), modern.lines.len());
            probes += modern.probes.len();
            for (l, m) in legacy.lines.iter().zip(&modern.lines) {
                match (l, m) {
                    (Line::Message(l), Line::Message(m)) if l["method"] == "ping" => {
                        assert_eq!(m["method"], "server/discover");
                        assert_eq!(l["id"], m["id"]);
                    }
                    _ => assert_eq!(l, m),
                }
            }
        }
        assert!(probes > 10, "{probes}");
    }

    #[test]
    fn the_same_bytes_give_the_same_case() {
        let data = b"\x01\x02\x03 the same bytes \xff\xfe";
        assert_eq!(decode(data, &tools()), decode(data, &tools()));
    }

    #[test]
    fn the_generator_reaches_astral_and_long_strings() {
        let tools = tools();
        let mut astral = false;
        let mut long = false;
        // Pseudo-random inputs (`fuzz --live`'s): an arithmetic progression of bytes would
        // tie the plan byte to the choices after it.
        let mut state = 7u64;
        for _ in 0..2000 {
            let data = crate::fuzzing::seeded_input(&mut state);
            for line in decode(&data, &tools).steps() {
                if let Line::Message(r) = line {
                    let text = r.to_string();
                    astral |= text.chars().any(|c| u32::from(c) > 0xFFFF);
                    long |= text.len() > 1000;
                }
            }
        }
        assert!(astral && long, "astral {astral}, long {long}");
    }
}
