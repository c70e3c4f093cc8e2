//! Words: quotes, escapes and expansions, lexed the way bash does.
//!
//! Quote removal gives each word's text; every expansion (`$x`, `${...}`, `$(...)`, backquotes,
//! `$((...))`, globs, brace expansion, `~`) makes the word non-literal. Command and process
//! substitutions are parsed on the spot, so the commands inside them are found too.

use super::analysis::Context;
use super::dialect::Dialect;
use super::parse::{Parser, R, not_posix, syntax};
use super::word::{Word, WordBuilder};

/// Bytes that end a run of plain characters.
fn special(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t'
            | b'\n'
            | b';'
            | b'&'
            | b'|'
            | b'('
            | b')'
            | b'<'
            | b'>'
            | b'\\'
            | b'\''
            | b'"'
            | b'$'
            | b'`'
            | b'*'
            | b'?'
            | b'['
    )
}

const ARITHMETIC_ON_VARIABLES: &str =
    "arithmetic on variables can run commands (through array subscripts)";

impl Parser<'_, '_> {
    /// Lexes the word at the current position; `None` when none starts here.
    pub(crate) fn word(&mut self) -> R<Option<Word>> {
        self.word_in(false)
    }

    /// The right-hand side of `=~` in `[[ ]]`: parentheses and `|` belong to the word.
    pub(crate) fn regex_word(&mut self) -> R<Option<Word>> {
        self.word_in(true)
    }

    fn word_in(&mut self, regex: bool) -> R<Option<Word>> {
        let mut w = WordBuilder::new();
        let mut parens = 0usize;
        while let Some(b) = self.peek() {
            match b {
                b'(' | b')' | b'|' | b'<' | b'>' if regex => {
                    if b == b'(' {
                        parens += 1;
                    } else if b == b')' {
                        if parens == 0 {
                            break;
                        }
                        parens -= 1;
                    }
                    w.quoted_char(b as char);
                    self.pos += 1;
                }
                b' ' | b'\t' if regex && parens > 0 => {
                    w.quoted_char(b as char);
                    self.pos += 1;
                }
                b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b')' => break,
                b'<' | b'>' => {
                    if self.peek_at(1) != Some(b'(') {
                        break;
                    }
                    self.bash_only("process substitution `<(...)`")?;
                    self.process_substitution(&mut w)?;
                }
                b'(' => {
                    if w.is_assignment_prefix() {
                        self.bash_only("an array assignment `NAME=(...)`")?;
                        self.array_value(&mut w)?;
                    } else if !w.is_empty() && w.text.ends_with(['?', '*', '+', '@', '!']) {
                        return Err(syntax("extended globs `?(...)` are not analysed"));
                    } else {
                        break;
                    }
                }
                b'#' if w.is_empty() => break,
                b'~' if w.is_empty() => {
                    w.plain("~");
                    w.expansion(false, false);
                    self.pos += 1;
                }
                b'\\' => self.escape(&mut w),
                b'\'' => self.single_quoted(&mut w)?,
                b'"' => {
                    self.pos += 1;
                    self.double_quoted(&mut w, true)?;
                }
                b'$' => self.dollar(&mut w, false)?,
                b'`' => self.backquote(&mut w, false)?,
                b'*' | b'?' => {
                    let at_start = w.text.is_empty();
                    w.plain(if b == b'*' { "*" } else { "?" });
                    w.expansion(true, at_start);
                    self.pos += 1;
                }
                b'[' => {
                    let at_start = w.text.is_empty();
                    let rest = self.rest();
                    let end = rest
                        .find([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')'])
                        .unwrap_or(rest.len());
                    w.plain("[");
                    if rest[1..end].contains(']') {
                        w.expansion(true, at_start);
                    }
                    self.pos += 1;
                }
                _ => {
                    let rest = self.rest();
                    let len = rest.bytes().position(special).unwrap_or(rest.len());
                    w.plain(&rest[..len]);
                    self.pos += len;
                }
            }
        }
        Ok((!w.is_empty()).then(|| w.finish()))
    }

    /// Refuses `what`, a construct of bash's, when the command runs in `/bin/sh`.
    pub(crate) fn bash_only(&self, what: &str) -> R<()> {
        match self.dialect {
            Dialect::Bash => Ok(()),
            Dialect::Posix => Err(not_posix(what)),
        }
    }

    /// `\x` outside quotes: `x` itself; `\` + newline: nothing.
    fn escape(&mut self, w: &mut WordBuilder) {
        let rest = self.rest();
        match rest[1..].chars().next() {
            Some('\n') => self.pos += 2,
            Some(c) => {
                w.quoted_char(c);
                self.pos += 1 + c.len_utf8();
            }
            None => {
                w.quoted_char('\\');
                self.pos += 1;
            }
        }
    }

