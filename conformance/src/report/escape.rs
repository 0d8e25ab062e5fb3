//! One escaping rule for server-controlled text, whatever it is rendered into.
//!
//! A hostile server can put ANSI escape sequences, carriage returns, bidirectional
//! overrides or line separators in any string it sends; printed raw they would rewrite the
//! reader's screen, reorder what a reviewer sees in a browser (a finding's evidence in a
//! SARIF or JSON viewer), or split a line where a log parser does not expect it. Every
//! such character becomes a visible `\u{..}` escape, the same way in the text report,
//! the JSON report's messages and evidence, Markdown, JUnit and SARIF.

/// Whether `c` is escaped: C0 controls, DEL, C1 controls, Unicode bidi controls (marks,
/// embeddings, overrides, isolates, the Arabic letter mark) and the line and paragraph
/// separators U+2028 and U+2029.
pub fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{2028}'
                | '\u{2029}'
        )
}

/// Escapes every character [`needs_escape`] names (a tab reads `\t`).
pub fn escape_server_text(text: &str) -> String {
    if !text.chars().any(needs_escape) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c == '\t' {
            out.push_str("\\t");
        } else if needs_escape(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ansi_and_bidi_controls_become_visible() {
        let hostile = "ok\u{1b}[31mred\r\n\u{202e}txt.exe\u{85}";
        let out = escape_server_text(hostile);
        assert!(!out.chars().any(needs_escape), "{out:?}");
        assert_eq!(out, "ok\\u{1b}[31mred\\u{d}\\u{a}\\u{202e}txt.exe\\u{85}");
    }

    #[test]
    fn every_class_of_character_is_escaped() {
        for c in [
            '\u{0}', '\u{1b}', '\u{7f}', '\u{85}', '\u{9b}', '\u{202e}', '\u{2066}', '\u{61c}',
            '\u{2028}', '\u{2029}',
        ] {
            let out = escape_server_text(&format!("a{c}b"));
            assert_eq!(out, format!("a\\u{{{:x}}}b", c as u32), "{c:?}");
        }
        assert_eq!(escape_server_text("a\tb"), "a\\tb");
    }

    #[test]
    fn plain_text_is_unchanged() {
        assert_eq!(escape_server_text("héllo {\"a\":1} ✓"), "héllo {\"a\":1} ✓");
    }
}
