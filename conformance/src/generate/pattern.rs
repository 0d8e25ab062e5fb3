//! ECMA-262 `pattern`s rewritten for proptest's regex generator, which reads Rust's regex
//! syntax: where the two dialects differ in meaning, the pattern is spelled out so that the
//! generated strings match what a JavaScript or Python validator would accept.
//!
//! The translation is one left-to-right pass; a construct the generator cannot honour
//! (backreferences, lookarounds, word boundaries) is refused with the reason.

/// An ECMA-262 `pattern` rewritten for proptest's generator: anchors dropped (a full
/// generated string matches them at its ends; the judge checks the rest), and the classes
/// whose ECMA meaning is narrower than Rust's (`\d`, `\w`, `\s`, `.`) spelled out in ASCII.
pub(super) fn translate_pattern(pattern: &str) -> Result<String, String> {
    let mut t = Translator {
        chars: pattern.chars().collect(),
        i: 0,
        out: String::new(),
        in_class: false,
        class_start: false,
    };
    while t.i < t.chars.len() {
        let c = t.chars[t.i];
        t.i += 1;
        if c == '\\' {
            t.escape()?;
        } else if t.in_class {
            t.class_char(c)?;
        } else {
            t.plain_char(c)?;
        }
    }
    Ok(t.out)
}

/// One translation under way: the pattern, where it is read, and what is written so far.
struct Translator {
    chars: Vec<char>,
    /// The next character to read.
    i: usize,
    out: String,
    /// Inside a `[...]` class.
    in_class: bool,
    /// Right after a class's `[` (or `[^`): a `]` here would close an empty class.
    class_start: bool,
}

impl Translator {
    /// The escape after a `\`.
    fn escape(&mut self) -> Result<(), String> {
        let n = *self
            .chars
            .get(self.i)
            .ok_or("the pattern ends in a lone backslash")?;
        self.i += 1;
        self.class_start = false;
        match n {
            'd' | 'w' | 's' | 'D' | 'W' | 'S' => return self.shorthand(n),
            'b' | 'B' if !self.in_class => {
                return Err("word boundaries are not supported by the generator".into())
            }
            'b' => self.out.push_str("\\x08"),
            '1'..='9' | 'k' => {
                return Err("backreferences are not supported by the generator".into())
            }
            '0' => self.out.push_str("\\x00"),
            'v' => self.out.push_str("\\x0B"),
            'f' | 'n' | 'r' | 't' | 'p' | 'P' => {
                self.out.push('\\');
                self.out.push(n);
            }
            'c' => return self.control_escape(),
            'x' => return self.hex_escape(),
            'u' => return self.unicode_escape(),
            n if n.is_ascii_alphanumeric() => {
                return Err(format!(
                    "the escape `\\{n}` is not supported by the generator"
                ))
            }
            n => {
                let mut buf = [0; 4];
                if n.is_ascii() {
                    self.out.push('\\');
                }
                self.out.push_str(n.encode_utf8(&mut buf));
            }
        }
        Ok(())
    }

    /// `\d`, `\w`, `\s` and their negations, in ECMA's ASCII meaning (`\S` excludes what
    /// Rust's `\s` and ECMA's BOM do).
    fn shorthand(&mut self, n: char) -> Result<(), String> {
        let in_class = self.in_class;
        match n {
            'd' => self.out.push_str(if in_class { "0-9" } else { "[0-9]" }),
            'w' => self.out.push_str(if in_class {
                "A-Za-z0-9_"
            } else {
                "[A-Za-z0-9_]"
            }),
            's' => self.out.push_str(if in_class {
                "\\t\\n\\r "
            } else {
                "[\\t\\n\\r ]"
            }),
            'D' | 'W' | 'S' if in_class => {
                return Err(format!(
                    "`\\{n}` inside a class is not supported by the generator"
                ))
            }
            'D' => self.out.push_str("[^0-9]"),
            'W' => self.out.push_str("[^A-Za-z0-9_]"),
            _ => self.out.push_str("[^\\s\\x{FEFF}]"),
        }
        Ok(())
    }

