//! The bundled reference server linked into this process: the in-process target's proof
//! (it must give the spawned server's verdicts, fault for fault, less the checks that
//! need a process) and the shape of an adapter for any synchronous `serve(input, output)`
//! loop.
#![cfg(feature = "reference")]

use reference_server::{serve_shared, Era, Fault, ServeEnd};

use crate::transport::InProcessServer;

/// The reference server (with `fault`, speaking `era`) as an in-process server. A fault
/// that stops the process (`crash-on-tools-list`: exit status 3) ends its serve function
/// with that reason instead; one that keeps the process alive after its input closes
/// (`ignore-stdin-eof`) simply returns, as no process is there to stay alive.
pub fn in_process(fault: Option<Fault>, era: Era) -> InProcessServer {
    let name = match fault {
        Some(fault) => format!("reference-server --fault {fault}"),
        None => "reference-server".to_string(),
    };
    InProcessServer::blocking(name, move |input, output| {
        match serve_shared(input, output, fault, era)? {
            ServeEnd::Crash { code, reason } => {
                Err(format!("{reason} (a process would exit with status {code})").into())
            }
            ServeEnd::InputClosed | ServeEnd::InputClosedIgnored => Ok(()),
        }
    })
}
