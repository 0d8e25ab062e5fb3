//! The conversation `mcp-conformance snapshot` has with a server: the handshake (or the
//! modern discovery), two walks of `tools/list`, and the shutdown. No tool is called and
//! nothing malformed is sent: a snapshot may be taken of a server whose tools act on the
//! world. The second walk is what tells a listing that varies from one that does not
//! (`surface::Listing`).

use super::revision::{handshake, new_record, stop_reason};
use super::tools::walk;
use crate::protocol::{Revision, Session, SessionConfig};
use crate::records::{RevisionRecord, ToolsRecord, MAX_PAGES};
use crate::transport::ServerCommand;

/// Lists `revision`'s tools twice on a fresh process (a fresh session over HTTP): the
/// record holds the handshake and both walks, and nothing else.
pub async fn list_revision(
    command: &ServerCommand,
    revision: &'static Revision,
    config: &SessionConfig,
) -> crate::Result<RevisionRecord> {
    let mut session = Session::start(command, config.clone())?;
    let (initialize, modern, negotiated) = handshake(&mut session, revision).await;
    let mut record = new_record(revision, initialize, negotiated, modern);
    record.stopped = stop_reason(&record);
    if record.stopped.is_none() && record.declares_tools() {
        if record.modern.is_none() {
            session.notify("notifications/initialized", None).await;
        }
        let (pages, stopped) = walk(&mut session, MAX_PAGES).await;
        let ended = stopped.is_some() || pages.iter().any(|p| p.result().is_none());
        record.tools_pages = pages;
        record.tools_walk_stopped = stopped;
        if !ended && session.ended().is_none() {
            let (second_walk, _) = walk(&mut session, MAX_PAGES).await;
            record.tools = Some(ToolsRecord {
                second_walk,
                ..ToolsRecord::default()
            });
        }
    }
    session.shutdown().await;
    record.transcript = session.into_transcript();
    Ok(record)
}
