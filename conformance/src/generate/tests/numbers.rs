//! Number keywords: `minimum` / `maximum` (exclusive too), `multipleOf` in exact decimal
//! arithmetic, and the safe-integer range.

use serde_json::{json, Number};

use super::{valid_rows, DRAFT2020, DRAFT7, VALID};
use crate::generate::decimal::{multiple_of, number_value, SAFE_INTEGER};

#[test]
fn numbers_bounds_and_multiples() {
    valid_rows(
        "numbers",
        vec![
            (
                json!({"type": "integer", "exclusiveMinimum": 0, "multipleOf": 5}),
                DRAFT2020,
                |values| {
                    values
                        .iter()
                        .all(|v| v.as_i64().is_some_and(|i| i > 0 && i % 5 == 0))
                },
            ),
            (
                json!({"type": "number", "multipleOf": 0.5}),
                DRAFT7,
                |values| values.iter().any(|v| v.as_f64().unwrap().fract() != 0.0),
            ),
            (
                json!({"type": "number", "multipleOf": 0.01, "minimum": 0, "maximum": 1}),
                DRAFT2020,
                VALID,
            ),
            (
                json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}),
                DRAFT2020,
                VALID,
            ),
            // Free integers reach far, but stay where every JSON parser reads them exactly.
            (json!({"type": "integer"}), DRAFT2020, |values| {
                values.iter().any(|v| v.as_i64().unwrap().abs() > 1 << 40)
                    && values
                        .iter()
                        .all(|v| v.as_i64().unwrap().abs() <= SAFE_INTEGER as i64)
            }),
            (
                json!({"type": "number", "minimum": -1.5, "maximum": 1e300}),
                DRAFT2020,
                VALID,
            ),
            (
                json!({"type": "integer", "multipleOf": 0.5, "maximum": -7}),
                DRAFT7,
                VALID,
            ),
            (
                json!({"allOf": [{"multipleOf": 4}, {"multipleOf": 6}], "type": "integer"}),
                DRAFT2020,
                VALID,
            ),
            (
                json!({"type": "number", "multipleOf": 0.1}),
                DRAFT2020,
                VALID,
            ),
        ],
    );
}

#[test]
fn fractional_multiples_agree_in_decimal_and_binary() {
    let n = |x: f64| Number::from_f64(x).unwrap();
    // (value, multipleOf, judged; `None`: decimal and binary arithmetic disagree)
    let rows = [
        (n(0.07), 0.01, None), // 0.07 / 0.01 = 7.000000000000001
        (n(0.5), 0.01, Some(true)),
        (n(0.555), 0.01, Some(false)),
        (Number::from(10), 5.0, Some(true)),
    ];
    for (value, step, judged) in rows {
        assert_eq!(
            multiple_of(&value, step),
            judged,
            "{value} multipleOf {step}"
        );
    }
    assert_eq!(number_value(-5, 2), json!(-0.05));
    assert_eq!(number_value(300, 2), json!(3));
}
