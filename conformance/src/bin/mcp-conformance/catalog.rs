//! `list` and `explain`: the check catalog the run judges by, printed from its rows.

use crate::exit::Exit;

/// `list`: every check, one line each, in columns as wide as their widest entry (ids,
/// levels and citations that change at a revision vary in length).
pub(crate) fn list() -> Exit {
    let rows: Vec<[String; 5]> = mcp_conformance::checks::CATALOG
        .iter()
        .map(|c| {
            [
                c.id.to_string(),
                c.level.describe(),
                c.applies.describe(),
                c.requirement.describe(),
                c.title.to_string(),
            ]
        })
        .collect();
    for line in columns(&rows) {
        outln!("{line}");
    }
    Exit::Pass
}

/// Pads every column but the last to its widest cell, two spaces apart.
fn columns<const N: usize>(rows: &[[String; N]]) -> Vec<String> {
    let mut widths = [0usize; N];
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    rows.iter()
        .map(|row| {
            let mut line = String::new();
            for (i, cell) in row.iter().enumerate() {
                if i + 1 == N {
                    line.push_str(cell);
                } else {
                    let pad = widths[i] - cell.chars().count();
                    line.push_str(cell);
                    line.push_str(&" ".repeat(pad + 2));
                }
            }
            line
        })
        .collect()
}

/// `explain ID`: what the check requires, why, and how to fix a server that fails it.
pub(crate) fn explain(id: &str) -> Exit {
    let (Some(check), Some(text)) = (
        mcp_conformance::checks::find(id),
        mcp_conformance::checks::explain(id),
    ) else {
        eprintln!(
            "mcp-conformance: {}",
            mcp_conformance::suggest::unknown_check(id)
        );
        return Exit::Usage;
    };
    outln!(
        "{} ({} {}, revisions {})",
        check.id,
        check.level.describe(),
        check.requirement,
        check.applies.describe()
    );
    outln!("{}\nSource: {}", check.title, check.source.describe_eras());
    let links = mcp_conformance::checks::links::default_revision();
    match mcp_conformance::checks::links::spec_page(check.source.latest(), links) {
        Some(url) => outln!("Spec: {url}\n"),
        None => outln!(),
    }
    outln!("What is required\n{}\n", text.requirement);
    outln!("Why it matters\n{}\n", text.why);
    outln!("How to fix a server that fails it\n{}", text.fix);
    Exit::Pass
}

#[cfg(test)]
mod tests {
    use super::columns;

    /// `list` printed ids longer than its fixed width unpadded: columns drifted.
    #[test]
    fn columns_line_up_whatever_the_cell_length() {
        let rows = [
            ["a".to_string(), "MUST".to_string(), "x".to_string()],
            [
                "a-much-longer-id".to_string(),
                "SHOULD, MUST from 2025-06-18".to_string(),
                "y".to_string(),
            ],
        ];
        let lines = columns(&rows);
        assert_eq!(lines[0].find('x'), lines[1].find('y'));
        assert_eq!(lines[0].find("MUST"), Some("a-much-longer-id".len() + 2));
    }
}
