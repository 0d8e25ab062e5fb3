//! Fuzzer bytes -> the lines of one live-server case.
//!
//! Decoding goes through [`arbitrary::Unstructured`], so every byte string is some case and
//! a small change to the bytes is a small change to the case: libFuzzer's mutations stay
//! meaningful. Most cases are well-formed `tools/call` requests whose arguments follow the
//! tool's `inputSchema`, with the odd node mutated (wrong type, out of range, a property
//! dropped or added); the rest probe ids, cursors, other methods, notifications and
//! malformed frames. A case is one to four lines written in one go; the live target
//! appends a ping behind them.

use arbitrary::Unstructured;
use serde_json::{json, Map, Value};

use super::live::PING_ID;
use super::shape::{Compiled, Format, Shape};
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

/// Most values generated per case (nested `minItems` could otherwise ask for millions).
const NODE_BUDGET: u32 = 4096;

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

/// The ping written behind every case.
pub fn ping() -> Value {
    message(Some(Value::String(PING_ID.into())), "ping", None)
}

/// Longest string generated, in characters (past 1000: some servers cap inputs there).
const LONG_STRING: usize = 1200;
/// How deep generated values nest.
const MAX_DEPTH: u32 = 6;

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

/// Text that tends to break string handling.
const TOKENS: &[&str] = &[
    "../../etc/passwd",
    "%s%n%x",
    "' OR 1=1 --",
    "${jndi:x}",
    "\u{202e}",
    "\u{feff}",
    "\u{2028}",
    "\\u0000",
    "{{7*7}}",
    "<script>",
    "NaN",
    "-0",
    "1e309",
    "null",
];

