//! One minimal instance of a schema: the first thing that satisfies it, with no search.
//!
//! The scripted tools scenario calls every tool once with these arguments. The generator
//! covers what real tool schemas use (types and unions, properties and `required`,
//! `enum`/`const`/`default`, string and number bounds, arrays, local `$ref`,
//! `anyOf`/`oneOf`/`allOf`). The caller validates whatever it produces against the schema
//! before it is sent: we never call a tool with "valid" arguments that are not. When it
//! cannot build an instance, the reason says why. Richer, property-based generation is
//! [`valid`](fn@super::valid).

use serde_json::{json, Map, Value};

use super::pointer::{resolve, RefSyntax};

/// Deepest nesting followed (a recursive `$ref` must not recurse forever).
const MAX_DEPTH: usize = 16;

/// Builds a minimal instance of `schema`; `root` resolves local `$ref`s.
pub fn minimal_instance(schema: &Value, root: &Value) -> Result<Value, String> {
    super::budget::within_budget(schema, root, super::Dialect::of(root)).map_err(|e| e.0)?;
    generate(schema, root, 0)
}

fn generate(schema: &Value, root: &Value, depth: usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err("the schema nests deeper than the generator follows".into());
    }
    let obj = match schema {
        Value::Bool(true) => return Ok(json!({})),
        Value::Bool(false) => return Err("a `false` schema admits no value".into()),
        Value::Object(obj) => obj,
        _ => return Err("a schema is neither an object nor a boolean".into()),
    };
    if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
        let target = resolve(r, root, RefSyntax::Pointer)
            .ok_or_else(|| format!("cannot resolve $ref {r:?}"))?;
        return generate(target, root, depth + 1);
    }
    if let Some(c) = obj.get("const") {
        return Ok(c.clone());
    }
    if let Some(first) = obj
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return Ok(first.clone());
    }
    if let Some(d) = obj.get("default") {
        return Ok(d.clone());
    }
    if let Some(all) = obj.get("allOf").and_then(Value::as_array) {
        let mut merged = obj.clone();
        merged.remove("allOf");
        for part in all {
            if let Value::Object(p) = part {
                merge(&mut merged, p);
            }
        }
        return generate(&Value::Object(merged), root, depth + 1);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(options) = obj.get(key).and_then(Value::as_array) {
            let mut last = Err(format!("no `{key}` branch could be generated"));
            for option in options {
                let mut merged = obj.clone();
                merged.remove(key);
                if let Value::Object(o) = option {
                    merge(&mut merged, o);
                }
                last = generate(&Value::Object(merged), root, depth + 1);
                if last.is_ok() {
                    break;
                }
            }
            return last;
        }
    }
    let ty = match obj.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .or_else(|| types.iter().filter_map(Value::as_str).next())
            .unwrap_or("null")
            .to_string(),
        _ if obj.contains_key("properties") || obj.contains_key("required") => "object".into(),
        _ if obj.contains_key("items") => "array".into(),
        _ => return Ok(json!({})),
    };
    match ty.as_str() {
        "object" => object(obj, root, depth),
        "array" => array(obj, root, depth),
        "string" => string(obj),
        "integer" => number(obj, true),
        "number" => number(obj, false),
        "boolean" => Ok(json!(false)),
        "null" => Ok(Value::Null),
        other => Err(format!("unknown type {other:?}")),
    }
}

fn merge(into: &mut Map<String, Value>, from: &Map<String, Value>) {
    for (k, v) in from {
        match (into.get_mut(k), v) {
            (Some(Value::Object(a)), Value::Object(b)) => merge(a, b),
            (Some(Value::Array(a)), Value::Array(b)) if k == "required" => {
                a.extend(b.iter().cloned());
            }
            _ => {
                into.insert(k.clone(), v.clone());
            }
        }
    }
}

