//! The options of `run`, `fuzz` and `replay` in one table (ripgrep's `flags/defs.rs`): each
//! option is one item holding its name, its flag, its config file key, its default as users
//! see it, its help line, the subcommands that take it and how it applies.
//!
//! The rest is derived from the table or checked against it: the binary's clap arguments
//! (`src/bin/mcp-conformance/options.rs` builds them from [`OPTIONS`]), the keys the config
//! file accepts ([`super::check_keys`]), `init`'s template ([`super::template()`]) and the
//! README's options table (a test below). What a value does once merged with the file's is
//! [`FileConfig::merge`](super::FileConfig::merge)'s, one short function per setting.
//!
//! The library does not know clap: an option says what its flag takes ([`Kind`]) and how
//! the values given set [`Flags`] ([`Opt::set`]); the binary makes clap arguments of that
//! and turns clap's matches back into [`Value`]s. Adding an option is one item here (and,
//! for a new setting, its field in [`Flags`], the file's section and the merge).

use std::path::PathBuf;

use super::Flags;
use crate::report::Format;
use crate::scenarios::CallMode;
use crate::transport::HttpKind;

/// A subcommand that takes options of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subcommand {
    /// `run`.
    Run,
    /// `fuzz`.
    Fuzz,
    /// `replay`.
    Replay,
    /// `snapshot`.
    Snapshot,
}

/// Where an option stands in a subcommand's `--help`: the table's order, a group at a time
/// where a subcommand lists options of its own between the groups (`fuzz`, `replay`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// How the suite runs and reports.
    Run,
    /// Which tools may be called.
    Tools,
    /// The server under test and how it is reached.
    Server,
}

/// A section of the config file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// `[server]`.
    Server,
    /// `[run]`.
    Run,
    /// `[tools.NAME]`, one table per tool.
    Tools,
}

/// A key of the config file.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    /// Its section.
    pub section: Section,
    /// Its name there.
    pub name: &'static str,
}

/// What a flag's value is.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// Text.
    Text,
    /// A path.
    Path,
    /// Seconds, fractions allowed.
    Secs,
    /// A count up to `u32::MAX`.
    U32,
    /// A number up to `u64::MAX`.
    U64,
    /// A count up to `usize::MAX`.
    Usize,
    /// One of these names.
    Choice(&'static [Choice]),
    /// A report format, by [`Format`]'s names.
    Format,
}

/// One name a [`Kind::Choice`] flag takes.
#[derive(Debug, Clone, Copy)]
pub struct Choice {
    /// The name.
    pub name: &'static str,
    /// Its help line.
    pub doc: &'static str,
}

/// How the command line spells an option.
#[derive(Debug, Clone, Copy)]
pub struct Flag {
    /// `--long` without its dashes; `None` for the command after `--`.
    pub long: Option<&'static str>,
    /// `-s`.
    pub short: Option<char>,
    /// What follows the flag, by the name help shows and its kind; `None` for a switch.
    pub value: Option<(&'static str, Kind)>,
    /// Whether it may be given more than once, every value kept.
    pub repeatable: bool,
}

/// How `--help` shows an option's default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelpDefault {
    /// Not at all (the help line may say it in its own words).
    No,
    /// After the help line, as `[default: ...]`.
    Appended,
    /// As the flag's value when it is not given (clap's default value).
    Value,
}

/// How another subcommand's `--help` describes an option.
#[derive(Debug, Clone, Copy)]
pub struct Elsewhere {
    /// The subcommand.
    pub command: Subcommand,
    /// Its help line there.
    pub doc: &'static str,
    /// Its default there, appended as `[default: ...]` (none when empty).
    pub default: &'static str,
}

/// How the command line and the config file combine into a setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applies {
    /// A flag given beats the file, the file beats the default.
    FlagOverFile,
    /// A repeatable flag given at least once replaces the file's list.
    FlagsReplaceList,
    /// On when the flag or the file says so.
    EitherTurnsOn,
    /// The flags' values are added to the file's.
    AddedToFile,
    /// The command line only.
    FlagOnly,
    /// The config file only.
    FileOnly,
}

