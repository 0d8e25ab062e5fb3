//! The options table against itself, the constants, the typed file and the README.

use std::collections::BTreeSet;
use std::path::Path;

use super::*;
use crate::config::{
    accepted_keys, check_keys, template, FileConfig, DEFAULT_CASES, DEFAULT_CASES_DIR,
    DEFAULT_MAX_LINE, DEFAULT_SEED, DEFAULT_TIMEOUT_SECS,
};

/// No two options share a name, a flag or a key.
#[test]
fn names_flags_and_keys_are_unique() {
    let mut seen = BTreeSet::new();
    for o in OPTIONS {
        assert!(seen.insert(format!("name {}", o.name)), "{}", o.name);
        if let Some(flag) = o.flag {
            let long = flag.long.unwrap_or("after --");
            assert!(seen.insert(format!("flag {long}")), "{}", o.name);
            if let Some(short) = flag.short {
                assert!(seen.insert(format!("short {short}")), "{}", o.name);
            }
        }
        if let Some(key) = o.key {
            assert!(
                seen.insert(format!("key {:?}.{}", key.section, key.name)),
                "{}",
                o.name
            );
        }
        for conflict in o.conflicts {
            assert!(
                OPTIONS.iter().any(|c| c.name == *conflict),
                "{}: {conflict}",
                o.name
            );
        }
    }
}

/// The defaults users read are the ones the merge applies, and another subcommand's
/// default ends with the option's own ("the config file's, else 10").
#[test]
fn defaults_shown_are_the_constants() {
    assert_eq!(TIMEOUT.default, DEFAULT_TIMEOUT_SECS.to_string());
    assert_eq!(MAX_LINE.default, format!("{} MiB", DEFAULT_MAX_LINE >> 20));
    assert_eq!(SEED.default, DEFAULT_SEED.to_string());
    assert_eq!(CASES.default, DEFAULT_CASES.to_string());
    assert_eq!(CASES_DIR.default, DEFAULT_CASES_DIR);
    assert_eq!(CALL.default, CALL_CHOICES[0].name);
    assert_eq!(call_mode(CALL.default), Some(CallMode::default()));
    assert_eq!(TRANSPORT.default, TRANSPORT_CHOICES[0].name);
    assert_eq!(http_kind(TRANSPORT.default), Some(HttpKind::default()));
    for o in OPTIONS {
        for e in o.elsewhere {
            assert!(o.commands.contains(&e.command), "{}", o.name);
            assert!(e.default.ends_with(o.default), "{}: {}", o.name, e.default);
        }
    }
    assert_eq!(
        TIMEOUT.help(Subcommand::Run),
        "Seconds to wait for each response [default: 10]"
    );
    assert_eq!(
        TIMEOUT.help(Subcommand::Fuzz),
        "Seconds to wait for each response [default: the config file's, else 10]"
    );
    assert_eq!(COLOR.flag_default(), Some("auto"));
}

/// A value of `kind`, as the command line would give it.
fn sample(kind: Option<(&str, Kind)>) -> Value {
    match kind.map(|(_, kind)| kind) {
        None => Value::On,
        Some(Kind::Text) => Value::Text("x=1".into()),
        Some(Kind::Path) => Value::Path("p".into()),
        Some(Kind::Secs) => Value::Secs(1.5),
        Some(Kind::U32) => Value::U32(3),
        Some(Kind::U64) => Value::U64(3),
        Some(Kind::Usize) => Value::Usize(3),
        Some(Kind::Choice(choices)) => Value::Text(choices[1].name.into()),
        Some(Kind::Format) => Value::Format(Format::Json),
    }
}

/// Every option the merge reads sets its flags from a value of its kind; the others are
/// the binary's (flag only) or the file's.
#[test]
fn each_value_given_sets_the_flags() {
    for o in OPTIONS {
        match (o.flag, o.set) {
            (Some(flag), Some(set)) => {
                let mut flags = Flags::default();
                set(&mut flags, &[sample(flag.value)]);
                assert_ne!(flags, Flags::default(), "{}", o.name);
            }
            (Some(_), None) => assert_eq!(o.applies, Applies::FlagOnly, "{}", o.name),
            (None, set) => {
                assert!(set.is_none(), "{}", o.name);
                assert_eq!(o.applies, Applies::FileOnly, "{}", o.name);
            }
        }
        let flag_only = o.applies == Applies::FlagOnly;
        assert_eq!(o.key.is_none(), flag_only, "{}", o.name);
    }
}

/// The names a choice flag takes are the ones the file's key takes.
#[test]
fn choices_name_their_modes() {
    for c in CALL_CHOICES {
        assert!(call_mode(c.name).is_some(), "{}", c.name);
    }
    for c in TRANSPORT_CHOICES {
        assert!(http_kind(c.name).is_some(), "{}", c.name);
    }
    assert_eq!(one_of(CALL_CHOICES), "all, read-only or none");
    assert_eq!(one_of(TRANSPORT_CHOICES), "streamable-http or sse");
}

