//! The JSON-RPC 2.0 envelope as MCP uses it.
//!
//! Classification is deliberately lenient: a message with the wrong `jsonrpc` value or
//! both `result` and `error` is still classified (as a response) so that checks can
//! report exactly what is wrong with it instead of losing it as "garbage".

use serde_json::Value;

/// What a parsed line from the server is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageKind {
    /// Has `method` and `id`: the server asks us something.
    Request,
    /// Has `method` and no `id`.
    Notification,
    /// Has `result` or `error` (or an `id` and no `method`).
    Response,
    /// A JSON array (a batch).
    Batch,
    /// Valid JSON that is none of the above (a number, a string, an object without
    /// `method`, `result`, `error` or `id`).
    NotAMessage,
}

/// Classifies a JSON value received from the server.
pub fn classify(value: &Value) -> MessageKind {
    match value {
        Value::Array(_) => MessageKind::Batch,
        Value::Object(obj) => {
            let has = |k: &str| obj.contains_key(k);
            if has("method") {
                if has("id") {
                    MessageKind::Request
                } else {
                    MessageKind::Notification
                }
            } else if has("result") || has("error") || has("id") {
                MessageKind::Response
            } else {
                MessageKind::NotAMessage
            }
        }
        _ => MessageKind::NotAMessage,
    }
}

/// How a response id relates to a request id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum IdMatch {
    /// Same JSON type and value (RPC-ID-ECHO).
    Exact,
    /// Same value in another type or form (`5` for `"5"`, `5.0` for `5`): the server
    /// meant this request but broke the echo rule. We still accept the response so that
    /// one broken rule does not hide every other check.
    Loose,
    /// `id` null or absent, accepted only for a request whose id the server could not
    /// read (REQUIREMENTS.md section 10 A2).
    Unread,
}

/// Compares a response id with a request id.
pub fn id_match(sent: &Value, got: &Value) -> Option<IdMatch> {
    if sent == got && same_number_form(sent, got) {
        return Some(IdMatch::Exact);
    }
    let text = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    let numeric = |v: &Value| match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.parse::<f64>().ok(),
        _ => None,
    };
    match (text(sent), text(got)) {
        (Some(a), Some(b)) if a == b => return Some(IdMatch::Loose),
        _ => {}
    }
    match (numeric(sent), numeric(got)) {
        (Some(a), Some(b)) if a == b => Some(IdMatch::Loose),
        _ => None,
    }
}

/// serde_json treats `1` and `1.0` as different already; this also keeps `-0` apart.
fn same_number_form(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.to_string() == y.to_string(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn classification_follows_the_envelope_members() {
        assert_eq!(
            classify(&json!({"jsonrpc":"2.0","id":1,"method":"ping"})),
            MessageKind::Request
        );
        assert_eq!(
            classify(&json!({"jsonrpc":"2.0","method":"x"})),
            MessageKind::Notification
        );
        assert_eq!(
            classify(&json!({"jsonrpc":"2.0","id":1,"result":{}})),
            MessageKind::Response
        );
        assert_eq!(classify(&json!({"id":1})), MessageKind::Response);
        assert_eq!(classify(&json!([])), MessageKind::Batch);
        assert_eq!(classify(&json!("log line")), MessageKind::NotAMessage);
    }

    #[test]
    fn ids_match_exactly_only_with_the_same_type() {
        assert_eq!(id_match(&json!(5), &json!(5)), Some(IdMatch::Exact));
        assert_eq!(id_match(&json!("a"), &json!("a")), Some(IdMatch::Exact));
        assert_eq!(id_match(&json!(5), &json!("5")), Some(IdMatch::Loose));
        assert_eq!(id_match(&json!("5"), &json!(5)), Some(IdMatch::Loose));
        assert_eq!(id_match(&json!(5), &json!(5.0)), Some(IdMatch::Loose));
        assert_eq!(id_match(&json!(5), &json!(6)), None);
        assert_eq!(id_match(&json!(5), &Value::Null), None);
    }
}