/// A value the command line gave an option, as the front end parsed it by its [`Kind`].
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A switch given.
    On,
    /// [`Kind::Text`] or a [`Kind::Choice`] name.
    Text(String),
    /// [`Kind::Path`].
    Path(PathBuf),
    /// [`Kind::Secs`].
    Secs(f64),
    /// [`Kind::U32`].
    U32(u32),
    /// [`Kind::U64`].
    U64(u64),
    /// [`Kind::Usize`].
    Usize(usize),
    /// [`Kind::Format`].
    Format(Format),
}

/// How the values given on the command line set [`Flags`] (every occurrence, in order).
pub type Set = fn(&mut Flags, &[Value]);

/// One option.
#[derive(Debug, Clone, Copy)]
pub struct Opt {
    /// Its name (the setting it is in [`Flags`] and clap's id).
    pub name: &'static str,
    /// Its flag, when the command line takes it.
    pub flag: Option<Flag>,
    /// Its config file key, when the file takes it.
    pub key: Option<Key>,
    /// Its default as users see it (README, `--help`); empty when there is none to show.
    pub default: &'static str,
    /// Its help line in `run` (and wherever [`Opt::elsewhere`] does not say otherwise).
    pub doc: &'static str,
    /// How `run`'s `--help` shows the default.
    pub help_default: HelpDefault,
    /// The subcommands whose command line takes it.
    pub commands: &'static [Subcommand],
    /// Its help line in other subcommands, where it differs.
    pub elsewhere: &'static [Elsewhere],
    /// Where it stands in `--help`.
    pub group: Group,
    /// Options it cannot be given with, by name.
    pub conflicts: &'static [&'static str],
    /// How the flag and the file combine.
    pub applies: Applies,
    /// How the values given set [`Flags`]; `None` when the binary reads them itself.
    pub set: Option<Set>,
    /// The key's value in `init`'s template (TOML).
    pub example: &'static str,
    /// The key's comment in `init`'s template.
    pub note: &'static str,
}

impl Opt {
    /// Whether `command`'s command line takes it.
    pub fn takes(&self, command: Subcommand) -> bool {
        self.flag.is_some() && self.commands.contains(&command)
    }

    /// Its help line in `command`, with the default when help shows it there.
    pub fn help(&self, command: Subcommand) -> String {
        let (doc, default) = match self.elsewhere.iter().find(|e| e.command == command) {
            Some(e) => (e.doc, e.default),
            None if self.help_default == HelpDefault::Appended => (self.doc, self.default),
            None => (self.doc, ""),
        };
        if default.is_empty() {
            doc.to_string()
        } else {
            format!("{doc} [default: {default}]")
        }
    }

    /// The value a flag not given takes ([`HelpDefault::Value`]).
    pub fn flag_default(&self) -> Option<&'static str> {
        (self.help_default == HelpDefault::Value).then_some(self.default)
    }
}

impl Value {
    fn text(&self) -> Option<String> {
        match self {
            Value::Text(t) => Some(t.clone()),
            _ => None,
        }
    }

    fn path(&self) -> Option<PathBuf> {
        match self {
            Value::Path(p) => Some(p.clone()),
            _ => None,
        }
    }

    fn secs(&self) -> Option<f64> {
        match self {
            Value::Secs(s) => Some(*s),
            _ => None,
        }
    }

    fn u32(&self) -> Option<u32> {
        match self {
            Value::U32(n) => Some(*n),
            _ => None,
        }
    }

    fn u64(&self) -> Option<u64> {
        match self {
            Value::U64(n) => Some(*n),
            _ => None,
        }
    }

    fn usize(&self) -> Option<usize> {
        match self {
            Value::Usize(n) => Some(*n),
            _ => None,
        }
    }

    fn format(&self) -> Option<Format> {
        match self {
            Value::Format(f) => Some(*f),
            _ => None,
        }
    }
}

