//! The config file's parsing and the merge of flags over it over the defaults.

use super::options::{Applies, OPTIONS};
use super::*;
use crate::protocol::{TransportKind, REVISIONS};
use crate::report::Format;
use crate::scenarios::CallMode;
use crate::transport::{HttpKind, ServerCommand};

/// The ids of the revisions spoken over `transport`.
fn spoken_over(transport: TransportKind) -> Vec<&'static str> {
    REVISIONS
        .iter()
        .filter(|r| r.runs_over(transport))
        .map(|r| r.id)
        .collect()
}

#[test]
fn relative_paths_follow_the_config_file() {
    let text = r#"
        [server]
        command = "python"
        args = ["server.py"]
        env = { A = "1" }
        cwd = "srv"
        [run]
        revisions = ["2025-06-18"]
        call = "read-only"
        baseline = "base.toml"
        formats = ["junit"]
        output_dir = "/abs/out"
    "#;
    let config = FileConfig::parse(text, Path::new("proj/mcp-conformance.toml")).unwrap();
    let server = config.server.unwrap();
    assert_eq!(server.cwd, Some(PathBuf::from("proj/srv")));
    assert_eq!(server.env.get("A").map(String::as_str), Some("1"));
    assert_eq!(config.run.baseline, Some(PathBuf::from("proj/base.toml")));
    assert_eq!(config.run.output_dir, Some(PathBuf::from("/abs/out")));
    assert_eq!(config.run.call.as_deref(), Some("read-only"));
}

#[test]
fn typos_are_errors_not_silently_ignored() {
    let err = FileConfig::parse("[run]\ntimout = 3\n", Path::new("c.toml")).unwrap_err();
    assert!(err.to_string().contains("timout"), "{err}");
}

