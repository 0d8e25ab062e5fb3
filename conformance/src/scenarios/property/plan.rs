//! The property phase's plan: which properties run, with how many cases each, built before
//! any case is sent.
//!
//! Tools share a per-revision budget of generated calls ([`TOOL_CASE_BUDGET`]), so a
//! listing of 100,000 tools costs thousands of calls, not millions. The split is
//! deterministic: the callable tools in listing order share the budget evenly, each keeping
//! at least one call with valid arguments, and a note says what was cut. Building a tool's
//! strategies is bounded by the generators' size budget; the plan yields to the runtime
//! between tools, so a signal is seen while a long listing is planned.

use std::cell::RefCell;
use std::sync::Arc;

use proptest::strategy::BoxedStrategy;
use proptest::test_runner::TestRunner;
use serde_json::Value;

use super::env::Probe;
use super::seeds::{cursor_strategy, id_strategy, method_strategy, runner_for};
use super::PropertyRun;
use crate::generate as strategy;
use crate::records::PropertyRecord;
use crate::records::ToolDef;

/// Generated tool calls per revision, shared by all tools (valid and invalid arguments).
/// The default plan of a tool is `--cases` valid calls and a quarter as many per broken
/// rule; a listing whose plans add up to more is scaled down to fit.
pub const TOOL_CASE_BUDGET: u32 = 4096;

/// One property: its cases are drawn from `strategy` by `runner`, `done` of `n` so far.
pub(super) struct Item {
    pub(super) label: String,
    pub(super) probe: Probe,
    pub(super) strategy: BoxedStrategy<Value>,
    pub(super) n: u32,
    pub(super) done: u32,
    pub(super) runner: TestRunner,
}

impl Item {
    fn new(seed: u64, probe: Probe, strategy: BoxedStrategy<Value>, n: u32) -> Self {
        let label = probe.label();
        let runner = runner_for(seed, &label, n);
        Item {
            label,
            probe,
            strategy,
            n,
            done: 0,
            runner,
        }
    }

    /// Cases not run yet.
    pub(super) fn left(&self) -> u32 {
        self.n - self.done
    }
}

/// Tool argument strategies built once per run. Most servers list the same tools in every
/// revision, and building a tool's strategies (each filter probed with 64 draws) is the
/// largest cost of a fast server's run: a revision whose tool has the inputSchema another
/// revision built for, in the same dialect, takes that one's. Strategies do not depend on
/// the seed (each property's runner does), so the cases and the report are the same.
/// Bounded as the tools are: `MAX_CALLED_TOOLS` (`scenarios/tools.rs`) per revision.
#[derive(Default)]
pub struct PlanCache {
    built: RefCell<Vec<Built>>,
}

/// A tool's strategies, with the schema and dialect they were built for.
struct Built {
    name: String,
    dialect: strategy::Dialect,
    /// The share of [`strategy::INVALID_PLAN_VALUES`] the invalid variants were built with.
    plan_values: usize,
    tool: ToolDef,
    valid: Result<BoxedStrategy<Value>, strategy::Unsupported>,
    invalid: Result<strategy::Invalids, strategy::Unsupported>,
}

/// Most entries a cache keeps: every callable tool of two dialects, twice over (a server
/// listing other tools in other revisions).
const MAX_CACHED: usize = 4 * crate::scenarios::tools::MAX_CALLED_TOOLS;

impl PlanCache {
    /// The strategies for `tool` in `dialect` with `plan_values`, built by `build` unless
    /// an equal inputSchema was built for already so.
    fn get_or_build(
        &self,
        name: &str,
        (dialect, plan_values): (strategy::Dialect, usize),
        tool: &ToolDef,
        build: impl FnOnce() -> Built,
    ) -> (
        Result<BoxedStrategy<Value>, strategy::Unsupported>,
        Result<strategy::Invalids, strategy::Unsupported>,
    ) {
        let found = self.built.borrow().iter().find_map(|b| {
            (b.name == name
                && b.dialect == dialect
                && b.plan_values == plan_values
                && b.tool["inputSchema"] == tool["inputSchema"])
                .then(|| (b.valid.clone(), b.invalid.clone()))
        });
        if let Some(found) = found {
            return found;
        }
        let built = build();
        let out = (built.valid.clone(), built.invalid.clone());
        let gave_up =
            |r: Result<(), &strategy::Unsupported>| r.is_err_and(|e| e.0 == strategy::INTERRUPTED);
        let interrupted = gave_up(built.valid.as_ref().map(|_| ()))
            || gave_up(built.invalid.as_ref().map(|_| ()));
        let mut cache = self.built.borrow_mut();
        // What an interrupt cut short is no strategy to keep.
        if cache.len() < MAX_CACHED && !interrupted {
            cache.push(built);
        }
        out
    }
}

