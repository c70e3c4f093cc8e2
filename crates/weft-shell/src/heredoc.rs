//! Heredoc bodies: read line by line after the newline that ends their command, up to the
//! delimiter; with an unquoted delimiter the body is expanded like a double-quoted string
//! (so the commands in its substitutions are found) and line continuations join lines first.

use super::parse::{Parser, R};
use super::word::Word;

/// A heredoc whose body starts after the next newline.
#[derive(Debug)]
pub(crate) struct Pending {
    pub(crate) delimiter: String,
    pub(crate) strip_tabs: bool,
    pub(crate) expand: bool,
    pub(crate) index: usize,
}

impl Parser<'_, '_> {
    pub(super) fn read_heredocs(&mut self) -> R<()> {
        for pending in std::mem::take(&mut self.pending) {
            let mut body = String::new();
            let mut joined = false;
            while self.pos < self.src.len() {
                let (line, continued) = self.heredoc_line(&pending);
                if line == pending.delimiter {
                    break;
                }
                joined |= continued;
                body.push_str(&line);
                body.push('\n');
            }
            // bash joins the lines inside a command substitution of the body too; dash reads
            // the substitution first, and keeps a backslash-newline inside its quotes.
            if joined && (body.contains("$(") || body.contains('`')) {
                self.bash_only("a line continuation in a heredoc with a command substitution")?;
            }
            let word = if pending.expand {
                self.heredoc_word(&body)?
            } else {
                Word::literal(body)
            };
            if let Some(slot) = self.sink.heredocs.get_mut(pending.index) {
                *slot = word;
            }
        }
        Ok(())
    }

    /// The next line of a heredoc, without its newline (and leading tabs, for `<<-`), and
    /// whether lines were joined. With an unquoted delimiter a backslash at the end of a line
    /// joins the next one to it, before the delimiter is looked for (so `x\` then `E` is the
    /// line `xE`, not the end).
    fn heredoc_line(&mut self, pending: &Pending) -> (String, bool) {
        let mut line = String::new();
        let mut continued = false;
        loop {
            let rest = self.rest();
            let end = rest.find('\n').unwrap_or(rest.len());
            let physical = &rest[..end];
            self.pos += (end + 1).min(rest.len());
            let physical = if pending.strip_tabs && line.is_empty() {
                physical.trim_start_matches('\t')
            } else {
                physical
            };
            let backslashes = physical.len() - physical.trim_end_matches('\\').len();
            let joined = pending.expand && backslashes % 2 == 1 && end < rest.len();
            if !joined {
                line.push_str(physical);
                return (line, continued);
            }
            continued = true;
            line.push_str(&physical[..physical.len() - 1]);
        }
    }
}
