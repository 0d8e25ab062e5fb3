//! The library's options table ([`OPTIONS`]) as clap arguments: each option a subcommand
//! takes becomes an argument built from its item (flag, value name and kind, help line,
//! default, conflicts), and clap's matches come back as the item's values, which set the
//! library's [`Flags`]. No option is spelt out here; `args` places the table's options
//! among a subcommand's own ([`Given`] of a [`Part`]).

use std::marker::PhantomData;
use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{value_parser, Arg, ArgAction, ArgMatches, Command};
use mcp_conformance::config::options::{Group, Kind, Opt, Subcommand, Value, OPTIONS};
use mcp_conformance::config::Flags;
use mcp_conformance::report::Format;

/// Which of the table's options one clap `Args` holds: those `COMMAND` takes, of `GROUPS`
/// (a subcommand whose own options stand between the groups holds them in two parts).
pub(crate) trait Part {
    /// The subcommand.
    const COMMAND: Subcommand;
    /// The groups, in the table's order.
    const GROUPS: &'static [Group];
}

/// The options of a [`Part`] as the command line gave them.
pub(crate) struct Given<P> {
    values: Vec<(&'static Opt, Vec<Value>)>,
    part: PhantomData<P>,
}

impl<P> Given<P> {
    /// Sets `flags` from every option given that the merge reads.
    pub(crate) fn apply(&self, flags: &mut Flags) {
        for (option, values) in &self.values {
            if let (Some(set), false) = (option.set, values.is_empty()) {
                set(flags, values);
            }
        }
    }

    /// The same values as the options of another part (`replay` of a corpus entry runs
    /// it as `fuzz --input` would, with the flags `replay` was given).
    pub(crate) fn recast<Q>(self) -> Given<Q> {
        Given {
            values: self.values,
            part: PhantomData,
        }
    }

    /// [`Given::apply`] on empty flags.
    pub(crate) fn flags(&self) -> Flags {
        let mut flags = Flags::default();
        self.apply(&mut flags);
        flags
    }

    /// The values given `option` (its default's, when it has one and was not given).
    fn values(&self, option: &Opt) -> &[Value] {
        self.values
            .iter()
            .find(|(o, _)| o.name == option.name)
            .map_or(&[], |(_, values)| values.as_slice())
    }

    /// Whether the switch `option` was given.
    pub(crate) fn on(&self, option: &Opt) -> bool {
        self.values(option).contains(&Value::On)
    }

    /// The path given `option`.
    pub(crate) fn path(&self, option: &Opt) -> Option<PathBuf> {
        self.values(option).iter().rev().find_map(|v| match v {
            Value::Path(p) => Some(p.clone()),
            _ => None,
        })
    }

