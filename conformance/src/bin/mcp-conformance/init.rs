//! `init`: writes a commented `mcp-conformance.toml` in the working directory, so that a
//! project's CI step can be `mcp-conformance run` and every setting has one home. Every
//! key the config loader knows is shown, commented out at its default, beside what it
//! does; `init -- CMD ARGS` fills in the server. It never overwrites a file without
//! `--force` (a config file is the user's, with their edits).

use std::io::Write;

use mcp_conformance::config::{
    CONFIG_FILE, DEFAULT_CASES, DEFAULT_CASES_DIR, DEFAULT_MAX_LINE, DEFAULT_SEED,
    DEFAULT_TIMEOUT_SECS,
};
use mcp_conformance::Error;

use crate::args::InitArgs;
use crate::exit::Exit;

/// Writes the file; `Usage` when it exists and `--force` was not given.
pub(crate) fn init(args: InitArgs) -> Exit {
    let path = args
        .output
        .unwrap_or_else(|| std::path::PathBuf::from(CONFIG_FILE));
    let text = template(&args.command);
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    if args.force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    let written = options
        .open(&path)
        .and_then(|mut file| file.write_all(text.as_bytes()));
    match written {
        Ok(()) => {
            eprintln!(
                "mcp-conformance: wrote {}; {}then `mcp-conformance run`",
                path.display(),
                if args.command.is_empty() {
                    "name your server under [server], "
                } else {
                    ""
                }
            );
            Exit::Pass
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            eprintln!(
                "mcp-conformance: {} already exists; --force overwrites it",
                path.display()
            );
            Exit::Usage
        }
        Err(source) => Exit::Setup(Error::WriteReport { path, source }),
    }
}

/// A TOML string literal.
fn quoted(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// The file's text: `[server]` from `command` (commented out when empty), every `[run]`
/// key commented out at its default.
pub(crate) fn template(command: &[String]) -> String {
    let server = match command.split_first() {
        Some((program, args)) => format!(
            "[server]\ncommand = {}\nargs = [{}]\n# env = {{ LOG_LEVEL = \"debug\" }}\n# cwd = \".\"                  # relative to this file\n",
            quoted(program),
            args.iter().map(|a| quoted(a)).collect::<Vec<_>>().join(", ")
        ),
        None => "# Without a [server], `run` tests the bundled reference server (and says so).\n\
                 # [server]\n\
                 # command = \"python\"\n\
                 # args = [\"server.py\"]\n\
                 # env = { LOG_LEVEL = \"debug\" }\n\
                 # cwd = \".\"                  # relative to this file\n"
            .to_string(),
    };
    format!(
        "# mcp-conformance configuration: `mcp-conformance run` (and `fuzz`, `replay`) read\n\
         # it from the working directory. Flags override it value by value; paths are\n\
         # relative to this file.\n\
         \n\
         # The server to test over stdio (a command and its arguments). Over Streamable\n\
         # HTTP, set url (the command, if any, starts the server and is stopped at the end).\n\
         {server}\
         # url = \"http://127.0.0.1:8931/mcp\"\n\
         # headers = {{ Authorization = \"Bearer ...\" }}   # values never reported\n\
         \n\
         [run]\n\
         # revisions = [\"2025-06-18\", \"2025-11-25\"]   # default: every revision\n\
         # timeout = {DEFAULT_TIMEOUT_SECS:?}                 # seconds to wait for each response\n\
         # seed = {DEFAULT_SEED}                       # generated scenarios (printed in every report)\n\
         # cases = {DEFAULT_CASES}                     # generated cases per property; 0 skips them\n\
         # cases_dir = \"{DEFAULT_CASES_DIR}\"   # failing generated cases, for `replay`\n\
         # time_budget = 60.0             # seconds of generated cases per revision (default: none)\n\
         # jobs = 2                       # revisions driven at once (default: the number of cores)\n\
         # max_time = 600.0               # bound on the whole run, in seconds (default: none)\n\
         # max_line = {DEFAULT_MAX_LINE}            # longest stdout line accepted, in bytes\n\
         # call = \"all\"                  # which tools to call: all | read-only | none\n\
         # allow_tool = [\"get_*\"]        # call only tools matching these globs\n\
         # deny_tool = [\"delete_*\"]      # never call these\n\
         # checks = [\"tool-*\"]           # report only these checks (globs over ids)\n\
         # skip_checks = [\"tool-name-*\"]  # leave these out\n\
         # baseline = \"mcp-baseline.toml\"   # expected failures (`run --write-baseline FILE`)\n\
         # strict = false                # warnings fail the run too\n\
         # strict_baseline = false       # stale baseline entries fail the run too\n\
         # formats = [\"text\", \"junit\", \"sarif\"]\n\
         # output_dir = \"target/mcp-conformance\"\n\
         \n\
         # Arguments for a tool's first call, for tools that reject generated inputs.\n\
         # [tools.get_weather]\n\
         # arguments = {{ city = \"Paris\" }}\n"
    )
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use mcp_conformance::config::FileConfig;

    use super::template;

    /// What `init` writes must be a config file the loader reads, with and without a
    /// server, and the server it names must be the one given, quoting and all.
    #[test]
    fn the_template_parses_with_the_config_loader() {
        let empty = FileConfig::parse(&template(&[]), Path::new("mcp-conformance.toml")).unwrap();
        assert_eq!(empty, FileConfig::default());
        let command = ["python".to_string(), "my \"server\".py".to_string()];
        let named =
            FileConfig::parse(&template(&command), Path::new("x/mcp-conformance.toml")).unwrap();
        let server = named.server.unwrap();
        assert_eq!(server.command, "python");
        assert_eq!(server.args, vec!["my \"server\".py".to_string()]);
        // Every commented-out key is a real one: uncommented, the file still parses.
        let uncommented: String = template(&command)
            .lines()
            .map(|l| {
                let l = l.strip_prefix("# ").unwrap_or(l);
                let known = [
                    "env",
                    "cwd",
                    "url",
                    "headers",
                    "revisions",
                    "timeout",
                    "seed",
                    "cases",
                    "cases_dir",
                    "time_budget",
                    "jobs",
                    "max_time",
                    "max_line",
                    "call",
                    "allow_tool",
                    "deny_tool",
                    "checks",
                    "skip_checks",
                    "baseline",
                    "strict",
                    "strict_baseline",
                    "formats",
                    "output_dir",
                    "arguments",
                ];
                // A key line, or a table header (`[run]`, `[tools.get_weather]`).
                if l.starts_with('[') || known.iter().any(|k| l.starts_with(&format!("{k} "))) {
                    format!("{l}\n")
                } else {
                    String::new()
                }
            })
            .collect();
        FileConfig::parse(&uncommented, Path::new("mcp-conformance.toml"))
            .unwrap_or_else(|e| panic!("{e}\n{uncommented}"));
    }
}
