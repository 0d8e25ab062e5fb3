//! What a revision's conversation over Streamable HTTP records beside its messages: every
//! HTTP exchange of the scripted session (status, content type, headers that matter), the
//! streams that carried its responses, the HTTP-only probes, which run in a short session
//! of their own so that their wrong requests cannot disturb the scripted one, and the
//! foreign-`Origin` request (both eras). In 2026-07-28 there is no session to probe: the
//! modern probes ([`HttpModernProbe`]) are single requests with wrong metadata headers, an
//! unimplemented method, a tool parameter header left out, and legacy traffic. Over
//! 2024-11-05's HTTP+SSE the record holds the POSTs, what the SSE stream showed, and the
//! foreign-`Origin` GET and POST ([`SseOriginProbe`]).

use serde_json::{json, Map, Value};

use super::policy::CallPolicy;
use crate::protocol::{stamp_request, Revision, Session, SessionConfig};
use crate::records::{
    HttpModernProbe, HttpProbe, HttpRecord, OriginProbe, ParamTool, RevisionRecord, SseOriginProbe,
};
use crate::transport::{annotations, HttpKind, ServerCommand, VERSION_HEADER};

/// The HTTP record of a finished scripted `session`, plus the probes.
pub(super) async fn record(
    session: &Session,
    command: &ServerCommand,
    revision: &'static Revision,
    config: &SessionConfig,
) -> crate::Result<HttpRecord> {
    let (facts, facts_dropped) = session.http_facts();
    let (streams, streams_dropped) = session.http_streams();
    let Some(target) = &command.http else {
        return Ok(HttpRecord {
            facts,
            facts_dropped,
            streams,
            streams_dropped,
            ..HttpRecord::default()
        });
    };
    let streamable = command.http_kind == HttpKind::StreamableHttp;
    let probe = match (revision.modern(), streamable) {
        (false, true) => Some(
            HttpProbe::run(
                target,
                revision.id,
                super::initialize_params(revision.id),
                config.timeout,
            )
            .await?,
        ),
        _ => None,
    };
    Ok(HttpRecord {
        facts,
        facts_dropped,
        streams,
        streams_dropped,
        probe,
        origin: if streamable {
            Some(origin(target, revision, config).await?)
        } else {
            None
        },
        sse_origin: if command.http_kind == HttpKind::Sse {
            let params = super::initialize_params(revision.id);
            let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params});
            Some(SseOriginProbe::run(target, &init, config.timeout).await?)
        } else {
            None
        },
        modern: None,
        sse: session.sse_stream(),
    })
}

/// The foreign-`Origin` request: a request the server would otherwise serve (a legacy
/// `initialize`; in the modern era `server/discover` with its `_meta` and headers).
async fn origin(
    target: &crate::transport::HttpTarget,
    revision: &'static Revision,
    config: &SessionConfig,
) -> crate::Result<OriginProbe> {
    let (message, headers) = if revision.modern() {
        let meta = super::request_meta(revision.id, json!({}));
        let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover"});
        (
            stamp_request(&meta, discover),
            vec![
                ("Mcp-Method", "server/discover".to_string()),
                (VERSION_HEADER, revision.id.to_string()),
            ],
        )
    } else {
        let params = super::initialize_params(revision.id);
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params});
        (init, Vec::new())
    };
    OriginProbe::run(target, &message, &headers, config.timeout).await
}

/// Runs the 2026-07-28 HTTP probes for a modern `record` whose conversation went on (the
/// server speaks the revision), into its HTTP record.
pub(super) async fn record_modern(
    record: &mut RevisionRecord,
    command: &ServerCommand,
    config: &SessionConfig,
    policy: &CallPolicy,
) -> crate::Result<()> {
    let (Some(target), true, None) = (&command.http, record.requested.modern(), &record.stopped)
    else {
        return Ok(());
    };
    let version = record.requested.id;
    let tool = param_tool(record, policy);
    let meta = super::request_meta(version, json!({}));
    let probe = HttpModernProbe::run(target, version, meta, tool, config.timeout).await?;
    if let Some(http) = record.http.as_mut() {
        http.modern = Some(probe);
    }
    Ok(())
}

/// The first listed tool the policy lets us call whose `inputSchema` marks parameters
/// with `x-mcp-header`, with arguments holding only those parameters (a string, integer
/// or boolean each): a server that does not validate the headers then meets a call
/// missing whatever else the tool requires, rather than running it.
fn param_tool(record: &RevisionRecord, policy: &CallPolicy) -> Option<ParamTool> {
    crate::records::listed_tools(&record.tools_pages)
        .into_iter()
        .filter(|tool| policy.permits(tool).is_ok())
        .find_map(|tool| {
            let schema = tool.get("inputSchema")?;
            let found = annotations(schema);
            if found.is_empty() {
                return None;
            }
            let mut arguments = Value::Object(Map::new());
            for a in &found {
                let pointer: String = a.path.iter().map(|k| format!("/properties/{k}")).collect();
                let kind = schema.pointer(&pointer)?.get("type")?.as_str()?;
                let value = match kind {
                    "string" => json!("mcp-conformance"),
                    "integer" => json!(7),
                    "boolean" => json!(true),
                    _ => return None,
                };
                let (last, parents) = a.path.split_last()?;
                let mut at = &mut arguments;
                for key in parents {
                    at = at
                        .as_object_mut()?
                        .entry(key.clone())
                        .or_insert_with(|| Value::Object(Map::new()));
                }
                at.as_object_mut()?.insert(last.clone(), value);
            }
            Some(ParamTool {
                name: tool.get("name")?.as_str()?.to_string(),
                arguments,
                headers: found.into_iter().map(|a| a.header).collect(),
            })
        })
}
