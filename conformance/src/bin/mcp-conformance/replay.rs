//! `replay`: a saved failing case (from `--cases-dir`, `fuzz --cases-dir` or `fuzz
//! --input`) repeated against a fresh server process, the recorded one or another build.
//! `Fail` when the failure shows again, `Pass` when it does not.
//!
//! The server is the command line's, else the config file's `[server]` (the project's
//! current build, as `run` would test it), else the one recorded in the case; `--env`,
//! `--cwd` and the file's `timeout` apply as for `run`. A case that calls a tool the
//! `--deny-tool` / `--allow-tool` globs (or the file's) rule out is refused unless
//! `--call-denied` is given: a denied tool is never called behind the user's back.

use std::time::Duration;

use mcp_conformance::config::options::CONFIG;
use mcp_conformance::config::CONFIG_FILE;
use mcp_conformance::protocol::SessionConfig;
use mcp_conformance::records::{CaseFile, CaseMessage};
use mcp_conformance::report::{escape_server_text, render_transcript};
use mcp_conformance::scenarios::CallMode;
use mcp_conformance::transport::ServerCommand;
use mcp_conformance::{Error, Result};
use serde_json::{json, Value};

use crate::args::ReplayArgs;
use crate::exit::Exit;
use crate::plan::{call_policy, config_file};

/// Whether `bytes` are a case file (a JSON object); anything else is a fuzz input.
fn is_case_file(bytes: &[u8]) -> bool {
    serde_json::from_slice::<Value>(bytes).is_ok_and(|v| v.is_object())
}

/// A corpus entry of `fuzz --coverage` (or a libFuzzer input): raw bytes the live target
/// decodes into a case, run as `fuzz --input FILE` runs it, with `replay`'s flags.
fn corpus_entry(
    file: std::path::PathBuf,
    options: crate::options::Given<crate::args::ReplayOptions>,
    server: crate::options::Given<crate::args::ReplayServer>,
) -> Result<Exit> {
    eprintln!(
        "mcp-conformance: {} is a fuzz input, not a case file: running it as `fuzz --input` does",
        file.display()
    );
    crate::fuzz::fuzz(crate::args::FuzzArgs {
        seed: mcp_conformance::config::DEFAULT_SEED,
        time: 60.0,
        revision: None,
        options: options.recast(),
        live: true,
        input: vec![file],
        coverage: false,
        corpus: None,
        coverage_include: Vec::new(),
        server: server.recast(),
    })
}

/// Replays the case and prints the exchange.
pub(crate) fn replay(args: ReplayArgs) -> Result<Exit> {
    let ReplayArgs {
        file,
        options,
        call_denied,
        server,
    } = args;
    let unreadable = |message: String| Error::Config {
        path: file.clone(),
        message,
    };
    let bytes = std::fs::read(&file).map_err(|e| unreadable(e.to_string()))?;
    if !is_case_file(&bytes) {
        return corpus_entry(file, options, server);
    }
    let case: CaseFile = serde_json::from_slice(&bytes).map_err(|e| unreadable(e.to_string()))?;

    let config = config_file(server.path(&CONFIG))?;
    let config_name = server.path(&CONFIG).unwrap_or_else(|| CONFIG_FILE.into());
    let mut flags = server.flags();
    let named_on_command_line = !flags.command.is_empty() || flags.url.is_some();
    let valid = |t: &f64| t.is_finite() && *t > 0.0 && *t < 86_400.0;
    // --timeout, else the file's, else the timeout of the run that found the case.
    flags.timeout = options
        .flags()
        .timeout
        .or(config.run.timeout)
        .or(case.timeout_secs.filter(valid));
    // Without a URL anywhere, --ca-cert is for the case's own HTTP target.
    let file_url = config.server.as_ref().is_some_and(|s| s.url.is_some());
    let case_ca_certs = if flags.url.is_none() && !file_url {
        std::mem::take(&mut flags.ca_certs)
    } else {
        Vec::new()
    };
    let settings = config.merge(flags, || Ok(case.command.clone()))?;
    let mut target = settings.server.clone();
    if !case_ca_certs.is_empty() {
        crate::target::add_ca_certs(&mut target, case_ca_certs)?;
    }
    // The config file's server, not the one the case recorded (nor one named here).
    let config_server =
        !settings.default_server && !named_on_command_line && !same_server(&target, &case.command);
    if config_server {
        eprintln!(
            "mcp-conformance: replaying against the server of {} (the case recorded `{}`; \
             `-- COMMAND` names another)",
            config_name.display(),
            case.command.display()
        );
    } else if let Some(note) = &settings.command_note {
        // The file's command left unstarted for a --url it does not name.
        eprintln!("mcp-conformance: {note}");
    }
    if let Some((tool, why)) = refused_tool(&case.messages, &settings)? {
        if !call_denied {
            eprintln!(
                "mcp-conformance: {} calls tool {tool:?}, which is ruled out ({why}); \
                 --call-denied replays it anyway",
                file.display()
            );
            return Ok(Exit::Usage);
        }
        eprintln!("mcp-conformance: calling tool {tool:?} anyway (--call-denied; {why})");
    }

    let session = SessionConfig {
        timeout: Duration::from_secs_f64(settings.timeout),
        ..SessionConfig::default()
    };
    let started = crate::target::start(&target, session.timeout, false)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    let outcome = runtime.block_on(mcp_conformance::scenarios::replay(&case, &target, &session));
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
    } else if config_server {
        // Not the recorded server: "not reproduced" may only mean it lacks the case's tool.
        outln!(
            "not reproduced against the server of {} (the case recorded `{}`): {}",
            config_name.display(),
            case.command.display(),
            escape_server_text(&outcome.observed)
        );
    } else {
        outln!("not reproduced: {}", escape_server_text(&outcome.observed));
    }
    Ok(Exit::failed_if(outcome.reproduced))
}

/// Whether two servers are the same program with the same arguments at the same place.
fn same_server(a: &ServerCommand, b: &ServerCommand) -> bool {
    a.program == b.program
        && a.args == b.args
        && a.http.as_ref().map(|t| &t.url) == b.http.as_ref().map(|t| &t.url)
}

/// The first tool the case calls that `--allow-tool` / `--deny-tool` rule out, with why.
/// Only the globs count: the case does not record the tool's annotations, and a case
/// exists only because a run was allowed to make that call (`--call read-only` then).
fn refused_tool(
    messages: &[CaseMessage],
    settings: &mcp_conformance::config::Settings,
) -> Result<Option<(String, String)>> {
    let mut policy = call_policy(settings)?;
    if policy.mode != CallMode::None {
        policy.mode = CallMode::All;
    }
    Ok(called_tools(messages).find_map(|name| {
        policy
            .permits(&json!({ "name": name }))
            .err()
            .map(|why| (name, why))
    }))
}

/// The names of the tools a case calls, in order (malformed frames that still parse
/// as a call included).
fn called_tools(messages: &[CaseMessage]) -> impl Iterator<Item = String> + '_ {
    messages.iter().filter_map(|m| {
        let raw = m
            .raw
            .as_ref()
            .and_then(|r| serde_json::from_slice::<Value>(&r.bytes()).ok());
        let message = raw.as_ref().unwrap_or(&m.send);
        (message.get("method").and_then(Value::as_str) == Some("tools/call"))
            .then(|| {
                message
                    .pointer("/params/name")?
                    .as_str()
                    .map(str::to_string)
            })
            .flatten()
    })
}
