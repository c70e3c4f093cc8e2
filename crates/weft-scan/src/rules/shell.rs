//! A forgiving reading of shell text for the checks that look past one regex: statements,
//! their words with quotes removed and variables of the same file filled in, and where each
//! part of a word came from.
//!
//! This is not the permission analyser's parser (which judges one command that is about to
//! run, and refuses what it cannot parse): the scanner reads whole files, prose included,
//! written to mislead, and never refuses. Quotes end at the end of a line, anything it does
//! not understand stays as written, and every word keeps its *pieces*: the runs of text that
//! were one literal in the source. A word like `curl` whose letters come from several pieces
//! (`c"u"rl`, `$a$b`, `cu\rl`) or from decoding (`$'\x63…'`, `$(printf '\143…')`,
//! `$(echo lruc | rev)`, `$(echo Y3VybA== | base64 -d)`) was put together to hide it.

use std::collections::HashMap;

use base64::Engine as _;

/// A run of text that was one literal in the source, or the output of a decoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Piece {
    pub text: String,
    /// It came out of an escape sequence, a reversal or base64.
    pub decoded: bool,
}

/// One word of a statement, its pieces in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Word {
    pub pieces: Vec<Piece>,
    /// Byte offset of the word's start in the scanned text.
    pub start: usize,
}

impl Word {
    /// The word as the shell would see it.
    pub(crate) fn text(&self) -> String {
        self.pieces.iter().map(|p| p.text.as_str()).collect()
    }

    /// [`text`](Self::text), borrowed when the word is one piece.
    pub(crate) fn as_text(&self) -> std::borrow::Cow<'_, str> {
        match self.pieces.as_slice() {
            [one] => std::borrow::Cow::Borrowed(one.text.as_str()),
            _ => std::borrow::Cow::Owned(self.text()),
        }
    }

    /// True when the byte range `range` of [`text`](Self::text) spans more than one piece or
    /// touches a decoded one.
    pub(crate) fn assembled(&self, range: std::ops::Range<usize>) -> bool {
        let mut offset = 0;
        let mut touched = 0;
        for piece in &self.pieces {
            let span = offset..offset + piece.text.len();
            offset = span.end;
            if span.start < range.end && range.start < span.end && !piece.text.is_empty() {
                if piece.decoded {
                    return true;
                }
                touched += 1;
            }
        }
        touched > 1
    }

    fn push_char(&mut self, c: char, decoded: bool, new_piece: bool) {
        match self.pieces.last_mut() {
            Some(last) if !new_piece && last.decoded == decoded => last.text.push(c),
            _ => self.pieces.push(Piece {
                text: c.to_string(),
                decoded,
            }),
        }
    }

    /// True when the word is exactly `text`.
    fn is(&self, text: &str) -> bool {
        self.pieces.len() == 1 && self.pieces[0].text == text
    }

    fn push(&mut self, text: &str, decoded: bool, new_piece: bool) {
        match self.pieces.last_mut() {
            Some(last) if !new_piece && last.decoded == decoded => last.text.push_str(text),
            _ => self.pieces.push(Piece {
                text: text.to_owned(),
                decoded,
            }),
        }
    }

    fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }
}

/// A part of a statement: a word, or an operator (`|`, `>`, `>>`, `<`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Token {
    Word(Word),
    Op(&'static str),
}

/// One statement (split at `;`, `&&`, `||`, `&` and line ends).
#[derive(Debug, Clone, Default)]
pub(crate) struct Statement {
    pub tokens: Vec<Token>,
    /// Byte offset of its start in the scanned text.
    pub start: usize,
    /// Its source text.
    pub raw: String,
    /// A variable of the file was filled in, or something decoded.
    pub filled: bool,
}

impl Statement {
    /// The words, operators left out.
    pub(crate) fn words(&self) -> impl Iterator<Item = &Word> {
        self.tokens.iter().filter_map(|t| match t {
            Token::Word(w) => Some(w),
            Token::Op(_) => None,
        })
    }

    /// The statement with its words as the shell would see them, separated by spaces.
    pub(crate) fn expanded(&self) -> String {
        let parts: Vec<String> = self
            .tokens
            .iter()
            .map(|t| match t {
                Token::Word(w) => w.text(),
                Token::Op(op) => (*op).to_owned(),
            })
            .collect();
        parts.join(" ")
    }
}

/// The variables assigned so far in a file, each as the pieces of its value.
#[derive(Debug, Default)]
pub(crate) struct Variables(HashMap<String, Vec<Piece>>);

