//! The physical floor for `suite_speed`: what a bare client pays to send the suite's own
//! lines to the same server processes, one process after another. Recorded with a `tee`
//! shim around the server (every line the suite wrote to each process's stdin, every line
//! the process wrote back), replayed with std::process and blocking pipes: no tokio, no
//! schema work, a JSON decode per received line only to read its id.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use mcp_conformance::ServerCommand;
use serde_json::Value;

/// How long the floor waits for an answer the recording shows (the suite's `--timeout`).
const ANSWER_WAIT: Duration = Duration::from_secs(10);
/// How long the floor lets a process exit after its stdin is closed before killing it.
const EXIT_WAIT: Duration = Duration::from_secs(2);

/// What the floor did.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Server processes started.
    pub processes: usize,
    /// Requests sent (counted as the suite counts them: not our notifications, not our
    /// answers to the server's requests).
    pub requests: usize,
    /// Requests whose answer it waited for (the recording showed one).
    pub waited: usize,
    /// Answers that did not come within [`ANSWER_WAIT`] (should be none): the lines sent.
    pub timeouts: Vec<String>,
}

/// One line the suite sent.
#[derive(Debug)]
enum Sent {
    /// A notification of ours: sent, nothing awaited.
    Notification(Vec<u8>),
    /// Our answer to a request of the server's, keyed by its id.
    Reply(String, Vec<u8>),
    /// Anything else that expects an answer (malformed probes included); `wait` is the
    /// key of the answer to wait for, when the recording shows one came.
    Request { line: Vec<u8>, wait: Option<String> },
}

/// The recorded lines of one server process, in the order written.
#[derive(Debug)]
pub struct ProcessLog {
    lines: Vec<Sent>,
}

impl ProcessLog {
    /// Requests in the log.
    pub fn requests(&self) -> usize {
        self.lines
            .iter()
            .filter(|l| matches!(l, Sent::Request { .. }))
            .count()
    }
}

/// `command` wrapped so that each process started logs its stdin and stdout under `dir`
/// (one folder per process, named by start time).
pub fn recording_command(command: &ServerCommand, dir: &Path) -> ServerCommand {
    let script = r#"d="$0/$(date +%s%N)-$$"; mkdir "$d" && tee "$d/in" | "$@" | tee "$d/out""#;
    let mut args = vec![
        "-c".to_string(),
        script.to_string(),
        dir.to_string_lossy().into_owned(),
        command.program.clone(),
    ];
    args.extend(command.args.iter().cloned());
    ServerCommand {
        program: "sh".to_string(),
        args,
        env: command.env.clone(),
        cwd: command.cwd.clone(),
        ..ServerCommand::default()
    }
}

/// Reads every process's log, in start order.
pub fn read_logs(dir: &Path) -> Vec<ProcessLog> {
    let mut folders: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("recording folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    folders.sort();
    folders
        .iter()
        .map(|f| {
            let input = std::fs::read(f.join("in")).unwrap_or_default();
            let output = std::fs::read(f.join("out")).unwrap_or_default();
            parse_log(&input, &output)
        })
        .collect()
}

fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty())
}

/// The key an answer is matched by: its id, or "batch" for an array.
fn answer_key(message: &Value) -> Option<String> {
    match message {
        Value::Array(_) => Some("batch".to_string()),
        Value::Object(o) if !o.contains_key("method") => Some(id_key(o.get("id"))),
        _ => None,
    }
}

fn is_notification(message: &Value) -> bool {
    message
        .as_object()
        .is_some_and(|o| o.contains_key("method") && !o.contains_key("id"))
}

fn id_key(id: Option<&Value>) -> String {
    format!("id:{}", id.unwrap_or(&Value::Null))
}

