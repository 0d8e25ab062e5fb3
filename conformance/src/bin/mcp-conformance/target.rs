//! The server of `replay` and `fuzz` over Streamable HTTP, as for `run`: `--url URL`
//! reaches a server already running, `--url URL -- CMD` starts CMD first (waiting until
//! the URL accepts connections) and stops it and its process group at the end. The flags
//! and the config file are merged by the library as for `run` (`plan`); a case recorded
//! over HTTP replays the same way without flags: its command carries its URL (and CA
//! files).
//!
//! Here and not in each subcommand so the two start and stop the server the same way.

use std::path::PathBuf;
use std::time::Duration;

use mcp_conformance::scenarios::{probe_url_patiently, UrlKind};
use mcp_conformance::transport::{check_reachable, check_tls, LaunchedServer, ServerCommand};
use mcp_conformance::{Error, Result};

/// Timeouts a started HTTP server may take to accept connections (as `run` allows).
const STARTUP_WAIT: u32 = 3;

/// Adds `ca_certs` (`--ca-cert` given without a URL) to the CAs of `server`'s own HTTP
/// target, as recorded in a case; `Err` when it has none.
pub(crate) fn add_ca_certs(server: &mut ServerCommand, ca_certs: Vec<PathBuf>) -> Result<()> {
    let Some(target) = &mut server.http else {
        return Err(Error::Config {
            path: "command line".into(),
            message: "--ca-cert needs --url (or a case recorded over HTTP)".into(),
        });
    };
    target.ca_certs.extend(ca_certs);
    Ok(())
}

/// The HTTP server this process started, if it started one; stopped by [`Started::stop`]
/// (or killed with its process group when dropped).
pub(crate) struct Started {
    runtime: tokio::runtime::Runtime,
    server: Option<LaunchedServer>,
}

/// Starts `server`'s command when it is reached over HTTP and has one; nothing otherwise.
/// A URL with no command must accept connections, an https server's certificate is
/// checked, and, when `probe`, the path must serve MCP: `Err` when nothing listens, the
/// certificate is not trusted, or the URL answers 404 to a POST of initialize and to a GET.
/// (`replay` does not probe: the probe's own session could change what a stateful case
/// meets.)
pub(crate) fn start(server: &ServerCommand, timeout: Duration, probe: bool) -> Result<Started> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    let launched = match (&server.http, server.program.is_empty()) {
        (Some(target), false) => Some(runtime.block_on(LaunchedServer::start(
            server,
            &target.url,
            timeout * STARTUP_WAIT,
        ))?),
        (Some(target), true) => {
            runtime.block_on(check_reachable(&target.url, timeout))?;
            None
        }
        _ => None,
    };
    if let Some(target) = &server.http {
        runtime.block_on(check_tls(target, timeout))?;
        // A wrong path is a setup error, as for `run` (a started server is killed on drop;
        // it gets the startup wait to mount its routes).
        let patience = if launched.is_some() {
            timeout
        } else {
            Duration::ZERO
        };
        let kind = if probe {
            runtime.block_on(probe_url_patiently(target, timeout, patience))
        } else {
            UrlKind::Streamable
        };
        if let UrlKind::Missing(reason) = kind {
            return Err(Error::HttpNotReady {
                url: target.url.clone(),
                reason,
            });
        }
    }
    Ok(Started {
        runtime,
        server: launched,
    })
}

impl Started {
    /// Stops the server this process started (SIGTERM, then SIGKILL after `grace`).
    pub(crate) fn stop(self, grace: Duration) {
        if let Some(server) = self.server {
            self.runtime.block_on(server.stop(grace));
        }
    }
}