/// Words that only prefix the assignments after them.
const DECLARATIONS: [&str; 5] = ["export", "local", "readonly", "declare", "typeset"];

impl Variables {
    /// Records the assignments at the start of `statement` (`a=cu`, `export B="x"`).
    pub(crate) fn assign(&mut self, statement: &Statement) {
        for word in statement.words() {
            let text = word.text();
            if DECLARATIONS.contains(&text.as_str()) || text.starts_with('-') {
                continue;
            }
            let Some((name, value)) = split_assignment(word) else {
                break;
            };
            self.0.insert(name, value);
        }
    }

    fn get(&self, name: &str) -> Option<&[Piece]> {
        self.0.get(name).map(Vec::as_slice)
    }
}

/// `NAME=value` as the name and the value's pieces; `None` for any other word. The name must
/// be a literal at the word's start.
fn split_assignment(word: &Word) -> Option<(String, Vec<Piece>)> {
    let first = word.pieces.first().filter(|p| !p.decoded)?;
    let (name, rest) = first.text.split_once('=')?;
    let mut chars = name.chars();
    let valid = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return None;
    }
    let mut value = Vec::new();
    if !rest.is_empty() {
        value.push(Piece {
            text: rest.to_owned(),
            decoded: false,
        });
    }
    value.extend(word.pieces[1..].iter().cloned());
    Some((name.to_owned(), value))
}

/// Reads `text` as shell: its statements in order, each read with the variables assigned
/// before it (`vars` is updated as it goes), passed to `each`.
pub(crate) fn statements(text: &str, vars: &mut Variables, mut each: impl FnMut(&Statement)) {
    let mut offset = 0;
    for line in logical_lines(text) {
        let mut lexer = Lexer {
            chars: line.char_indices().peekable(),
            line,
            base: offset,
            filled: false,
        };
        while let Some(statement) = lexer.statement(vars) {
            vars.assign(&statement);
            if !statement.tokens.is_empty() {
                each(&statement);
            }
        }
        offset += line.len();
    }
}

/// The lines of `text`, a line that ends in a backslash joined with the next.
fn logical_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut end = 0;
        loop {
            let line_end = rest[end..].find('\n').map_or(rest.len(), |i| end + i + 1);
            let content = rest[end..line_end].trim_end_matches(['\n', '\r']);
            let backslashes = content.len() - content.trim_end_matches('\\').len();
            end = line_end;
            if backslashes.is_multiple_of(2) || end == rest.len() {
                break;
            }
        }
        let (line, tail) = rest.split_at(end);
        rest = tail;
        Some(line)
    })
}

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    line: &'a str,
    base: usize,
    /// The statement being read had a variable filled in or text decoded.
    filled: bool,
}

