//! The tool surface snapshot as a user meets it (issue 30): `snapshot` writes the same bytes
//! on every walk, `snapshot --check` classifies each changed copy of the reference server's
//! surface (`reference-server --surface NAME`) as its class says and only so, a listing
//! that varies between walks is snapshotted once with its varying places marked, the
//! pending file and `--accept`, `run --snapshot` in every report format, and the same
//! surface over Streamable HTTP as over stdio.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

const EXE: &str = env!("CARGO_BIN_EXE_mcp-conformance");

/// A fresh folder for one test.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-surface-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `mcp-conformance ARGS` in `dir`, with the reference server run with `server` after `--`.
fn run(dir: &Path, args: &[&str], server: &[&str]) -> Output {
    let mut command = Command::new(EXE);
    command.current_dir(dir).args(args);
    if !server.is_empty() {
        command
            .arg("--")
            .arg(EXE)
            .arg("reference-server")
            .args(server);
    }
    command.output().expect("mcp-conformance runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The change lines of `snapshot --check`'s report: (class, pointer) pairs (the pointer
/// empty for a change of a whole revision).
fn changes(out: &Output) -> Vec<(String, String)> {
    stdout(out)
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("  note:"))
        .map(|l| {
            let class = l.split_whitespace().next().unwrap_or("");
            let rest = l.split("] ").nth(1).unwrap_or("");
            let pointer = rest.split(' ').next().filter(|p| p.starts_with('/'));
            (class.to_string(), pointer.unwrap_or("").to_string())
        })
        .collect()
}

#[test]
fn a_snapshot_has_the_same_bytes_on_every_walk_and_checks_clean() {
    let dir = folder("same");
    let first = run(&dir, &["snapshot", "a.json"], &[]);
    assert_eq!(first.status.code(), Some(0), "{first:?}");
    let second = run(&dir, &["snapshot", "b.json"], &[]);
    assert_eq!(second.status.code(), Some(0), "{second:?}");
    let a = std::fs::read(dir.join("a.json")).unwrap();
    assert_eq!(a, std::fs::read(dir.join("b.json")).unwrap());
    let text = String::from_utf8(a).unwrap();
    for revision in [
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
    ] {
        assert!(
            text.contains(&format!("\"{revision}\"")),
            "{revision} missing"
        );
    }
    let check = run(&dir, &["snapshot", "a.json", "--check"], &[]);
    assert_eq!(check.status.code(), Some(0), "{check:?}");
    assert!(
        stdout(&check).contains(": unchanged ("),
        "{}",
        stdout(&check)
    );
    assert!(!dir.join("a.json.new").exists());
}

/// The server's arguments, the exit code, and the changes expected: class and pointer.
type Expected = (
    &'static [&'static str],
    i32,
    &'static [(&'static str, &'static str)],
);

#[test]
fn each_changed_copy_is_classified_as_its_class_and_only_so() {
    let dir = folder("classes");
    assert_eq!(run(&dir, &["snapshot"], &[]).status.code(), Some(0));
    let expected: &[Expected] = &[
        (
            &["--surface", "breaking"],
            1,
            &[
                ("breaking", "/tools/add"),
                ("breaking", "/tools/echo/inputSchema/required"),
                ("breaking", "/tools/noop"),
                ("breaking", "/tools/weather/outputSchema"),
                ("compatible", "/tools/add_numbers"),
                ("compatible", "/tools/echo/inputSchema/properties/lang"),
            ],
        ),
        (
            &["--surface", "review"],
            0,
            &[
                ("review", "/tools/add/annotations/readOnlyHint"),
                ("review", "/tools/echo/description"),
                ("review", "/tools/echo/title"),
            ],
        ),
        (
            &["--surface", "compatible"],
            0,
            &[
                ("compatible", "/tools/echo/inputSchema/properties/suffix"),
                ("compatible", "/tools/echo_twice"),
            ],
        ),
        // The same tools, one revision fewer: that revision's clients are left without.
        (&["--era", "legacy"], 1, &[("breaking", "")]),
    ];
    for (variant, code, want) in expected {
        let out = run(&dir, &["snapshot", "--check"], variant);
        assert_eq!(out.status.code(), Some(*code), "{variant:?}: {out:?}");
        let got = changes(&out);
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(c, p)| (c.to_string(), p.to_string()))
            .collect();
        assert_eq!(got, want, "{variant:?}:\n{}", stdout(&out));
        assert!(
            dir.join("mcp-tools.snapshot.json.new").exists(),
            "{variant:?}"
        );
    }
    // Back to the recorded surface: clean, and the stale pending file is gone.
    let clean = run(&dir, &["snapshot", "--check"], &[]);
    assert_eq!(clean.status.code(), Some(0));
    assert!(!dir.join("mcp-tools.snapshot.json.new").exists());
}

