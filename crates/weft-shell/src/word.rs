//! Words: one shell word after quote removal, and what the shell may still do to it.

use std::fmt;

/// One word of a command, after quote removal.
///
/// Expansions are kept as written (`$HOME`, `$(date)`, `*.rs`): such a word is not
/// [literal](Word::is_literal), because the shell replaces it before the program sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    text: String,
    flags: u8,
    /// Byte index of the `=` of a leading `NAME=` (an assignment word), if any.
    assign: Option<u32>,
}

/// The shell expands the word (parameter, command or arithmetic substitution, glob, brace
/// expansion, tilde): the program sees something else.
const DYNAMIC: u8 = 1;
/// An unquoted expansion: the word may become zero or several words.
const SPLITS: u8 = 2;
/// The first character comes from an expansion: the word may start with `-` (an option).
const DYNAMIC_START: u8 = 4;
/// Some part was quoted or escaped (so it is never a reserved word or an operator).
const QUOTED: u8 = 8;

impl Word {
    /// A literal word: the shell passes `text` as it is.
    pub fn literal(text: impl Into<String>) -> Self {
        let text = text.into();
        let assign = text
            .find('=')
            .filter(|&at| valid_name(&text[..at]))
            .map(|at| at as u32);
        Self {
            text,
            flags: 0,
            assign,
        }
    }

    /// A word standing for something only known when the command runs (`{}` of `find -exec`,
    /// arguments `xargs` appends, `$HOME`): not literal.
    pub fn placeholder(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            flags: DYNAMIC,
            assign: None,
        }
    }

    /// A word of `text`, a part of this word (an option's attached value, the value of an
    /// assignment): literal when this word is.
    pub(crate) fn part(&self, text: &str) -> Self {
        if self.is_literal() {
            Self::literal(text)
        } else {
            Self::placeholder(text)
        }
    }

    /// The text after quote removal; expansions as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// True when the shell passes exactly [`text`](Word::text) to the program.
    pub fn is_literal(&self) -> bool {
        self.flags & DYNAMIC == 0
    }

    /// True when the word may become zero or several words (an unquoted expansion or glob).
    pub fn splits(&self) -> bool {
        self.flags & SPLITS != 0
    }

    /// True when the word may start with `-` although its text does not (or does).
    pub(crate) fn may_be_option(&self) -> bool {
        self.flags & DYNAMIC_START != 0 || self.text.starts_with('-')
    }

    /// True when some part of the word was quoted or escaped.
    pub(crate) fn was_quoted(&self) -> bool {
        self.flags & QUOTED != 0
    }

    /// `(name, value)` of an assignment word `NAME=value` / `NAME+=value`.
    pub(crate) fn assignment(&self) -> Option<(&str, &str)> {
        let at = self.assign? as usize;
        let name = self.text.get(..at)?;
        let name = name.strip_suffix('+').unwrap_or(name);
        Some((name, self.text.get(at + 1..)?))
    }
}

impl fmt::Display for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Builds a word while it is lexed.
#[derive(Debug, Default)]
pub(crate) struct WordBuilder {
    pub(crate) text: String,
    flags: u8,
    /// Source characters consumed (a word of only `''` is still a word).
    pub(crate) started: bool,
    /// The word so far is `NAME` (unquoted name characters): an `=` makes it an assignment.
    name_only: bool,
    assign: Option<u32>,
    /// Open unquoted `{` of a possible brace expansion, and whether a `,`/`..` followed.
    brace_depth: u32,
    brace_sep: bool,
    brace_start: bool,
}

impl WordBuilder {
    pub(crate) fn new() -> Self {
        Self {
            name_only: true,
            ..Self::default()
        }
    }

    /// Appends unquoted literal text.
    pub(crate) fn plain(&mut self, s: &str) {
        self.started = true;
        if self.brace_depth == 0 && !s.contains(['=', '{', '}', ',', '.']) {
            // Nothing but the name state to track: the common case.
            if self.assign.is_none() && self.name_only {
                self.name_only = s
                    .bytes()
                    .all(|b| b == b'_' || b == b'+' || b.is_ascii_alphanumeric());
            }
            self.text.push_str(s);
            return;
        }
        for c in s.chars() {
            self.track_plain(c);
            self.text.push(c);
        }
    }

    fn track_plain(&mut self, c: char) {
        if self.assign.is_none() {
            if c == '=' && self.name_only && valid_name(&self.text) {
                self.assign = Some(self.text.len() as u32);
            } else if !(c == '_' || c == '+' || c.is_ascii_alphanumeric()) {
                self.name_only = false;
            }
        }
        match c {
            '{' => {
                if self.brace_depth == 0 {
                    self.brace_start = self.text.is_empty();
                }
                self.brace_depth += 1;
            }
            ',' if self.brace_depth > 0 => self.brace_sep = true,
            '.' if self.brace_depth > 0 && self.text.ends_with('.') => self.brace_sep = true,
            '}' if self.brace_depth > 0 => {
                self.brace_depth -= 1;
                if self.brace_depth == 0 && self.brace_sep {
                    let start = self.brace_start;
                    self.expansion(true, start);
                    self.brace_sep = false;
                }
            }
            _ => {}
        }
    }

    /// Appends quoted or escaped literal text.
    pub(crate) fn quoted(&mut self, s: &str) {
        self.started = true;
        self.flags |= QUOTED;
        if self.assign.is_none() {
            self.name_only = false;
        }
        self.text.push_str(s);
    }

    /// Appends a quoted or escaped character.
    pub(crate) fn quoted_char(&mut self, c: char) {
        self.started = true;
        self.flags |= QUOTED;
        if self.assign.is_none() {
            self.name_only = false;
        }
        self.text.push(c);
    }

    /// Marks the start of quoting (even an empty `''` makes a word).
    pub(crate) fn mark_quoted(&mut self) {
        self.started = true;
        self.flags |= QUOTED;
        if self.assign.is_none() {
            self.name_only = false;
        }
    }

    /// Appends the source text of an expansion. `unquoted`: it may split into several words.
    pub(crate) fn expansion_text(&mut self, source: &str, unquoted: bool) {
        let at_start = self.text.is_empty();
        self.started = true;
        if self.assign.is_none() {
            self.name_only = false;
        }
        self.text.push_str(source);
        self.expansion(unquoted, at_start);
    }

    /// Records an expansion at the current place.
    pub(crate) fn expansion(&mut self, unquoted: bool, at_start: bool) {
        self.flags |= DYNAMIC;
        if unquoted {
            self.flags |= SPLITS;
        }
        if at_start {
            self.flags |= DYNAMIC_START;
        }
    }

    /// True when nothing has been consumed.
    pub(crate) fn is_empty(&self) -> bool {
        !self.started
    }

    /// True when the word so far is `NAME=` or `NAME+=` (an array assignment may follow).
    pub(crate) fn is_assignment_prefix(&self) -> bool {
        self.assign
            .is_some_and(|a| a as usize + 1 == self.text.len())
    }

    pub(crate) fn finish(self) -> Word {
        Word {
            text: self.text,
            flags: self.flags,
            assign: self.assign,
        }
    }
}

/// True for a shell variable name.
pub(crate) fn valid_name(name: &str) -> bool {
    let name = name.strip_suffix('+').unwrap_or(name);
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}
