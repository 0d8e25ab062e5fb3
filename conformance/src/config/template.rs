//! The config file `init` writes, from the options table: every key of every section,
//! commented out at its example value beside what it does, so that the file shows all a
//! project can set. `[server]`'s `command` and `args` are filled in from the command `init`
//! was given, when it was.

use super::options::{Opt, Section, ARGS, COMMAND};

/// What the file says first.
const PREFACE: &str = "\
# mcp-conformance configuration: `mcp-conformance run` (and `fuzz`, `replay`) read
# it from the working directory. Flags override it value by value; paths are
# relative to this file.

# The server to test over stdio (a command and its arguments). Over Streamable
# HTTP, set url (the command, if any, starts the server and is stopped at the end).
";

/// Before `[tools.NAME]`'s keys.
const TOOLS: &str = "
# Arguments for a tool's first call, for tools that reject generated inputs.
# [tools.get_weather]
";

/// The column the notes start at, for keys short enough.
const NOTE_COLUMN: usize = 32;

/// The file's text: `[server]` from `command` (commented out when empty), then every key
/// of `options`, section by section, commented out.
pub fn template(options: &[&Opt], command: &[String]) -> String {
    let mut out = String::from(PREFACE);
    match command.split_first() {
        Some((program, args)) => {
            let args: Vec<String> = args.iter().map(|a| quoted(a)).collect();
            out.push_str("[server]\n");
            out.push_str(&format!("command = {}\n", quoted(program)));
            out.push_str(&format!("args = [{}]\n", args.join(", ")));
        }
        None => {
            out.push_str(
                "# Without a [server], `run` tests the bundled reference server (and says so).\n\
                 # [server]\n",
            );
            out.push_str(&commented(&COMMAND));
            out.push_str(&commented(&ARGS));
        }
    }
    let filled = |o: &&&Opt| o.name != COMMAND.name && o.name != ARGS.name;
    for option in in_section(options, Section::Server).filter(filled) {
        out.push_str(&commented(option));
    }
    out.push_str("\n[run]\n");
    for option in in_section(options, Section::Run) {
        out.push_str(&commented(option));
    }
    out.push_str(TOOLS);
    for option in in_section(options, Section::Tools) {
        out.push_str(&commented(option));
    }
    out
}

/// The options with a key in `section`, in table order.
fn in_section<'a>(options: &'a [&'a Opt], section: Section) -> impl Iterator<Item = &'a &'a Opt> {
    options
        .iter()
        .filter(move |o| o.key.is_some_and(|k| k.section == section))
}

/// `# key = example   # note`.
fn commented(option: &Opt) -> String {
    let Some(key) = option.key else {
        return String::new();
    };
    let line = format!("# {} = {}", key.name, option.example);
    match option.note {
        "" => format!("{line}\n"),
        note if line.len() < NOTE_COLUMN => format!("{line:<NOTE_COLUMN$} # {note}\n"),
        note => format!("{line}   # {note}\n"),
    }
}

/// A TOML string literal.
fn quoted(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}