#[test]
fn a_listing_that_varies_is_snapshotted_once_with_its_varying_places_marked() {
    let dir = folder("varies");
    let server = ["--fault", "unstable-listing"];
    let first = run(&dir, &["snapshot", "a.json"], &server);
    assert_eq!(first.status.code(), Some(0), "{first:?}");
    assert!(
        stdout(&first).contains("two walks of tools/list differ at /tools/flaky_2"),
        "{}",
        stdout(&first)
    );
    let text = std::fs::read_to_string(dir.join("a.json")).unwrap();
    assert!(
        text.contains("\"flaky_2\": \"(differs between two listings)\""),
        "{text}"
    );
    // The next walks see other names, yet the snapshot does not flap.
    let again = run(&dir, &["snapshot", "b.json"], &server);
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(text, std::fs::read_to_string(dir.join("b.json")).unwrap());
}

#[test]
fn the_pending_file_is_accepted_and_nothing_pending_is_a_setup_error() {
    let dir = folder("accept");
    assert_eq!(run(&dir, &["snapshot"], &[]).status.code(), Some(0));
    let nothing = run(&dir, &["snapshot", "--accept"], &[]);
    assert_eq!(nothing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&nothing.stderr).contains("nothing to accept"));
    let check = run(&dir, &["snapshot", "--check"], &["--surface", "breaking"]);
    assert_eq!(check.status.code(), Some(1));
    let pending = std::fs::read(dir.join("mcp-tools.snapshot.json.new")).unwrap();
    let accept = run(&dir, &["snapshot", "--accept"], &[]);
    assert_eq!(accept.status.code(), Some(0), "{accept:?}");
    assert_eq!(
        std::fs::read(dir.join("mcp-tools.snapshot.json")).unwrap(),
        pending
    );
    let after = run(&dir, &["snapshot", "--check"], &["--surface", "breaking"]);
    assert_eq!(after.status.code(), Some(0), "{}", stdout(&after));
    // A check against no file fails before any server starts.
    let missing = run(&dir, &["snapshot", "none.json", "--check"], &[]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no such snapshot"));
}