impl Lexer<'_> {
    /// The next statement of the line, `None` at its end.
    fn statement(&mut self, vars: &Variables) -> Option<Statement> {
        let &(begin, _) = self.chars.peek()?;
        self.filled = false;
        let mut statement = Statement {
            start: self.base + begin,
            ..Statement::default()
        };
        let mut word = Word::default();
        // The next text starts a new piece (after a quote, an expansion, an escape).
        let mut fresh = false;
        let mut end = self.line.len();
        let finish = |word: &mut Word, tokens: &mut Vec<Token>| {
            if !word.is_empty() {
                tokens.push(Token::Word(std::mem::take(word)));
            }
        };
        while let Some((at, c)) = self.chars.next() {
            if word.is_empty() {
                word.start = self.base + at;
            }
            match c {
                '\n' | '\r' | ';' => {
                    end = at;
                    break;
                }
                '&' | '|' if self.next_is(c) => {
                    self.chars.next();
                    end = at;
                    break;
                }
                '&' => {
                    // `>&2`, `&>` are redirections, not a background `&`.
                    let redirect = self.line[..at].ends_with('>') || self.next_is('>');
                    if !redirect {
                        end = at;
                        break;
                    }
                    word.push("&", false, fresh);
                    fresh = false;
                }
                ' ' | '\t' => finish(&mut word, &mut statement.tokens),
                '|' => {
                    finish(&mut word, &mut statement.tokens);
                    statement.tokens.push(Token::Op("|"));
                }
                '>' | '<' => {
                    // `2>`, `2>&1` and `>&2` stay words: only plain redirections matter here.
                    if word.is("2") || (c == '>' && self.next_is('&')) {
                        word.push_char(c, false, fresh);
                        continue;
                    }
                    finish(&mut word, &mut statement.tokens);
                    let op = if c == '>' && self.next_is('>') {
                        self.chars.next();
                        ">>"
                    } else if c == '>' {
                        ">"
                    } else {
                        "<"
                    };
                    statement.tokens.push(Token::Op(op));
                }
                '\'' => {
                    let text = self.until('\'');
                    word.push(&text, false, true);
                    fresh = true;
                }
                '"' => {
                    self.double_quoted(&mut word, vars);
                    fresh = true;
                }
                '\\' => {
                    if let Some((_, next)) = self.chars.next() {
                        if next == '\r' && self.next_is('\n') {
                            self.chars.next();
                            continue;
                        }
                        if next == '\n' {
                            finish(&mut word, &mut statement.tokens);
                            continue;
                        }
                        // A backslash at a word's start only escapes (`\curl` skips an
                        // alias); inside a word it splits it (`cu\rl`).
                        word.push_char(next, false, !word.is_empty());
                        fresh = false;
                    }
                }
                '$' => {
                    self.expansion(&mut word, vars);
                    fresh = true;
                }
                '`' => {
                    self.backquoted(&mut word);
                    fresh = true;
                }
                _ => {
                    word.push_char(c, false, fresh);
                    fresh = false;
                }
            }
        }
        finish(&mut word, &mut statement.tokens);
        statement.raw = self.line[begin..end.min(self.line.len())].to_owned();
        statement.filled = self.filled;
        Some(statement)
    }

    fn next_is(&mut self, c: char) -> bool {
        self.chars.peek().is_some_and(|&(_, n)| n == c)
    }

    /// The text up to `close` (consumed), or to the end of the line.
    fn until(&mut self, close: char) -> String {
        let mut text = String::new();
        for (_, c) in self.chars.by_ref() {
            if c == close {
                break;
            }
            text.push(c);
        }
        text
    }

    /// The rest of a `"…"`: text, `$` expansions, the escapes a double quote keeps.
    fn double_quoted(&mut self, word: &mut Word, vars: &Variables) {
        let mut fresh = true;
        while let Some((_, c)) = self.chars.next() {
            match c {
                '"' => return,
                '\\' if self
                    .chars
                    .peek()
                    .is_some_and(|&(_, n)| matches!(n, '$' | '`' | '"' | '\\')) =>
                {
                    if let Some((_, n)) = self.chars.next() {
                        word.push_char(n, false, fresh);
                        fresh = false;
                    }
                }
                '$' => {
                    self.expansion(word, vars);
                    fresh = true;
                }
                '`' => {
                    self.backquoted(word);
                    fresh = true;
                }
                _ => {
                    word.push_char(c, false, fresh);
                    fresh = false;
                }
            }
        }
    }

    /// The rest of a `` `…` ``: decoded when it only decodes, else kept as written.
    fn backquoted(&mut self, word: &mut Word) {
        let inner = self.until('`');
        match decode_substitution(&inner) {
            Some(decoded) => {
                self.filled = true;
                word.push(&decoded, true, true);
            }
            None => word.push(&format!("`{inner}`"), false, true),
        }
    }

    /// After a `$`: a variable (filled in when known), `$'…'`, `$(…)`, or a plain `$`.
    fn expansion(&mut self, word: &mut Word, vars: &Variables) {
        match self.chars.peek().map(|&(_, c)| c) {
            Some('\'') => {
                self.chars.next();
                let raw = self.until('\'');
                let (text, escaped) = unescape(&raw, true);
                self.filled |= escaped;
                word.push(&text, escaped, true);
            }
            Some('(') => {
                self.chars.next();
                let inner = self.balanced();
                match decode_substitution(&inner) {
                    Some(decoded) => {
                        self.filled = true;
                        word.push(&decoded, true, true);
                    }
                    None => word.push(&format!("$({inner})"), false, true),
                }
            }
            Some('{') => {
                self.chars.next();
                let inner = self.until('}');
                match braced(&inner, vars) {
                    Some(pieces) => {
                        self.filled = true;
                        for piece in pieces {
                            word.push(&piece.text, piece.decoded, true);
                        }
                    }
                    None => word.push(&format!("${{{inner}}}"), false, true),
                }
            }
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                let mut name = String::new();
                while let Some(&(_, c)) = self.chars.peek() {
                    if !(c.is_ascii_alphanumeric() || c == '_') {
                        break;
                    }
                    name.push(c);
                    self.chars.next();
                }
                match vars.get(&name) {
                    Some(pieces) => {
                        self.filled = true;
                        for piece in pieces {
                            word.push(&piece.text, piece.decoded, true);
                        }
                    }
                    None => word.push(&format!("${name}"), false, true),
                }
            }
            _ => word.push("$", false, false),
        }
    }

    /// The text up to the `)` that closes an opened `(` (nested ones counted).
    fn balanced(&mut self) -> String {
        let mut depth = 1;
        let mut text = String::new();
        for (_, c) in self.chars.by_ref() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            text.push(c);
        }
        text
    }
}

