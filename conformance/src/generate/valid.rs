//! Instances that satisfy a schema: the entry points [`valid`] and [`valid_in`], and the
//! generation context [`Cx`] that builds a strategy for a conjunction of schemas.
//!
//! A conjunction is flattened (`flat.rs`), one `anyOf` / `oneOf` branch chosen at a time,
//! and what remains is a leaf: an `enum` / `const` list, or one builder per admitted type
//! (`number.rs`, `strings.rs`, `array.rs`, `object.rs`), with `default` and `examples` sent
//! now and then. Sub-strategies are memoised per schema node, and a budget bounds the work.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use proptest::prelude::*;
use proptest::sample::select;
use serde_json::Value;

use super::filter::guard;
use super::flat::Flat;
use super::judge::{json_equal, Held, Judge, Pointers, SchemaDoc};
use super::pick::Pick;
use super::types::{Dialect, Types, Unsupported};

/// A strategy for instances that satisfy `schema` (root is the document for `$ref`
/// resolution), in the dialect its `$schema` names or, without one, in a way that both
/// draft-07 and 2020-12 accept.
pub fn valid(schema: &Value, root: &Value) -> Result<BoxedStrategy<Value>, Unsupported> {
    valid_in(schema, root, Dialect::of(root))
}

/// [`valid`] in a known dialect (what `compile_input_schema` picks for a revision).
pub fn valid_in(
    schema: &Value,
    root: &Value,
    dialect: Dialect,
) -> Result<BoxedStrategy<Value>, Unsupported> {
    valid_at(schema, root, Arc::new(root.clone()), dialect)
}

/// [`valid_in`] for the root schema of a document the caller shares (not copied).
pub fn valid_doc(
    doc: Arc<dyn SchemaDoc>,
    dialect: Dialect,
) -> Result<BoxedStrategy<Value>, Unsupported> {
    let root = doc.schema();
    valid_at(root, root, Arc::clone(&doc), dialect)
}

fn valid_at(
    schema: &Value,
    root: &Value,
    doc: Arc<dyn SchemaDoc>,
    dialect: Dialect,
) -> Result<BoxedStrategy<Value>, Unsupported> {
    super::budget::within_budget(schema, root, dialect)?;
    let cx = Cx::new(root, doc, dialect);
    let base = cx.build(&[schema], 0)?;
    let judge = cx.judge.clone();
    let schema = cx.hold(schema);
    guard(
        base,
        "generated values fail the schema",
        move |v: &Value| judge.check_held(v, &schema) == Some(true),
    )
}

/// Most `enum` / `const` values a leaf chooses among: longer lists are thinned evenly
/// ([`spread`]).
const MAX_LISTED: usize = 256;
/// Most values of one `enum` read at all (before intersecting with other lists).
const MAX_SCANNED: usize = 4096;

/// At most `n` of `values`, evenly spaced and in order (the first always kept): a fixed
/// choice, so generation stays deterministic.
pub(super) fn spread<T: Clone>(values: &[T], n: usize) -> Vec<T> {
    spread_indexes(values.len(), n)
        .map(|i| values[i].clone())
        .collect()
}

/// The indexes [`spread`] keeps of `len` values: all when they are no more than `n`, else
/// `⌊k * len / n⌋` for k in 0..n (strictly increasing).
pub(super) fn spread_indexes(len: usize, n: usize) -> impl Iterator<Item = usize> {
    let n = n.min(len);
    (0..n).map(move |k| k * len / n)
}

/// Deepest nesting of objects and arrays generated; a recursive `$ref` stops here.
pub(super) const MAX_DEPTH: usize = 6;
/// Sub-schemas compiled for one schema before giving up.
const BUDGET: usize = 20_000;

/// Keywords that say what an instance's type is when `type` does not.
pub(super) const OBJECT_WORDS: &[&str] = &[
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "dependentRequired",
    "dependencies",
];
pub(super) const ARRAY_WORDS: &[&str] = &[
    "items",
    "prefixItems",
    "additionalItems",
    "minItems",
    "maxItems",
    "uniqueItems",
];
pub(super) const STRING_WORDS: &[&str] = &["minLength", "maxLength", "pattern", "format"];
pub(super) const NUMBER_WORDS: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];

type Memo = HashMap<(Vec<usize>, usize), Result<BoxedStrategy<Value>, Unsupported>>;

/// One generation: the document, the judge, and compiled sub-strategies.
pub(super) struct Cx<'a> {
    pub(super) root: &'a Value,
    pub(super) dialect: Dialect,
    pub(super) judge: Arc<Judge>,
    memo: RefCell<Memo>,
    budget: Cell<usize>,
    /// Where each schema of `root` is, indexed on the first [`Cx::hold`].
    pointers: Arc<OnceLock<Pointers>>,
}