fn parse_log(input: &[u8], output: &[u8]) -> ProcessLog {
    let mut answers: HashMap<String, usize> = HashMap::new();
    for line in lines(output) {
        if let Some(key) = serde_json::from_slice(line)
            .ok()
            .as_ref()
            .and_then(answer_key)
        {
            *answers.entry(key).or_default() += 1;
        }
    }
    let sent = lines(input)
        .map(|line| {
            let json: Option<Value> = serde_json::from_slice(line).ok();
            let object = json.as_ref().and_then(Value::as_object);
            let mut bytes = line.to_vec();
            bytes.push(b'\n');
            match object {
                Some(o) if o.contains_key("method") && !o.contains_key("id") => {
                    Sent::Notification(bytes)
                }
                // A batch of notifications only is owed no answer at all (the suite's
                // `rpc-batch` probe): waiting for one would wait the whole answer window.
                _ if json
                    .as_ref()
                    .and_then(Value::as_array)
                    .is_some_and(|items| {
                        !items.is_empty() && items.iter().all(is_notification)
                    }) =>
                {
                    Sent::Notification(bytes)
                }
                Some(o)
                    if !o.contains_key("method")
                        && (o.contains_key("result") || o.contains_key("error")) =>
                {
                    Sent::Reply(id_key(o.get("id")), bytes)
                }
                _ => {
                    // A request's answer carries its id; an array gets an array (or an
                    // error with a null id, as a line that is not JSON does).
                    let key = match (&json, object) {
                        (Some(Value::Array(_)), _) => "batch".to_string(),
                        (_, Some(o)) => id_key(o.get("id")),
                        _ => id_key(None),
                    };
                    let wait = match answers.get_mut(&key) {
                        Some(n) if *n > 0 => {
                            *n -= 1;
                            Some(key)
                        }
                        _ if key == "batch" => match answers.get_mut(&id_key(None)) {
                            Some(n) if *n > 0 => {
                                *n -= 1;
                                Some(id_key(None))
                            }
                            _ => None,
                        },
                        _ => None,
                    };
                    Sent::Request { line: bytes, wait }
                }
            }
        })
        .collect();
    ProcessLog { lines: sent }
}

/// Replays every log against a fresh process of `command`, one after another. Returns the
/// wall time in seconds.
pub fn replay(command: &ServerCommand, logs: &[ProcessLog]) -> (f64, Stats) {
    let mut stats = Stats::default();
    let started = Instant::now();
    for log in logs {
        replay_one(command, log, &mut stats);
    }
    (started.elapsed().as_secs_f64(), stats)
}

fn replay_one(command: &ServerCommand, log: &ProcessLog, stats: &mut Stats) {
    let mut cmd = Command::new(&command.program);
    cmd.args(&command.args)
        .envs(command.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if let Some(dir) = &command.cwd {
        cmd.current_dir(dir);
    }
    let mut child = cmd.spawn().expect("the server starts");
    stats.processes += 1;
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    let reader = std::thread::spawn(move || {
        let mut stdout = BufReader::new(stdout);
        loop {
            let mut line = Vec::new();
            match stdout.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    });
    // Our recorded answers to the server's requests, sent as soon as it asks (it may wait
    // for one before answering ours).
    let mut replied = vec![false; log.lines.len()];
    let replies: HashMap<&str, usize> = log
        .lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| match l {
            Sent::Reply(key, _) => Some((key.as_str(), i)),
            _ => None,
        })
        .collect();
    let mut early: HashMap<String, usize> = HashMap::new();
    for (i, sent) in log.lines.iter().enumerate() {
        match sent {
            Sent::Notification(line) => {
                let _ = stdin.write_all(line);
            }
            Sent::Reply(_, line) => {
                if !replied[i] {
                    replied[i] = true;
                    let _ = stdin.write_all(line);
                }
            }
            Sent::Request { line, wait } => {
                stats.requests += 1;
                let _ = stdin.write_all(line);
                let Some(key) = wait else { continue };
                stats.waited += 1;
                // An answer that came before we asked for it (out of order, or one an
                // earlier line's key took by mistake) is not waited for twice.
                if let Some(n) = early.get_mut(key).filter(|n| **n > 0) {
                    *n -= 1;
                    continue;
                }
                let deadline = Instant::now() + ANSWER_WAIT;
                loop {
                    let left = deadline.saturating_duration_since(Instant::now());
                    let Ok(received) = rx.recv_timeout(left) else {
                        stats
                            .timeouts
                            .push(String::from_utf8_lossy(line).trim().to_string());
                        break;
                    };
                    let Ok(message) = serde_json::from_slice::<Value>(&received) else {
                        continue;
                    };
                    match answer_key(&message) {
                        Some(k) if k == *key => break,
                        Some(k) => *early.entry(k).or_default() += 1,
                        None => {}
                    }
                    // A request of the server's: answer it as the suite did.
                    if let Some(o) = message.as_object().filter(|o| o.contains_key("id")) {
                        if let Some(&j) = replies.get(id_key(o.get("id")).as_str()) {
                            if !replied[j] {
                                replied[j] = true;
                                if let Sent::Reply(_, line) = &log.lines[j] {
                                    let _ = stdin.write_all(line);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    drop(stdin);
    let deadline = Instant::now() + EXIT_WAIT;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(1));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break;
            }
        }
    }
    drop(rx);
    let _ = reader.join();
}
