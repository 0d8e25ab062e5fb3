//! The listing: every tool has an object inputSchema, schemas valid in their dialect, an
//! object outputSchema (`tools.mdx`, Tool; `index.mdx`, JSON Schema Usage).

use serde_json::Value;

use super::super::model::{Ctx, Verdict};
use super::*;
use crate::protocol::Revision;

/// `TOOL-INPUTSCHEMA-REQUIRED` / `-NOT-NULL`: an object with `"type": "object"`.
pub(in crate::checks) fn input_schema_type(ctx: &Ctx<'_>) -> Verdict {
    verdict_per_tool(
        ctx,
        "inputSchema",
        |tool| match tool.get("inputSchema") {
            None => Some("has no inputSchema".into()),
            Some(Value::Null) => Some("has inputSchema null".into()),
            Some(s) if !s.is_object() => {
                Some(format!("has an inputSchema that is not an object: {s}"))
            }
            Some(s) if s.get("type") != Some(&Value::String("object".into())) => Some(format!(
                "has inputSchema.type {}, not \"object\"",
                s.get("type")
                    .map_or("missing".to_string(), Value::to_string)
            )),
            Some(_) => None,
        },
        "inputSchema is an object schema with \"type\": \"object\"",
        "lack an inputSchema object with \"type\": \"object\"",
    )
}

/// The meta-schema errors of `schema` in the dialect that applies, or `Err` with a note
/// when the dialect is one we cannot check.
fn meta_errors(schema: &Value, revision: &Revision) -> Result<Option<String>, String> {
    let declared = schema.get("$schema").and_then(Value::as_str);
    let dialect = match declared {
        Some(uri) if uri.contains("draft-07") => "draft-07",
        Some(uri) if uri.contains("2020-12") => "2020-12",
        Some(uri) if uri.contains("2019-09") => "2019-09",
        Some(uri) if uri.contains("draft-06") => "draft-06",
        Some(uri) if uri.contains("draft-04") => "draft-04",
        Some(uri) => {
            return Err(format!(
                "declares $schema {uri:?}, a dialect the suite cannot check"
            ))
        }
        None if revision.draft_2020_12 => "2020-12",
        None => "draft-07",
    };
    let result = match dialect {
        "draft-07" => jsonschema::draft7::meta::validate(schema),
        "2020-12" => jsonschema::draft202012::meta::validate(schema),
        "2019-09" => jsonschema::draft201909::meta::validate(schema),
        "draft-06" => jsonschema::draft6::meta::validate(schema),
        _ => jsonschema::draft4::meta::validate(schema),
    };
    Ok(result.err().map(|e| {
        format!(
            "is not a valid {dialect} schema: {} at {}",
            e,
            e.instance_path()
        )
    }))
}

/// `TOOL-INPUTSCHEMA-DIALECT` (MUST from 2025-11-25; policy A8 warning before): inputSchema
/// and outputSchema are valid in their declared or default dialect.
pub(in crate::checks) fn schema_dialect(ctx: &Ctx<'_>) -> Verdict {
    let rev = revision(ctx);
    let verdict = verdict_per_tool(
        ctx,
        "schemas",
        |tool| {
            let mut problems = Vec::new();
            for key in ["inputSchema", "outputSchema"] {
                let Some(schema) = tool.get(key).filter(|s| s.is_object()) else {
                    continue;
                };
                match meta_errors(schema, rev) {
                    Ok(None) | Err(_) => {}
                    Ok(Some(e)) => problems.push(format!("{key} {e}")),
                }
            }
            (!problems.is_empty()).then(|| problems.join("; "))
        },
        "inputSchema and outputSchema are valid JSON Schemas in their dialect",
        "have a schema that is not valid in its dialect",
    );
    match verdict {
        // Before 2025-11-25 the dialect is unspecified (REQUIREMENTS.md 10 A8): the
        // catalog grades it a policy warning there; the message says which dialect we assumed.
        Verdict::Violation(m, e) if !rev.draft_2020_12 => Verdict::Violation(
            format!(
                "{m} (draft-07 assumed; the dialect is unspecified before 2025-11-25, policy A8)"
            ),
            e,
        ),
        v => v,
    }
}

/// `TOOL-OUTPUTSCHEMA` (2025-06-18+): an outputSchema has an object root.
pub(in crate::checks) fn output_schema_object(ctx: &Ctx<'_>) -> Verdict {
    verdict_per_tool(
        ctx,
        "outputSchema",
        |tool| {
            let schema = tool.get("outputSchema")?;
            (schema.get("type") != Some(&Value::String("object".into()))).then(|| {
                format!(
                    "has outputSchema.type {}, not \"object\" (structured content is an object)",
                    schema
                        .get("type")
                        .map_or("missing".to_string(), Value::to_string)
                )
            })
        },
        "every outputSchema has \"type\": \"object\" at its root",
        "have an outputSchema whose root is not \"type\": \"object\"",
    )
}