/// `${NAME}`, `${NAME:OFFSET[:LENGTH]}`, `${NAME:-DEFAULT}` (and `-`, `:=`, `=`) with the
/// variables known; `None` for anything else (it stays as written).
fn braced(inner: &str, vars: &Variables) -> Option<Vec<Piece>> {
    let name_end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    let (name, rest) = inner.split_at(name_end);
    if name.is_empty() {
        return None;
    }
    let value = vars.get(name);
    if rest.is_empty() {
        return value.map(<[Piece]>::to_vec);
    }
    for op in [":-", ":=", "-", "="] {
        if let Some(default) = rest.strip_prefix(op) {
            return Some(value.map(<[Piece]>::to_vec).unwrap_or_else(|| {
                vec![Piece {
                    text: default.to_owned(),
                    decoded: false,
                }]
            }));
        }
    }
    let range = rest.strip_prefix(':')?;
    let (offset, length) = match range.split_once(':') {
        Some((o, l)) => (
            o.trim().parse::<usize>().ok()?,
            Some(l.trim().parse().ok()?),
        ),
        None => (range.trim().parse::<usize>().ok()?, None),
    };
    let text: String = value?.iter().map(|p| p.text.as_str()).collect();
    let chars: Vec<char> = text.chars().skip(offset).collect();
    let taken: String = match length {
        Some(l) => chars.into_iter().take(l).collect(),
        None => chars.into_iter().collect(),
    };
    // A slice of a value hides its origin: it counts as decoded.
    Some(vec![Piece {
        text: taken,
        decoded: true,
    }])
}

