//! Instances of a JSON Schema: valid ones, a minimal one, one-rule-broken ones, and the
//! fuzzer's byte-driven ones. Nothing here is about MCP.
//!
//! Tool arguments are the one place the suite must invent data, and it invents it three
//! ways: the scripted tools scenario sends one [`minimal_instance`]; the property phase
//! explores with proptest strategies for [`valid()`] instances and [`invalid()`] variants that
//! break one rule each; the live fuzz target compiles a schema once into a [`Shape`] and
//! builds values from fuzzer bytes (`bytes.rs`). They share one `$ref` resolver
//! (`pointer.rs`) and live together so that a keyword is taught to the generators in one
//! place (jsonschema-rs: a file per keyword family).
//!
//! Honesty comes first: we never send data as "valid" that is not. Values are constructed to
//! satisfy the schema, and every value passes a three-valued judge of our own before it
//! leaves (`judge.rs`): "surely valid", "surely invalid", or "validators may disagree" (a
//! `maxLength` counted in UTF-16 units by a JavaScript server, a fractional `multipleOf`
//! checked in binary floating point, a `$ref` sibling that draft-07 ignores). Only "surely"
//! counts. A keyword we cannot honour, or a combination that leaves too few values, is an
//! [`Unsupported`] with the reason, and the caller skips the call.
//!
//! The property-based strategies cover what real tool schemas use: `type` (and unions),
//! `properties` / `required` / `additionalProperties` / `patternProperties`, `enum` /
//! `const` / `default` / `examples`, string lengths, `pattern` and the common `format`s,
//! number bounds and `multipleOf`, arrays (`items`, `prefixItems`, `minItems`, `maxItems`,
//! `uniqueItems`), local `$ref` into `$defs` / `definitions`, and `anyOf` / `oneOf` /
//! `allOf` / `not`.
//!
//! Size is bounded: a schema whose smallest instance is over [`MAX_INSTANCE_BYTES`] or
//! [`MAX_INSTANCE_NODES`] is an [`Unsupported`] with the sizes (`budget.rs`), so a hostile
//! or careless schema (`minItems: 1000000`) costs a skip, not gigabytes.
//!
//! Determinism is part of the contract: the same seed (or the same bytes) gives the same
//! values, byte for byte, so reports and replayed cases stay reproducible.

mod array;
mod budget;
mod bytes;
mod decimal;
mod filter;
mod flat;
mod interrupt;
mod invalid;
mod judge;
mod minimal;
mod number;
mod object;
mod pattern;
mod pick;
mod pointer;
mod shape;
mod shrink;
mod strings;
mod types;
mod valid;

#[cfg(test)]
mod tests;

pub use budget::{MAX_INSTANCE_BYTES, MAX_INSTANCE_NODES};
pub(crate) use bytes::{Choices, WIDE_FROM};
pub use interrupt::{within as within_interrupt, Interrupt, INTERRUPTED};
pub use invalid::{
    invalid, invalid_doc, invalid_in, Invalids, INVALID_PLAN_VALUES, PROBES_PER_VARIANT,
};
pub use judge::{surely_valid, SchemaDoc};
pub use minimal::minimal_instance;
pub use shape::{Compiled, Format, Shape};
pub(crate) use shape::{SAFE_INTEGER, UNBOUNDED};
pub use shrink::{shrink, Shrunk};
pub use types::{Dialect, InvalidVariant, Unsupported};
pub use valid::{valid, valid_doc, valid_in};
