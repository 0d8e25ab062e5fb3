//! The session's end of an HTTP transport's event channel, shared by Streamable HTTP
//! (`http.rs`) and 2024-11-05's HTTP+SSE (`legacy_sse.rs`): the background tasks send
//! events holding frames they took from one byte budget ([`super::http::forward`]), and
//! each frame the session takes gives its bytes back. One implementation, so the two
//! transports cannot drift apart on the bound that keeps a flooding server's frames from
//! piling up in memory.

use std::sync::Arc;

use tokio::sync::{mpsc, Semaphore};

use super::stdio::{frame_bytes, TransportEvent, BUDGET_SLACK};

/// Events buffered between the tasks and the session.
const CHANNEL_DEPTH: usize = 256;

/// Where the session takes the events of an HTTP transport.
#[derive(Debug)]
pub(super) struct Inbox {
    events: mpsc::Receiver<TransportEvent>,
    /// Bytes of frames sent and not yet taken, at most the line cap plus the slack.
    pub(super) budget: Arc<Semaphore>,
}

impl Inbox {
    /// A channel whose frames are held to `max_line` (clamped) plus [`BUDGET_SLACK`]
    /// bytes; returns the tasks' sender, the inbox and the clamped line cap.
    pub(super) fn channel(max_line: usize) -> (mpsc::Sender<TransportEvent>, Self, usize) {
        let (tx, events) = mpsc::channel(CHANNEL_DEPTH);
        let max_line = max_line.clamp(1, Semaphore::MAX_PERMITS - BUDGET_SLACK);
        let budget = Arc::new(Semaphore::new(max_line + BUDGET_SLACK));
        (tx, Self { events, budget }, max_line)
    }

    /// Next event (`None` once every sender is gone).
    pub(super) async fn next(&mut self) -> Option<TransportEvent> {
        let event = self.events.recv().await;
        self.taken(event)
    }

    /// An event already waiting.
    pub(super) fn try_next(&mut self) -> Option<TransportEvent> {
        let event = self.events.try_recv().ok();
        self.taken(event)
    }

    fn taken(&self, event: Option<TransportEvent>) -> Option<TransportEvent> {
        if let Some(frame) = event.as_ref().and_then(TransportEvent::frame) {
            self.budget.add_permits(frame_bytes(frame));
        }
        event
    }
}
