//! The Markdown report (`--format markdown`), written for `$GITHUB_STEP_SUMMARY`.
//!
//! A heading and the verdict (the one the exit code gives), each distinct failure and
//! warning once with its evidence, then every check's status, a folded table per
//! revision: a reader comes for the findings. GitHub renders this as GitHub Flavored Markdown with HTML allowed, so a
//! hostile server could otherwise break a table row with `|`, inject a link, an image or
//! raw HTML, or spoof a finding. All text that is not our own markup is escaped: in
//! running text every character GFM could read as markup is backslash-escaped; evidence
//! sits in fenced code blocks whose fence is longer than any backtick run inside.
//! The output is deterministic (no durations, no paths of ours) so it can be diffed.

use std::fmt::Write;

use super::escape::escape_server_text;
use super::junit::evidence_line;
use super::model::{baselined_part, counted, DistinctFinding, RunReport, Summary};
use super::surface::{change_line, SurfaceReport};
use crate::checks::{links, CheckResult, Status};

/// Longest message shown in a table cell; the findings below the tables show it whole.
const MAX_CELL: usize = 300;

/// Renders the report as GitHub Flavored Markdown for a job summary.
///
/// Every string that comes from the server (and the rest of the report text, for
/// simplicity) is escaped, so the output's structure depends only on the run model's
/// shape: one table row per check, one section per finding.
pub fn to_markdown(report: &RunReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {} report\n", report.tool.name);
    let target = md_text(&report.target.describe());
    let _ = writeln!(
        out,
        "{} {} tested {} over {}, seed {} (replay with `--seed {}`).\n",
        report.tool.name,
        md_text(report.tool.version),
        target,
        report.target.transport,
        report.seed,
        report.seed
    );
    if let Some(cut) = &report.incomplete {
        let _ = writeln!(out, "> **{}**\n", md_text(&cut.describe()));
    }
    if let Some(era) = report.era {
        let _ = writeln!(out, "The server is {era} (2026-07-28 versioning.mdx).\n");
    }
    for note in &report.coverage {
        let _ = writeln!(out, "> {}\n", md_text(&note.describe()));
    }
    for note in &report.budget {
        let _ = writeln!(out, "> {}\n", md_text(&note.describe()));
    }
    if let Some(note) = report.timing.as_ref().and_then(|t| t.load_note()) {
        let _ = writeln!(out, "> {}\n", md_text(&note));
    }
    let surface = match report.surface.as_ref().filter(|s| !s.changes.is_empty()) {
        Some(s) => format!("; tool surface: {} (below)", s.tally()),
        None => String::new(),
    };
    let _ = writeln!(
        out,
        "**{}**: {} across {}{surface}.",
        report.headline(),
        counts(report.summary, report.accepted_failures(None)),
        counted(report.revisions.len(), "revision")
    );
    findings(&mut out, report);
    if let Some(surface) = &report.surface {
        tool_surface(&mut out, surface);
    }
    every_check(&mut out, report);
    out
}

/// The tool surface section: the heading, the changes in a code block (a pointer and a
/// schema value read best verbatim), the notes.
fn tool_surface(out: &mut String, surface: &SurfaceReport) {
    let _ = writeln!(out, "\n## Tool surface\n\n{}", md_text(&surface.heading()));
    if !surface.changes.is_empty() {
        let lines: Vec<String> = surface
            .changes
            .iter()
            .map(|c| escape_server_text(&change_line(c)))
            .collect();
        let _ = write!(out, "\n{}", code_block(&lines));
    }
    for note in surface.notes.iter().chain(&surface.advice()) {
        let _ = writeln!(out, "\n> {}", md_text(note));
    }
}

/// Each distinct finding once, failures then warnings: where it holds, what it cites,
/// its first occurrence's message and evidence, the other revisions' folded.
fn findings(out: &mut String, report: &RunReport) {
    let all = report.distinct_findings();
    let judged = report.all_revisions();
    for (status, heading) in [(Status::Fail, "Failures"), (Status::Warn, "Warnings")] {
        let _ = writeln!(out, "\n## {heading}");
        let of_status: Vec<&DistinctFinding<'_>> =
            all.iter().filter(|f| f.status == status).collect();
        if of_status.is_empty() {
            let _ = writeln!(out, "\nNone.");
        }
        for f in of_status {
            finding(out, report, f, &judged);
        }
    }
}

