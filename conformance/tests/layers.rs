//! The README's "Adding a check", "Adding a revision" and "Adding a transport" lists stay
//! true: every file they name exists. (`.ci/import-scan.py`, run by CI, keeps the layers
//! themselves: no cycle between top-level modules, no function over 120 lines.)

use std::path::Path;

/// The backticked paths of a README section: words with a `/` and no placeholder.
fn paths_of(section: &str) -> Vec<&str> {
    section
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| w.contains('/') && !w.contains(['<', ' ']) && !w.contains("my-check"))
        .filter(|w| w.starts_with("conformance/") || w.starts_with("fixtures/"))
        .collect()
}

#[test]
fn every_file_an_adding_section_names_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let mut named = 0;
    for title in [
        "## Adding a check",
        "## Adding a revision",
        "## Adding a transport",
    ] {
        let start = readme
            .find(title)
            .unwrap_or_else(|| panic!("no {title} section"));
        let rest = &readme[start + title.len()..];
        let section = &rest[..rest.find("\n## ").unwrap_or(rest.len())];
        let paths = paths_of(section);
        assert!(!paths.is_empty(), "{title} names no file");
        for path in paths {
            named += 1;
            assert!(
                root.join(path).exists(),
                "{title} names {path}, which does not exist"
            );
        }
    }
    assert!(named >= 10, "only {named} files named");
}