#[test]
fn a_run_with_a_snapshot_carries_the_changes_in_every_format_and_fails_on_breaking_ones() {
    let dir = folder("run");
    assert_eq!(run(&dir, &["snapshot"], &[]).status.code(), Some(0));
    let args = [
        "run",
        "--snapshot",
        "mcp-tools.snapshot.json",
        "--cases",
        "2",
        "--revision",
        "2025-06-18",
        "--output-dir",
        "reports",
    ];
    let out = run(&dir, &args, &["--surface", "breaking"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("breaking tool surface changes against"));
    let read = |name: &str| std::fs::read_to_string(dir.join("reports").join(name)).unwrap();
    let json: serde_json::Value = serde_json::from_str(&read("mcp-conformance.json")).unwrap();
    let changes = json["surface"]["changes"].as_array().unwrap();
    assert!(changes
        .iter()
        .any(|c| c["class"] == "breaking" && c["pointer"] == "/tools/weather/outputSchema"));
    assert_eq!(
        json["surface"]["compared"],
        serde_json::json!(["2025-06-18"])
    );
    assert!(
        read("mcp-conformance.txt").contains("breaking   [2025-06-18] /tools/noop tool removed")
    );
    assert!(read("mcp-conformance.md").contains("## Tool surface"));
    let junit = read("mcp-conformance.junit.xml");
    assert!(
        junit.contains("tool surface") && junit.contains("type=\"breaking\""),
        "{junit}"
    );
    let sarif: serde_json::Value = serde_json::from_str(&read("mcp-conformance.sarif")).unwrap();
    let rules = &sarif["runs"][0]["tool"]["driver"]["rules"];
    for class in ["breaking", "review", "compatible"] {
        let id = format!("tool-surface-{class}");
        assert!(
            rules
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["id"] == id.as_str()),
            "{id}"
        );
    }
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert!(results
        .iter()
        .any(|r| r["ruleId"] == "tool-surface-breaking" && r["level"] == "error"));
    // Only the revision run was compared: the others stay as they were in the pending file.
    let pending = std::fs::read_to_string(dir.join("mcp-tools.snapshot.json.new")).unwrap();
    assert!(pending.contains("\"2024-11-05\""));
    // The same surface: the run passes and says so.
    let clean = run(&dir, &args, &[]);
    assert_eq!(clean.status.code(), Some(0), "{clean:?}");
    assert!(stdout(&clean).contains("Tool surface against mcp-tools.snapshot.json: unchanged"));
}

#[test]
fn the_surface_over_streamable_http_is_the_one_over_stdio() {
    let dir = folder("http");
    let stdio = run(
        &dir,
        &[
            "snapshot",
            "stdio.json",
            "--revision",
            "2025-11-25",
            "--revision",
            "2026-07-28",
        ],
        &[],
    );
    assert_eq!(stdio.status.code(), Some(0), "{stdio:?}");
    let port = common::free_port().to_string();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let http = run(
        &dir,
        &[
            "snapshot",
            "http.json",
            "--url",
            &url,
            "--revision",
            "2025-11-25",
            "--revision",
            "2026-07-28",
        ],
        &["--http", &port],
    );
    assert_eq!(http.status.code(), Some(0), "{http:?}");
    assert_eq!(
        std::fs::read(dir.join("stdio.json")).unwrap(),
        std::fs::read(dir.join("http.json")).unwrap()
    );
}

#[test]
fn a_server_that_answers_nothing_is_a_setup_error_not_an_empty_snapshot() {
    let dir = folder("silent");
    let mut command = Command::new(EXE);
    command.current_dir(&dir).args([
        "snapshot",
        "quiet.json",
        "--timeout",
        "1",
        "--",
        "sleep",
        "60",
    ]);
    let out = command.output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no revision's listing could be walked whole"),
        "{stderr}"
    );
    assert!(stderr.contains("not tried"), "{stderr}");
    assert!(!dir.join("quiet.json").exists());
    // The `--` forgotten: the server's script is not taken for the snapshot's file.
    let script = run(&dir, &["snapshot", "./server.sh"], &[]);
    assert_eq!(script.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&script.stderr).contains("ends in .json"));
    assert!(!dir.join("server.sh").exists());
}

/// The changed copies move the contract, not the protocol: each passes the whole suite (its
/// new inputs are checked as listed), so nothing but the snapshot check tells them apart.
#[test]
fn each_changed_copy_is_still_a_conformant_server() {
    let dir = folder("conformant");
    for variant in ["breaking", "review", "compatible"] {
        let out = run(
            &dir,
            &["run", "-q", "--cases", "4"],
            &["--surface", variant],
        );
        assert_eq!(out.status.code(), Some(0), "{variant}: {}", stdout(&out));
    }
}