/// A callable tool and its argument properties, before the budget is applied.
struct ToolPlan {
    valid: Option<Item>,
    invalid: Vec<Item>,
}

impl PropertyRun<'_> {
    /// The properties in order: ids, methods, cursors, then each callable tool's valid and
    /// invalid arguments. Notes say which tools got no cases, or fewer, and why.
    pub(super) async fn plan(&self, record: &mut PropertyRecord) -> Vec<Item> {
        let cases = self.config.cases.max(1);
        let mut items = vec![
            Item::new(self.seed, Probe::Id, id_strategy(), cases),
            Item::new(self.seed, Probe::Method, method_strategy(), cases),
        ];
        if self.tools {
            items.push(Item::new(
                self.seed,
                Probe::Cursor,
                cursor_strategy(),
                cases,
            ));
        }
        let callable = self.callable(record);
        let budget = self.config.tool_case_budget.max(1);
        let total = callable.len();
        let kept = total.min(budget as usize);
        if kept < total {
            record.notes.push(format!(
                "case budget: {budget} generated tool calls per revision; only the first {kept} of {total} callable tools got generated cases (one each), the other {} none",
                total - kept
            ));
        }
        let share = u32::try_from(kept).map_or(1, |k| (budget / k.max(1)).max(1));
        // Building invalid variants draws whole instances: the tools share that budget too.
        let plan_values = strategy::INVALID_PLAN_VALUES / kept.max(1);
        let mut scaled = 0;
        for tool in callable.into_iter().take(kept) {
            // Building is bounded (the generators' size budget), but a listing may be long:
            // let the runtime run its other tasks (signals) between tools.
            tokio::task::yield_now().await;
            let plan = self.tool_plan(tool, cases, plan_values, record);
            let full = plan.valid.as_ref().map_or(0, |v| v.n)
                + plan.invalid.iter().map(|i| i.n).sum::<u32>();
            if full > share {
                scaled += 1;
            }
            items.extend(fit(plan, share));
        }
        if scaled > 0 {
            record.notes.push(format!(
                "case budget: {scaled} tool(s) got fewer generated cases than --cases asks, {share} each, so that {kept} tool(s) share {budget} generated calls per revision"
            ));
        }
        items
    }

    /// The tools generated arguments are sent to, with their inputSchema (first listing of
    /// each name; notes for the others).
    fn callable(&self, record: &mut PropertyRecord) -> Vec<ToolDef> {
        let mut seen: Vec<String> = Vec::new();
        let mut out = Vec::new();
        for tool in ToolDef::listed(self.pages) {
            let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
            if seen.iter().any(|s| s == name) {
                continue;
            }
            seen.push(name.to_string());
            if seen.len() > crate::scenarios::tools::MAX_CALLED_TOOLS {
                record.notes.push(format!(
                    "only the first {} listed tools get generated cases",
                    crate::scenarios::tools::MAX_CALLED_TOOLS
                ));
                break;
            }
            if let Err(why) = self.policy.permits(&tool) {
                record.notes.push(format!("tool {name:?}: {why}"));
                continue;
            }
            let object_schema = |s: &&Value| s.get("type") == Some(&Value::String("object".into()));
            if tool.get("inputSchema").filter(object_schema).is_none() {
                // Arguments are an object: a tool whose inputSchema says otherwise is
                // tool-inputschema-type's finding, not something to generate for.
                record.notes.push(format!(
                    "tool {name:?}: its inputSchema is not an object schema; no arguments generated"
                ));
                continue;
            };
            out.push(tool);
        }
        out
    }

    /// The dialect the server's validator uses for a tool's `schema`: its `$schema`, else
    /// the revision's default (as `compile_input_schema` decides).
    pub(super) fn dialect_of(&self, schema: &Value) -> strategy::Dialect {
        if schema.get("$schema").is_some() {
            strategy::Dialect::of(schema)
        } else if self.revision.draft_2020_12 {
            strategy::Dialect::Draft202012
        } else {
            strategy::Dialect::Draft7
        }
    }

    /// A tool's valid and invalid argument properties at their default sizes.
    fn tool_plan(
        &self,
        tool: ToolDef,
        cases: u32,
        plan_values: usize,
        record: &mut PropertyRecord,
    ) -> ToolPlan {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
        let schema = &tool["inputSchema"];
        // The dialect the server's validator uses: the tool's `$schema`, else the
        // revision's default (as `compile_input_schema` decides).
        let dialect = self.dialect_of(schema);
        let mut plan = ToolPlan {
            valid: None,
            invalid: Vec::new(),
        };
        // The definition is the listing's, shared by the tool's properties and the
        // strategies' judge (it may be megabytes).
        let build = || {
            let doc: Arc<dyn strategy::SchemaDoc> = Arc::new(InputSchema(tool.clone()));
            Built {
                name: name.to_string(),
                dialect,
                plan_values,
                tool: tool.clone(),
                valid: strategy::valid_doc(Arc::clone(&doc), dialect),
                invalid: strategy::invalid_doc(doc, dialect, plan_values),
            }
        };
        // A build that holds the runtime's thread gives up when the run is interrupted.
        let interrupt = &self.config.interrupt;
        let build = || strategy::within_interrupt(interrupt, build);
        let (valid, invalid) = match self.plans {
            Some(cache) => cache.get_or_build(name, (dialect, plan_values), &tool, build),
            None => {
                let built = build();
                (built.valid, built.invalid)
            }
        };
        match valid {
            Ok(s) => {
                plan.valid = Some(Item::new(
                    self.seed,
                    Probe::ValidCall { tool: tool.clone() },
                    s,
                    cases,
                ));
            }
            Err(e) => record.notes.push(format!(
                "tool {name:?}: valid arguments not generated: {}",
                e.0
            )),
        }
        match invalid {
            Ok(invalids) => {
                if invalids.tried < invalids.rules {
                    record.notes.push(format!(
                        "tool {name:?}: invalid arguments for {} of its {} breakable rules, spread evenly over them: an instance holds about {} values and building a rule's cases draws {} instances, over its share ({plan_values}) of the {} generated values the tools' invalid arguments may draw per revision",
                        invalids.tried,
                        invalids.rules,
                        invalids.values,
                        strategy::PROBES_PER_VARIANT,
                        strategy::INVALID_PLAN_VALUES
                    ));
                }
                let per = (cases / 4).max(2);
                for v in invalids.variants {
                    plan.invalid.push(Item::new(
                        self.seed,
                        Probe::InvalidCall {
                            tool: tool.clone(),
                            rule: v.rule,
                        },
                        v.strategy,
                        per,
                    ));
                }
            }
            Err(e) => record.notes.push(format!(
                "tool {name:?}: invalid arguments not generated: {}",
                e.0
            )),
        }
        plan
    }
}

