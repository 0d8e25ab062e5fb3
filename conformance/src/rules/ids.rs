//! [`CheckId`]: a check's id, typed, expanded from the catalog's rows (`rows.rs`).
//!
//! The rule book tags each [`Breach`](super::Breach) with the check it belongs to, and the
//! scenarios name the checks a phase reports; both sit beneath the catalog's judges, so
//! the id and the facts about a check that no judge is needed for (its failure kinds,
//! whether it restates other rows, whether the live oracle reports it) are expanded here,
//! from the same rows `checks/catalog.rs` expands into [`crate::checks::CATALOG`].

use super::FailureKind::{self, *};

/// Declares [`CheckId`] from the rows; every field but `kinds`, `restates`, `live` and
/// `process` is the catalog's and is dropped unread here.
macro_rules! catalog {
    ($( $variant:ident = $id:literal {
        title: $title:expr,
        level: $level:expr,
        requirement: $requirement:expr,
        applies: $applies:expr,
        source: $source:expr,
        judge: $judge:expr,
        kinds: $kinds:expr,
        $(restates: $restates:expr,)?
        $(live: $live:expr,)?
        $(process: $process:expr,)?
    } )*) => {
        /// A check's id, typed: the only way to name a check outside the catalog's rows.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum CheckId {
            $( #[doc = $id] $variant, )*
        }

        impl CheckId {
            /// Every id, in catalog order.
            pub const ALL: &'static [CheckId] = &[$(CheckId::$variant),*];

            /// The stable kebab-case id.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(CheckId::$variant => $id,)*
                }
            }

            /// The failure kinds of the generated phases this check reports.
            pub const fn kinds(self) -> &'static [FailureKind] {
                match self {
                    $(CheckId::$variant => $kinds,)*
                }
            }

            /// Whether the check judges whole messages or generated cases by rules other
            /// rows state (the schema sweep, the property phase): a finding of it on an
            /// answer another check already failed is that check's fault seen again. A
            /// check of a rule of its own judges a fault of its own, even on the same
            /// answer (a wrong error code and a multi-line error message are two fixes).
            pub const fn restates(self) -> bool {
                match self {
                    $(CheckId::$variant => false $(|| $restates)?,)*
                }
            }

            /// Whether the live fuzz target's oracle reports this check.
            pub const fn live(self) -> bool {
                match self {
                    $(CheckId::$variant => false $(|| $live)?,)*
                }
            }

            /// Whether the rule is about a server's process (its exit when its input
            /// closes): an in-process server has none, and the check skips there.
            pub const fn needs_process(self) -> bool {
                match self {
                    $(CheckId::$variant => false $(|| $process)?,)*
                }
            }
        }
    };
}

include!("rows.rs");

impl CheckId {
    /// The id named `id`, if the catalog has it.
    pub fn parse(id: &str) -> Option<CheckId> {
        CheckId::ALL.iter().copied().find(|c| c.as_str() == id)
    }

    /// The checks the live fuzz target's oracle reports, in catalog order.
    pub fn live_checks() -> impl Iterator<Item = CheckId> {
        CheckId::ALL.iter().copied().filter(|c| c.live())
    }
}

impl std::fmt::Display for CheckId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for CheckId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}
