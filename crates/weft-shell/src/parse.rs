//! The grammar: lists, pipelines, compound commands, redirections and heredocs, into the raw
//! simple commands the walk then unwraps (see `walk.rs`).
//!
//! A recursive-descent parser over the bytes of the command, close to bash's own grammar.
//! Anything it does not understand is a syntax error, and the caller marks the command as
//! unanalysable: the parser never guesses.

use super::analysis::{Context, Unanalysable};
use super::dialect::Dialect;
use super::heredoc::Pending;
use super::word::Word;

/// How deep subshells, groups, substitutions and `sh -c` strings may nest.
pub(crate) const MAX_DEPTH: usize = 32;

/// Why parsing stopped: a syntax error (or a construct the analyser refuses), or a construct
/// the shell that runs the command reads differently from bash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Syntax {
    /// A syntax error, with its reason.
    Error(String),
    /// A construct whose meaning differs between the shells weft may run: the whole reason.
    Dialect(String),
}

pub(crate) type R<T> = Result<T, Syntax>;

pub(crate) fn syntax(reason: impl Into<String>) -> Syntax {
    Syntax::Error(reason.into())
}

/// `what` (a construct, as written: "`$'...'` quoting") is bash's, and `/bin/sh` reads it
/// otherwise: parsing stops, since what follows may mean something else too.
pub(crate) fn not_posix(what: &str) -> Syntax {
    Syntax::Dialect(format!(
        "{what} means one thing to bash and may mean another to `/bin/sh`, which runs the command"
    ))
}

/// What a redirection does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RedirectKind {
    /// `<` (and `<&word` with a file).
    Read,
    /// `>`, `>>`, `>|`, `<>`, `&>`, `&>>`, `>&file`.
    Write,
    /// `2>&1`, `>&-`: file descriptors only.
    Duplicate,
    /// `<<` / `<<-`, with the body's index in [`Sink::heredocs`].
    Heredoc(usize),
    /// `<<<word`.
    HereString,
}

/// One redirection of a command.
#[derive(Debug, Clone)]
pub(crate) struct Redirect {
    pub(crate) kind: RedirectKind,
    pub(crate) target: Word,
}

/// A simple command as parsed: its words (assignments first) and redirections.
#[derive(Debug, Clone)]
pub(crate) struct RawCommand {
    pub(crate) words: Vec<Word>,
    pub(crate) redirects: Vec<Redirect>,
    pub(crate) context: Vec<Context>,
    pub(crate) depth: usize,
    /// The language of the shell that runs it.
    pub(crate) dialect: Dialect,
}

/// Everything found while parsing one call's command, nested strings included.
#[derive(Debug, Default)]
pub(crate) struct Sink {
    pub(crate) commands: Vec<RawCommand>,
    pub(crate) unanalysable: Vec<Unanalysable>,
    pub(crate) functions: Vec<String>,
    pub(crate) heredocs: Vec<Word>,
}

/// The parser of one string (a command, or a nested `sh -c` string or backquote body).
pub(crate) struct Parser<'s, 'k> {
    pub(super) src: &'s str,
    pub(super) pos: usize,
    pub(super) depth: usize,
    pub(super) sink: &'k mut Sink,
    pub(super) context: Vec<Context>,
    /// The language of the shell that reads `src`.
    pub(super) dialect: Dialect,
    pub(super) pending: Vec<Pending>,
    /// The command and process substitutions being parsed, innermost last: whether each has
    /// had a heredoc and a `;` (see [`Parser::substitution`]).
    pub(super) substitutions: Vec<(bool, bool)>,
}

/// Reserved words (recognised only as a whole unquoted word where a command starts).
const RESERVED: &[&str] = &[
    "if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while", "until", "for",
    "in", "select", "function", "time", "coproc", "{", "}", "!", "[[", "]]",
];

/// Parses `src`, read by a shell of `dialect`, into `sink`; a syntax error makes it
/// unanalysable (what was found before the error is kept: it may run all the same).
pub(crate) fn parse_into(
    src: &str,
    sink: &mut Sink,
    context: Vec<Context>,
    depth: usize,
    dialect: Dialect,
) {
    let mut parser = Parser {
        src,
        pos: 0,
        depth,
        sink,
        context,
        dialect,
        pending: Vec::new(),
        substitutions: Vec::new(),
    };
    if let Err(stop) = parser.script() {
        let reason = match stop {
            Syntax::Error(reason) => format!("the command cannot be parsed: {reason}"),
            Syntax::Dialect(reason) => reason,
        };
        let context = parser.context.clone();
        parser
            .sink
            .unanalysable
            .push(Unanalysable::new(reason, context));
    }
}