    fn single_quoted(&mut self, w: &mut WordBuilder) -> R<()> {
        let rest = &self.rest()[1..];
        let end = rest
            .find('\'')
            .ok_or_else(|| syntax("unclosed single quote"))?;
        w.mark_quoted();
        w.quoted(&rest[..end]);
        self.pos += end + 2;
        Ok(())
    }

    /// The inside of `"..."` (after the opening quote). With `closing` false this is a heredoc
    /// body: `"` is an ordinary character and the text runs to the end.
    pub(crate) fn double_quoted(&mut self, w: &mut WordBuilder, closing: bool) -> R<()> {
        w.mark_quoted();
        loop {
            match self.peek() {
                None if closing => return Err(syntax("unclosed double quote")),
                None => return Ok(()),
                Some(b'"') if closing => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(b'\\') => match self.peek_at(1) {
                    Some(b'\n') => self.pos += 2,
                    Some(c @ (b'$' | b'`' | b'\\')) => {
                        w.quoted_char(c as char);
                        self.pos += 2;
                    }
                    Some(b'"') if closing => {
                        w.quoted_char('"');
                        self.pos += 2;
                    }
                    _ => {
                        w.quoted_char('\\');
                        self.pos += 1;
                    }
                },
                Some(b'$') => self.dollar(w, true)?,
                Some(b'`') => self.backquote(w, true)?,
                Some(_) => {
                    let rest = self.rest();
                    let len = rest
                        .bytes()
                        .position(|b| matches!(b, b'"' | b'\\' | b'$' | b'`'))
                        .unwrap_or(rest.len());
                    let len = if closing || len > 0 { len } else { 1 };
                    w.quoted(&rest[..len]);
                    self.pos += len;
                }
            }
        }
    }

    /// The body of an unquoted heredoc: expansions run, so it is lexed like `"..."`.
    pub(crate) fn heredoc_word(&mut self, body: &str) -> R<Word> {
        let context = self.context.clone();
        let mut child = Parser::child(body, &mut *self.sink, context, self.depth, self.dialect);
        let mut w = WordBuilder::new();
        child.double_quoted(&mut w, false)?;
        Ok(w.finish())
    }

    /// `$...` at the current position.
    fn dollar(&mut self, w: &mut WordBuilder, in_quotes: bool) -> R<()> {
        let rest = self.rest();
        let start = self.pos;
        if rest.starts_with("$((") {
            let at_start = w.text.is_empty();
            self.arithmetic(3, false)?;
            w.quoted(&self.src[start..self.pos]);
            w.expansion(false, at_start);
        } else if rest.starts_with("$(") {
            self.pos += 2;
            self.substitution(Context::CommandSubstitution)?;
            w.expansion_text(&self.src[start..self.pos], !in_quotes);
        } else if rest.starts_with("${") {
            self.parameter()?;
            w.expansion_text(&self.src[start..self.pos], !in_quotes);
        } else if rest.starts_with("$[") {
            self.bash_only("`$[...]` arithmetic")?;
            let at_start = w.text.is_empty();
            self.arithmetic(2, false)?;
            w.quoted(&self.src[start..self.pos]);
            w.expansion(false, at_start);
        } else if !in_quotes && rest.starts_with("$'") {
            self.bash_only("`$'...'` quoting")?;
            self.ansi_c(w)?;
        } else if !in_quotes && rest.starts_with("$\"") {
            self.bash_only("`$\"...\"` quoting")?;
            self.pos += 2;
            self.double_quoted(w, true)?;
        } else {
            let bytes = rest.as_bytes();
            let len = match bytes.get(1) {
                Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {
                    1 + bytes[1..]
                        .iter()
                        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                        .count()
                }
                Some(b'0'..=b'9' | b'@' | b'*' | b'#' | b'?' | b'-' | b'$' | b'!') => 2,
                _ => {
                    if in_quotes {
                        w.quoted("$");
                    } else {
                        w.plain("$");
                    }
                    self.pos += 1;
                    return Ok(());
                }
            };
            self.pos += len;
            w.expansion_text(&rest[..len], !in_quotes);
        }
        Ok(())
    }

    /// The inside of `$(...)` / `<(...)` up to and including the closing parenthesis.
    pub(crate) fn list_until_paren(&mut self) -> R<()> {
        self.list(&[")"])?;
        self.skip_blanks();
        if self.peek() != Some(b')') {
            return Err(syntax("unclosed `$(`"));
        }
        self.pos += 1;
        Ok(())
    }

    fn process_substitution(&mut self, w: &mut WordBuilder) -> R<()> {
        let start = self.pos;
        self.pos += 2;
        self.substitution(Context::ProcessSubstitution)?;
        w.expansion_text(&self.src[start..self.pos], false);
        Ok(())
    }