/// What a `$(…)` or `` `…` `` that only decodes prints: `printf 'ESCAPES'`, `echo TEXT | rev`,
/// `echo TEXT | base64 -d`; `None` for any other command.
pub(crate) fn decode_substitution(inner: &str) -> Option<String> {
    let inner = inner.trim();
    if let Some(rest) = inner.strip_prefix("printf") {
        let format = quoted_argument(rest.trim())?;
        if format.contains('%') && !format.contains("%%") {
            return None;
        }
        let (text, _) = unescape(&format.replace("%%", "%"), false);
        return Some(text);
    }
    let (left, right) = inner.rsplit_once('|')?;
    let right = right.trim();
    let argument = left.trim().strip_prefix("echo")?.trim();
    let argument = argument
        .strip_prefix("-n ")
        .or_else(|| argument.strip_prefix("-e "))
        .unwrap_or(argument)
        .trim();
    let argument = quoted_argument(argument).unwrap_or_else(|| argument.to_owned());
    if right == "rev" {
        return Some(argument.chars().rev().collect());
    }
    let base64 = right.strip_prefix("base64")?.trim();
    if !matches!(base64, "-d" | "--decode" | "-D" | "-di" | "-id") {
        return None;
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(argument.trim())
        .ok()?;
    String::from_utf8(decoded).ok()
}

/// `'text'` or `"text"` (the whole of `arg`) without its quotes.
fn quoted_argument(arg: &str) -> Option<String> {
    let quote = arg.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let inner = arg.strip_prefix(quote)?.strip_suffix(quote)?;
    Some(inner.to_owned())
}

/// Backslash escapes decoded: `\xHH`, `\NNN` (octal; `\0NNN` too), `\n`, `\t`, `\\`, and, in
/// `$'…'`, `\'`. Also whether any escape was decoded.
pub(crate) fn unescape(raw: &str, ansi_c: bool) -> (String, bool) {
    let mut out = String::new();
    let mut escaped = false;
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(&next) = chars.peek() else {
            out.push('\\');
            break;
        };
        let digits =
            |radix: u32, max: usize, chars: &mut std::iter::Peekable<std::str::Chars<'_>>| {
                let mut value = 0u32;
                let mut count = 0;
                while count < max {
                    match chars.peek().and_then(|d| d.to_digit(radix)) {
                        Some(d) => {
                            value = value * radix + d;
                            count += 1;
                            chars.next();
                        }
                        None => break,
                    }
                }
                (count > 0).then(|| char::from_u32(value)).flatten()
            };
        let decoded = match next {
            'x' => {
                chars.next();
                digits(16, 2, &mut chars)
            }
            '0'..='7' => {
                if next == '0' {
                    chars.next();
                    digits(8, 3, &mut chars).or(Some('\0'))
                } else {
                    digits(8, 3, &mut chars)
                }
            }
            'n' => {
                chars.next();
                Some('\n')
            }
            't' => {
                chars.next();
                Some('\t')
            }
            '\\' => {
                chars.next();
                Some('\\')
            }
            '\'' if ansi_c => {
                chars.next();
                Some('\'')
            }
            _ => None,
        };
        match decoded {
            Some(d) => {
                out.push(d);
                escaped = true;
            }
            None => out.push('\\'),
        }
    }
    (out, escaped)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<Statement> {
        let mut vars = Variables::default();
        let mut out = Vec::new();
        statements(text, &mut vars, |s| out.push(s.clone()));
        out
    }

    fn words(text: &str) -> Vec<Vec<String>> {
        read(text)
            .iter()
            .map(|s| s.words().map(Word::text).collect())
            .collect()
    }

    #[test]
    fn statements_split_at_separators_and_keep_redirections() {
        assert_eq!(
            words("a=1; b && c || d & e\nf 2>&1 >&2 > out"),
            [
                vec!["a=1"],
                vec!["b"],
                vec!["c"],
                vec!["d"],
                vec!["e"],
                vec!["f", "2>&1", ">&2", "out"]
            ]
        );
        let s = &read("curl x > /tmp/f | tee y")[0];
        assert_eq!(s.expanded(), "curl x > /tmp/f | tee y");
    }

    #[test]
    fn a_backslash_at_the_end_of_a_line_continues_the_statement() {
        assert_eq!(
            words("curl -o f \\\n  https://x/p\nnext"),
            [vec!["curl", "-o", "f", "https://x/p"], vec!["next"]]
        );
    }

    #[test]
    fn variables_quotes_and_escapes_are_filled_in() {
        assert_eq!(
            words("a=cu; b=rl; $a$b -s x | sh")[2],
            ["curl", "-s", "x", "sh"]
        );
        assert_eq!(words("x=cur y=l; ${x}${y}")[1], ["curl"]);
        assert_eq!(
            words(r#"c"u"'r'l cu\rl \curl"#)[0],
            ["curl", "curl", "curl"]
        );
        assert_eq!(words(r"$'\x63\165rl'")[0], ["curl"]);
        assert_eq!(words(r"$(printf '\143\165\162\154')")[0], ["curl"]);
        assert_eq!(words("`echo lruc | rev`")[0], ["curl"]);
        assert_eq!(words("$(echo Y3VybA== | base64 -d)")[0], ["curl"]);
        assert_eq!(words("v=abcurl; ${v:2} ${v:2:2}")[1], ["curl", "cu"]);
        assert_eq!(
            words("${NOPE:-wget} $UNKNOWN $(date)")[0],
            ["wget", "$UNKNOWN", "$(date)"]
        );
    }

    #[test]
    fn pieces_say_what_was_put_together() {
        let word = |text: &str| read(text).pop().unwrap().words().next().unwrap().clone();
        let curl = 0..4;
        assert!(word(r#"c"url""#).assembled(curl.clone()));
        assert!(word(r"cu\rl").assembled(curl.clone()));
        assert!(word(r"$'\x63url'").assembled(curl.clone()));
        assert!(!word(r"\curl").assembled(curl.clone()));
        assert!(!word("\"curl\"").assembled(curl.clone()));
        assert!(!word("x=curl; $x").text().is_empty());
        let aliased = read("x=curl; $x").pop().unwrap();
        assert!(!aliased.words().next().unwrap().assembled(curl));
        let path = read("P=\"$HOME/bin/python\"; $P").pop().unwrap();
        let text = path.words().next().unwrap().text();
        let at = text.find("python").unwrap();
        assert!(!path.words().next().unwrap().assembled(at..at + 6));
    }

    #[test]
    fn prose_and_broken_quotes_never_fail() {
        for text in [
            "Don't run it, it's $5 (or `more`",
            "\"unclosed",
            "$(unclosed",
            "${",
            "\\",
            "$'\\x'",
            "é\\é 'ü",
        ] {
            let _ = read(text);
        }
    }
}
