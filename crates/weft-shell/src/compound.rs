//! Compound commands: `if`, `while`/`until`, `for`/`select`, `case`, functions, `coproc`,
//! `((...))` and `[[ ... ]]`. Their inner lists are parsed like any other, so every simple
//! command inside is found.

use super::analysis::Context;
use super::parse::{Parser, R, syntax};
use super::word::Word;

impl Parser<'_, '_> {
    pub(super) fn do_group(&mut self) -> R<()> {
        self.expect("do")?;
        self.list(&["done"])?;
        self.expect("done")
    }

    pub(super) fn if_clause(&mut self) -> R<()> {
        self.pos += 2;
        self.enter()?;
        self.list(&["then"])?;
        self.expect("then")?;
        self.list(&["elif", "else", "fi"])?;
        loop {
            match self.reserved() {
                Some("elif") => {
                    self.pos += 4;
                    self.list(&["then"])?;
                    self.expect("then")?;
                    self.list(&["elif", "else", "fi"])?;
                }
                Some("else") => {
                    self.pos += 4;
                    self.list(&["fi"])?;
                }
                _ => break,
            }
        }
        self.expect("fi")?;
        self.depth -= 1;
        Ok(())
    }

    pub(super) fn for_clause(&mut self, keyword: &str) -> R<()> {
        self.pos += keyword.len();
        self.enter()?;
        self.skip_blanks();
        if self.rest().starts_with("((") {
            self.arithmetic_command()?;
            self.skip_blanks();
            if self.peek() == Some(b';') {
                self.pos += 1;
            }
        } else {
            let name = self.word()?.ok_or_else(|| syntax("`for` needs a name"))?;
            if !name.is_literal() {
                return Err(syntax("the `for` variable is not a plain name"));
            }
            self.linebreak()?;
            if self.reserved() == Some("in") {
                self.pos += 2;
                // The words are expanded: lexing them records their substitutions.
                loop {
                    self.skip_blanks();
                    match self.peek() {
                        Some(b';') => {
                            self.pos += 1;
                            break;
                        }
                        Some(b'\n') | None => break,
                        _ => {
                            self.word()?.ok_or_else(|| self.unexpected())?;
                        }
                    }
                }
            } else if self.peek() == Some(b';') {
                self.pos += 1;
            }
        }
        self.linebreak()?;
        self.do_group()?;
        self.depth -= 1;
        Ok(())
    }

    pub(super) fn case_clause(&mut self) -> R<()> {
        self.pos += 4;
        self.enter()?;
        self.skip_blanks();
        self.word()?.ok_or_else(|| syntax("`case` needs a word"))?;
        self.expect("in")?;
        loop {
            self.linebreak()?;
            if self.reserved() == Some("esac") {
                self.pos += 4;
                break;
            }
            if self.peek() == Some(b'(') {
                self.pos += 1;
            }
            loop {
                self.skip_blanks();
                self.word()?.ok_or_else(|| self.unexpected())?;
                self.skip_blanks();
                match self.peek() {
                    Some(b'|') => self.pos += 1,
                    Some(b')') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(self.unexpected()),
                }
            }
            self.list(&[";;", "esac"])?;
            let rest = self.rest();
            if rest.starts_with(";;&") {
                self.bash_only("`;;&`")?;
                self.pos += 3;
            } else if rest.starts_with(";&") {
                self.bash_only("`;&`")?;
                self.pos += 2;
            } else if rest.starts_with(";;") {
                self.mark_substitutions(false);
                self.pos += 2;
            } else if self.reserved() != Some("esac") {
                return Err(syntax("unclosed `case`"));
            }
        }
        self.depth -= 1;
        Ok(())
    }

    pub(super) fn function_keyword(&mut self) -> R<()> {
        self.pos += "function".len();
        self.skip_blanks();
        let name = self
            .word()?
            .ok_or_else(|| syntax("`function` needs a name"))?;
        self.skip_blanks();
        if self.rest().starts_with('(') {
            self.pos += 1;
            self.skip_blanks();
            if self.peek() != Some(b')') {
                return Err(syntax(
                    "`(` of a function definition must be followed by `)`",
                ));
            }
            self.pos += 1;
        }
        self.function_body(name.text().to_owned())
    }

    pub(super) fn function_body(&mut self, name: String) -> R<()> {
        self.linebreak()?;
        self.sink.functions.push(name.clone());
        self.nested(Context::FunctionBody { name }, |p| p.command())
    }

    pub(super) fn coproc(&mut self) -> R<()> {
        self.pos += "coproc".len();
        self.skip_blanks();
        let compound_start = |p: &Self| {
            p.peek() == Some(b'(')
                || matches!(
                    p.reserved(),
                    Some("{" | "if" | "while" | "until" | "for" | "select" | "case" | "[[")
                )
        };
        if !compound_start(self) {
            // `coproc NAME compound`: skip the name when a compound command follows it.
            let save = self.pos;
            let _ = self.word()?;
            self.skip_blanks();
            if !compound_start(self) {
                self.pos = save;
            }
        }
        self.command()
    }

    /// `((...))`: arithmetic, checked by the lexer.
    pub(super) fn arithmetic_command(&mut self) -> R<()> {
        self.arithmetic(2, true).map(|_| ())
    }

    /// `[[ ... ]]`: kept as a command named `[[` with its operand words.
    pub(super) fn conditional(&mut self) -> R<()> {
        self.pos += 2;
        let mut words = vec![Word::literal("[[")];
        let mut regex_next = false;
        loop {
            self.skip_blanks();
            if self.reserved() == Some("]]") {
                self.pos += 2;
                break;
            }
            let rest = self.rest();
            match self.peek() {
                None => return Err(syntax("unclosed `[[`")),
                Some(b'\n') => self.newline()?,
                _ if rest.starts_with("&&") || rest.starts_with("||") => self.pos += 2,
                Some(b'(' | b')' | b'<' | b'>') if !regex_next => self.pos += 1,
                Some(b'!') if matches!(self.peek_at(1), Some(b' ' | b'\t' | b'(')) => self.pos += 1,
                Some(b';' | b'&' | b'|') => return Err(self.unexpected()),
                _ => {
                    let word = if regex_next {
                        self.regex_word()?
                    } else {
                        self.word()?
                    };
                    let word = word.ok_or_else(|| self.unexpected())?;
                    regex_next = word.text() == "=~" && word.is_literal();
                    words.push(word);
                }
            }
        }
        self.push_command(words, Vec::new());
        self.compound_redirects()
    }
}
