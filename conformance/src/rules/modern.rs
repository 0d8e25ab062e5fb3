//! The rules of the modern era (2026-07-28) that can be judged on one message: result
//! envelopes (`resultType`, `serverInfo`, caching hints), the discover result, the
//! modern error codes, and the shape of an `InputRequiredResult`.
//!
//! They live in the rule book, beside the legacy rules, so that the scripted judges
//! (`checks/modern.rs`) and later the property phase and the live oracle ask the same
//! function about a modern answer; none restates the rule.

use serde_json::Value;

use super::{breach, Breach, CheckId, FailureKind};
use crate::protocol::{META_SERVER_INFO, META_VERSION};

/// Whether a request is a modern one: its `params._meta` names a protocol version
/// (2026-07-28 index.mdx, Per-request protocol fields).
pub fn is_modern_request(request: &Value) -> bool {
    request
        .pointer("/params/_meta")
        .and_then(|m| m.get(META_VERSION))
        .is_some()
}

/// The methods whose result may be an `InputRequiredResult` (mrtr.mdx, Supported
/// Requests).
pub const INPUT_REQUIRED_METHODS: &[&str] = &["tools/call", "prompts/get", "resources/read"];

/// `M-RESULTTYPE`: every result has `resultType` "complete", or "input_required" where the
/// method allows a multi round-trip (2026-07-28 index.mdx, ResultType; schema `Result`).
pub fn result_type(method: &str, result: &Value) -> Option<Breach> {
    let allowed: &[&str] = if INPUT_REQUIRED_METHODS.contains(&method) {
        &["complete", "input_required"]
    } else {
        &["complete"]
    };
    match result.get("resultType") {
        Some(Value::String(t)) if allowed.contains(&t.as_str()) => None,
        Some(other) => breach(
            CheckId::MResulttype,
            FailureKind::InvalidResult,
            format!(
                "the {method} result has resultType {other}, expected {}",
                allowed.join(" or ")
            ),
        ),
        None => breach(
            CheckId::MResulttype,
            FailureKind::InvalidResult,
            format!("the {method} result has no resultType"),
        ),
    }
}

/// `M-SERVERINFO`: a result's `_meta` names the server (an Implementation: name and
/// version strings; 2026-07-28 index.mdx, Per-response protocol fields).
pub fn server_info(method: &str, result: &Value) -> Option<Breach> {
    let info = result.get("_meta").and_then(|m| m.get(META_SERVER_INFO));
    let problem = match info {
        None => format!("the {method} result's _meta has no {META_SERVER_INFO}"),
        Some(Value::Object(o)) => {
            let missing: Vec<&str> = ["name", "version"]
                .into_iter()
                .filter(|k| !o.get(*k).is_some_and(Value::is_string))
                .collect();
            if missing.is_empty() {
                return None;
            }
            format!(
                "the {method} result's {META_SERVER_INFO} lacks the string field(s) {}",
                missing.join(", ")
            )
        }
        Some(other) => {
            format!("the {method} result's {META_SERVER_INFO} is {other}, not an object")
        }
    };
    breach(CheckId::MServerinfo, FailureKind::InvalidResult, problem)
}

/// The caching hints of a cacheable result (caching.mdx, Cacheable Results): `ttlMs` an
/// integer >= 0 and `cacheScope` "public" or "private". The problems, in words.
pub fn cache_hint_problems(result: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    match result.get("ttlMs") {
        Some(Value::Number(n)) if n.is_u64() => {}
        Some(other) => problems.push(format!("ttlMs is {other}, not an integer >= 0")),
        None => problems.push("ttlMs is missing".to_string()),
    }
    match result.get("cacheScope").and_then(Value::as_str) {
        Some("public" | "private") => {}
        Some(other) => problems.push(format!(
            "cacheScope is {other:?}, not \"public\" or \"private\""
        )),
        None => problems.push("cacheScope is missing or not a string".to_string()),
    }
    problems
}

