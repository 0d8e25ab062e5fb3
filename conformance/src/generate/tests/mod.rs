//! Tests of the generators, as tables per keyword family: each row is a schema and what must
//! hold. Valid instances validate with the jsonschema crate (formats asserted), invalid
//! variants fail it at their pointer and nowhere else, and what cannot be generated says
//! why.

mod arrays;
mod bounds;
mod composition;
mod determinism;
mod dialects;
mod invalid;
mod minimal;
mod numbers;
mod objects;
mod refs;
mod shape;
mod strings;
mod types;

use std::cell::Cell;

use jsonschema::Draft;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::Value;

use super::valid::Cx;
use super::{invalid_in, valid, valid_in, Dialect};

/// Instances sampled per schema.
const N: usize = 200;

/// Both drafts MCP revisions use.
const BOTH: &[Draft] = &[Draft::Draft7, Draft::Draft202012];
const DRAFT7: &[Draft] = &[Draft::Draft7];
const DRAFT2020: &[Draft] = &[Draft::Draft202012];

/// What must also hold of a row's sampled values, beyond each one validating.
type Holds = fn(&[Value]) -> bool;

/// Nothing beyond validity.
const VALID: Holds = |_| true;

/// A row of a valid-instance table: the schema, the drafts it is generated and validated
/// in, and what must also hold of the values.
type ValidRow = (Value, &'static [Draft], Holds);

fn runner(seed: u8) -> TestRunner {
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
    )
}

fn sample(strategy: &BoxedStrategy<Value>, n: usize, seed: u8) -> Vec<Value> {
    let mut runner = runner(seed);
    (0..n)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect()
}

/// The real validator, formats asserted (to prove the generated formats valid).
fn validator(schema: &Value, draft: Draft) -> jsonschema::Validator {
    jsonschema::options()
        .with_draft(draft)
        .should_validate_formats(true)
        .build(schema)
        .unwrap()
}

fn dialect(draft: Draft) -> Dialect {
    match draft {
        Draft::Draft7 => Dialect::Draft7,
        _ => Dialect::Draft202012,
    }
}

/// Generates `N` instances and asserts every one validates; returns them. Also counts
/// how often the constructed values, before the judge's last check, were invalid.
fn all_valid(schema: Value, draft: Draft) -> Vec<Value> {
    let v = validator(&schema, draft);
    let strategy = valid_in(&schema, &schema, dialect(draft))
        .unwrap_or_else(|e| panic!("{schema}: unsupported: {e}"));
    let values = sample(&strategy, N, 7);
    for value in &values {
        let errors: Vec<String> = v.iter_errors(value).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{schema}\n{value}\n{errors:?}");
    }
    // Unguarded: what construction alone produced.
    let cx = Cx::new(&schema, std::sync::Arc::new(schema.clone()), dialect(draft));
    let raw = cx.build(&[&schema], 0).unwrap();
    let bad = sample(&raw, N, 7).iter().filter(|x| !v.is_valid(x)).count();
    MISMATCHES.with(|m| {
        let (b, n) = m.get();
        m.set((b + bad, n + N));
    });
    if bad > 0 {
        eprintln!("{schema}: {bad} of {N} constructed values invalid");
    }
    assert!(
        bad * 20 <= N,
        "{schema}: {bad} of {N} constructed values invalid"
    );
    values
}

thread_local! {
    static MISMATCHES: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

fn report(family: &str) {
    let (bad, n) = MISMATCHES.with(Cell::get);
    eprintln!("{family}: {bad} of {n} constructed values invalid before the final check");
}

/// Walks a valid-instance table: every row's values validate in each of its drafts, and
/// what the row says holds of them.
fn valid_rows(family: &str, rows: Vec<ValidRow>) {
    for (schema, drafts, holds) in rows {
        for draft in drafts {
            let values = all_valid(schema.clone(), *draft);
            assert!(
                holds(&values),
                "{schema} ({draft:?}): the row's condition fails"
            );
        }
    }
    report(family);
}

/// Walks an unsupported table: each schema is refused, with a reason that mentions the
/// row's words.
fn unsupported_rows(rows: Vec<(Value, &str)>) {
    for (schema, why) in rows {
        match valid(&schema, &schema) {
            Ok(_) => panic!("{schema} was accepted"),
            Err(e) => assert!(e.0.contains(why), "{schema}: {e} does not mention {why}"),
        }
    }
}

/// Whether every error of `value` lies at or below `pointer`.
fn errors_at(v: &jsonschema::Validator, value: &Value, pointer: &str) -> Result<(), String> {
    let errors: Vec<(String, String)> = v
        .iter_errors(value)
        .map(|e| (e.instance_path().as_str().to_owned(), e.to_string()))
        .collect();
    if errors.is_empty() {
        return Err(format!("{value} is valid"));
    }
    for (path, e) in &errors {
        let inside =
            pointer.is_empty() || path == pointer || path.starts_with(&format!("{pointer}/"));
        if !inside {
            return Err(format!("{value}: error at {path}, not {pointer}: {e}"));
        }
    }
    Ok(())
}

/// The rules of `schema`'s invalid variants, each variant's instances checked to fail the
/// real validator at the variant's pointer and nowhere else.
fn invalid_rules(schema: &Value, draft: Draft) -> Vec<String> {
    let v = validator(schema, draft);
    let variants = invalid_in(schema, schema, dialect(draft)).unwrap();
    for variant in &variants {
        for value in sample(&variant.strategy, 50, 11) {
            if let Err(e) = errors_at(&v, &value, &variant.pointer) {
                panic!("{}: {e}", variant.rule);
            }
        }
    }
    variants.into_iter().map(|v| v.rule).collect()
}
