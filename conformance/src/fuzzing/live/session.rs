//! Starting the server for the live target: a fresh process and its handshake (in
//! 2026-07-28, which has none, a `server/discover`), a restart (tried three times), and
//! the first session that lists the tools cases may call.

use std::collections::HashSet;
use std::time::Duration;

use serde_json::{json, Value};

use super::{State, FIRST_ID, INIT_ID, SETTLE_ID};
use crate::fuzzing::cases::Tool;
use crate::protocol::{Session, SessionConfig};
use crate::records::{compile_input_schema, listed_tools};
use crate::rules::TaskSupport;
use crate::scenarios::{generated_meta, initialize_params, walk};

/// How long starting the server and its handshake may take at least.
const STARTUP: Duration = Duration::from_secs(10);

impl State {
    fn session_config(&self) -> SessionConfig {
        SessionConfig {
            timeout: self.config.timeout,
            ..SessionConfig::default()
        }
    }

    /// A fresh, initialized session, and the initialize result (the `server/discover`
    /// result in 2026-07-28: both carry the capabilities). The harness's own
    /// requests use string ids starting with `live-`, which cases never use.
    pub(super) async fn fresh(&self) -> Result<(Session, Value), String> {
        let mut session = Session::start(&self.config.command, self.session_config())
            .map_err(|e| e.to_string())?;
        // Starting may take longer than a request (npx, uv, a busy machine).
        session.set_timeout(self.config.timeout.max(STARTUP));
        if let Some(meta) = generated_meta(self.config.revision) {
            // 2026-07-28 has no handshake: every request carries its `_meta`, and
            // `server/discover` tells the capabilities initialize told before.
            session.speak_modern(meta);
            let discover = session
                .request_with_id(json!(INIT_ID), "server/discover", None)
                .await;
            let Some(result) = discover.result().cloned() else {
                session.kill().await;
                return Err(match discover.silence() {
                    Some(s) => format!("server/discover got no result: {}", s.describe()),
                    None => format!(
                        "server/discover got an error: {}",
                        discover.error().map(Value::to_string).unwrap_or_default()
                    ),
                });
            };
            session.set_timeout(self.config.timeout);
            return Ok((session, result));
        }
        let init = session
            .request_with_id(
                json!(INIT_ID),
                "initialize",
                Some(initialize_params(self.config.revision.id)),
            )
            .await;
        let Some(result) = init.result().cloned() else {
            session.kill().await;
            return Err(match init.silence() {
                Some(s) => format!("initialize got no result: {}", s.describe()),
                None => format!(
                    "initialize got an error: {}",
                    init.error().map(Value::to_string).unwrap_or_default()
                ),
            });
        };
        session.notify("notifications/initialized", None).await;
        // One round trip, so what the server says in reply to `initialized` arrives now,
        // not in the first case (which would then take the blame).
        let settled = session
            .request_with_id(json!(SETTLE_ID), "ping", None)
            .await;
        if let Some(s) = settled.silence() {
            let why = format!(
                "a ping after the handshake got no response: {}",
                s.describe()
            );
            session.kill().await;
            return Err(why);
        }
        session.set_timeout(self.config.timeout);
        Ok((session, result))
    }

    /// A fresh session, tried up to three times (a restart that fails once may be the
    /// machine, not the server).
    pub(super) async fn restart(&mut self) -> Result<Session, String> {
        self.restarts += 1;
        self.next_id = FIRST_ID;
        self.probe_ids.clear();
        self.session_cases = 0;
        self.earlier.clear();
        let mut why = String::new();
        for _ in 0..3 {
            match self.fresh().await {
                Ok((mut s, _)) => {
                    s.forget_history();
                    return Ok(s);
                }
                Err(e) => why = e,
            }
        }
        Err(why)
    }

    /// The first session: the tools to call.
    pub(super) async fn discover(&mut self) -> crate::Result<()> {
        let (mut session, init) = self
            .fresh()
            .await
            .map_err(|reason| crate::Error::LiveStart {
                command: self.config.command.display(),
                reason,
            })?;
        self.declared = init
            .pointer("/capabilities/tools")
            .is_some_and(Value::is_object);
        if self.declared {
            let (pages, _) = walk(&mut session, 100).await;
            let revision = self.config.revision;
            let mut seen = HashSet::new();
            for tool in listed_tools(&pages) {
                let Some(name) = tool.get("name").and_then(Value::as_str) else {
                    continue;
                };
                if !seen.insert(name.to_string()) {
                    continue;
                }
                // A tool that requires a task refuses every plain call before reading its
                // arguments (2025-11-25 tasks.mdx, Tool-Level Negotiation), and the live
                // target sends no task-augmented calls: calling it would test nothing. It
                // is left out of the list, so the same bytes decode as before it existed.
                if TaskSupport::of(tool, revision) == TaskSupport::Required {
                    self.notes.push(format!(
                        "tool {name:?} requires a task (execution.taskSupport); the live target sends no task-augmented calls, so it is not called"
                    ));
                    continue;
                }
                if self.config.policy.permits(tool).is_err() {
                    // Listed, never called (and never named by a generated call).
                    let mut forbidden = Tool::new(name, &json!({}));
                    forbidden.enabled = false;
                    self.tools.push(forbidden);
                    continue;
                }
                let Some(schema) = tool
                    .get("inputSchema")
                    .filter(|s| s.get("type") == Some(&json!("object")))
                else {
                    continue;
                };
                if revision.tool_fields.contains(&"outputSchema") {
                    if let Some(schema) = tool.get("outputSchema") {
                        if let Ok(v) = compile_input_schema(schema, revision) {
                            self.output.insert(name.to_string(), v);
                            self.output_schemas.insert(name.to_string(), schema.clone());
                        }
                    }
                }
                self.tools.push(Tool::new(name, schema));
            }
        }
        session.forget_history();
        self.session = Some(session);
        Ok(())
    }

    pub(super) async fn kill_session(&mut self) {
        if let Some(mut s) = self.session.take() {
            s.kill().await;
        }
    }
}