/// `TL-TTL-NONNEG` and the caching hints of a `tools/list` page (caching.mdx, Time-to-Live,
/// Cacheable Results).
pub fn cache_hints(result: &Value) -> Option<Breach> {
    let problems = cache_hint_problems(result);
    if problems.is_empty() {
        return None;
    }
    breach(
        CheckId::TlCacheHints,
        FailureKind::InvalidResult,
        format!(
            "the tools/list page's caching hints: {}",
            problems.join("; ")
        ),
    )
}

/// `M-DISCOVER`: a `DiscoverResult` (discover.mdx; caching.mdx): resultType "complete",
/// supportedVersions a string array naming `version`, capabilities an object, and the
/// caching hints.
pub fn discover_result(result: &Value, version: &str) -> Option<Breach> {
    let mut problems = Vec::new();
    if result.get("resultType").and_then(Value::as_str) != Some("complete") {
        problems.push(format!(
            "resultType is {}, not \"complete\"",
            result.get("resultType").unwrap_or(&Value::Null)
        ));
    }
    match result.get("supportedVersions").and_then(Value::as_array) {
        Some(versions) if versions.iter().all(Value::is_string) => {
            if !versions.iter().any(|v| v == version) {
                problems.push(format!("supportedVersions does not name {version}"));
            }
        }
        _ => problems.push("supportedVersions is missing or not an array of strings".into()),
    }
    if !result.get("capabilities").is_some_and(Value::is_object) {
        problems.push("capabilities is missing or not an object".into());
    }
    problems.extend(cache_hint_problems(result));
    if problems.is_empty() {
        return None;
    }
    breach(
        CheckId::MDiscover,
        FailureKind::InvalidResult,
        format!(
            "the server/discover result is malformed: {}",
            problems.join("; ")
        ),
    )
}

/// `M-VERSION-UNSUPPORTED`: an unsupported `_meta` protocolVersion gets -32022 with
/// `data.supported` (string[]) and `data.requested` (versioning.mdx, Protocol Version
/// Negotiation). `response` is the whole response message.
pub fn version_unsupported_error(response: &Value, requested: &str) -> Option<Breach> {
    let wrong = |what: String| {
        breach(
            CheckId::MVersionUnsupported,
            FailureKind::InvalidResult,
            what,
        )
    };
    let Some(error) = response.get("error") else {
        return wrong(format!(
            "a request for version {requested:?} was served, not refused with -32022"
        ));
    };
    let code = error.get("code").and_then(Value::as_i64);
    if code != Some(-32022) {
        return wrong(format!(
            "a request for version {requested:?} got error code {}, not -32022",
            error.get("code").unwrap_or(&Value::Null)
        ));
    }
    let mut problems = Vec::new();
    let supported = error.pointer("/data/supported").and_then(Value::as_array);
    if !supported.is_some_and(|s| s.iter().all(Value::is_string)) {
        problems.push("data.supported is missing or not an array of strings".to_string());
    }
    match error.pointer("/data/requested").and_then(Value::as_str) {
        Some(r) if r == requested => {}
        Some(r) => problems.push(format!("data.requested is {r:?}, not {requested:?}")),
        None => problems.push("data.requested is missing or not a string".to_string()),
    }
    if problems.is_empty() {
        return None;
    }
    wrong(format!("the -32022 error: {}", problems.join("; ")))
}

/// The client capability an input request needs (mrtr.mdx, Server Requirements), or
/// `None` for a method an `InputRequiredResult` may not carry.
pub fn input_request_capability(method: &str) -> Option<&'static str> {
    match method {
        "elicitation/create" => Some("elicitation"),
        "sampling/createMessage" => Some("sampling"),
        "roots/list" => Some("roots"),
        _ => None,
    }
}