/// A listed tool's inputSchema as the document its strategies judge against.
struct InputSchema(ToolDef);

impl strategy::SchemaDoc for InputSchema {
    fn schema(&self) -> &Value {
        &self.0["inputSchema"]
    }
}

/// A tool's properties cut to `share` cases in all: half (at least one) for valid
/// arguments, the rest over the broken rules in order. Unchanged when it fits. The case
/// counts change, not the labels, so each property still draws the same first values.
fn fit(plan: ToolPlan, share: u32) -> Vec<Item> {
    let full =
        plan.valid.as_ref().map_or(0, |v| v.n) + plan.invalid.iter().map(|i| i.n).sum::<u32>();
    let mut out = Vec::new();
    if full <= share {
        out.extend(plan.valid);
        out.extend(plan.invalid);
        return out;
    }
    let mut left = share;
    if let Some(mut valid) = plan.valid {
        let want = if plan.invalid.is_empty() {
            share
        } else {
            (share / 2).max(1)
        };
        valid.n = valid.n.min(want).max(1);
        left = left.saturating_sub(valid.n);
        out.push(valid);
    }
    let rules = u32::try_from(plan.invalid.len()).unwrap_or(u32::MAX).max(1);
    let (per, extra) = (left / rules, left % rules);
    for (i, mut item) in plan.invalid.into_iter().enumerate() {
        let n = per + u32::from((i as u32) < extra);
        item.n = item.n.min(n);
        if item.n > 0 {
            out.push(item);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::strategy::{Just, Strategy};
    use serde_json::json;

    use super::*;

    fn item(n: u32) -> Item {
        Item::new(0, Probe::Id, Just(json!(0)).boxed(), n)
    }

    fn plan(valid: u32, rules: &[u32]) -> ToolPlan {
        ToolPlan {
            valid: Some(item(valid)),
            invalid: rules.iter().map(|n| item(*n)).collect(),
        }
    }

    fn counts(items: &[Item]) -> Vec<u32> {
        items.iter().map(|i| i.n).collect()
    }

    #[test]
    fn a_plan_within_its_share_is_unchanged() {
        assert_eq!(counts(&fit(plan(32, &[8, 8]), 48)), [32, 8, 8]);
    }

    #[test]
    fn a_plan_over_its_share_keeps_a_valid_call_and_spreads_the_rest() {
        // Half the share for valid arguments, the rest over the rules in order.
        assert_eq!(counts(&fit(plan(32, &[8, 8, 8]), 11)), [5, 2, 2, 2]);
        // A share of one: one valid call, no broken rule.
        assert_eq!(counts(&fit(plan(32, &[8, 8]), 1)), [1]);
        // No rule to break: the whole share is valid calls.
        assert_eq!(counts(&fit(plan(32, &[]), 7)), [7]);
    }
}
