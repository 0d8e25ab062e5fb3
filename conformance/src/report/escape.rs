//! Escaping server-controlled text before it reaches a terminal.
//!
//! A hostile server can put ANSI escape sequences, carriage returns or bidirectional
//! overrides in any string it sends; printed raw they would rewrite the reader's screen
//! or disguise a finding. Every control character and bidi control becomes a visible
//! `\u{..}` escape.

/// Escapes control characters (C0, DEL, C1) and Unicode bidi controls.
pub fn escape_for_terminal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let bidi = matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        if c == '\t' {
            out.push_str("\\t");
        } else if c.is_control() || bidi {
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
        let out = escape_for_terminal(hostile);
        assert!(!out.chars().any(|c| c.is_control()), "{out:?}");
        assert_eq!(out, "ok\\u{1b}[31mred\\u{d}\\u{a}\\u{202e}txt.exe\\u{85}");
    }

    #[test]
    fn plain_text_is_unchanged() {
        assert_eq!(escape_for_terminal("héllo {\"a\":1}"), "héllo {\"a\":1}");
    }
}