/// Every check's status, one table per revision, folded: the findings above are what
/// a reader came for.
fn every_check(out: &mut String, report: &RunReport) {
    let _ = writeln!(out, "\n## Every check");
    for rev in &report.revisions {
        if let Some(reason) = report.not_spoken(rev.revision) {
            let _ = writeln!(
                out,
                "\n### {}\n\n{}, every check skipped: {}",
                rev.revision,
                capitalized(&report.not_spoken_by(rev.revision)),
                md_text(reason)
            );
            continue;
        }
        let _ = writeln!(
            out,
            "\n### {} ({})\n\n{}\n\n<details><summary>Every check of {}</summary>\n",
            rev.revision,
            rev.agreement(md_text),
            counts(
                Summary::of(&rev.results),
                report.accepted_failures(Some(rev.revision))
            ),
            rev.revision
        );
        out.push_str("| Check | Level | Status | Message |\n| --- | --- | --- | --- |\n");
        for r in &rev.results {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                md_text(r.check),
                r.level.as_str(),
                if report.baselined(rev.revision, r.check).is_some() {
                    "**FAIL** (baselined)"
                } else {
                    status_word(r.status)
                },
                md_text(&crate::protocol::cut_text(&r.message, MAX_CELL))
            );
        }
        out.push_str("\n</details>\n");
    }
}