fn object(obj: &Map<String, Value>, root: &Value, depth: usize) -> Result<Value, String> {
    let props = obj.get("properties").and_then(Value::as_object);
    let mut out = Map::new();
    for name in obj
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(name) = name.as_str() else { continue };
        let schema = props
            .and_then(|p| p.get(name))
            .cloned()
            .unwrap_or(json!({}));
        out.insert(name.to_string(), generate(&schema, root, depth + 1)?);
    }
    let min = obj
        .get("minProperties")
        .and_then(Value::as_u64)
        .unwrap_or(0) as usize;
    if out.len() < min {
        for (name, schema) in props.into_iter().flatten() {
            if out.len() >= min {
                break;
            }
            if !out.contains_key(name) {
                out.insert(name.clone(), generate(schema, root, depth + 1)?);
            }
        }
    }
    Ok(Value::Object(out))
}

fn array(obj: &Map<String, Value>, root: &Value, depth: usize) -> Result<Value, String> {
    let min = obj.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
    let prefix = obj.get("prefixItems").and_then(Value::as_array);
    let items = obj.get("items").cloned().unwrap_or(json!({}));
    let mut out = Vec::new();
    for i in 0..min {
        let schema = prefix.and_then(|p| p.get(i)).unwrap_or(&items);
        let mut value = generate(schema, root, depth + 1)?;
        // uniqueItems with a minimal generator: make scalars differ by position.
        if obj.get("uniqueItems") == Some(&json!(true)) {
            value = distinct(value, i);
        }
        out.push(value);
    }
    Ok(Value::Array(out))
}

fn distinct(value: Value, i: usize) -> Value {
    match value {
        Value::Number(n) if n.is_i64() || n.is_u64() => json!(n.as_i64().unwrap_or(0) + i as i64),
        Value::Number(n) => json!(n.as_f64().unwrap_or(0.0) + i as f64),
        Value::String(s) => Value::String(format!("{s}{i}")),
        other => other,
    }
}

fn string(obj: &Map<String, Value>) -> Result<Value, String> {
    if obj.contains_key("pattern") {
        return Err("a string `pattern` needs the property-based generator".into());
    }
    let base = match obj.get("format").and_then(Value::as_str) {
        Some("date-time") => "2025-01-01T00:00:00Z",
        Some("date") => "2025-01-01",
        Some("time") => "00:00:00Z",
        Some("email") => "conformance@example.com",
        Some("uri") | Some("url") | Some("iri") => "https://example.com/conformance",
        Some("uuid") => "00000000-0000-4000-8000-000000000000",
        Some("ipv4") => "127.0.0.1",
        Some("ipv6") => "::1",
        Some("hostname") => "example.com",
        _ => "conformance",
    };
    let min = obj.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    let max = obj
        .get("maxLength")
        .and_then(Value::as_u64)
        .map(|m| m as usize);
    let mut s = base.to_string();
    // Counted once: a loop that recounts per character is quadratic (minutes for a
    // `minLength` in the millions).
    let have = s.chars().count();
    s.extend(std::iter::repeat_n('x', min.saturating_sub(have)));
    if let Some(max) = max {
        if s.chars().count() > max {
            if obj.contains_key("format") {
                return Err("a string format value does not fit maxLength".into());
            }
            s = s.chars().take(max.max(min)).collect();
        }
    }
    Ok(Value::String(s))
}

fn number(obj: &Map<String, Value>, integer: bool) -> Result<Value, String> {
    let f = |k: &str| obj.get(k).and_then(Value::as_f64);
    let mut low = f("minimum");
    if let Some(x) = f("exclusiveMinimum") {
        low = Some(low.map_or(x, |l: f64| l.max(x)) + if integer { 1.0 } else { 0.5 });
    }
    let mut high = f("maximum");
    if let Some(x) = f("exclusiveMaximum") {
        high = Some(high.map_or(x, |h: f64| h.min(x)) - if integer { 1.0 } else { 0.5 });
    }
    let mut v = match (low, high) {
        (Some(l), _) => l,
        (None, Some(h)) if h < 1.0 => h,
        _ => 1.0,
    };
    if integer {
        v = v.ceil();
    }
    if let Some(step) = f("multipleOf").filter(|s| *s > 0.0) {
        v = (v / step).ceil() * step;
    }
    if high.is_some_and(|h| v > h) {
        return Err("no number satisfies the bounds the generator understands".into());
    }
    if integer || v.fract() == 0.0 && v.abs() < 9.0e15 {
        Ok(json!(v as i64))
    } else {
        Ok(json!(v))
    }
}