/// Decodes `data` into a case for a server with these tools.
pub fn decode(data: &[u8], tools: &[Tool]) -> Case {
    let mut g = Gen {
        u: Unstructured::new(data),
        nodes: 0,
    };
    let count = if g.chance(48) { 2 + g.below(3) } else { 1 };
    let mut case = Case {
        lines: Vec::with_capacity(count + 1),
        ..Case::default()
    };
    let mut used_ids: Vec<Value> = Vec::new();
    for k in 0..count {
        match g.step(tools, k, &used_ids) {
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
    case.lines.push(Line::Message(ping()));
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

/// The fuzzer's bytes, read as choices.
struct Gen<'a> {
    u: Unstructured<'a>,
    /// Values generated so far (bounded by `NODE_BUDGET`).
    nodes: u32,
}

impl Gen<'_> {
    fn byte(&mut self) -> u8 {
        self.u.arbitrary::<u8>().unwrap_or(0)
    }

    /// True with probability `per256 / 256` (false once the bytes run out).
    fn chance(&mut self, per256: u8) -> bool {
        !self.u.is_empty() && self.byte() < per256
    }

    /// A number in `0..n` (0 once the bytes run out).
    fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        self.u.int_in_range(0..=n - 1).unwrap_or(0)
    }

    fn pick<'v, T>(&mut self, items: &'v [T]) -> &'v T {
        &items[self.below(items.len())]
    }

    fn int_in(&mut self, lo: i64, hi: i64) -> i64 {
        if lo >= hi {
            return lo;
        }
        self.u.int_in_range(lo..=hi).unwrap_or(lo)
    }

    fn step(&mut self, tools: &[Tool], k: usize, used: &[Value]) -> Step {
        let id = json!(k + 1);
        let request = |id: Value, method: &str, params: Value| {
            Step::Request(message(Some(id), method, Some(params)))
        };
        match self.byte() {
            0..=139 if !tools.is_empty() => {
                let tool = &tools[self.below(tools.len())];
                let arguments = self.value(&tool.input.root, &tool.input.defs, 0);
                if !tool.enabled {
                    return Step::Request(message(Some(id), "ping", None));
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
                    Step::Request(message(Some(id), "ping", None))
                } else {
                    Step::Probe(message(Some(probe), "ping", None))
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

    /// A value for `shape` (its `$ref`s in `defs`), mostly valid, now and then mutated.
    fn value(&mut self, shape: &Shape, defs: &[Shape], depth: u32) -> Value {
        self.nodes += 1;
        if depth > MAX_DEPTH || self.nodes > NODE_BUDGET {
            return Value::Null;
        }
        if self.chance(10) {
            return self.mutant(shape, depth);
        }
        match shape {
            Shape::Any => self.any(depth),
            Shape::Const(c) => c.clone(),
            Shape::Enum(options) => self.pick(options).clone(),
            Shape::OneOf(shapes) => {
                let i = self.below(shapes.len());
                self.value(&shapes[i], defs, depth + 1)
            }
            Shape::Ref(i) => match defs.get(*i) {
                Some(target) => self.value(target, defs, depth + 1),
                None => self.any(depth),
            },
            Shape::Object { properties } => {
                let mut out = Map::with_capacity(properties.len() + 1);
                for (name, shape, needed) in properties {
                    // A required property is now and then dropped; an optional one is
                    // there half the time.
                    let include = if *needed {
                        !self.chance(6)
                    } else {
                        self.byte() & 1 == 1
                    };
                    if include {
                        let v = self.value(shape, defs, depth + 1);
                        out.insert(name.clone(), v);
                    }
                }
                if self.chance(8) {
                    let key = self.string(1, 12);
                    let v = self.any(depth + 1);
                    out.insert(key, v);
                }
                Value::Object(out)
            }
            Shape::Array { items, min, max } => {
                let n = min + self.below(max.saturating_sub(*min) + 1);
                Value::Array((0..n).map(|_| self.value(items, defs, depth + 1)).collect())
            }
            Shape::String { min, max, format } => {
                Value::String(self.string_for(*min, *max, *format))
            }
            Shape::Integer { lo, hi } => json!(self.integer(*lo, *hi)),
            Shape::Number { lo, hi } => {
                if self.chance(64) {
                    let whole = self.integer(*lo, *hi) as f64;
                    json!(whole + f64::from(self.byte()) / 256.0)
                } else {
                    json!(self.integer(*lo, *hi))
                }
            }
            Shape::Boolean => Value::Bool(self.byte() & 1 == 1),
            Shape::Null => Value::Null,
        }
    }

    /// A value that breaks `shape` in one way, or at random.
    fn mutant(&mut self, shape: &Shape, depth: u32) -> Value {
        match self.below(6) {
            0 => Value::Null,
            1 => {
                // The wrong type.
                match shape {
                    Shape::String { .. } => json!(self.int_in(-3, 3)),
                    Shape::Object { .. } | Shape::Array { .. } => Value::String(self.string(0, 8)),
                    _ => json!({}),
                }
            }
            2 => {
                // Past the range.
                let edge = [
                    i64::MIN,
                    i64::MAX,
                    -1,
                    0,
                    (1 << 53) + 1,
                    -(1 << 31) - 1,
                    (1 << 32) + 7,
                ];
                json!(*self.pick(&edge))
            }
            3 => json!([1e300, -0.0, 0.1]),
            4 => Value::String(self.string(LONG_STRING - 200, LONG_STRING)),
            _ => self.any(depth),
        }
    }

    /// Any JSON value, small.
    fn any(&mut self, depth: u32) -> Value {
        let leaf = depth >= 3;
        match self.below(if leaf { 5 } else { 7 }) {
            0 => Value::Null,
            1 => json!(self.byte() & 1 == 1),
            2 => json!(self.int_in(-1_000_000, 1_000_000)),
            3 => json!(f64::from(self.byte()) / 7.0),
            4 => Value::String(self.string(0, 16)),
            5 => Value::Array((0..self.below(4)).map(|_| self.any(depth + 1)).collect()),
            _ => {
                let mut map = Map::new();
                for _ in 0..self.below(4) {
                    let key = self.string(0, 8);
                    map.insert(key, self.any(depth + 1));
                }
                Value::Object(map)
            }
        }
    }

    fn integer(&mut self, lo: i64, hi: i64) -> i64 {
        if self.chance(32) {
            // The edges.
            if self.byte() & 1 == 0 {
                lo
            } else {
                hi
            }
        } else {
            self.int_in(lo, hi)
        }
    }

    fn string_for(&mut self, min: usize, max: usize, format: Format) -> String {
        match format {
            Format::Date => {
                return format!(
                    "{:04}-{:02}-{:02}",
                    self.int_in(1970, 2100),
                    self.int_in(1, 12),
                    self.int_in(1, 28)
                )
            }
            Format::DateTime => {
                return format!(
                    "2025-{:02}-{:02}T{:02}:{:02}:00Z",
                    self.int_in(1, 12),
                    self.int_in(1, 28),
                    self.int_in(0, 23),
                    self.int_in(0, 59)
                )
            }
            Format::Uri => return format!("https://example.com/{}", self.word()),
            Format::Email => return format!("{}@example.com", self.word()),
            Format::None => {}
        }
        let hi = max.min(min + 24);
        let s = self.string(min, hi.max(min));
        if s.chars().count() > max {
            s.chars().take(max).collect()
        } else {
            s
        }
    }

    fn word(&mut self) -> String {
        let n = 1 + self.below(8);
        (0..n)
            .map(|_| char::from(b'a' + self.byte() % 26))
            .collect()
    }

    /// A string of `min..=max` characters (now and then longer than 1000 characters,
    /// when `max` allows), mixing ASCII, the rest of the BMP, characters above U+FFFF,
    /// escapes and troublesome tokens.
    fn string(&mut self, min: usize, max: usize) -> String {
        let long = max > 1000 || (max == usize::MAX && self.chance(3));
        let len = if long {
            1000 + self.below(LONG_STRING - 999)
        } else {
            min + self.below(max.saturating_sub(min).min(255) + 1)
        };
        let mut out = String::with_capacity(len.max(min));
        let mut chars = 0;
        // Long strings repeat a short generated stem, so they cost few input bytes.
        let stem_len = if long { 1 + self.below(8) } else { len };
        while chars < stem_len {
            chars += self.piece(&mut out);
        }
        if long && !out.is_empty() {
            let stem = out.clone();
            let stem_chars = stem.chars().count();
            while chars < len {
                out.push_str(&stem);
                chars += stem_chars;
            }
        }
        if chars > len.max(min) {
            out = out.chars().take(len.max(min)).collect();
        }
        out
    }

    /// Appends a character or a token to `out`; returns how many characters.
    fn piece(&mut self, out: &mut String) -> usize {
        let c = match self.byte() {
            0..=159 => char::from(0x20 + self.byte() % 95),
            160..=199 => {
                let c = 0xA0 + u32::from(self.byte()) * 251 + u32::from(self.byte());
                char::from_u32(c % 0xD7FF).unwrap_or('\u{e9}')
            }
            200..=219 => {
                let c = 0x10000 + (u32::from(self.byte()) << 8 | u32::from(self.byte())) * 16;
                char::from_u32(c).unwrap_or('\u{1F600}')
            }
            220..=239 => ['\0', '\n', '\t', '"', '\\', '\u{7f}', '\r', '\u{1b}'][self.below(8)],
            _ => {
                let token = *self.pick(TOKENS);
                out.push_str(token);
                return token.chars().count();
            }
        };
        out.push(c);
        1
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
        for seed in 0..2000u32 {
            let data: Vec<u8> = (0..64u32)
                .map(|i| (seed.wrapping_mul(2654435761).wrapping_add(i * 40503) >> 13) as u8)
                .collect();
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
