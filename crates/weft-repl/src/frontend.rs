//! The line editor: rustyline with completion of commands, skill and agent names, hints from
//! `argument-hint`, a history file and multi-line input (a line ending with `\`, or
//! Alt-Enter, continues on the next line).

use std::borrow::Cow;
use std::path::PathBuf;

use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::history::FileHistory;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{
    Cmd, CompletionType, Config, Context, Editor, EventHandler, Helper, KeyCode, KeyEvent,
    Modifiers,
};

use crate::command::CompletionContext;
use crate::registry::CommandRegistry;
use crate::repl::{LineReader, ReadResult};

/// Completion, hints and multi-line validation for the editor.
struct ReplHelper {
    commands: CommandRegistry,
    names: CompletionContext,
}

impl Completer for ReplHelper {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        // Names come from skill and agent files: one that could drive the terminal is not
        // offered (such files are refused when loaded; this holds whatever loads them).
        let (start, mut candidates) = self.commands.complete(line, pos, &self.names);
        candidates.retain(|c| !c.chars().any(weft_types::is_terminal_control));
        Ok((start, candidates))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<String> {
        // An `argument-hint` is a skill file's text, shown inline as the user types.
        self.commands
            .hint(line, pos, &self.names)
            .map(|hint| weft_term::neutralise(&hint).into_owned())
    }
}

impl Highlighter for ReplHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
    }

    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        false
    }
}

impl Validator for ReplHelper {
    fn validate(&self, ctx: &mut ValidationContext<'_>) -> rustyline::Result<ValidationResult> {
        if ctx.input().ends_with('\\') {
            Ok(ValidationResult::Incomplete)
        } else {
            Ok(ValidationResult::Valid(None))
        }
    }
}

impl Helper for ReplHelper {}

/// A line ending with `\` continued on the next: the backslash and newline become a newline.
pub fn join_continuations(input: &str) -> String {
    input.replace("\\\n", "\n")
}

/// The terminal line editor.
pub struct LineEditor {
    editor: Editor<ReplHelper, FileHistory>,
    history: Option<PathBuf>,
}

impl std::fmt::Debug for LineEditor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineEditor")
            .field("history", &self.history)
            .finish_non_exhaustive()
    }
}

impl LineEditor {
    /// An editor completing `commands`, keeping its history in `history` (loaded now,
    /// appended after every line; the directory is created when missing).
    pub fn new(commands: CommandRegistry, history: Option<PathBuf>) -> rustyline::Result<Self> {
        let config = Config::builder()
            .auto_add_history(false)
            .completion_type(CompletionType::List)
            .history_ignore_dups(true)?
            .history_ignore_space(true)
            .max_history_size(2000)?
            .build();
        let mut editor: Editor<ReplHelper, FileHistory> = Editor::with_config(config)?;
        editor.set_helper(Some(ReplHelper {
            commands,
            names: CompletionContext::default(),
        }));
        editor.bind_sequence(
            KeyEvent(KeyCode::Enter, Modifiers::ALT),
            EventHandler::Simple(Cmd::Newline),
        );
        if let Some(path) = &history {
            if let Some(dir) = path.parent()
                && let Err(e) = std::fs::create_dir_all(dir)
            {
                tracing::warn!(path = %dir.display(), error = %e, "cannot create the history directory");
            }
            match editor.load_history(path) {
                Ok(()) => {}
                Err(ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => {
                    tracing::warn!(path = %path.display(), error = %e, "cannot read the history file");
                }
            }
        }
        Ok(Self { editor, history })
    }

    fn remember(&mut self, line: &str) {
        match self.editor.add_history_entry(line) {
            Ok(true) => {}
            Ok(false) => return,
            Err(e) => {
                tracing::warn!(error = %e, "cannot add to the history");
                return;
            }
        }
        if let Some(path) = &self.history
            && let Err(e) = self.editor.append_history(path)
        {
            tracing::warn!(path = %path.display(), error = %e, "cannot write the history file");
        }
    }
}

impl LineReader for LineEditor {
    fn read_line(
        &mut self,
        prompt: &str,
        names: &CompletionContext,
    ) -> std::io::Result<ReadResult> {
        if let Some(helper) = self.editor.helper_mut() {
            helper.names.clone_from(names);
        }
        match self.editor.readline(prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    self.remember(&line);
                }
                Ok(ReadResult::Line(join_continuations(&line)))
            }
            Err(ReadlineError::Interrupted) => Ok(ReadResult::Interrupted),
            Err(ReadlineError::Eof) => Ok(ReadResult::Eof),
            Err(ReadlineError::Io(e)) => Err(e),
            Err(e) => Err(std::io::Error::other(e.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuations_join_with_newlines() {
        assert_eq!(
            join_continuations("one \\\ntwo\\\nthree"),
            "one \ntwo\nthree"
        );
        assert_eq!(join_continuations("a \\ b"), "a \\ b");
    }
}