    /// `\cX`: the control character of letter X.
    fn control_escape(&mut self) -> Result<(), String> {
        let letter = self
            .chars
            .get(self.i)
            .filter(|l| l.is_ascii_alphabetic())
            .ok_or("a bad `\\c` escape")?;
        self.i += 1;
        self.out
            .push_str(&format!("\\x{{{:X}}}", (*letter as u32) % 32));
        Ok(())
    }

    /// `\xHH`.
    fn hex_escape(&mut self) -> Result<(), String> {
        let hex: String = self
            .chars
            .get(self.i..self.i + 2)
            .ok_or("a short `\\x` escape")?
            .iter()
            .collect();
        u32::from_str_radix(&hex, 16).map_err(|_| "a bad `\\x` escape")?;
        self.i += 2;
        self.out.push_str(&format!("\\x{{{hex}}}"));
        Ok(())
    }

    /// `\uHHHH` and `\u{H...}`; a lone surrogate is refused.
    fn unicode_escape(&mut self) -> Result<(), String> {
        let chars = &self.chars;
        let i = self.i;
        let code = if chars.get(i) == Some(&'{') {
            let end = chars[i..]
                .iter()
                .position(|c| *c == '}')
                .ok_or("a bad `\\u{}` escape")?;
            let hex: String = chars[i + 1..i + end].iter().collect();
            self.i += end + 1;
            u32::from_str_radix(&hex, 16).map_err(|_| "a bad `\\u` escape")?
        } else {
            let hex: String = chars
                .get(i..i + 4)
                .ok_or("a short `\\u` escape")?
                .iter()
                .collect();
            self.i += 4;
            u32::from_str_radix(&hex, 16).map_err(|_| "a bad `\\u` escape")?
        };
        if char::from_u32(code).is_none() {
            return Err("a surrogate `\\u` escape is not supported by the generator".into());
        }
        self.out.push_str(&format!("\\x{{{code:X}}}"));
        Ok(())
    }

    /// A character inside a class: the ones Rust's class syntax reads as set operations
    /// (`[`, `&&`, `~~`, `--`) escaped.
    fn class_char(&mut self, c: char) -> Result<(), String> {
        match c {
            ']' if self.class_start => return Err("an empty class `[]` matches nothing".into()),
            ']' => self.in_class = false,
            '[' | '&' | '~' => self.out.push('\\'),
            '-' if self.chars.get(self.i) == Some(&'-') => self.out.push('\\'),
            _ => {}
        }
        self.out.push(c);
        self.class_start = false;
        Ok(())
    }

    /// A character outside a class: a class opened, anchors dropped, `.` spelled out, and
    /// lookarounds refused.
    fn plain_char(&mut self, c: char) -> Result<(), String> {
        let chars = &self.chars;
        let i = self.i;
        match c {
            '[' => {
                if chars.get(i) == Some(&'^') && chars.get(i + 1) == Some(&']') {
                    self.out.push_str("(?s:.)");
                    self.i += 2;
                    return Ok(());
                }
                self.out.push('[');
                if chars.get(i) == Some(&'^') {
                    self.out.push('^');
                    self.i += 1;
                }
                self.in_class = true;
                self.class_start = true;
            }
            '^' | '$' => {}
            '.' => self.out.push_str("[^\\n\\r\\x{2028}\\x{2029}]"),
            '(' if chars.get(i) == Some(&'?') => {
                let next = chars.get(i + 1).copied();
                let after = chars.get(i + 2).copied();
                if matches!(next, Some('=') | Some('!'))
                    || (next == Some('<') && matches!(after, Some('=') | Some('!')))
                {
                    return Err("lookarounds are not supported by the generator".into());
                }
                self.out.push(c);
            }
            c => self.out.push(c),
        }
        Ok(())
    }
}