/// One row per setting and source: (setting, flag, file value as TOML, effective value).
#[rustfmt::skip]
const PRECEDENCE: &[(&str, Option<&str>, Option<&str>, &str)] = &[
    ("server",          Some("flag-server"), Some(r#""file-server""#),       "flag-server"),
    ("server",          None,                Some(r#""file-server""#),       "file-server"),
    ("server",          None,                None,                           "default-server"),
    ("revisions",       Some("2024-11-05"),  Some(r#"["2025-06-18"]"#),      "2024-11-05"),
    ("revisions",       None,                Some(r#"["2025-06-18"]"#),      "2025-06-18"),
    ("revisions",       None,                None,                           "2024-11-05,2025-03-26,2025-06-18,2025-11-25,2026-07-28"),
    ("timeout",         Some("3"),           Some("5.0"),                    "3"),
    ("timeout",         None,                Some("5.0"),                    "5"),
    ("timeout",         None,                None,                           "10"),
    ("max_line",        Some("100"),         Some("200"),                    "100"),
    ("max_line",        None,                Some("200"),                    "200"),
    ("max_line",        None,                None,                           "16777216"),
    ("seed",            Some("7"),           Some("9"),                      "7"),
    ("seed",            None,                Some("9"),                      "9"),
    ("seed",            None,                None,                           "0"),
    ("call",            Some("none"),        Some(r#""read-only""#),         "None"),
    // A flag wins even over a value the file gets wrong (it is never parsed).
    ("call",            Some("none"),        Some(r#""sometimes""#),         "None"),
    ("call",            None,                Some(r#""read-only""#),         "ReadOnly"),
    ("call",            None,                None,                           "All"),
    ("allow_tool",      Some("a*"),          Some(r#"["b*"]"#),              "a*"),
    ("allow_tool",      None,                Some(r#"["b*"]"#),              "b*"),
    ("allow_tool",      None,                None,                           ""),
    ("deny_tool",       Some("a*"),          Some(r#"["b*"]"#),              "a*"),
    ("deny_tool",       None,                Some(r#"["b*"]"#),              "b*"),
    ("deny_tool",       None,                None,                           ""),
    ("formats",         Some("json"),        Some(r#"["junit"]"#),           "json"),
    ("formats",         Some("json"),        Some(r#"["nonsense"]"#),        "json"),
    ("formats",         None,                Some(r#"["junit", "sarif"]"#),  "junit,sarif"),
    ("formats",         None,                None,                           ""),
    ("output_dir",      Some("flag"),        Some(r#""file""#),              "flag"),
    ("output_dir",      None,                Some(r#""file""#),              "file"),
    ("output_dir",      None,                None,                           "-"),
    ("baseline",        Some("flag.toml"),   Some(r#""file.toml""#),         "flag.toml"),
    ("baseline",        None,                Some(r#""file.toml""#),         "file.toml"),
    ("baseline",        None,                None,                           "-"),
    ("snapshot",        Some("flag.json"),   Some(r#""file.json""#),         "flag.json"),
    ("snapshot",        None,                Some(r#""file.json""#),         "file.json"),
    ("snapshot",        None,                None,                           "-"),
    ("strict",          Some("true"),        Some("false"),                  "true"),
    ("strict",          None,                Some("true"),                   "true"),
    ("strict",          None,                None,                           "false"),
    ("strict_baseline", Some("true"),        Some("false"),                  "true"),
    ("strict_baseline", None,                Some("true"),                   "true"),
    ("strict_baseline", None,                None,                           "false"),
    ("cases",           Some("0"),           Some("4"),                      "0"),
    ("cases",           None,                Some("4"),                      "4"),
    ("cases",           None,                None,                           "32"),
    ("time_budget",     Some("1.5"),         Some("9.0"),                    "1.5"),
    ("time_budget",     None,                Some("9.0"),                    "9"),
    ("time_budget",     None,                None,                           "-"),
    ("cases_dir",       Some("flag"),        Some(r#""file""#),              "flag"),
    ("cases_dir",       None,                Some(r#""file""#),              "file"),
    ("cases_dir",       None,                None,                           "mcp-conformance-cases"),
    ("jobs",            Some("3"),           Some("5"),                      "3"),
    ("jobs",            None,                Some("5"),                      "5"),
    ("max_time",        Some("60"),          Some("90.0"),                   "60"),
    ("max_time",        None,                Some("90.0"),                   "90"),
    ("max_time",        None,                None,                           "-"),
    ("checks",          Some("rpc-*"),       Some(r#"["lc-*"]"#),            "rpc-batch"),
    ("checks",          None,                Some(r#"["lc-*"]"#),            "lc-ping"),
    ("checks",          None,                None,                           "lc-ping,rpc-batch"),
    ("skip_checks",     Some("rpc-*"),       Some(r#"["lc-*"]"#),            "lc-ping"),
    ("skip_checks",     None,                Some(r#"["lc-*"]"#),            "rpc-batch"),
    ("skip_checks",     None,                None,                           "lc-ping,rpc-batch"),
];

/// A flag given beats the file, the file beats the default.
#[test]
fn flag_beats_file_beats_default() {
    for &(setting, flag, file, want) in PRECEDENCE {
        let flags = flag.map(|v| flag_set(setting, v)).unwrap_or_default();
        let text = match (setting, file) {
            (_, None) => String::new(),
            ("server", Some(v)) => format!("[server]\ncommand = {v}\n"),
            // Several formats need a folder to go to.
            ("formats", Some(v)) => format!("[run]\n{setting} = {v}\noutput_dir = \"out\"\n"),
            (_, Some(v)) => format!("[run]\n{setting} = {v}\n"),
        };
        // The file sits in the working directory, so its relative paths stay as written.
        let config = FileConfig::parse(&text, Path::new("mcp-conformance.toml")).unwrap();
        let settings = config
            .merge(flags, || Ok(ServerCommand::new("default-server", [])))
            .unwrap_or_else(|e| panic!("{setting} {flag:?} {file:?}: {e}"));
        assert_eq!(
            effective(&settings, setting),
            want,
            "{setting}: flag {flag:?}, file {file:?}"
        );
    }
}

/// Every option whose flag and file key meet in the merge one for one has its rows above
/// (the server's, which add to each other or reach it, have tests of their own below).
#[test]
fn every_option_of_the_run_section_has_precedence_rows() {
    for o in OPTIONS {
        let Some(key) = o.key.filter(|k| k.section == options::Section::Run) else {
            continue;
        };
        let rows: Vec<_> = PRECEDENCE.iter().filter(|r| r.0 == key.name).collect();
        assert!(
            rows.iter().any(|r| r.1.is_some() && r.2.is_some()),
            "{}: no row with both a flag and the file",
            key.name
        );
        assert!(
            rows.iter().any(|r| r.1.is_none() && r.2.is_some()),
            "{}: no row with the file alone",
            key.name
        );
        assert_ne!(o.applies, Applies::FlagOnly, "{}", key.name);
    }
}

/// `Flags` with one setting given on the command line.
fn flag_set(setting: &str, v: &str) -> Flags {
    let mut f = Flags::default();
    match setting {
        "server" => f.command = vec![v.to_string()],
        "revisions" => f.revisions = vec![v.to_string()],
        "timeout" => f.timeout = Some(v.parse().unwrap()),
        "max_line" => f.max_line = Some(v.parse().unwrap()),
        "seed" => f.seed = Some(v.parse().unwrap()),
        "call" => {
            f.call = Some(match v {
                "all" => CallMode::All,
                "read-only" => CallMode::ReadOnly,
                _ => CallMode::None,
            })
        }
        "allow_tool" => f.allow_tool = vec![v.to_string()],
        "deny_tool" => f.deny_tool = vec![v.to_string()],
        "formats" => f.formats = vec![Format::parse(v).unwrap()],
        "output_dir" => f.output_dir = Some(v.into()),
        "baseline" => f.baseline = Some(v.into()),
        "snapshot" => f.snapshot = Some(v.into()),
        "strict" => f.strict = true,
        "strict_baseline" => f.strict_baseline = true,
        "cases" => f.cases = Some(v.parse().unwrap()),
        "time_budget" => f.time_budget = Some(v.parse().unwrap()),
        "cases_dir" => f.cases_dir = Some(v.into()),
        "jobs" => f.jobs = Some(v.parse().unwrap()),
        "max_time" => f.max_time = Some(v.parse().unwrap()),
        "checks" => f.checks = vec![v.to_string()],
        "skip_checks" => f.skip_checks = vec![v.to_string()],
        other => panic!("no flag for {other}"),
    }
    f
}

/// One effective setting as text ("-" for none, lists comma-separated).
fn effective(s: &Settings, setting: &str) -> String {
    let path = |p: &Option<PathBuf>| p.as_ref().map_or("-".into(), |p| p.display().to_string());
    match setting {
        "server" => s.server.program.clone(),
        "revisions" => s
            .revisions
            .iter()
            .map(|r| r.id)
            .collect::<Vec<_>>()
            .join(","),
        "timeout" => s.timeout.to_string(),
        "max_line" => s.max_line.to_string(),
        "seed" => s.seed.to_string(),
        "call" => format!("{:?}", s.call),
        "allow_tool" => s.allow_tool.join(","),
        "deny_tool" => s.deny_tool.join(","),
        "formats" => s
            .formats
            .iter()
            .map(|f| f.name())
            .collect::<Vec<_>>()
            .join(","),
        "output_dir" => path(&s.output_dir),
        "baseline" => path(&s.baseline),
        "snapshot" => path(&s.snapshot),
        "strict" => s.strict.to_string(),
        "strict_baseline" => s.strict_baseline.to_string(),
        "cases" => s.cases.to_string(),
        "time_budget" => s.time_budget.map_or("-".into(), |t| t.to_string()),
        "cases_dir" => s.cases_dir.display().to_string(),
        "jobs" => s.jobs.to_string(),
        "max_time" => s.max_time.map_or("-".into(), |t| t.to_string()),
        // Which of two checks are reported.
        "checks" | "skip_checks" => ["lc-ping", "rpc-batch"]
            .into_iter()
            .filter(|id| s.checks.selects(id))
            .collect::<Vec<_>>()
            .join(","),
        other => panic!("no setting {other}"),
    }
}

#[test]
fn the_default_server_is_asked_for_only_when_none_is_named() {
    let asked = |flags: Flags, file: &str| {
        let config = FileConfig::parse(file, Path::new("c.toml")).unwrap();
        let settings = config
            .merge(flags, || Err(Error::NoCommand))
            .map(|s| s.default_server);
        settings.map_err(|e| e.to_string())
    };
    let named = Flags {
        command: vec!["srv".into()],
        ..Flags::default()
    };
    assert_eq!(asked(named, ""), Ok(false));
    assert_eq!(
        asked(Flags::default(), "[server]\ncommand = \"srv\""),
        Ok(false)
    );
    assert!(asked(Flags::default(), "").is_err());
    let config = FileConfig::default();
    let settings = config
        .merge(Flags::default(), || Ok(ServerCommand::new("ref", [])))
        .unwrap();
    assert!(settings.default_server);
}

/// `--cwd` and `--env` apply to whichever server runs, after the file's own.
#[test]
fn cwd_and_env_flags_add_to_the_server() {
    let config = FileConfig::parse(
        "[server]\ncommand = \"srv\"\nenv = { A = \"1\" }\ncwd = \"here\"",
        Path::new("c.toml"),
    )
    .unwrap();
    let flags = Flags {
        env: vec!["B=2=3".into()],
        cwd: Some("there".into()),
        ..Flags::default()
    };
    let settings = config.merge(flags, || Err(Error::NoCommand)).unwrap();
    assert_eq!(settings.server.cwd, Some(PathBuf::from("there")));
    assert_eq!(
        settings.server.env,
        [("A".into(), "1".into()), ("B".into(), "2=3".into())]
    );
}

/// Bad values, wherever they come from, are errors naming what to write instead.
#[test]
fn bad_values_are_errors() {
    let rows: &[(Flags, &str, &str)] = &[
        (
            Flags {
                env: vec!["FOO".into()],
                ..Flags::default()
            },
            "",
            r#"--env "FOO" is not KEY=VALUE"#,
        ),
        (
            Flags::default(),
            "[run]\nrevisions = [\"1999\"]",
            "unknown revision `1999`",
        ),
        (
            Flags::default(),
            "[run]\nrevisions = [\"2025-11-26\"]",
            "unknown revision `2025-11-26`; did you mean `2025-11-25`?",
        ),
        (
            Flags::default(),
            "[run]\nchecks = [\"lc-pnig\"]",
            "unknown check `lc-pnig`; did you mean `lc-ping`?",
        ),
        (
            Flags {
                skip_checks: vec!["zz-*".into()],
                ..Flags::default()
            },
            "",
            "no check id matches `zz-*`",
        ),
        (
            Flags {
                timeout: Some(0.0),
                ..Flags::default()
            },
            "",
            "the timeout must be a positive number of seconds",
        ),
        (
            Flags::default(),
            "[run]\ntimeout = -1.0",
            "the timeout must be a positive",
        ),
        (
            Flags::default(),
            "[run]\ncall = \"some\"",
            r#"call = "some": use all"#,
        ),
        (
            Flags::default(),
            "[run]\nformats = [\"pdf\"]",
            r#"unknown report format "pdf""#,
        ),
        (
            Flags {
                output: Some("r.json".into()),
                ..Flags::default()
            },
            "[run]\nformats = [\"json\", \"junit\"]",
            "--output takes one --format",
        ),
        (
            Flags::default(),
            "[run]\nformats = [\"json\", \"junit\"]",
            "several --format values need --output-dir",
        ),
    ];
    for (flags, file, message) in rows {
        let config = FileConfig::parse(file, Path::new("c.toml")).unwrap();
        let err = config
            .merge(flags.clone(), || Ok(ServerCommand::new("ref", [])))
            .unwrap_err()
            .to_string();
        assert!(err.contains(message), "{err:?} lacks {message:?}");
    }
}

/// `checks` / `skip_checks` from the file, replaced by `--check` / `--skip-check`.
#[test]
fn check_globs_come_from_the_file_or_the_flags() {
    let file = "[run]\nchecks = [\"lc-*\"]\nskip_checks = [\"lc-ping*\"]\n";
    let merge = |flags: Flags| {
        FileConfig::parse(file, Path::new("c.toml"))
            .unwrap()
            .merge(flags, || Ok(ServerCommand::new("ref", [])))
            .unwrap()
            .checks
    };
    let from_file = merge(Flags::default());
    assert!(from_file.selects("lc-init-result"));
    assert!(!from_file.selects("lc-ping") && !from_file.selects("rpc-batch"));
    let from_flags = merge(Flags {
        checks: vec!["rpc-*".into()],
        ..Flags::default()
    });
    assert!(from_flags.selects("rpc-batch") && !from_flags.selects("lc-init-result"));
    assert!(
        !from_flags.selects("lc-ping"),
        "the file's skip_checks still apply"
    );
}

/// The defaults stated here are the library's own (the session's, the property
/// phase's), so the CLI and the library API run alike.
#[test]
fn defaults_agree_with_the_library() {
    let session = crate::protocol::SessionConfig::default();
    assert_eq!(
        session.timeout,
        std::time::Duration::from_secs_f64(DEFAULT_TIMEOUT_SECS)
    );
    assert_eq!(session.max_line, DEFAULT_MAX_LINE);
    let properties = crate::scenarios::PropertyConfig::default();
    assert_eq!(properties.cases, DEFAULT_CASES);
    assert_eq!(
        crate::runner::RunConfig::new(ServerCommand::default()).seed,
        DEFAULT_SEED
    );
}

/// `[tools.NAME] arguments` from the file, each `--tool-args NAME=JSON` over them (per
/// tool); arguments must be objects.
#[test]
fn tool_arguments_come_from_the_file_and_the_flags() {
    let file = "[tools.get_time]\narguments = { timezone = \"UTC\" }\n\n[tools.git_log]\narguments = { repo_path = \"/file\" }\n";
    let merged = |flags: &[&str]| {
        let config = FileConfig::parse(file, Path::new("c.toml")).unwrap();
        let flags = Flags {
            tool_args: flags.iter().map(|f| f.to_string()).collect(),
            ..Flags::default()
        };
        config
            .merge(flags, || Ok(ServerCommand::new("srv", [])))
            .map(|s| serde_json::Value::from_iter(s.tool_arguments))
            .map_err(|e| e.to_string())
    };
    assert_eq!(
        merged(&[r#"git_log={"repo_path": "/flag"}"#]),
        Ok(serde_json::json!({
            "get_time": {"timezone": "UTC"},
            "git_log": {"repo_path": "/flag"}
        }))
    );
    assert!(merged(&["git_log"]).unwrap_err().contains("NAME=JSON"));
    assert!(merged(&["git_log={"]).unwrap_err().contains("not JSON"));
    assert!(merged(&["git_log=[1]"])
        .unwrap_err()
        .contains("not an object"));
}

/// `--url` (or the file's `url`) reaches the server over HTTP: without a command nothing is
/// started and the default server is not asked for; `--header` needs it; the revisions
/// default to the ones judged over HTTP (2026-07-28 among them), and another one is refused.
#[test]
fn url_and_headers_make_an_http_target() {
    let flags = Flags {
        url: Some("http://127.0.0.1:9/mcp".into()),
        headers: vec!["Authorization: Bearer x".into()],
        ..Flags::default()
    };
    let settings = FileConfig::default()
        .merge(flags.clone(), || Err(Error::NoCommand))
        .unwrap();
    let http = settings.server.http.as_ref().unwrap();
    assert_eq!(http.url, "http://127.0.0.1:9/mcp");
    assert_eq!(
        http.headers,
        vec![("Authorization".into(), "Bearer x".into())]
    );
    assert!(settings.server.program.is_empty() && !settings.default_server);
    let ids: Vec<&str> = settings.revisions.iter().map(|r| r.id).collect();
    assert_eq!(ids, spoken_over(TransportKind::StreamableHttp));

    let file = FileConfig::parse(
        "[server]\nurl = \"http://127.0.0.1:9/mcp\"\ncommand = \"srv\"\n[server.headers]\nX-Key = \"k\"",
        Path::new("c.toml"),
    )
    .unwrap();
    let settings = file
        .merge(Flags::default(), || Err(Error::NoCommand))
        .unwrap();
    assert_eq!(settings.server.program, "srv");
    assert_eq!(
        settings.server.http.unwrap().headers,
        vec![("X-Key".into(), "k".into())]
    );

    let no_url = Flags {
        headers: vec!["A: b".into()],
        command: vec!["srv".into()],
        ..Flags::default()
    };
    let err = FileConfig::default().merge(no_url, || Err(Error::NoCommand));
    assert!(err
        .unwrap_err()
        .to_string()
        .contains("--header needs --url"));
    let bad = Flags {
        headers: vec!["no-colon-secret".into()],
        ..flags.clone()
    };
    let err = FileConfig::default()
        .merge(bad, || Err(Error::NoCommand))
        .unwrap_err()
        .to_string();
    assert!(!err.contains("secret"), "{err}");
    let modern = Flags {
        revisions: vec!["2026-07-28".into()],
        ..flags.clone()
    };
    assert!(FileConfig::default()
        .merge(modern, || Err(Error::NoCommand))
        .is_ok());
    // 2024-11-05's HTTP+SSE is not Streamable HTTP.
    let sse = Flags {
        revisions: vec!["2024-11-05".into()],
        ..flags
    };
    assert!(FileConfig::default()
        .merge(sse, || Err(Error::NoCommand))
        .is_err());
}

/// `--transport sse` (or the file's `transport = "sse"`) runs 2024-11-05 only and lists the
/// rest as not run; over Streamable HTTP, 2024-11-05 is listed as not run with a pointer to
/// `--transport sse`, and naming it is refused; a transport needs a URL.
#[test]
fn the_transport_chooses_the_revisions_and_says_why_the_rest_do_not_run() {
    let sse = Flags {
        url: Some("http://127.0.0.1:9/sse".into()),
        transport: Some(HttpKind::Sse),
        ..Flags::default()
    };
    let settings = FileConfig::default()
        .merge(sse, || Err(Error::NoCommand))
        .unwrap();
    assert_eq!(settings.server.http_kind, HttpKind::Sse);
    assert!(!settings.detect_sse, "a transport named is not detected");
    let ids: Vec<&str> = settings.revisions.iter().map(|r| r.id).collect();
    assert_eq!(ids, spoken_over(TransportKind::HttpSse));
    assert_eq!(settings.not_run.len(), REVISIONS.len() - 1);

    let file = FileConfig::parse(
        "[server]\nurl = \"http://127.0.0.1:9/sse\"\ntransport = \"sse\"",
        Path::new("c.toml"),
    )
    .unwrap();
    let settings = file
        .merge(Flags::default(), || Err(Error::NoCommand))
        .unwrap();
    assert_eq!(settings.server.http_kind, HttpKind::Sse);

    let streamable = Flags {
        url: Some("http://127.0.0.1:9/mcp".into()),
        ..Flags::default()
    };
    let settings = FileConfig::default()
        .merge(streamable.clone(), || Err(Error::NoCommand))
        .unwrap();
    assert_eq!(settings.server.http_kind, HttpKind::StreamableHttp);
    assert!(
        settings.detect_sse,
        "no transport and no revision named: detected"
    );
    let (rev, why) = &settings.not_run[0];
    assert_eq!(rev.id, "2024-11-05");
    assert!(why.contains("--transport sse"), "{why}");
    let named = Flags {
        revisions: vec!["2024-11-05".into()],
        ..streamable
    };
    let err = FileConfig::default()
        .merge(named, || Err(Error::NoCommand))
        .unwrap_err();
    assert!(err.to_string().contains("--transport sse"), "{err}");

    let bad = FileConfig::parse(
        "[server]\nurl = \"http://127.0.0.1:9/sse\"\ntransport = \"websocket\"",
        Path::new("c.toml"),
    )
    .unwrap()
    .merge(Flags::default(), || Err(Error::NoCommand));
    assert!(bad
        .unwrap_err()
        .to_string()
        .contains("streamable-http or sse"));
    let no_url = Flags {
        transport: Some(HttpKind::Sse),
        command: vec!["srv".into()],
        ..Flags::default()
    };
    let err = FileConfig::default().merge(no_url, || Err(Error::NoCommand));
    assert!(err
        .unwrap_err()
        .to_string()
        .contains("--transport needs --url"));
}

/// After `init -- python server.py`, `run --url URL` tested that URL and also started the
/// file's stdio command, silently. The file's command is started for `--url` only when its
/// own `url` is that URL, and where a command came from is said either way.
#[test]
fn a_url_on_the_command_line_starts_the_files_command_only_when_it_serves_that_url() {
    let url = |u: &str| Flags {
        url: Some(u.into()),
        ..Flags::default()
    };
    let stdio = FileConfig::parse(
        "[server]\ncommand = \"python\"\nargs = [\"s.py\"]\n",
        Path::new("c.toml"),
    )
    .unwrap();
    let s = stdio
        .clone()
        .merge(url("http://127.0.0.1:9/mcp"), || Err(Error::NoCommand))
        .unwrap();
    assert!(s.server.program.is_empty(), "{:?}", s.server);
    let note = s.command_note.unwrap();
    assert!(
        note.contains("c.toml's [server] command `python` is not started: it has no url"),
        "{note}"
    );
    let s = stdio
        .merge(Flags::default(), || Err(Error::NoCommand))
        .unwrap();
    assert_eq!(s.server.program, "python");
    assert_eq!(
        s.command_note.unwrap(),
        "the server command is c.toml's [server]: python s.py"
    );

    let http = FileConfig::parse(
        "[server]\ncommand = \"node\"\nurl = \"http://127.0.0.1:9/mcp\"\n",
        Path::new("c.toml"),
    )
    .unwrap();
    let same = http
        .clone()
        .merge(url("http://127.0.0.1:9/mcp"), || Err(Error::NoCommand))
        .unwrap();
    assert_eq!(same.server.program, "node");
    let other = http
        .merge(url("http://127.0.0.1:10/mcp"), || Err(Error::NoCommand))
        .unwrap();
    assert!(other.server.program.is_empty());
    assert!(other
        .command_note
        .unwrap()
        .contains("its url is http://127.0.0.1:9/mcp, not the --url given"));
    // The same URL written another way is the same URL.
    let http = FileConfig::parse(
        "[server]\ncommand = \"node\"\nurl = \"http://127.0.0.1:9/mcp\"\n[server.headers]\nAuthorization = \"Bearer k\"\n",
        Path::new("c.toml"),
    )
    .unwrap();
    let same = http
        .clone()
        .merge(url("HTTP://127.0.0.1:9/mcp/"), || Err(Error::NoCommand))
        .unwrap();
    assert_eq!(same.server.program, "node");
    assert_eq!(same.server.http.unwrap().headers.len(), 1);
    // The file's headers are never sent to another URL than the file's own.
    let other = http
        .merge(url("http://example.org/mcp"), || Err(Error::NoCommand))
        .unwrap();
    assert!(other.server.http.unwrap().headers.is_empty());
    // A file naming no URL: its headers go to the one given.
    let headers_only =
        FileConfig::parse("[server.headers]\nX-Key = \"k\"\n", Path::new("c.toml")).unwrap();
    let s = headers_only
        .merge(url("http://127.0.0.1:9/mcp"), || Err(Error::NoCommand))
        .unwrap();
    assert_eq!(
        s.server.http.unwrap().headers,
        vec![("X-Key".into(), "k".into())]
    );
    // A command on the command line is the user's own: nothing to say.
    let flags = Flags {
        command: vec!["srv".into()],
        ..url("http://127.0.0.1:9/mcp")
    };
    let s = FileConfig::default()
        .merge(flags, || Err(Error::NoCommand))
        .unwrap();
    assert!(s.command_note.is_none());
}
