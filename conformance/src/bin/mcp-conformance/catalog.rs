//! `list` and `explain`: the check catalog the run judges by, printed from its rows.

use crate::exit::Exit;

/// `list`: every check, one line each.
pub(crate) fn list() -> Exit {
    for c in mcp_conformance::checks::CATALOG {
        println!(
            "{:26} {:8} {:11} {:26} {}",
            c.id,
            c.level.describe(),
            c.applies.describe(),
            c.requirement,
            c.title
        );
    }
    Exit::Pass
}

/// `explain ID`: what the check requires, why, and how to fix a server that fails it.
pub(crate) fn explain(id: &str) -> Exit {
    let (Some(check), Some(text)) = (
        mcp_conformance::checks::find(id),
        mcp_conformance::checks::explain(id),
    ) else {
        eprintln!("mcp-conformance: unknown check {id:?}; `mcp-conformance list` prints them all");
        return Exit::Usage;
    };
    println!(
        "{} ({} {}, revisions {})",
        check.id,
        check.level.describe(),
        check.requirement,
        check.applies.describe()
    );
    println!("{}\nSource: {}\n", check.title, check.source);
    println!("What is required\n{}\n", text.requirement);
    println!("Why it matters\n{}\n", text.why);
    println!("How to fix a server that fails it\n{}", text.fix);
    Exit::Pass
}