/// The status as a word with an ASCII marker, so it reads without colour or emoji.
fn status_word(status: Status) -> &'static str {
    match status {
        Status::Fail => "**FAIL** (x)",
        Status::Warn => "**WARN** (!)",
        Status::Skip => "skip (-)",
        Status::Pass => "pass (ok)",
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn counts(s: Summary, accepted: usize) -> String {
    format!(
        "{} fail{}, {} warn, {} pass, {} skip",
        s.fail,
        baselined_part(accepted),
        s.warn,
        s.pass,
        s.skip
    )
}

fn finding(out: &mut String, report: &RunReport, f: &DistinctFinding<'_>, judged: &[&str]) {
    let (revision, r) = f.occurrences[0];
    // The source links to its spec page (our own table's URL, not server text).
    let source = match links::spec_page(r.source, revision) {
        Some(url) => format!("[{}]({url})", md_text(r.source)),
        None => md_text(r.source),
    };
    let _ = writeln!(
        out,
        "\n### {} in {}\n\n{}\n\n- Revision: {}\n- Level: {}\n- Requirement: {}\n- Source: {}\n- Message: {}",
        md_text(r.check),
        match f.revisions(judged).as_str() {
            "all" => "every revision".to_string(),
            some => some.to_string(),
        },
        md_text(r.title),
        if f.occurrences.len() > 1 {
            format!("{revision} (shown first)")
        } else {
            revision.to_string()
        },
        r.level.as_str(),
        md_text(r.requirement),
        source,
        md_text(&r.message),
    );
    let accepted: Vec<(&str, &str)> = f
        .occurrences
        .iter()
        .filter_map(|(rev, r)| Some((*rev, report.baselined(rev, r.check)?)))
        .collect();
    if let Some((_, reason)) = accepted.first() {
        let only = if accepted.len() == f.occurrences.len() {
            String::new()
        } else {
            let revs: Vec<&str> = accepted.iter().map(|(rev, _)| *rev).collect();
            format!(" in {}", revs.join(", "))
        };
        let _ = writeln!(
            out,
            "- Baselined{only} (does not fail the run): {}",
            md_text(reason)
        );
    }
    evidence(out, r);
    let groups = f.groups();
    if !groups.same.is_empty() {
        let _ = writeln!(
            out,
            "\nThe same message and evidence in {}.",
            groups.same.join(", ")
        );
    }
    if groups.same_message.len() + groups.other.len() > 0 {
        let _ = writeln!(out, "\n<details><summary>The other revisions</summary>");
        for (rev, r) in &groups.same_message {
            let _ = writeln!(out, "\n{rev}: the same message; its evidence:");
            evidence(out, r);
        }
        for (rev, r) in &groups.other {
            let _ = writeln!(out, "\n{rev}: {}", md_text(&r.message));
            evidence(out, r);
        }
        out.push_str("\n</details>\n");
    }
}

/// Whether a line is our own HTML (the folds), which server text can never produce: its
/// `<` and `>` become entities.
pub(crate) fn is_own_markup(line: &str) -> bool {
    let summary = line
        .strip_prefix("<details><summary>")
        .and_then(|l| l.strip_suffix("</summary>"));
    line == "</details>" || summary.is_some_and(|s| !s.contains(['<', '>', '&']))
}

/// A result's evidence: a fenced block of the messages, or the finding it shares them with.
fn evidence(out: &mut String, r: &CheckResult) {
    if let Some(root) = r.same_cause_as {
        let _ = writeln!(out, "- Evidence: {}", md_text(&root.describe()));
    } else if !r.evidence.is_empty() {
        let lines: Vec<String> = r
            .evidence
            .iter()
            .map(|e| escape_server_text(&evidence_line(e)))
            .collect();
        out.push('\n');
        out.push_str(&code_block(&lines));
    }
}

/// A fenced code block holding `lines` verbatim. Nothing inside a fence is markup; the
/// fence is one backtick longer than the longest backtick run in the content (at least
/// three), so no line can close it. The lines must hold no line breaks (they are
/// escaped with [`escape_server_text`]).
fn code_block(lines: &[String]) -> String {
    let longest = lines
        .iter()
        .flat_map(|l| l.split(|c| c != '`'))
        .map(str::len)
        .max()
        .unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    let mut out = format!("{fence}text\n");
    for line in lines {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&fence);
    out.push('\n');
    out
}

/// Escapes text for running Markdown text and table cells: control characters first
/// become visible `\u{..}` (so no line break can end a row), `<`, `>` and `&` become
/// entities, and every other character GFM could read as markup is backslash-escaped
/// (CommonMark lets any ASCII punctuation be escaped so, and GFM tables honour `\|`).
///
/// Brackets are escaped, so no link or image can form and `(`, `)`, `!` may stay.
/// Besides the usual markup, `:` is escaped so `http://` and `:emoji:` are not
/// autolinked or replaced, and the `.` of `www.` so no autolink starts there. A bare
/// e-mail address is still autolinked by GFM as a `mailto:` link; escapes do not stop it.
fn md_text(text: &str) -> String {
    let text = escape_server_text(text);
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    for c in text.chars() {
        // Entities rather than backslashes for HTML's own characters, so no `<` of the
        // server's survives even in the source, whatever reads it.
        match c {
            '<' => {
                out.push_str("&lt;");
                continue;
            }
            '>' => {
                out.push_str("&gt;");
                continue;
            }
            '&' => {
                out.push_str("&amp;");
                continue;
            }
            _ => {}
        }
        let markup = matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' | '$' | ':'
        );
        let www_dot = c == '.'
            && out.len() >= 3
            && out.as_bytes()[out.len() - 3..].eq_ignore_ascii_case(b"www");
        if markup || www_dot {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::{Evidence, Level};
    use crate::protocol::Direction;
    use crate::report::{RevisionReport, TargetInfo};

    const HOSTILE: &str =
        "a | b ``` `x` <script>alert(1)</script> [x](http://evil) ![i](http://evil/i.png)\nnew row | x | y |\r\n* _em_ \u{1b}[31m &amp; www.evil.com :smile: $x$ ~~s~~ \\";

    fn result(check: &'static str, status: Status, message: &str) -> CheckResult {
        CheckResult {
            check,
            title: "ping is answered promptly with an empty result",
            level: Level::Must,
            requirement: "LC-PING",
            source: "ping.mdx, Behavior Requirements",
            status,
            message: message.to_string(),
            evidence: Vec::new(),
            same_cause_as: None,
        }
    }

    fn sample() -> RunReport {
        let mut fail = result("lc-ping", Status::Fail, HOSTILE);
        fail.evidence = vec![
            Evidence {
                direction: Direction::Sent,
                text: r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.into(),
            },
            Evidence {
                direction: Direction::Received,
                text: format!("````` {HOSTILE}"),
            },
        ];
        let mut warn = result("tool-name-case", Status::Warn, "names differ only by case");
        warn.level = Level::Should;
        RunReport::new(
            TargetInfo {
                transport: "stdio",
                command: "my|server".into(),
                args: vec!["<b>".into()],
                reference: false,
                url: None,
            },
            7,
            vec![
                RevisionReport {
                    revision: "2025-06-18",
                    negotiated: Some("2025-06-18 | <i>".into()),
                    results: vec![
                        result("lc-init-result", Status::Pass, "ok"),
                        fail,
                        warn,
                        result("rpc-batch", Status::Skip, "applies to 2025-03-26 only"),
                    ],
                },
                RevisionReport {
                    revision: "2025-11-25",
                    negotiated: None,
                    results: vec![result("lc-init-result", Status::Pass, "ok")],
                },
            ],
        )
    }

    /// Cells of a table row, split on `|` not escaped by a backslash.
    fn cells(row: &str) -> usize {
        let mut n = 0;
        let mut escaped = false;
        for c in row.chars() {
            match (escaped, c) {
                (false, '\\') => escaped = true,
                (false, '|') => n += 1,
                _ => escaped = false,
            }
        }
        n
    }

    #[test]
    fn one_row_per_check_and_each_row_has_four_cells() {
        let report = sample();
        let md = to_markdown(&report);
        let rows: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
        let expected = report
            .revisions
            .iter()
            .map(|r| r.results.len() + 2)
            .sum::<usize>();
        assert_eq!(rows.len(), expected, "{md}");
        for row in &rows {
            assert_eq!(cells(row), 5, "row broken: {row}");
            assert!(row.ends_with(" |"), "{row}");
        }
        let checks: Vec<&str> = rows
            .iter()
            .filter(|r| !r.starts_with("| Check") && !r.starts_with("| ---"))
            .map(|r| r.split(" | ").next().unwrap().trim_start_matches("| "))
            .collect();
        assert_eq!(
            checks,
            [
                "lc-init-result",
                "lc-ping",
                "tool-name-case",
                "rpc-batch",
                "lc-init-result"
            ]
        );
        assert!(md.contains("| lc-ping | MUST | **FAIL** (x) | "), "{md}");
        assert!(
            md.contains("| tool-name-case | SHOULD | **WARN** (!) | "),
            "{md}"
        );
    }

    /// Asserts that `text` (server text after escaping) holds no character GFM could
    /// read as markup: each is escaped by an odd run of backslashes, or is an entity.
    fn assert_inert(text: &str) {
        assert!(
            !text.contains('<') && !text.contains('>'),
            "raw HTML: {text}"
        );
        assert!(!text.chars().any(char::is_control), "control: {text:?}");
        for (i, c) in text.char_indices() {
            if matches!(c, '[' | ']' | '`' | '|' | '*' | '_' | '$' | '~' | ':') {
                let run = text[..i].chars().rev().take_while(|&c| c == '\\').count();
                assert_eq!(run % 2, 1, "unescaped {c:?} at {i}: {text}");
            }
        }
    }

    #[test]
    fn hostile_text_produces_no_markup_outside_code_blocks() {
        let md = to_markdown(&sample());
        let mut fence: Option<String> = None;
        for line in md.lines() {
            if let Some(f) = &fence {
                if line == f {
                    fence = None;
                }
                continue;
            }
            if line.starts_with("```") {
                fence = Some(line.trim_end_matches("text").to_string());
                continue;
            }
            if is_own_markup(line) {
                continue;
            }
            assert!(
                !line.contains('<') && !line.contains('>'),
                "raw HTML: {line}"
            );
            assert!(!line.contains("http://"), "autolink: {line}");
            assert!(!line.contains("www.evil"), "autolink: {line}");
            assert!(!line.chars().any(char::is_control), "control: {line:?}");
        }
        assert!(fence.is_none(), "unterminated code block");

        // The message cell of the hostile row, and the message line of its finding.
        let row = md.lines().find(|l| l.starts_with("| lc-ping |")).unwrap();
        let cell = row
            .strip_prefix("| lc-ping | MUST | **FAIL** (x) | ")
            .and_then(|c| c.strip_suffix(" |"))
            .unwrap();
        assert_inert(cell);
        assert!(cell.contains("&lt;script&gt;alert"), "{cell}");
        let message = md
            .lines()
            .find_map(|l| l.strip_prefix("- Message: a "))
            .unwrap();
        assert_inert(message);
        // The hostile line break did not start a line of its own.
        assert!(!md.lines().any(|l| l.starts_with("new row")), "{md}");
        // Nor did the target command or the negotiated version inject anything.
        assert!(
            md.contains("tested my\\|server &lt;b&gt; over stdio"),
            "{md}"
        );
        assert!(
            md.contains("### 2025-06-18 (negotiated 2025-06-18 \\| &lt;i&gt;)"),
            "{md}"
        );
    }

    #[test]
    fn every_ascii_and_latin1_character_stays_inside_its_cell() {
        let all: String = (0..=0xff_u32).filter_map(char::from_u32).collect();
        let mut report = sample();
        report.revisions[0].results[1].message = all.clone();
        let md = to_markdown(&report);
        let row = md.lines().find(|l| l.starts_with("| lc-ping |")).unwrap();
        assert_eq!(cells(row), 5, "{row}");
        let cell = row
            .strip_prefix("| lc-ping | MUST | **FAIL** (x) | ")
            .and_then(|c| c.strip_suffix(" |"))
            .unwrap();
        assert_inert(cell);
    }

    #[test]
    fn findings_list_details_and_fence_their_evidence() {
        let md = to_markdown(&sample());
        let failures = md.split("\n## Failures\n").nth(1).unwrap();
        let (failures, warnings) = failures.split_once("\n## Warnings\n").unwrap();
        assert!(failures.contains("### lc-ping in 2025-06-18"), "{failures}");
        assert!(
            failures.contains("- Level: MUST\n- Requirement: LC-PING\n"),
            "{failures}"
        );
        // The source links to the finding's revision's page.
        assert!(
            failures.contains(
                "- Source: [ping.mdx, Behavior Requirements](https://modelcontextprotocol.io/specification/2025-06-18/basic/utilities/ping)\n"
            ),
            "{failures}"
        );
        // Evidence: a fence longer than the longest backtick run (5) in the content.
        let fence = "``````";
        let block = failures.split(&format!("{fence}text\n")).nth(1).unwrap();
        let block = block.split(&format!("\n{fence}\n")).next().unwrap();
        let lines: Vec<&str> = block.lines().collect();
        assert_eq!(lines[0], r#"-> {"jsonrpc":"2.0","id":1,"method":"ping"}"#);
        assert_eq!(lines.len(), 2, "one line per evidence entry: {lines:?}");
        assert!(
            lines[1].starts_with("<- ````` a | b ``` `x` <script>"),
            "{}",
            lines[1]
        );
        assert!(lines[1].contains("\\u{a}new row") && lines[1].contains("\\u{1b}[31m"));
        assert!(
            warnings.contains("### tool-name-case in 2025-06-18"),
            "{warnings}"
        );
        assert!(
            !warnings.contains("```"),
            "a warning without evidence has no block"
        );
    }

    #[test]
    fn a_clean_run_says_so() {
        let mut report = sample();
        for rev in &mut report.revisions {
            rev.results.retain(|r| r.status == Status::Pass);
        }
        let report = RunReport::new(report.target, report.seed, report.revisions);
        let md = to_markdown(&report);
        assert!(md.contains("**PASSED**: 0 fail, 0 warn, 2 pass, 0 skip across 2 revisions."));
        assert!(
            md.contains("## Failures\n\nNone.\n\n## Warnings\n\nNone.\n"),
            "{md}"
        );
        assert_eq!(md, to_markdown(&report), "deterministic");
    }

    #[test]
    fn md_text_escapes_markup_and_controls() {
        assert_eq!(md_text("a|b\\c"), "a\\|b\\\\c");
        assert_eq!(md_text("<x>&amp;"), "&lt;x&gt;&amp;amp;");
        assert_eq!(md_text("[l](u) ![i](u)"), "\\[l\\](u) !\\[i\\](u)");
        assert_eq!(md_text("x\ny"), "x\\\\u{a}y");
        assert_eq!(md_text("WWW.a.b"), "WWW\\.a.b");
        assert_eq!(md_text("plain 1.0 text-ok"), "plain 1.0 text-ok");
    }

    #[test]
    fn fence_outgrows_backtick_runs() {
        assert_eq!(code_block(&["a".into()]), "```text\na\n```\n");
        assert!(code_block(&["x ```` y".into()]).starts_with("`````text\n"));
    }
}