impl<'a> Cx<'a> {
    /// A generation over `root`, the root schema of `doc` (or an equal copy of it).
    pub(super) fn new(root: &'a Value, doc: Arc<dyn SchemaDoc>, dialect: Dialect) -> Self {
        Cx {
            root,
            dialect,
            judge: Arc::new(Judge { doc, dialect }),
            memo: RefCell::new(HashMap::new()),
            budget: Cell::new(BUDGET),
            pointers: Arc::default(),
        }
    }

    /// `schema` held for judging later: by its place in the document when it is in it.
    pub(super) fn hold(&self, schema: &Value) -> Held {
        let pointers = self.pointers.get_or_init(|| Pointers::of(self.root));
        match pointers.to(schema) {
            Some(pointer) => Held::At(pointer.to_string()),
            None => Held::Own(schema.clone()),
        }
    }

    /// A fresh context for a schema patched from this one (its own memo).
    pub(super) fn patched<'p>(&self) -> Cx<'p>
    where
        'a: 'p,
    {
        Cx {
            root: self.root,
            dialect: self.dialect,
            judge: self.judge.clone(),
            memo: RefCell::new(HashMap::new()),
            budget: Cell::new(BUDGET),
            pointers: Arc::clone(&self.pointers),
        }
    }

    /// A strategy for instances of every schema in `members`.
    pub(super) fn build(
        &self,
        members: &[&'a Value],
        depth: usize,
    ) -> Result<BoxedStrategy<Value>, Unsupported> {
        if depth > MAX_DEPTH {
            return Err(Unsupported::new(format!(
                "the schema nests deeper than {MAX_DEPTH} levels"
            )));
        }
        let key = (
            members
                .iter()
                .map(|m| *m as *const Value as usize)
                .collect(),
            depth,
        );
        if let Some(hit) = self.memo.borrow().get(&key) {
            return hit.clone();
        }
        if super::interrupt::interrupted() {
            return Err(Unsupported::new(super::interrupt::INTERRUPTED));
        }
        let left = self.budget.get();
        if left == 0 {
            return Err(Unsupported::new("the schema is too large to generate for"));
        }
        self.budget.set(left - 1);
        let result = self
            .flatten(members)
            .and_then(|flat| self.build_flat(flat, depth));
        self.memo.borrow_mut().insert(key, result.clone());
        result
    }

    fn build_flat(
        &self,
        mut flat: Flat<'a>,
        depth: usize,
    ) -> Result<BoxedStrategy<Value>, Unsupported> {
        if flat.alternatives.is_empty() {
            return self.leaf(&flat, depth);
        }
        let (one, branches) = flat.alternatives.remove(0);
        let word = if one { "oneOf" } else { "anyOf" };
        let mut options = Vec::new();
        let mut first_error = None;
        for (i, branch) in branches.iter().enumerate() {
            let mut chosen = flat.clone();
            chosen.members.push(branch);
            let built = self
                .flatten_into(&mut chosen, branch, &mut 0)
                .and_then(|()| self.build_flat(chosen, depth));
            let built = match (built, one) {
                (Ok(s), true) => {
                    // oneOf: exactly one branch may match.
                    let others: Vec<Held> = branches
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| *j != i)
                        .map(|(_, b)| self.hold(b))
                        .collect();
                    let judge = self.judge.clone();
                    guard(
                        s,
                        "the value matches more than one `oneOf` branch",
                        move |v| others.iter().all(|o| judge.check_held(v, o) == Some(false)),
                    )
                }
                (built, _) => built,
            };
            match built {
                Ok(s) => options.push(s),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        if options.is_empty() {
            let why = first_error.map_or_else(String::new, |e| e.0);
            return Err(Unsupported::new(format!(
                "no `{word}` branch can be generated: {why}"
            )));
        }
        Ok(Pick::new(options).boxed())
    }

    /// A conjunction without alternatives.
    fn leaf(&self, flat: &Flat<'a>, depth: usize) -> Result<BoxedStrategy<Value>, Unsupported> {
        let judge = &self.judge;
        let satisfies = |v: &Value| flat.members.iter().all(|m| judge.check(v, m) == Some(true));
        if let Some(listed) = listed(flat)? {
            // A huge `enum` is sampled, not scanned whole: each value is checked against
            // the schema (itself an O(n) membership test), which is quadratic in the list.
            let fit: Vec<Value> = spread(&listed, MAX_LISTED)
                .into_iter()
                .filter(|v| satisfies(v))
                .collect();
            if fit.is_empty() {
                return Err(Unsupported::new(
                    "no `enum` / `const` value satisfies the rest of the schema",
                ));
            }
            return Ok(select(fit).boxed());
        }
        let types = admitted(flat)?;
        let (mut options, first_error) = self.by_type(flat, types, depth);
        // `default` and `examples` are sent now and then, when they are valid.
        let mut known = known(flat);
        known.retain(|v| satisfies(v));
        if !known.is_empty() {
            options.push((1, select(known).boxed()));
        }
        if options.is_empty() {
            return Err(
                first_error.unwrap_or_else(|| Unsupported::new("no type can be generated for"))
            );
        }
        let strategy = Pick::new_weighted(options).boxed();
        if flat.nots.is_empty() {
            return Ok(strategy);
        }
        let nots: Vec<Held> = flat.nots.iter().map(|n| self.hold(n)).collect();
        let judge = self.judge.clone();
        guard(strategy, "`not` excludes the generated values", move |v| {
            nots.iter().all(|n| judge.check_held(v, n) == Some(false))
        })
    }

    /// One weighted builder per admitted type that can be built, and the first reason one
    /// could not.
    fn by_type(
        &self,
        flat: &Flat<'a>,
        types: Types,
        depth: usize,
    ) -> (Vec<(u32, BoxedStrategy<Value>)>, Option<Unsupported>) {
        let mut options: Vec<(u32, BoxedStrategy<Value>)> = Vec::new();
        let mut first_error: Option<Unsupported> = None;
        let mut add = |weight: u32, built: Result<BoxedStrategy<Value>, Unsupported>| match built {
            Ok(s) => options.push((weight, s)),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        };
        if types.has(Types::NULL) {
            add(1, Ok(Just(Value::Null).boxed()));
        }
        if types.has(Types::BOOLEAN) {
            add(2, Ok(any::<bool>().prop_map(Value::Bool).boxed()));
        }
        if types.has(Types::INTEGER | Types::FRACTION) {
            add(4, self.number(flat, !types.has(Types::FRACTION)));
        }
        if types.has(Types::STRING) {
            add(4, self.string(flat));
        }
        if types.has(Types::ARRAY) {
            add(3, self.array(flat, depth));
        }
        if types.has(Types::OBJECT) {
            add(3, self.object(flat, depth));
        }
        (options, first_error)
    }
}

/// enum / const: the listed values every part allows (`None` where nothing is listed),
/// before checking them against the rest of the schema.
fn listed(flat: &Flat<'_>) -> Result<Option<Vec<Value>>, Unsupported> {
    let mut listed: Option<Vec<Value>> = None;
    for p in &flat.parts {
        let mut here = Vec::new();
        if let Some(c) = p.get("const") {
            here.push(c.clone());
        }
        if let Some(e) = p.get("enum") {
            let e = e
                .as_array()
                .ok_or_else(|| Unsupported::new("`enum` is not an array"))?;
            if p.contains_key("const") {
                here.retain(|c| e.iter().any(|x| json_equal(x, c)));
            } else {
                // Thinned first: intersecting two long lists is quadratic.
                here.extend(spread(e, MAX_SCANNED));
            }
        }
        if p.contains_key("const") || p.contains_key("enum") {
            listed = Some(match listed {
                None => here,
                Some(before) => before
                    .into_iter()
                    .filter(|b| here.iter().any(|h| json_equal(b, h)))
                    .collect(),
            });
        }
    }
    Ok(listed)
}

/// The types an instance may have: what the `type`s share or, without one, what the other
/// keywords imply (any type where they imply none).
fn admitted(flat: &Flat<'_>) -> Result<Types, Unsupported> {
    let mut types = Types::ALL;
    let mut typed = false;
    for t in flat.words("type") {
        types = Types(types.0 & Types::parse(t)?.0);
        typed = true;
    }
    if !typed {
        let mut inferred = 0;
        for (words, bits) in [
            (OBJECT_WORDS, Types::OBJECT),
            (ARRAY_WORDS, Types::ARRAY),
            (STRING_WORDS, Types::STRING),
            (NUMBER_WORDS, Types::INTEGER | Types::FRACTION),
        ] {
            if flat.has_any(words) {
                inferred |= bits;
            }
        }
        if inferred != 0 {
            types = Types(inferred);
        }
    }
    if types.0 == 0 {
        return Err(Unsupported::new(
            "the combined `type`s have nothing in common",
        ));
    }
    Ok(types)
}

/// Every `default` and `examples` value, in order, valid or not.
fn known(flat: &Flat<'_>) -> Vec<Value> {
    let mut known = Vec::new();
    for p in &flat.parts {
        known.extend(p.get("default").cloned());
        if let Some(Value::Array(examples)) = p.get("examples") {
            known.extend(examples.iter().cloned());
        }
    }
    known
}
