//! The keys the config file accepts, from the options table: `[server]`, `[run]` and each
//! `[tools.NAME]` take the keys of the options in that section, and nothing else. A typo
//! must not be ignored, so a key no option has is an error at its line, naming the keys
//! there are (in serde's words, as the file's other errors).
//!
//! The typed sections read the values; this walk only checks the keys, which is why it
//! runs after them, on a file already known to be well formed.

use std::fmt;

use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, Visitor};

use super::options::{Opt, Section};

/// The keys `options` give `section`, in table order.
pub fn accepted_keys(options: &[&Opt], section: Section) -> Vec<&'static str> {
    options
        .iter()
        .filter_map(|o| o.key)
        .filter(|k| k.section == section)
        .map(|k| k.name)
        .collect()
}

/// Checks that every key of `text`'s `[server]`, `[run]` and `[tools.NAME]` tables is one
/// of `options`' (other top-level keys are the typed file's to refuse).
pub fn check_keys(text: &str, options: &[&Opt]) -> Result<(), toml::de::Error> {
    Document(options).deserialize(toml::Deserializer::parse(text)?)
}

/// serde's message for a field a struct does not have.
fn unknown(key: &str, expected: &[&str]) -> String {
    let quoted: Vec<String> = expected.iter().map(|k| format!("`{k}`")).collect();
    match quoted.as_slice() {
        [] => format!("unknown field `{key}`, there are no fields"),
        [one] => format!("unknown field `{key}`, expected {one}"),
        [a, b] => format!("unknown field `{key}`, expected {a} or {b}"),
        many => format!("unknown field `{key}`, expected one of {}", many.join(", ")),
    }
}

/// The whole file.
struct Document<'a>(&'a [&'a Opt]);

impl<'de> DeserializeSeed<'de> for Document<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Document<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a config file")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(name) = map.next_key::<String>()? {
            let keys = |section| accepted_keys(self.0, section);
            match name.as_str() {
                "server" => map.next_value_seed(Table(keys(Section::Server)))?,
                "run" => map.next_value_seed(Table(keys(Section::Run)))?,
                "tools" => map.next_value_seed(PerTool(keys(Section::Tools)))?,
                _ => map.next_value::<IgnoredAny>().map(drop)?,
            }
        }
        Ok(())
    }
}

/// `[tools]`: a table per tool, each with these keys.
struct PerTool(Vec<&'static str>);

impl<'de> DeserializeSeed<'de> for PerTool {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for PerTool {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a table per tool")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map.next_key::<IgnoredAny>()?.is_some() {
            map.next_value_seed(Table(self.0.clone()))?;
        }
        Ok(())
    }
}

/// One table and the keys it takes.
struct Table(Vec<&'static str>);

impl<'de> DeserializeSeed<'de> for Table {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Table {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a table")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map.next_key_seed(KeyOf(&self.0))?.is_some() {
            map.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
}

/// A key, which must be one of these.
struct KeyOf<'a>(&'a [&'static str]);

impl<'de> DeserializeSeed<'de> for KeyOf<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyOf<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<(), E> {
        if self.0.contains(&key) {
            Ok(())
        } else {
            Err(E::custom(unknown(key, self.0)))
        }
    }
}
