//! `replay`: a saved failing case (from `--cases-dir`, `fuzz --cases-dir` or `fuzz
//! --input`) repeated against a fresh server process, the recorded one or another build.
//! `Fail` when the failure shows again, `Pass` when it does not.

use std::time::Duration;

use mcp_conformance::protocol::SessionConfig;
use mcp_conformance::report::{escape_server_text, render_transcript};
use mcp_conformance::scenarios::CaseFile;
use mcp_conformance::transport::ServerCommand;
use mcp_conformance::{Error, Result};

use crate::args::ReplayArgs;
use crate::exit::Exit;

/// Replays the case and prints the exchange.
pub(crate) fn replay(args: ReplayArgs) -> Result<Exit> {
    let ReplayArgs {
        file,
        timeout,
        url,
        headers,
        ca_certs,
        command,
    } = args;
    let unreadable = |message: String| Error::Config {
        path: file.clone(),
        message,
    };
    let text = std::fs::read_to_string(&file).map_err(|e| unreadable(e.to_string()))?;
    let case: CaseFile = serde_json::from_str(&text).map_err(|e| unreadable(e.to_string()))?;
    let server = match (command.split_first(), &url) {
        (Some((program, rest)), _) => ServerCommand::new(program.clone(), rest.to_vec()),
        // `--url` alone: a server already running there, not the recorded command.
        (None, Some(_)) => ServerCommand::default(),
        (None, None) => case.command.clone(),
    };
    let server = crate::target::with_url(server, url, &headers, ca_certs)?;
    let mut session = SessionConfig::default();
    // --timeout, else the timeout of the run that found the case.
    if let Some(t) = timeout
        .or(case.timeout_secs)
        .filter(|t| t.is_finite() && *t > 0.0 && *t < 86_400.0)
    {
        session.timeout = Duration::from_secs_f64(t);
    }
    let started = crate::target::start(&server, session.timeout)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    let outcome = runtime.block_on(mcp_conformance::scenarios::replay(&case, &server, &session));
    started.stop(session.shutdown_grace);
    let outcome = outcome?;
    outln!(
        "replaying {} ({}, {}): {}",
        file.display(),
        case.check,
        case.revision,
        escape_server_text(&case.description)
    );
    out!("{}", render_transcript(&outcome.transcript, "  "));
    if outcome.reproduced {
        outln!(
            "reproduced ({:?}): {}",
            case.kind,
            escape_server_text(&outcome.observed)
        );
    } else {
        outln!("not reproduced: {}", escape_server_text(&outcome.observed));
    }
    Ok(Exit::failed_if(outcome.reproduced))
}