    /// Backquotes: the body is unescaped, then parsed on its own.
    fn backquote(&mut self, w: &mut WordBuilder, in_quotes: bool) -> R<()> {
        let start = self.pos;
        self.pos += 1;
        let mut inner = String::new();
        loop {
            let rest = self.rest();
            let mut chars = rest.chars();
            match chars.next() {
                None => return Err(syntax("unclosed backquote")),
                Some('`') => {
                    self.pos += 1;
                    break;
                }
                Some('\\') => match chars.next() {
                    Some(c @ ('$' | '`' | '\\')) => {
                        inner.push(c);
                        self.pos += 2;
                    }
                    // A line continuation goes before the body is read, quotes or not.
                    Some('\n') => self.pos += 2,
                    Some('"') if in_quotes => {
                        inner.push('"');
                        self.pos += 2;
                    }
                    _ => {
                        inner.push('\\');
                        self.pos += 1;
                    }
                },
                Some(c) => {
                    inner.push(c);
                    self.pos += c.len_utf8();
                }
            }
        }
        self.sub_parse(&inner, Context::CommandSubstitution)?;
        w.expansion_text(&self.src[start..self.pos], !in_quotes);
        Ok(())
    }

    /// `${...}`: finds its end, records substitutions inside, refuses indirection and
    /// subscripts that are evaluated as arithmetic.
    fn parameter(&mut self) -> R<()> {
        self.pos += 2;
        let body_start = self.pos;
        if self.peek() == Some(b'!') {
            self.note("indirect expansion `${!...}` can run commands (through array subscripts)");
        }
        if self.peek() == Some(b'#') {
            self.pos += 1;
        }
        let name_len = self
            .rest()
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        self.pos += name_len;
        if self.peek() == Some(b'[') {
            self.bash_only("an array subscript `${NAME[...]}`")?;
            let rest = &self.rest()[1..];
            let end = rest.find(']').unwrap_or(rest.len());
            if !rest[..end]
                .bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b'@' | b'*' | b' '))
            {
                self.note("array subscripts are evaluated as arithmetic and can run commands");
            }
        }
        let mut scratch = WordBuilder::new();
        loop {
            match self.peek() {
                None => return Err(syntax("unclosed `${`")),
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                Some(b'\\') => {
                    self.pos += 1;
                    if let Some(c) = self.rest().chars().next() {
                        self.pos += c.len_utf8();
                    }
                }
                Some(b'\'') => self.single_quoted(&mut scratch)?,
                Some(b'"') => {
                    self.pos += 1;
                    self.double_quoted(&mut scratch, true)?;
                }
                Some(b'$') => self.dollar(&mut scratch, true)?,
                Some(b'`') => self.backquote(&mut scratch, true)?,
                Some(_) => {
                    let c = self.rest().chars().next().map_or(1, char::len_utf8);
                    self.pos += c;
                }
            }
        }
        if self.src[body_start..self.pos].contains("@P") {
            self.note("the `@P` operator expands a value as a prompt, which can run commands");
        }
        Ok(())
    }

    /// `$((...))`, `$[...]` (`open` bytes at the current position) or the `((...))` command.
    /// Only arithmetic on numbers is analysable: a name may hold an array subscript that runs
    /// a command when it is evaluated.
    pub(crate) fn arithmetic(&mut self, open: usize, command: bool) -> R<()> {
        let bracket = !command && open == 2;
        self.pos += open;
        let mut depth = 0usize;
        let mut variables = false;
        let mut scratch = WordBuilder::new();
        loop {
            let rest = self.rest();
            match self.peek() {
                None => return Err(syntax("unclosed arithmetic expansion")),
                Some(b']') if bracket && depth == 0 => {
                    self.pos += 1;
                    break;
                }
                Some(b')') if !bracket && depth == 0 && rest.starts_with("))") => {
                    self.pos += 2;
                    break;
                }
                Some(b'(') => {
                    depth += 1;
                    self.pos += 1;
                }
                Some(b')') => {
                    depth = depth.saturating_sub(1);
                    self.pos += 1;
                }
                Some(b'$') => {
                    if !rest.starts_with("$(") {
                        variables = true;
                    }
                    self.dollar(&mut scratch, true)?;
                }
                Some(b'`') => self.backquote(&mut scratch, true)?,
                Some(b) if b.is_ascii_alphabetic() || b == b'_' || b == b'[' => {
                    // `0x1F` and `2#101` are numbers; any other letter is a name.
                    let prev = self.src.as_bytes().get(self.pos.wrapping_sub(1)).copied();
                    if !matches!(prev, Some(b'0'..=b'9' | b'#')) {
                        variables = true;
                    }
                    self.pos += 1;
                }
                Some(b'\'' | b'"') => {
                    variables = true;
                    self.pos += 1;
                }
                Some(_) => {
                    let c = rest.chars().next().map_or(1, char::len_utf8);
                    self.pos += c;
                }
            }
        }
        if variables {
            self.note(ARITHMETIC_ON_VARIABLES);
        }
        Ok(())
    }

    /// `NAME=( ... )`: the elements of an array assignment.
    fn array_value(&mut self, w: &mut WordBuilder) -> R<()> {
        self.pos += 1;
        w.quoted("(");
        loop {
            self.skip_blanks();
            match self.peek() {
                Some(b')') => {
                    self.pos += 1;
                    break;
                }
                Some(b'\n') => self.pos += 1,
                Some(b'#') => {
                    let rest = self.rest();
                    self.pos += rest.find('\n').unwrap_or(rest.len());
                }
                None => return Err(syntax("unclosed array assignment")),
                _ => {
                    let element = self.word()?.ok_or_else(|| syntax("bad array element"))?;
                    if !element.is_literal() {
                        w.expansion(true, false);
                    }
                    w.quoted(element.text());
                    w.quoted(" ");
                }
            }
        }
        w.quoted(")");
        Ok(())
    }

    /// `$'...'`: ANSI-C quoting, decoded (`$'\x72m'` is `rm`).
    fn ansi_c(&mut self, w: &mut WordBuilder) -> R<()> {
        self.pos += 2;
        w.mark_quoted();
        let at_start = w.text.is_empty();
        // A NUL ends the string for the program; the rest up to the quote is dropped.
        let mut truncated = false;
        loop {
            let rest = self.rest();
            let mut chars = rest.chars();
            let decoded = match chars.next() {
                None => return Err(syntax("unclosed `$'`")),
                Some('\'') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some('\\') => {
                    let (decoded, len) = decode_escape(&rest[1..]);
                    self.pos += 1 + len;
                    decoded
                }
                Some(c) => {
                    self.pos += c.len_utf8();
                    Escape::Char(c)
                }
            };
            match decoded {
                _ if truncated => {}
                Escape::Char('\0') => truncated = true,
                Escape::Char(c) => w.quoted_char(c),
                Escape::Text(s) => w.quoted(s),
                Escape::Byte => {
                    w.quoted_char(char::REPLACEMENT_CHARACTER);
                    w.expansion(false, at_start);
                }
            }
        }
    }
}