/// The last value given (a flag given once takes one).
fn last<T>(values: &[Value], pick: fn(&Value) -> Option<T>) -> Option<T> {
    values.iter().rev().find_map(pick)
}

/// Every value given, in order.
fn every<T>(values: &[Value], pick: fn(&Value) -> Option<T>) -> Vec<T> {
    values.iter().filter_map(pick).collect()
}

/// The names of `--call`, and the file's `call`.
pub const CALL_CHOICES: &[Choice] = &[
    Choice {
        name: "all",
        doc: "Call every listed tool (the default: tools may have side effects!)",
    },
    Choice {
        name: "read-only",
        doc: "Call only tools annotated readOnlyHint: true",
    },
    Choice {
        name: "none",
        doc: "Call no tool",
    },
];

/// A `--call` or `call` name as the mode it names.
pub fn call_mode(name: &str) -> Option<CallMode> {
    match name {
        "all" => Some(CallMode::All),
        "read-only" => Some(CallMode::ReadOnly),
        "none" => Some(CallMode::None),
        _ => None,
    }
}

/// The names of `--transport`, and the file's `transport`.
pub const TRANSPORT_CHOICES: &[Choice] = &[
    Choice {
        name: "streamable-http",
        doc: "Streamable HTTP (2025-03-26 on): --url is the MCP endpoint",
    },
    Choice {
        name: "sse",
        doc: "HTTP+SSE (2024-11-05): --url is the SSE stream",
    },
];

/// A `--transport` or `transport` name as the kind it names.
pub fn http_kind(name: &str) -> Option<HttpKind> {
    match name {
        "streamable-http" => Some(HttpKind::StreamableHttp),
        "sse" => Some(HttpKind::Sse),
        _ => None,
    }
}

/// The names of `--color`.
pub const COLOR_CHOICES: &[Choice] = &[
    Choice {
        name: "auto",
        doc: "On a terminal, unless NO_COLOR is set (CLICOLOR_FORCE forces it)",
    },
    Choice {
        name: "always",
        doc: "Always",
    },
    Choice {
        name: "never",
        doc: "Never",
    },
];

