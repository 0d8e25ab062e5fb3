//! An HTTP server started by the harness (`--url URL -- CMD`): started once for the
//! whole run, waited for until its URL accepts connections, stopped at the end.
//!
//! It is started like a stdio server (its own process group, the marker in its
//! environment, killed with everything it started on every path, drop included), but its
//! stdin, stdout and stderr are not ours: the messages travel over HTTP, and a chatty
//! server must never block on a pipe nobody reads.

use std::process::Stdio;
use std::time::Duration;

use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;
use tokio::process::{Child, Command};
use tokio::time::Instant;

use super::stdio::{marked_processes, new_marker, ExitInfo, ServerCommand, MARKER_VAR};
use crate::errors::{Error, Result};

/// How often the URL's port is tried while waiting.
const POLL: Duration = Duration::from_millis(25);

/// Checks once that something accepts TCP connections at `url`'s host and port (a server
/// the user says is already running): `Err` ([`Error::HttpNotReady`]) when the connection
/// is refused, the host cannot be resolved or reached, or no connection is made within
/// `wait`. A dead URL is a setup error, said at once, not a run of findings.
pub async fn check_reachable(url: &str, wait: Duration) -> Result<()> {
    let not_ready = |reason: String| Error::HttpNotReady {
        url: url.to_string(),
        reason,
    };
    let parsed = reqwest::Url::parse(url).map_err(|e| not_ready(e.to_string()))?;
    let host = parsed.host_str().unwrap_or("127.0.0.1");
    let host = host.trim_matches(['[', ']']).to_string();
    let port = parsed.port_or_known_default().unwrap_or(80);
    let hint = "start the server first, or give the command that starts it after `--`";
    let lookup = tokio::net::lookup_host((host.as_str(), port));
    let addresses: Vec<std::net::SocketAddr> = match tokio::time::timeout(wait, lookup).await {
        Ok(Ok(found)) => found.collect(),
        Ok(Err(e)) => {
            return Err(not_ready(format!(
                "{host} cannot be resolved ({e}); {hint}"
            )))
        }
        Err(_) => {
            return Err(not_ready(format!(
                "{host} was not resolved within {:.1} s; {hint}",
                wait.as_secs_f64()
            )))
        }
    };
    // Each address gets its share of the wait, so one that drops packets (an unroutable
    // IPv6 address listed first) does not spend it all.
    let share = wait / u32::try_from(addresses.len().max(1)).unwrap_or(u32::MAX);
    let mut last = format!("no address for {host}");
    for address in &addresses {
        match tokio::time::timeout(share, tokio::net::TcpStream::connect(address)).await {
            Ok(Ok(_)) => return Ok(()),
            Ok(Err(e)) => last = e.to_string(),
            Err(_) => last = format!("no connection within {:.1} s", share.as_secs_f64()),
        }
    }
    Err(not_ready(format!(
        "nothing accepts connections at {host}:{port} ({last}); {hint}"
    )))
}

/// A server process serving HTTP, owned by the run.
#[derive(Debug)]
pub struct LaunchedServer {
    child: Child,
    pid: Option<u32>,
    marker: String,
}

impl LaunchedServer {
    /// Starts `command` and waits (up to `wait`) until `url`'s host and port accept a
    /// TCP connection. `Err` when it cannot start, exits first, or is not reachable in time.
    pub async fn start(command: &ServerCommand, url: &str, wait: Duration) -> Result<Self> {
        let marker = new_marker();
        let mut cmd = Command::new(&command.program);
        cmd.args(&command.args)
            .envs(command.env.iter().map(|(k, v)| (k, v)))
            .env(MARKER_VAR, &marker)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .kill_on_drop(true);
        if let Some(cwd) = &command.cwd {
            cmd.current_dir(cwd);
        }
        let child = cmd.spawn().map_err(|source| Error::Spawn {
            command: command.display(),
            source,
        })?;
        let mut server = Self {
            pid: child.id(),
            child,
            marker,
        };
        server.wait_ready(url, wait).await?;
        Ok(server)
    }

    async fn wait_ready(&mut self, url: &str, wait: Duration) -> Result<()> {
        let not_ready = |reason: String| Error::HttpNotReady {
            url: url.to_string(),
            reason,
        };
        let parsed = reqwest::Url::parse(url).map_err(|e| not_ready(e.to_string()))?;
        let host = parsed.host_str().unwrap_or("127.0.0.1").to_string();
        let port = parsed.port_or_known_default().unwrap_or(80);
        let deadline = Instant::now() + wait;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(not_ready(format!(
                    "the server command ended first ({})",
                    ExitInfo {
                        code: status.code(),
                        signal: std::os::unix::process::ExitStatusExt::signal(&status),
                        killed_by_harness: false,
                        ended: None,
                    }
                    .describe()
                )));
            }
            let attempt = tokio::net::TcpStream::connect((host.as_str(), port));
            if let Ok(Ok(_)) = tokio::time::timeout(POLL * 4, attempt).await {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(not_ready(format!(
                    "nothing accepted connections within {:.1} s",
                    wait.as_secs_f64()
                )));
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Stops the server: SIGTERM to its group, SIGKILL after `grace`, then reaped.
    pub async fn stop(mut self, grace: Duration) {
        self.signal(Signal::SIGTERM);
        let _ = tokio::time::timeout(grace, self.child.wait()).await;
        self.signal(Signal::SIGKILL);
        let _ = self.child.start_kill();
        let _ = tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await;
    }

    fn signal(&self, signal: Signal) {
        if let Some(pid) = self.pid.and_then(|p| i32::try_from(p).ok()) {
            let _ = killpg(Pid::from_raw(pid), signal);
        }
        for pid in marked_processes(&self.marker) {
            let _ = kill(Pid::from_raw(pid), signal);
        }
    }
}

impl Drop for LaunchedServer {
    fn drop(&mut self) {
        self.signal(Signal::SIGKILL);
    }
}