/// One decoded `$'...'` escape.
enum Escape {
    Char(char),
    Text(&'static str),
    /// A byte that is not valid UTF-8 on its own: the word's text cannot be known.
    Byte,
}

/// Decodes the escape after a backslash: `(value, bytes consumed)`.
fn decode_escape(s: &str) -> (Escape, usize) {
    let mut chars = s.chars();
    let Some(c) = chars.next() else {
        return (Escape::Text("\\"), 0);
    };
    let simple = match c {
        'a' => Some('\x07'),
        'b' => Some('\x08'),
        'e' | 'E' => Some('\x1b'),
        'f' => Some('\x0c'),
        'n' => Some('\n'),
        'r' => Some('\r'),
        't' => Some('\t'),
        'v' => Some('\x0b'),
        '\\' | '\'' | '"' | '?' => Some(c),
        _ => None,
    };
    if let Some(value) = simple {
        return (Escape::Char(value), 1);
    }
    let digits = |radix: u32, max: usize, from: usize| -> (u32, usize) {
        let mut value = 0u32;
        let mut n = 0;
        for b in s.bytes().skip(from).take(max) {
            match (b as char).to_digit(radix) {
                Some(d) => {
                    value = value * radix + d;
                    n += 1;
                }
                None => break,
            }
        }
        (value, n)
    };
    let (value, len, unicode) = match c {
        '0'..='7' => {
            let (v, n) = digits(8, 3, 0);
            (v, n, false)
        }
        'x' => {
            let (v, n) = digits(16, 2, 1);
            if n == 0 {
                return (Escape::Text("\\x"), 1);
            }
            (v, n + 1, false)
        }
        'u' | 'U' => {
            let (v, n) = digits(16, if c == 'u' { 4 } else { 8 }, 1);
            if n == 0 {
                return (Escape::Byte, 1);
            }
            (v, n + 1, true)
        }
        'c' => match chars.next() {
            Some(x) if x.is_ascii() => return (Escape::Char(((x as u8) & 0x1f) as char), 2),
            _ => return (Escape::Byte, 1),
        },
        other => {
            // Unknown escapes keep their backslash; the character is read again as text.
            let _ = other;
            return (Escape::Text("\\"), 0);
        }
    };
    if !unicode && value > 0x7f {
        return (Escape::Byte, len);
    }
    match char::from_u32(value) {
        Some(ch) => (Escape::Char(ch), len),
        None => (Escape::Byte, len),
    }
}