/// The names of `choices` for a message: "all, read-only or none".
pub fn one_of(choices: &[Choice]) -> String {
    let names: Vec<&str> = choices.iter().map(|c| c.name).collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

const RUN: &[Subcommand] = &[Subcommand::Run];
const RUN_FUZZ: &[Subcommand] = &[Subcommand::Run, Subcommand::Fuzz];
const RUN_SNAPSHOT: &[Subcommand] = &[Subcommand::Run, Subcommand::Snapshot];
const ALL: &[Subcommand] = &[
    Subcommand::Run,
    Subcommand::Fuzz,
    Subcommand::Replay,
    Subcommand::Snapshot,
];

/// `--long VALUE`, given once.
const fn one(long: &'static str, value: &'static str, kind: Kind) -> Option<Flag> {
    Some(Flag {
        long: Some(long),
        short: None,
        value: Some((value, kind)),
        repeatable: false,
    })
}

/// `--long VALUE`, repeatable.
const fn many(long: &'static str, value: &'static str, kind: Kind) -> Option<Flag> {
    Some(Flag {
        long: Some(long),
        short: None,
        value: Some((value, kind)),
        repeatable: true,
    })
}

/// `--long`, a switch.
const fn switch(long: &'static str) -> Option<Flag> {
    Some(Flag {
        long: Some(long),
        short: None,
        value: None,
        repeatable: false,
    })
}

/// `-s`, `--long`, a switch.
const fn short_switch(short: char, long: &'static str) -> Option<Flag> {
    Some(Flag {
        long: Some(long),
        short: Some(short),
        value: None,
        repeatable: false,
    })
}

/// A `[run]` key.
const fn run_key(name: &'static str) -> Option<Key> {
    Some(Key {
        section: Section::Run,
        name,
    })
}

/// A `[server]` key.
const fn server_key(name: &'static str) -> Option<Key> {
    Some(Key {
        section: Section::Server,
        name,
    })
}

/// What an item leaves out: no flag, no key, no default, `run`'s group.
pub const BLANK: Opt = Opt {
    name: "",
    flag: None,
    key: None,
    default: "",
    doc: "",
    help_default: HelpDefault::No,
    commands: RUN,
    elsewhere: &[],
    group: Group::Run,
    conflicts: &[],
    applies: Applies::FlagOverFile,
    set: None,
    example: "",
    note: "",
};

/// `--revision`.
pub const REVISIONS: Opt = Opt {
    name: "revisions",
    flag: many("revision", "REV", Kind::Text),
    key: run_key("revisions"),
    default: "every revision the transport speaks",
    doc: "Protocol revision to run (repeatable; default: every revision the transport speaks)",
    applies: Applies::FlagsReplaceList,
    set: Some(|f, v| f.revisions = every(v, Value::text)),
    example: r#"["2025-06-18", "2025-11-25"]"#,
    note: "default: every revision",
    commands: RUN_SNAPSHOT,
    ..BLANK
};

/// `--timeout`.
pub const TIMEOUT: Opt = Opt {
    name: "timeout",
    flag: one("timeout", "SECS", Kind::Secs),
    key: run_key("timeout"),
    default: "10",
    doc: "Seconds to wait for each response",
    help_default: HelpDefault::Appended,
    commands: ALL,
    elsewhere: &[
        Elsewhere {
            command: Subcommand::Fuzz,
            doc: "Seconds to wait for each response",
            default: "the config file's, else 10",
        },
        Elsewhere {
            command: Subcommand::Replay,
            doc: "Seconds to wait for each response",
            default: "the config file's, else the case's, else 10",
        },
    ],
    set: Some(|f, v| f.timeout = last(v, Value::secs)),
    example: "10.0",
    note: "seconds to wait for each response",
    ..BLANK
};

/// `--max-line`.
pub const MAX_LINE: Opt = Opt {
    name: "max_line",
    flag: one("max-line", "BYTES", Kind::Usize),
    key: run_key("max_line"),
    default: "16 MiB",
    doc: "Longest stdout line accepted from the server, in bytes",
    help_default: HelpDefault::Appended,
    set: Some(|f, v| f.max_line = last(v, Value::usize)),
    example: "16777216",
    note: "longest stdout line accepted, in bytes",
    ..BLANK
};

/// `--seed`.
pub const SEED: Opt = Opt {
    name: "seed",
    flag: one("seed", "SEED", Kind::U64),
    key: run_key("seed"),
    default: "0",
    doc: "Seed for generated scenarios (printed in every report)",
    help_default: HelpDefault::Appended,
    set: Some(|f, v| f.seed = last(v, Value::u64)),
    example: "0",
    note: "generated scenarios (printed in every report)",
    ..BLANK
};

/// `--format`.
pub const FORMATS: Opt = Opt {
    name: "formats",
    flag: many("format", "FORMAT", Kind::Format),
    key: run_key("formats"),
    default: "text",
    doc: "Report format (repeatable): written to --output-dir, or to --output, or stdout",
    applies: Applies::FlagsReplaceList,
    set: Some(|f, v| f.formats = every(v, Value::format)),
    example: r#"["text", "junit", "sarif"]"#,
    ..BLANK
};

/// `--output`.
pub const OUTPUT: Opt = Opt {
    name: "output",
    flag: one("output", "FILE", Kind::Path),
    doc: "Write the report (one format) to this file; the text report still goes to stdout",
    applies: Applies::FlagOnly,
    set: Some(|f, v| f.output = last(v, Value::path)),
    ..BLANK
};

/// `--output-dir`.
pub const OUTPUT_DIR: Opt = Opt {
    name: "output_dir",
    flag: one("output-dir", "DIR", Kind::Path),
    key: run_key("output_dir"),
    doc: "Write every --format to this folder (mcp-conformance.{txt,json,junit.xml,md,sarif,badge.json})",
    set: Some(|f, v| f.output_dir = last(v, Value::path)),
    example: r#""target/mcp-conformance""#,
    ..BLANK
};

/// `--baseline`.
pub const BASELINE: Opt = Opt {
    name: "baseline",
    flag: one("baseline", "FILE", Kind::Path),
    key: run_key("baseline"),
    doc: "Expected failures (TOML); listed findings do not fail the run but stay visible",
    set: Some(|f, v| f.baseline = last(v, Value::path)),
    example: r#""mcp-baseline.toml""#,
    note: "expected failures (`run --write-baseline FILE`)",
    ..BLANK
};

/// `--write-baseline` (the binary writes it).
pub const WRITE_BASELINE: Opt = Opt {
    name: "write_baseline",
    flag: one("write-baseline", "FILE", Kind::Path),
    doc: "Write the findings that fail the gate as a baseline to FILE, each with a reason to \
          fill in (entries the --baseline already had keep their reason)",
    applies: Applies::FlagOnly,
    ..BLANK
};

/// `--strict`.
pub const STRICT: Opt = Opt {
    name: "strict",
    flag: switch("strict"),
    key: run_key("strict"),
    default: "off",
    doc: "Warnings fail the run too",
    applies: Applies::EitherTurnsOn,
    set: Some(|f, v| f.strict = !v.is_empty()),
    example: "false",
    note: "warnings fail the run too",
    ..BLANK
};

/// `--strict-baseline`.
pub const STRICT_BASELINE: Opt = Opt {
    name: "strict_baseline",
    flag: switch("strict-baseline"),
    key: run_key("strict_baseline"),
    default: "off",
    doc: "Baseline entries that no longer match a finding fail the run",
    applies: Applies::EitherTurnsOn,
    set: Some(|f, v| f.strict_baseline = !v.is_empty()),
    example: "false",
    note: "stale baseline entries fail the run too",
    ..BLANK
};

/// `--snapshot`.
pub const SNAPSHOT: Opt = Opt {
    name: "snapshot",
    flag: one("snapshot", "FILE", Kind::Path),
    key: run_key("snapshot"),
    doc: "Compare the tools the server lists with this snapshot (`mcp-conformance snapshot`): \
          breaking changes fail the run, and FILE.new is written when the tools differ",
    set: Some(|f, v| f.snapshot = last(v, Value::path)),
    example: r#""mcp-tools.snapshot.json""#,
    note: "the tool surface snapshot to check (`mcp-conformance snapshot` writes it)",
    ..BLANK
};

/// `--cases`.
pub const CASES: Opt = Opt {
    name: "cases",
    flag: one("cases", "N", Kind::U32),
    key: run_key("cases"),
    default: "32",
    doc: "Generated cases per property (per tool for arguments); 0 skips them; above the \
          default, slow tools get theirs too",
    help_default: HelpDefault::Appended,
    set: Some(|f, v| f.cases = last(v, Value::u32)),
    example: "32",
    note: "generated cases per property; 0 skips them",
    ..BLANK
};

/// `--time-budget`.
pub const TIME_BUDGET: Opt = Opt {
    name: "time_budget",
    flag: one("time-budget", "SECS", Kind::Secs),
    key: run_key("time_budget"),
    default: "none",
    doc: "Seconds the property phase may take per revision (a cut run is not reproducible)",
    set: Some(|f, v| f.time_budget = last(v, Value::secs)),
    example: "60.0",
    note: "seconds of generated cases per revision (default: none)",
    ..BLANK
};

/// `--tool-args` (the file's `[tools.NAME] arguments`).
pub const TOOL_ARGS: Opt = Opt {
    name: "tool_args",
    flag: many("tool-args", "NAME=JSON", Kind::Text),
    key: Some(Key {
        section: Section::Tools,
        name: "arguments",
    }),
    doc: "Arguments for a tool's first call, as NAME=JSON (repeatable); for tools that reject \
          generated inputs (a time zone, a repository path)",
    applies: Applies::AddedToFile,
    set: Some(|f, v| f.tool_args = every(v, Value::text)),
    example: r#"{ city = "Paris" }"#,
    ..BLANK
};

/// `--jobs`.
pub const JOBS: Opt = Opt {
    name: "jobs",
    flag: one("jobs", "N", Kind::Usize),
    key: run_key("jobs"),
    default: "the number of cores",
    doc: "Revisions driven at once; one waiting on a sleeping server lends its slot (the \
          report is the same for any value)",
    help_default: HelpDefault::Appended,
    set: Some(|f, v| f.jobs = last(v, Value::usize)),
    example: "2",
    note: "revisions driven at once (default: the number of cores)",
    ..BLANK
};

/// `--max-time`.
pub const MAX_TIME: Opt = Opt {
    name: "max_time",
    flag: one("max-time", "SECS", Kind::Secs),
    key: run_key("max_time"),
    default: "none",
    doc: "Bound on the whole run: past it, the servers are ended, what finished is reported \
          (marked incomplete) and the run fails",
    set: Some(|f, v| f.max_time = last(v, Value::secs)),
    example: "600.0",
    note: "bound on the whole run, in seconds (default: none)",
    ..BLANK
};

/// `--cases-dir`.
pub const CASES_DIR: Opt = Opt {
    name: "cases_dir",
    flag: one("cases-dir", "DIR", Kind::Path),
    key: run_key("cases_dir"),
    default: "mcp-conformance-cases",
    doc: "Save failing generated cases here, for `mcp-conformance replay`",
    help_default: HelpDefault::Appended,
    commands: RUN_FUZZ,
    elsewhere: &[Elsewhere {
        command: Subcommand::Fuzz,
        doc: "Save each failing case here, for `mcp-conformance replay`",
        default: "the config file's cases_dir; with --live, else mcp-conformance-cases",
    }],
    set: Some(|f, v| f.cases_dir = last(v, Value::path)),
    example: r#""mcp-conformance-cases""#,
    note: "failing generated cases, for `replay`",
    ..BLANK
};

/// `--call`.
pub const CALL: Opt = Opt {
    name: "call",
    flag: one("call", "CALL", Kind::Choice(CALL_CHOICES)),
    key: run_key("call"),
    default: "all",
    doc: "Which tools to call. Tools have side effects: the default calls every tool",
    commands: RUN_FUZZ,
    elsewhere: &[Elsewhere {
        command: Subcommand::Fuzz,
        doc: "Which tools to call (tools have side effects)",
        default: "the config file's, else all",
    }],
    set: Some(|f, v| f.call = last(v, Value::text).and_then(|n| call_mode(&n))),
    example: r#""all""#,
    note: "which tools to call: all | read-only | none",
    ..BLANK
};

/// `--allow-tool`.
pub const ALLOW_TOOL: Opt = Opt {
    name: "allow_tool",
    flag: many("allow-tool", "GLOB", Kind::Text),
    key: run_key("allow_tool"),
    doc: "Call only tools whose name matches this glob (repeatable)",
    commands: ALL,
    group: Group::Tools,
    applies: Applies::FlagsReplaceList,
    set: Some(|f, v| f.allow_tool = every(v, Value::text)),
    example: r#"["get_*"]"#,
    note: "call only tools matching these globs",
    ..BLANK
};

/// `--deny-tool`.
pub const DENY_TOOL: Opt = Opt {
    name: "deny_tool",
    flag: many("deny-tool", "GLOB", Kind::Text),
    key: run_key("deny_tool"),
    doc: "Never call tools whose name matches this glob (repeatable; wins over --allow-tool)",
    commands: ALL,
    group: Group::Tools,
    applies: Applies::FlagsReplaceList,
    set: Some(|f, v| f.deny_tool = every(v, Value::text)),
    example: r#"["delete_*"]"#,
    note: "never call these",
    ..BLANK
};

/// `--check`.
pub const CHECKS: Opt = Opt {
    name: "checks",
    flag: many("check", "GLOB", Kind::Text),
    key: run_key("checks"),
    default: "every check",
    doc: "Report only checks whose id matches this glob (repeatable; e.g. 'tool-*')",
    applies: Applies::FlagsReplaceList,
    set: Some(|f, v| f.checks = every(v, Value::text)),
    example: r#"["tool-*"]"#,
    note: "report only these checks (globs over ids)",
    ..BLANK
};

/// `--skip-check`.
pub const SKIP_CHECKS: Opt = Opt {
    name: "skip_checks",
    flag: many("skip-check", "GLOB", Kind::Text),
    key: run_key("skip_checks"),
    doc: "Leave out checks whose id matches this glob (repeatable; wins over --check)",
    applies: Applies::FlagsReplaceList,
    set: Some(|f, v| f.skip_checks = every(v, Value::text)),
    example: r#"["tool-name-*"]"#,
    note: "leave these out",
    ..BLANK
};

/// `--reference` (the binary drops the file's server).
pub const REFERENCE: Opt = Opt {
    name: "reference",
    flag: switch("reference"),
    doc: "Test the bundled reference server (what `run` does when neither the command line \
          nor a config file names a server), even when a config file names one",
    conflicts: &["command", "url"],
    applies: Applies::FlagOnly,
    ..BLANK
};

/// `-v`, `--verbose` (the binary's text report).
pub const VERBOSE: Opt = Opt {
    name: "verbose",
    flag: short_switch('v', "verbose"),
    default: "summary, findings, notes",
    doc: "Text report: also every pass and not-applicable line, and each revision's evidence",
    conflicts: &["quiet"],
    applies: Applies::FlagOnly,
    ..BLANK
};

/// `-q`, `--quiet` (the binary's text report).
pub const QUIET: Opt = Opt {
    name: "quiet",
    flag: short_switch('q', "quiet"),
    default: "summary, findings, notes",
    doc: "Text report: the summary line alone",
    applies: Applies::FlagOnly,
    ..BLANK
};

/// `--color` (the binary's text report).
pub const COLOR: Opt = Opt {
    name: "color",
    flag: one("color", "WHEN", Kind::Choice(COLOR_CHOICES)),
    default: "auto",
    doc: "Colour the text report: auto (on a terminal, unless NO_COLOR is set), always, never",
    help_default: HelpDefault::Value,
    applies: Applies::FlagOnly,
    ..BLANK
};

/// `--config` (the binary reads the file).
pub const CONFIG: Opt = Opt {
    name: "config",
    flag: one("config", "FILE", Kind::Path),
    default: "./mcp-conformance.toml if present",
    doc: "Config file (default: ./mcp-conformance.toml when it exists)",
    commands: ALL,
    group: Group::Server,
    applies: Applies::FlagOnly,
    ..BLANK
};

/// `--env`.
pub const ENV: Opt = Opt {
    name: "env",
    flag: many("env", "KEY=VALUE", Kind::Text),
    key: server_key("env"),
    doc: "Environment variable for the server, KEY=VALUE (repeatable)",
    commands: ALL,
    group: Group::Server,
    applies: Applies::AddedToFile,
    set: Some(|f, v| f.env = every(v, Value::text)),
    example: r#"{ LOG_LEVEL = "debug" }"#,
    ..BLANK
};

/// `--cwd`.
pub const CWD: Opt = Opt {
    name: "cwd",
    flag: one("cwd", "DIR", Kind::Path),
    key: server_key("cwd"),
    default: "ours",
    doc: "Working directory for the server",
    commands: ALL,
    group: Group::Server,
    set: Some(|f, v| f.cwd = last(v, Value::path)),
    example: r#"".""#,
    note: "relative to this file",
    ..BLANK
};

/// `--url`.
pub const URL: Opt = Opt {
    name: "url",
    flag: one("url", "URL", Kind::Text),
    key: server_key("url"),
    default: "stdio",
    doc: "Reach the server over Streamable HTTP at this URL (with a command after `--`, that \
          command is started first and stopped at the end)",
    commands: ALL,
    group: Group::Server,
    set: Some(|f, v| f.url = last(v, Value::text)),
    example: r#""http://127.0.0.1:8931/mcp""#,
    ..BLANK
};

/// `--transport`.
pub const TRANSPORT: Opt = Opt {
    name: "transport",
    flag: one("transport", "TRANSPORT", Kind::Choice(TRANSPORT_CHOICES)),
    key: server_key("transport"),
    default: "streamable-http",
    doc: "Which HTTP transport --url speaks: `streamable-http` (the default), or `sse` for \
          2024-11-05's HTTP+SSE (--url is then the SSE stream, e.g. \
          http://127.0.0.1:PORT/sse; only 2024-11-05 runs)",
    commands: ALL,
    group: Group::Server,
    set: Some(|f, v| f.transport = last(v, Value::text).and_then(|n| http_kind(&n))),
    example: r#""sse""#,
    note: "with url: 2024-11-05's HTTP+SSE (default: streamable-http)",
    ..BLANK
};

/// `--header`.
pub const HEADERS: Opt = Opt {
    name: "headers",
    flag: many("header", "NAME: VALUE", Kind::Text),
    key: server_key("headers"),
    doc: "Header sent on every HTTP request, 'Name: value' (repeatable; values never reported)",
    commands: ALL,
    group: Group::Server,
    applies: Applies::AddedToFile,
    set: Some(|f, v| f.headers = every(v, Value::text)),
    example: r#"{ Authorization = "Bearer ..." }"#,
    note: "values never reported",
    ..BLANK
};

/// `--ca-cert`.
pub const CA_CERTS: Opt = Opt {
    name: "ca_certs",
    flag: many("ca-cert", "PATH", Kind::Path),
    key: server_key("ca_cert"),
    doc: "PEM file of certificate authorities an https server is trusted by, besides the \
          platform's: a private CA or a self-signed certificate (repeatable)",
    commands: ALL,
    group: Group::Server,
    applies: Applies::AddedToFile,
    set: Some(|f, v| f.ca_certs = every(v, Value::path)),
    example: r#""ca.pem""#,
    note: "with an https url: a CA to trust (relative to this file)",
    ..BLANK
};

/// The server command after `--` (the file's `command`).
pub const COMMAND: Opt = Opt {
    name: "command",
    flag: Some(Flag {
        long: None,
        short: None,
        value: Some(("COMMAND", Kind::Text)),
        repeatable: true,
    }),
    key: server_key("command"),
    doc: "The server command and its arguments, after `--` (else the config file's)",
    commands: ALL,
    group: Group::Server,
    set: Some(|f, v| f.command = every(v, Value::text)),
    example: r#""python""#,
    ..BLANK
};

/// The file's `args`: the server command's arguments (after `--`, they follow the command).
pub const ARGS: Opt = Opt {
    name: "args",
    key: server_key("args"),
    group: Group::Server,
    applies: Applies::FileOnly,
    example: r#"["server.py"]"#,
    ..BLANK
};

/// Every option, in the order `run --help` lists them (the server's last).
pub const OPTIONS: &[&Opt] = &[
    &REVISIONS,
    &TIMEOUT,
    &MAX_LINE,
    &SEED,
    &FORMATS,
    &OUTPUT,
    &OUTPUT_DIR,
    &BASELINE,
    &WRITE_BASELINE,
    &STRICT,
    &STRICT_BASELINE,
    &SNAPSHOT,
    &CASES,
    &TIME_BUDGET,
    &TOOL_ARGS,
    &JOBS,
    &MAX_TIME,
    &CASES_DIR,
    &CALL,
    &ALLOW_TOOL,
    &DENY_TOOL,
    &CHECKS,
    &SKIP_CHECKS,
    &REFERENCE,
    &VERBOSE,
    &QUIET,
    &COLOR,
    &CONFIG,
    &ENV,
    &CWD,
    &URL,
    &TRANSPORT,
    &HEADERS,
    &CA_CERTS,
    &COMMAND,
    &ARGS,
];

#[cfg(test)]
mod tests;