    /// The text (or choice) given `option`.
    pub(crate) fn text(&self, option: &Opt) -> Option<&str> {
        self.values(option).iter().rev().find_map(|v| match v {
            Value::Text(t) => Some(t.as_str()),
            _ => None,
        })
    }
}

impl<P: Part> clap::FromArgMatches for Given<P> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let values = part(OPTIONS, P::COMMAND, P::GROUPS)
            .map(|option| (option, read(matches, option)))
            .collect();
        Ok(Self {
            values,
            part: PhantomData,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl<P: Part> clap::Args for Given<P> {
    fn augment_args(command: Command) -> Command {
        augment(command, OPTIONS, P::COMMAND, P::GROUPS)
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

/// The options of `options` that `command` takes, of `groups`, in table order.
fn part<'a, 'o: 'a>(
    options: &'a [&'o Opt],
    command: Subcommand,
    groups: &'a [Group],
) -> impl Iterator<Item = &'o Opt> + 'a {
    options
        .iter()
        .copied()
        .filter(move |o| o.takes(command) && groups.contains(&o.group))
}

/// `clap_command` with an argument for each option of `options` that `command` takes, of
/// `groups`, in table order.
pub(crate) fn augment(
    clap_command: Command,
    options: &[&Opt],
    command: Subcommand,
    groups: &[Group],
) -> Command {
    part(options, command, groups).fold(clap_command, |c, option| c.arg(argument(option, command)))
}

/// The clap argument of `option` in `command`, as clap's derive would build it.
fn argument(option: &Opt, command: Subcommand) -> Arg {
    let flag = option.flag.expect("an option the command line takes");
    let mut arg = Arg::new(option.name).help(option.help(command));
    arg = match flag.long {
        Some(long) => arg.long(long),
        None => arg.last(true).num_args(1..),
    };
    if let Some(short) = flag.short {
        arg = arg.short(short);
    }
    arg = match flag.value {
        None => arg.action(ArgAction::SetTrue),
        Some((name, kind)) => with_kind(arg.value_name(name), kind).action(if flag.repeatable {
            ArgAction::Append
        } else {
            ArgAction::Set
        }),
    };
    if let Some(default) = option.flag_default() {
        arg = arg.default_value(default);
    }
    arg.conflicts_with_all(option.conflicts)
}

/// `arg` parsing values of `kind`.
fn with_kind(arg: Arg, kind: Kind) -> Arg {
    match kind {
        Kind::Text => arg.value_parser(value_parser!(String)),
        Kind::Path => arg.value_parser(value_parser!(PathBuf)),
        Kind::Secs => arg.value_parser(value_parser!(f64)),
        Kind::U32 => arg.value_parser(value_parser!(u32)),
        Kind::U64 => arg.value_parser(value_parser!(u64)),
        Kind::Usize => arg.value_parser(value_parser!(usize)),
        Kind::Format => arg.value_parser(value_parser!(Format)),
        Kind::Choice(choices) => arg.value_parser(PossibleValuesParser::new(
            choices
                .iter()
                .map(|c| PossibleValue::new(c.name).help(c.doc)),
        )),
    }
}

/// The values clap matched for `option` (its default's, when it has one).
fn read(matches: &ArgMatches, option: &Opt) -> Vec<Value> {
    let Some(flag) = option.flag else {
        return Vec::new();
    };
    let id = option.name;
    let Some((_, kind)) = flag.value else {
        return if matches.get_flag(id) {
            vec![Value::On]
        } else {
            Vec::new()
        };
    };
    match kind {
        Kind::Text | Kind::Choice(_) => all(matches, id, Value::Text),
        Kind::Path => all(matches, id, Value::Path),
        Kind::Secs => all(matches, id, Value::Secs),
        Kind::U32 => all(matches, id, Value::U32),
        Kind::U64 => all(matches, id, Value::U64),
        Kind::Usize => all(matches, id, Value::Usize),
        Kind::Format => all(matches, id, Value::Format),
    }
}

/// Every value of `id`, as clap parsed it.
fn all<T: Clone + Send + Sync + 'static>(
    matches: &ArgMatches,
    id: &str,
    value: fn(T) -> Value,
) -> Vec<Value> {
    let values = matches.get_many::<T>(id).into_iter().flatten();
    values.cloned().map(value).collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use mcp_conformance::config::options::{
        Flag, HelpDefault, Key, Section, BLANK, COLOR, VERBOSE,
    };
    use mcp_conformance::config::{check_keys, template, FileConfig};
    use mcp_conformance::scenarios::CallMode;

    use super::*;

    /// Adding one item to the table is all an option takes to show in `--help`, to be parsed
    /// from the command line, to be a key the config file accepts and a line of `init`'s
    /// template.
    #[test]
    fn an_option_added_to_the_table_is_in_help_the_file_and_the_template() {
        const FROBNICATE: Opt = Opt {
            name: "frobnicate",
            flag: Some(Flag {
                long: Some("frobnicate"),
                short: None,
                value: Some(("N", Kind::U32)),
                repeatable: false,
            }),
            key: Some(Key {
                section: Section::Run,
                name: "frobnicate",
            }),
            default: "1",
            doc: "Frobnicate N times",
            help_default: HelpDefault::Appended,
            example: "3",
            note: "how many times to frobnicate",
            ..BLANK
        };
        let mut table = OPTIONS.to_vec();
        table.push(&FROBNICATE);
        let groups = [Group::Run, Group::Tools, Group::Server];
        let mut run = augment(Command::new("run"), &table, Subcommand::Run, &groups);
        let help = run.render_help().to_string();
        assert!(
            help.contains("--frobnicate <N>") && help.contains("Frobnicate N times [default: 1]"),
            "{help}"
        );
        let matches = run
            .try_get_matches_from(["run", "--frobnicate", "3"])
            .unwrap();
        assert_eq!(read(&matches, &FROBNICATE), vec![Value::U32(3)]);
        // Not in `run` without the item.
        let run = augment(Command::new("run"), OPTIONS, Subcommand::Run, &groups);
        assert!(run
            .try_get_matches_from(["run", "--frobnicate", "3"])
            .is_err());

        let file = "[run]\nfrobnicate = 3\n";
        assert!(check_keys(file, &table).is_ok() && check_keys(file, OPTIONS).is_err());
        let text = template(&table, &[]);
        assert!(text.contains("# frobnicate = 3 "), "{text}");
        let config = Path::new("mcp-conformance.toml");
        assert!(FileConfig::parse(&template(OPTIONS, &[]), config).is_ok());
    }

    /// Each option's argument reads back the values given (a switch, a repeated flag, a
    /// choice, a default, the command after `--`).
    #[test]
    fn arguments_read_back_what_was_given() {
        let groups = [Group::Run, Group::Tools, Group::Server];
        let run = augment(Command::new("run"), OPTIONS, Subcommand::Run, &groups);
        let matches = run
            .try_get_matches_from([
                "run",
                "--strict",
                "--revision",
                "a",
                "--revision",
                "b",
                "--call",
                "none",
                "--format",
                "json",
                "--",
                "srv",
                "--x",
            ])
            .unwrap();
        let given: Given<()> = Given {
            values: part(OPTIONS, Subcommand::Run, &groups)
                .map(|o| (o, read(&matches, o)))
                .collect(),
            part: PhantomData,
        };
        let flags = given.flags();
        assert!(flags.strict);
        assert_eq!(flags.revisions, ["a", "b"]);
        assert_eq!(flags.call, Some(CallMode::None));
        assert_eq!(flags.formats, [Format::Json]);
        assert_eq!(flags.command, ["srv", "--x"]);
        assert_eq!(given.text(&COLOR), Some("auto"));
        assert!(!given.on(&VERBOSE));
    }
}