/// `TC-MRTR-CONTENT`: an `InputRequiredResult` holds `inputRequests` and/or
/// `requestState`; each input request is an elicitation, sampling or roots request with an
/// object `params` when present; `requestState` is a string (mrtr.mdx, Server
/// Requirements; schema `InputRequiredResult`). (JSON object keys are unique once parsed.)
pub fn input_required_shape(result: &Value) -> Option<Breach> {
    let mut problems = Vec::new();
    let requests = result.get("inputRequests");
    let state = result.get("requestState");
    if requests.is_none() && state.is_none() {
        problems.push("it has neither inputRequests nor requestState".to_string());
    }
    if let Some(requests) = requests {
        match requests.as_object() {
            None => problems.push(format!("inputRequests is {requests}, not an object")),
            Some(map) => {
                for (key, request) in map {
                    let method = request.get("method").and_then(Value::as_str);
                    match method {
                        Some(m) if input_request_capability(m).is_some() => {}
                        Some(m) => problems.push(format!(
                            "inputRequests[{key:?}] is a {m:?} request, not elicitation/create, \
                             sampling/createMessage or roots/list"
                        )),
                        None => {
                            problems.push(format!("inputRequests[{key:?}] has no string method"))
                        }
                    }
                    if request.get("params").is_some_and(|p| !p.is_object()) {
                        problems.push(format!("inputRequests[{key:?}].params is not an object"));
                    }
                }
            }
        }
    }
    if state.is_some_and(|s| !s.is_string()) {
        problems.push("requestState is not a string".to_string());
    }
    if problems.is_empty() {
        return None;
    }
    breach(
        CheckId::TcMrtrShape,
        FailureKind::InvalidResult,
        format!(
            "the InputRequiredResult is malformed: {}",
            problems.join("; ")
        ),
    )
}

/// `M-CLIENTCAP`: the input requests of an `InputRequiredResult` that need a capability
/// the request's `clientCapabilities` did not declare: (key, capability).
pub fn undeclared_input_requests(result: &Value, declared: &Value) -> Vec<(String, &'static str)> {
    result
        .get("inputRequests")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(key, request)| {
            let cap = input_request_capability(request.get("method")?.as_str()?)?;
            (declared.get(cap).is_none()).then(|| (key.clone(), cap))
        })
        .collect()
}

/// `M-CLIENTCAP`: a -32021 error names what it needs in `data.requiredCapabilities` (an
/// object). `error` is the response's error member.
pub fn required_capabilities_error(error: &Value) -> Option<Breach> {
    if error
        .pointer("/data/requiredCapabilities")
        .is_some_and(Value::is_object)
    {
        return None;
    }
    breach(
        CheckId::MClientcap,
        FailureKind::InvalidResult,
        "a -32021 error has no data.requiredCapabilities object",
    )
}

/// Error codes 2026-07-28 defines in the range it reserves (index.mdx, Error Codes).
pub const DEFINED_RESERVED_CODES: &[i64] = &[-32020, -32021, -32022];

/// `RPC-ERR-RANGE-R5`: no -32002 (the old resource-not-found), no -32042 (the 2025-11-25
/// URL elicitation), and no undefined code of -32020..-32099 (index.mdx, Error Codes).
pub fn error_code_range(code: i64) -> Option<Breach> {
    let why = if code == -32002 {
        "-32002 (resource not found) is a legacy code 2026-07-28 implementations MUST NOT emit"
    } else if code == -32042 {
        "-32042 (URL elicitation required) is a 2025-11-25 code 2026-07-28 implementations \
         MUST NOT emit"
    } else if (-32099..=-32020).contains(&code) && !DEFINED_RESERVED_CODES.contains(&code) {
        "-32020 to -32099 is reserved for the specification, which defines only -32020, \
         -32021 and -32022"
    } else {
        return None;
    };
    breach(
        CheckId::RpcErrRange,
        FailureKind::InvalidMessage,
        format!("error code {code}: {why}"),
    )
}

#[cfg(test)]
#[path = "modern_tests.rs"]
mod tests;
