//! Which checks a run reports: `--check GLOB` / `--skip-check GLOB` (and the config
//! file's `checks` / `skip_checks`), globs over check ids.
//!
//! The conversation is the same whatever is selected (checks judge one recorded
//! exchange, and a conversation is cheap next to a server's start); only the judged
//! results are kept or left out. A pattern that matches no check id is an error with the
//! nearest id: a typo must not quietly select nothing, or everything.

use crate::checks::CATALOG;
use crate::errors::{Error, Result};

/// Globs over check ids: a check is reported when it matches some `only` pattern (or
/// `only` is empty) and no `skip` pattern.
#[derive(Debug, Clone, Default)]
pub struct CheckSelection {
    only: Vec<glob::Pattern>,
    skip: Vec<glob::Pattern>,
}

impl CheckSelection {
    /// Every check.
    pub fn all() -> Self {
        Self::default()
    }

    /// Parses both lists; each pattern must parse and match at least one check id.
    pub fn new(only: &[String], skip: &[String]) -> Result<Self> {
        Ok(Self {
            only: patterns(only)?,
            skip: patterns(skip)?,
        })
    }

    /// Whether no pattern was given.
    pub fn is_all(&self) -> bool {
        self.only.is_empty() && self.skip.is_empty()
    }

    /// Whether the check `id` is reported.
    pub fn selects(&self, id: &str) -> bool {
        (self.only.is_empty() || self.only.iter().any(|p| p.matches(id)))
            && !self.skip.iter().any(|p| p.matches(id))
    }
}

fn patterns(list: &[String]) -> Result<Vec<glob::Pattern>> {
    list.iter()
        .map(|text| {
            let pattern = glob::Pattern::new(text)
                .map_err(|e| Error::BadGlob(text.clone(), e.to_string()))?;
            if CATALOG.iter().any(|c| pattern.matches(c.id.as_str())) {
                Ok(pattern)
            } else {
                Err(Error::UnknownCheck(crate::suggest::unknown_check(text)))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_select_and_skip_and_a_pattern_matching_nothing_is_an_error() {
        let s = CheckSelection::new(&["tool-*".into()], &["tool-name-*".into()]).unwrap();
        assert!(s.selects("tool-inputschema-type"));
        assert!(!s.selects("tool-name-charset"));
        assert!(!s.selects("lc-init-result"));
        assert!(CheckSelection::all().selects("lc-init-result"));
        let err = CheckSelection::new(&["lc-inti-result".into()], &[])
            .unwrap_err()
            .to_string();
        assert!(err.contains("did you mean `lc-init-result`?"), "{err}");
        let err = CheckSelection::new(&[], &["nope-*".into()])
            .unwrap_err()
            .to_string();
        assert!(err.contains("no check id matches `nope-*`"), "{err}");
    }
}