/// Every key of the table is one the typed file reads: set alone, it changes what the file
/// says (a key accepted and then ignored would be a silent typo of ours).
#[test]
fn every_key_is_read_by_the_file() {
    for o in OPTIONS {
        let Some(key) = o.key else { continue };
        let text = match key.section {
            Section::Server => format!("[server]\n{} = {}\n", key.name, o.example),
            Section::Run => format!("[run]\n{} = {}\n", key.name, o.example),
            Section::Tools => format!("[tools.t]\n{} = {}\n", key.name, o.example),
        };
        let config = FileConfig::parse(&text, Path::new("c.toml"))
            .unwrap_or_else(|e| panic!("{}: {e}", o.name));
        assert_ne!(config, FileConfig::default(), "{}", o.name);
    }
}

/// A key no option has is refused at its line, naming the keys there are.
#[test]
fn unknown_keys_are_refused_with_the_keys_there_are() {
    let err = FileConfig::parse("[run]\ntimout = 3\n", Path::new("c.toml"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 2, column 1"), "{err}");
    assert!(
        err.contains("unknown field `timout`, expected one of `revisions`, `timeout`,"),
        "{err}"
    );
    let err = FileConfig::parse("[tools.x]\nargs = {}\n", Path::new("c.toml")).unwrap_err();
    assert!(
        err.to_string()
            .contains("unknown field `args`, expected `arguments`"),
        "{err}"
    );
    let err = FileConfig::parse("[server]\ncomand = \"x\"\n", Path::new("c.toml")).unwrap_err();
    assert!(err.to_string().contains("`command`"), "{err}");
}

/// An option added to the table is a key the file accepts, in its section, and a line of
/// `init`'s template (the binary's test adds that it shows in `--help`).
#[test]
fn an_option_added_to_the_table_is_a_key_and_in_the_template() {
    const FROBNICATE: Opt = Opt {
        name: "frobnicate",
        flag: one("frobnicate", "N", Kind::U32),
        key: run_key("frobnicate"),
        doc: "Frobnicate N times",
        example: "3",
        note: "how many times to frobnicate",
        ..BLANK
    };
    let mut table = OPTIONS.to_vec();
    table.push(&FROBNICATE);
    let file = "[run]\nfrobnicate = 3\n";
    assert!(check_keys(file, OPTIONS).is_err());
    assert!(check_keys(file, &table).is_ok());
    assert!(accepted_keys(&table, Section::Run).contains(&"frobnicate"));
    let text = template(&table, &[]);
    let line = format!(
        "{:<32} # how many times to frobnicate\n",
        "# frobnicate = 3"
    );
    assert!(text.contains(&line), "{text}");
    assert!(!template(OPTIONS, &[]).contains("frobnicate"));
}

/// The README's options table (under "Point it at your server") has a row for every option
/// `run` takes by name, and each row's default is the table's.
#[test]
fn the_readme_options_table_is_the_tables() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let rows = readme_rows(&readme);
    assert!(rows.len() > 20, "{rows:?}");
    let mut named = BTreeSet::new();
    for (flags, default) in &rows {
        for flag in flags.split(" / ") {
            let flag = flag.trim().trim_matches('`');
            let name = flag.split(' ').next().unwrap_or_default();
            let option = OPTIONS
                .iter()
                .find(|o| spelled(o).contains(&name.to_string()))
                .unwrap_or_else(|| panic!("README row {flag:?}: no such option"));
            assert!(option.takes(Subcommand::Run), "{flag}");
            assert!(named.insert(option.name), "{flag} twice");
            assert_eq!(
                default.replace('`', ""),
                option.default,
                "README default of {flag}"
            );
        }
    }
    for o in OPTIONS {
        let by_name = o.flag.is_some_and(|f| f.long.is_some());
        if o.takes(Subcommand::Run) && by_name {
            assert!(named.contains(o.name), "README lacks --{}", o.name);
        }
    }
}

/// How the command line spells an option: `--long`, `-s`.
fn spelled(o: &Opt) -> Vec<String> {
    let Some(flag) = o.flag else {
        return Vec::new();
    };
    let long = flag.long.map(|l| format!("--{l}"));
    let short = flag.short.map(|s| format!("-{s}"));
    long.into_iter().chain(short).collect()
}

/// The README options table's rows: (first cell, last cell), `\|` kept as `|`.
fn readme_rows(readme: &str) -> Vec<(String, String)> {
    readme
        .lines()
        .skip_while(|l| !l.starts_with("| option | meaning | default |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<String> = l
                .replace("\\|", "\u{0}")
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().replace('\u{0}', "|"))
                .collect();
            (cells[0].clone(), cells[cells.len() - 1].clone())
        })
        .collect()
}