impl<'s, 'k> Parser<'s, 'k> {
    fn script(&mut self) -> R<()> {
        if self.depth > MAX_DEPTH {
            return Err(syntax(format!(
                "it nests more than {MAX_DEPTH} levels deep"
            )));
        }
        self.list(&[])?;
        if self.pos < self.src.len() {
            return Err(self.unexpected());
        }
        self.read_heredocs()
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
    }

    pub(super) fn peek_at(&self, n: usize) -> Option<u8> {
        self.src.as_bytes().get(self.pos + n).copied()
    }

    pub(super) fn rest(&self) -> &'s str {
        self.src.get(self.pos..).unwrap_or("")
    }

    pub(super) fn unexpected(&self) -> Syntax {
        match self.rest().chars().next() {
            None => syntax("the command ends too early"),
            Some('\n') => syntax("unexpected newline"),
            Some(c) => syntax(format!("unexpected `{c}` at byte {}", self.pos)),
        }
    }

    /// Enters a nested construct.
    pub(super) fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(syntax(format!(
                "it nests more than {MAX_DEPTH} levels deep"
            )));
        }
        Ok(())
    }

    /// Runs `f` one level deeper, under `context`.
    pub(super) fn nested<T>(
        &mut self,
        context: Context,
        f: impl FnOnce(&mut Self) -> R<T>,
    ) -> R<T> {
        self.enter()?;
        self.context.push(context);
        let result = f(self);
        self.context.pop();
        self.depth -= 1;
        result
    }

    /// The body of `$(...)` or `<(...)` after its opening, up to and including `)`.
    ///
    /// bash 5.2 runs such a body from a copy it prints from the parsed commands, and when the
    /// body has a heredoc that copy loses `;` separators (`$(cat <<E ... E` then `a; b`) runs
    /// `a b`): what it runs then depends on the version, so the body is unanalysable.
    pub(super) fn substitution(&mut self, context: Context) -> R<()> {
        self.substitutions.push((false, false));
        let result = self.nested(context, |p| p.list_until_paren());
        let marks = self.substitutions.pop();
        result?;
        if self.dialect == Dialect::Bash && marks == Some((true, true)) {
            return Err(Syntax::Dialect(
                "bash runs a command substitution that has a heredoc from a copy that can lose its `;` separators".to_owned(),
            ));
        }
        Ok(())
    }

    /// Marks the substitutions being parsed as having a heredoc (`heredoc`) or a `;`.
    pub(super) fn mark_substitutions(&mut self, heredoc: bool) {
        for marks in &mut self.substitutions {
            if heredoc {
                marks.0 = true;
            } else {
                marks.1 = true;
            }
        }
    }

    /// A parser of `src`, in the same shell's language, that adds to `sink`.
    pub(super) fn child(
        src: &'s str,
        sink: &'k mut Sink,
        context: Vec<Context>,
        depth: usize,
        dialect: Dialect,
    ) -> Self {
        Parser {
            src,
            pos: 0,
            depth,
            sink,
            context,
            dialect,
            pending: Vec::new(),
            substitutions: Vec::new(),
        }
    }

    /// Parses `text` (a backquote body, a heredoc body) with its own parser into the same sink.
    pub(super) fn sub_parse(&mut self, text: &str, context: Context) -> R<()> {
        let mut chain = self.context.clone();
        chain.push(context);
        let mut child = Parser {
            src: text,
            pos: 0,
            depth: self.depth + 1,
            sink: &mut *self.sink,
            context: chain,
            dialect: self.dialect,
            pending: Vec::new(),
            substitutions: Vec::new(),
        };
        child.script()
    }

    /// Records a part that cannot be analysed.
    pub(super) fn note(&mut self, reason: impl Into<String>) {
        let context = self.context.clone();
        self.sink
            .unanalysable
            .push(Unanalysable::new(reason.into(), context));
    }

    /// Skips spaces, tabs and line continuations.
    pub(super) fn skip_blanks(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t') => self.pos += 1,
                Some(b'\\') if self.peek_at(1) == Some(b'\n') => self.pos += 2,
                _ => return,
            }
        }
    }

    /// Skips blanks, comments and newlines (reading heredoc bodies after each newline).
    pub(super) fn linebreak(&mut self) -> R<()> {
        loop {
            self.skip_blanks();
            match self.peek() {
                Some(b'#') => self.skip_comment(),
                Some(b'\n') => self.newline()?,
                _ => return Ok(()),
            }
        }
    }

    fn skip_comment(&mut self) {
        let rest = self.rest();
        self.pos += rest.find('\n').unwrap_or(rest.len());
    }

    /// Consumes a newline and the heredoc bodies that start after it.
    pub(super) fn newline(&mut self) -> R<()> {
        self.pos += 1;
        self.read_heredocs()
    }

    /// The reserved word at the current position, if any.
    pub(super) fn reserved(&self) -> Option<&'static str> {
        let rest = self.rest().as_bytes();
        // Every reserved word starts with one of these bytes.
        if !matches!(
            rest.first(),
            Some(
                b'i' | b't'
                    | b'e'
                    | b'f'
                    | b'd'
                    | b'c'
                    | b'w'
                    | b'u'
                    | b's'
                    | b'{'
                    | b'}'
                    | b'!'
                    | b'['
                    | b']'
            )
        ) {
            return None;
        }
        let end = rest
            .iter()
            .position(|b| {
                matches!(
                    b,
                    b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')'
                )
            })
            .unwrap_or(rest.len());
        let word = &rest[..end];
        RESERVED.iter().find(|r| r.as_bytes() == word).copied()
    }

    /// Consumes the reserved word `word` or fails.
    pub(super) fn expect(&mut self, word: &str) -> R<()> {
        self.linebreak()?;
        if self.reserved() == Some(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(syntax(format!("`{word}` expected at byte {}", self.pos)))
        }
    }

    /// True when the list being parsed ends here (before one of `stop`).
    fn at_list_end(&self, stop: &[&str]) -> bool {
        match self.peek() {
            None => true,
            Some(b')') => stop.contains(&")"),
            Some(b';') if matches!(self.peek_at(1), Some(b';' | b'&')) => stop.contains(&";;"),
            _ => self.reserved().is_some_and(|r| stop.contains(&r)),
        }
    }

    /// A list of and-or lists separated by `;`, `&` or newlines, up to one of `stop`.
    pub(super) fn list(&mut self, stop: &[&str]) -> R<()> {
        loop {
            self.linebreak()?;
            if self.at_list_end(stop) {
                return Ok(());
            }
            self.and_or()?;
            self.skip_blanks();
            match self.peek() {
                Some(b';') if !matches!(self.peek_at(1), Some(b';' | b'&')) => {
                    self.mark_substitutions(false);
                    self.pos += 1;
                }
                Some(b'&') => self.pos += 1,
                Some(b'\n' | b'#') => {}
                _ if self.at_list_end(stop) => return Ok(()),
                _ => return Err(self.unexpected()),
            }
        }
    }

    fn and_or(&mut self) -> R<()> {
        loop {
            self.pipeline()?;
            self.skip_blanks();
            let rest = self.rest();
            if rest.starts_with("&&") || rest.starts_with("||") {
                self.pos += 2;
                self.linebreak()?;
            } else {
                return Ok(());
            }
        }
    }

    fn pipeline(&mut self) -> R<()> {
        loop {
            self.skip_blanks();
            match self.reserved() {
                Some("!") => self.pos += 1,
                // `/bin/sh` has no `time` keyword: there it is the program `time`.
                Some("time") if self.dialect == Dialect::Bash => {
                    // bash's keyword takes only `-p`. With any other option this is the
                    // program `time` (which dash, having no such keyword, always runs): its
                    // options are read as a wrapper's (`time -o FILE cmd`).
                    let keyword = self.pos;
                    self.pos += 4;
                    self.skip_blanks();
                    let rest = self.rest();
                    let blank = |at: usize| {
                        matches!(rest.as_bytes().get(at), None | Some(b' ' | b'\t' | b'\n'))
                    };
                    let mut after = 0;
                    if rest.starts_with("-p") && blank(2) {
                        after = 2;
                        while matches!(rest.as_bytes().get(after), Some(b' ' | b'\t')) {
                            after += 1;
                        }
                    }
                    if rest[after..].starts_with('-') {
                        self.pos = keyword;
                        break;
                    }
                    self.pos += after;
                }
                _ => break,
            }
        }
        loop {
            self.command()?;
            self.skip_blanks();
            if self.peek() == Some(b'|') && self.peek_at(1) != Some(b'|') {
                self.pos += 1;
                if self.peek() == Some(b'&') {
                    self.bash_only("`|&`")?;
                    self.pos += 1;
                }
                self.linebreak()?;
            } else {
                return Ok(());
            }
        }
    }

    pub(super) fn command(&mut self) -> R<()> {
        self.skip_blanks();
        match self.peek() {
            None => return Err(syntax("a command is missing at the end")),
            Some(b'(') => {
                if self.peek_at(1) == Some(b'(') {
                    // dash reads `((` as two subshells.
                    self.bash_only("an arithmetic command `((...))`")?;
                    self.arithmetic_command()?;
                } else {
                    self.pos += 1;
                    self.nested(Context::Subshell, |p| p.list(&[")"]))?;
                    self.close_paren("(")?;
                }
                return self.compound_redirects();
            }
            Some(b')' | b';' | b'&' | b'|' | b'\n') => return Err(self.unexpected()),
            _ => {}
        }
        if let Some(word @ ("[[" | "function" | "select" | "coproc")) = self.reserved() {
            self.bash_only(&format!("`{word}`"))?;
        }
        match self.reserved() {
            Some("{") => {
                self.pos += 1;
                self.enter()?;
                self.list(&["}"])?;
                self.expect("}")?;
                self.depth -= 1;
            }
            Some("if") => self.if_clause()?,
            Some(kw @ ("while" | "until")) => {
                self.pos += kw.len();
                self.enter()?;
                self.list(&["do"])?;
                self.do_group()?;
                self.depth -= 1;
            }
            Some(kw @ ("for" | "select")) => self.for_clause(kw)?,
            Some("case") => self.case_clause()?,
            Some("function") => return self.function_keyword(),
            Some("[[") => return self.conditional(),
            Some("coproc") => return self.coproc(),
            Some(r @ ("}" | "then" | "else" | "elif" | "fi" | "do" | "done" | "esac")) => {
                return Err(syntax(format!("unexpected `{r}`")));
            }
            _ => return self.simple_command(),
        }
        self.compound_redirects()
    }

    pub(super) fn close_paren(&mut self, open: &str) -> R<()> {
        self.linebreak()?;
        if self.peek() == Some(b')') {
            self.pos += 1;
            Ok(())
        } else {
            Err(syntax(format!("unclosed `{open}`")))
        }
    }

    /// Redirections after a compound command, kept as a command without words.
    pub(super) fn compound_redirects(&mut self) -> R<()> {
        let mut redirects = Vec::new();
        loop {
            self.skip_blanks();
            if !self.redirect(&mut redirects)? {
                break;
            }
        }
        if !redirects.is_empty() {
            self.push_command(Vec::new(), redirects);
        }
        Ok(())
    }

    pub(super) fn push_command(&mut self, words: Vec<Word>, redirects: Vec<Redirect>) {
        self.sink.commands.push(RawCommand {
            words,
            redirects,
            context: self.context.clone(),
            depth: self.depth,
            dialect: self.dialect,
        });
    }

    fn simple_command(&mut self) -> R<()> {
        let mut words: Vec<Word> = Vec::new();
        let mut redirects = Vec::new();
        loop {
            self.skip_blanks();
            if self.redirect(&mut redirects)? {
                continue;
            }
            match self.peek() {
                None | Some(b'\n' | b';' | b'&' | b'|' | b')' | b'#') => break,
                Some(b'(') => {
                    if words.len() == 1 && redirects.is_empty() {
                        self.pos += 1;
                        self.skip_blanks();
                        if self.peek() != Some(b')') {
                            return Err(syntax("`(` after a command name"));
                        }
                        self.pos += 1;
                        let name = words.remove(0);
                        return self.function_body(name.text().to_owned());
                    }
                    return Err(self.unexpected());
                }
                _ => match self.word()? {
                    Some(word) => words.push(word),
                    None => return Err(self.unexpected()),
                },
            }
        }
        if words.is_empty() && redirects.is_empty() {
            return Err(self.unexpected());
        }
        self.push_command(words, redirects);
        Ok(())
    }

    /// Parses a redirection at the current position, if there is one.
    fn redirect(&mut self, out: &mut Vec<Redirect>) -> R<bool> {
        let bytes = self.src.as_bytes();
        if !matches!(
            bytes.get(self.pos),
            Some(b'0'..=b'9' | b'<' | b'>' | b'&' | b'{')
        ) {
            return Ok(false);
        }
        let mut at = self.pos;
        while bytes.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        if at == self.pos && bytes.get(at) == Some(&b'{') {
            // `{name}>file`: a descriptor chosen by the shell.
            let close = self.rest().find('}').map(|i| self.pos + i);
            if let Some(close) = close
                && self.src[self.pos + 1..close]
                    .bytes()
                    .all(|b| b == b'_' || b.is_ascii_alphanumeric())
                && matches!(bytes.get(close + 1), Some(b'<' | b'>'))
            {
                self.bash_only("a descriptor chosen by the shell `{NAME}>`")?;
                at = close + 1;
            }
        }
        let rest = &self.src[at..];
        let plain = at == self.pos;
        let (kind, len, strip) = if plain && rest.starts_with("&>>") {
            (RedirectKind::Write, 3, false)
        } else if plain && rest.starts_with("&>") {
            (RedirectKind::Write, 2, false)
        } else if rest.starts_with("<<<") {
            (RedirectKind::HereString, 3, false)
        } else if rest.starts_with("<<-") {
            (RedirectKind::Heredoc(0), 3, true)
        } else if rest.starts_with("<<") {
            (RedirectKind::Heredoc(0), 2, false)
        } else if rest.starts_with("<>") || rest.starts_with(">>") || rest.starts_with(">|") {
            (RedirectKind::Write, 2, false)
        } else if rest.starts_with("<&") {
            (RedirectKind::Read, 2, true)
        } else if rest.starts_with(">&") {
            (RedirectKind::Write, 2, true)
        } else if rest.starts_with("<(") || rest.starts_with(">(") {
            return Ok(false);
        } else if rest.starts_with('<') {
            (RedirectKind::Read, 1, false)
        } else if rest.starts_with('>') {
            (RedirectKind::Write, 1, false)
        } else {
            return Ok(false);
        };
        if (plain && rest.starts_with("&>")) || rest.starts_with("<<<") {
            self.bash_only(&format!("`{}`", &rest[..len]))?;
        }
        let duplicating = len == 2 && strip && !matches!(kind, RedirectKind::Heredoc(_));
        self.pos = at + len;
        self.skip_blanks();
        if duplicating && self.peek() == Some(b'-') {
            // bash closes the descriptor at `-` and reads what follows as the next word
            // (`2>&-x` is `2>&-` and `x`); dash refuses it.
            self.pos += 1;
            let word_follows = !matches!(
                self.peek(),
                None | Some(b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b')' | b'<' | b'>')
            );
            if word_follows {
                self.bash_only("`>&-` followed by a word")?;
            }
            let target = Word::literal("-");
            out.push(Redirect {
                kind: RedirectKind::Duplicate,
                target,
            });
            return Ok(true);
        }
        let target = self
            .word()?
            .ok_or_else(|| syntax("a redirection has no target"))?;
        let kind = match kind {
            RedirectKind::Heredoc(_) => {
                self.mark_substitutions(true);
                let index = self.sink.heredocs.len();
                self.sink.heredocs.push(Word::literal(""));
                self.pending.push(Pending {
                    delimiter: target.text().to_owned(),
                    strip_tabs: strip,
                    expand: !target.was_quoted(),
                    index,
                });
                RedirectKind::Heredoc(index)
            }
            _ if duplicating && is_descriptor(&target) => RedirectKind::Duplicate,
            // bash's `>&FILE` is `&> FILE`; to dash a descriptor must follow.
            _ if duplicating => {
                self.bash_only("`>&` to a file")?;
                kind
            }
            other => other,
        };
        out.push(Redirect { kind, target });
        Ok(true)
    }
}

/// `1`, `2-`, `-`: the target of a descriptor duplication.
fn is_descriptor(word: &Word) -> bool {
    let text = word.text().strip_suffix('-').unwrap_or(word.text());
    word.is_literal() && text.bytes().all(|b| b.is_ascii_digit())
}
