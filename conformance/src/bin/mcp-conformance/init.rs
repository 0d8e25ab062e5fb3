//! `init`: writes a commented `mcp-conformance.toml` in the working directory, so that a
//! project's CI step can be `mcp-conformance run` and every setting has one home. Every
//! key the config loader knows is shown, commented out at its default, beside what it
//! does (the library's template, from the options table); `init -- CMD ARGS` fills in the
//! server. It never overwrites a file without `--force` (a config file is the user's, with
//! their edits).

use std::io::Write;

use mcp_conformance::config::options::OPTIONS;
use mcp_conformance::config::{template, CONFIG_FILE};
use mcp_conformance::Error;

use crate::args::InitArgs;
use crate::exit::Exit;

/// Writes the file; `Usage` when it exists and `--force` was not given.
pub(crate) fn init(args: InitArgs) -> Exit {
    let path = args
        .output
        .unwrap_or_else(|| std::path::PathBuf::from(CONFIG_FILE));
    let text = template(OPTIONS, &args.command);
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

#[cfg(test)]
mod tests {
    use std::path::Path;

    use mcp_conformance::config::options::OPTIONS;
    use mcp_conformance::config::{
        FileConfig, DEFAULT_CASES, DEFAULT_CASES_DIR, DEFAULT_MAX_LINE, DEFAULT_SEED,
        DEFAULT_TIMEOUT_SECS,
    };

    /// What `init` writes for `command`.
    fn template(command: &[String]) -> String {
        mcp_conformance::config::template(OPTIONS, command)
    }

    /// What `init` writes must be a config file the loader reads, with and without a
    /// server, and the server it names must be the one given, quoting and all.
    #[test]
    fn the_template_parses_with_the_config_loader() {
        let empty = FileConfig::parse(&template(&[]), Path::new("mcp-conformance.toml")).unwrap();
        assert_eq!(
            empty,
            FileConfig {
                origin: Some("mcp-conformance.toml".into()),
                ..FileConfig::default()
            }
        );
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
                let mut known = OPTIONS.iter().filter_map(|o| o.key).map(|k| k.name);
                // A key line, or a table header (`[run]`, `[tools.get_weather]`).
                if l.starts_with('[') || known.any(|k| l.starts_with(&format!("{k} "))) {
                    format!("{l}\n")
                } else {
                    String::new()
                }
            })
            .collect();
        let every = FileConfig::parse(&uncommented, Path::new("mcp-conformance.toml"))
            .unwrap_or_else(|e| panic!("{e}\n{uncommented}"));
        // Every key is there, and those the merge has a constant for show it.
        for key in OPTIONS.iter().filter_map(|o| o.key) {
            let line = format!("{} = ", key.name);
            assert!(uncommented.contains(&line), "{} missing", key.name);
        }
        let run = every.run;
        assert_eq!(run.timeout, Some(DEFAULT_TIMEOUT_SECS));
        assert_eq!(run.seed, Some(DEFAULT_SEED));
        assert_eq!(run.cases, Some(DEFAULT_CASES));
        assert_eq!(run.max_line, Some(DEFAULT_MAX_LINE));
        assert_eq!(run.cases_dir, Some(DEFAULT_CASES_DIR.into()));
    }
}
