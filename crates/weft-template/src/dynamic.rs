//! Dynamic context: the shell commands a skill body asks to run when it is loaded (Claude
//! Code's `` !`command` `` and ```` ```! ```` blocks), found with the same Markdown code rules
//! the placeholder scanner follows. This is the one parser of them: the session runs what it
//! finds, and the static scanner (weft-scan) reports the same commands.
//!
//! * **Inline**: `!` immediately followed by a one-backtick code span, the `!` at the start
//!   of a line or right after whitespace (as Claude Code: `` KEY=!`cmd` `` is text). The span
//!   follows the code-span rules of the scanner: it closes on the next single backtick, may
//!   continue over a line but not over a blank line or a fence. A span with two or more
//!   backticks (``` !``cmd`` ```), one inside a fenced block or inside another code span
//!   (``` `` !`cmd` `` ```), and one whose `!` is escaped (`` \!`cmd` ``) is text.
//! * **Fenced**: a backtick fence whose info string is exactly `!` (```` ```! ````), closed by
//!   a fence line; its whole content is one command (a script). An unclosed ```` ```! ```` is
//!   an ordinary code block and runs nothing.
//!
//! ```
//! use weft_template::{DynamicKind, dynamic_blocks};
//!
//! let body = "Branch: !`git branch --show-current`\n\n```!\nnode --version\ngit status --short\n```\n\nNot `!`this``.";
//! let blocks = dynamic_blocks(body);
//! assert_eq!(blocks.len(), 2);
//! assert_eq!((blocks[0].kind, blocks[0].command), (DynamicKind::Inline, "git branch --show-current"));
//! assert_eq!(&body[blocks[0].range.clone()], "!`git branch --show-current`");
//! assert_eq!((blocks[1].kind, blocks[1].command), (DynamicKind::Fenced, "node --version\ngit status --short"));
//! ```

use std::ops::Range;

use crate::scan::{CodeRegion, Scanner};

/// The form of a dynamic-context block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DynamicKind {
    /// `` !`command` ``.
    Inline,
    /// A ```` ```! ```` fenced block.
    Fenced,
}

impl DynamicKind {
    /// `inline` or `fenced`.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::Inline => "inline",
            Self::Fenced => "fenced",
        }
    }
}

/// One dynamic-context block of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DynamicBlock<'a> {
    /// Inline or fenced.
    pub kind: DynamicKind,
    /// The whole block in the template (from the `!`, or the fence line, to the closing
    /// backtick, or the end of the closing fence line): what its output replaces.
    pub range: Range<usize>,
    /// The command's text in the template (trimmed).
    pub command_range: Range<usize>,
    /// The command as written (trimmed), placeholders unfilled.
    pub command: &'a str,
}

/// Every dynamic-context block of `template`, in order. See the module documentation for the
/// rules.
#[must_use]
pub fn dynamic_blocks(template: &str) -> Vec<DynamicBlock<'_>> {
    let mut scanner = Scanner::recording(template);
    scanner.by_ref().for_each(drop);
    scanner
        .regions()
        .iter()
        .filter_map(|region| block_of(template, *region))
        .collect()
}

/// The block a code region is, if it is one.
fn block_of(template: &str, region: CodeRegion) -> Option<DynamicBlock<'_>> {
    match region {
        CodeRegion::Span {
            open,
            ticks: 1,
            close,
        } => {
            let bang = open.checked_sub(1)?;
            if template.as_bytes().get(bang) != Some(&b'!') {
                return None;
            }
            let before = template.get(..bang)?.chars().next_back();
            if before.is_some_and(|c| !c.is_whitespace()) {
                return None;
            }
            let (command_range, command) = trimmed(template, open + 1..close)?;
            Some(DynamicBlock {
                kind: DynamicKind::Inline,
                range: bang..close + 1,
                command_range,
                command,
            })
        }
        CodeRegion::Fence {
            line,
            marker,
            ch: b'`',
            len,
            info_end,
            close: Some((close_line, close_end)),
        } => {
            if template.get(marker + len..info_end)?.trim() != "!" {
                return None;
            }
            // The content starts on the line after the opening one.
            let content_start = (info_end + 1).min(close_line);
            let (command_range, command) = trimmed(template, content_start..close_line)?;
            Some(DynamicBlock {
                kind: DynamicKind::Fenced,
                range: line..close_end,
                command_range,
                command,
            })
        }
        _ => None,
    }
}

/// `range` of `text` without surrounding whitespace; `None` when nothing is left.
fn trimmed(text: &str, range: Range<usize>) -> Option<(Range<usize>, &str)> {
    let inner = text.get(range.clone())?;
    let start = range.start + (inner.len() - inner.trim_start().len());
    let command = inner.trim();
    if command.is_empty() {
        return None;
    }
    Some((start..start + command.len(), command))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commands(text: &str) -> Vec<(DynamicKind, &str)> {
        dynamic_blocks(text)
            .into_iter()
            .map(|b| (b.kind, b.command))
            .collect()
    }

    #[test]
    fn inline_at_line_start_or_after_whitespace() {
        let text = "!`date`\nStatus: !`git status`\n- !`ls`\n\t!`pwd`";
        assert_eq!(
            commands(text),
            [
                (DynamicKind::Inline, "date"),
                (DynamicKind::Inline, "git status"),
                (DynamicKind::Inline, "ls"),
                (DynamicKind::Inline, "pwd"),
            ]
        );
        let block = &dynamic_blocks(text)[1];
        assert_eq!(&text[block.range.clone()], "!`git status`");
        assert_eq!(&text[block.command_range.clone()], "git status");
    }

    #[test]
    fn inline_needs_whitespace_before_the_bang() {
        assert!(commands("KEY=!`cmd`").is_empty());
        assert!(commands("a!`b`").is_empty());
        assert!(commands("(!`b`)").is_empty());
        assert!(commands("not this! `x`").is_empty());
        // Any Unicode whitespace counts, as in Claude Code's `\s`.
        assert_eq!(commands("a\u{a0}!`b`"), [(DynamicKind::Inline, "b")]);
    }

    #[test]
    fn inline_code_spans_and_fences_hide_it() {
        assert!(commands("`` !`date` ``").is_empty());
        assert!(commands("```\n!`date`\n```").is_empty());
        assert!(commands("~~~md\n!`date`\n~~~").is_empty());
        assert!(commands("```sh\n```!\nrm x\n```\n```").is_empty());
        // After the fence closes, it counts again.
        assert_eq!(
            commands("```\n!`a`\n```\n!`b`"),
            [(DynamicKind::Inline, "b")]
        );
    }

    #[test]
    fn only_single_backtick_spans_with_a_command() {
        assert!(commands("!``date``").is_empty());
        assert!(commands("!`   `").is_empty());
        assert!(commands("!`unclosed").is_empty());
        // A span may go on over a line but not over a blank one.
        assert_eq!(
            commands("!`echo a\necho b`"),
            [(DynamicKind::Inline, "echo a\necho b")]
        );
        assert!(commands("!`echo a\n\necho b`").is_empty());
    }

    #[test]
    fn escapes_keep_it_text() {
        assert!(commands("\\!`date`").is_empty());
        assert!(commands("!\\`date\\`").is_empty());
        assert_eq!(commands("\\\\ !`date`"), [(DynamicKind::Inline, "date")]);
    }

    #[test]
    fn fenced_blocks() {
        let text = "Env:\n```!\nnode --version\ngit status --short\n```\nafter";
        let blocks = dynamic_blocks(text);
        assert_eq!(blocks.len(), 1);
        assert_eq!(blocks[0].kind, DynamicKind::Fenced);
        assert_eq!(blocks[0].command, "node --version\ngit status --short");
        assert_eq!(
            &text[blocks[0].range.clone()],
            "```!\nnode --version\ngit status --short\n```"
        );
        // Info string `!` with spaces, a longer fence, indentation within 3 spaces.
        assert_eq!(
            commands("  ```` ! \nls\n  ````\n"),
            [(DynamicKind::Fenced, "ls")]
        );
        // Inline syntax inside a `!` fence is part of its script, not a block of its own.
        assert_eq!(
            commands("```!\necho !`x`\n```"),
            [(DynamicKind::Fenced, "echo !`x`")]
        );
    }

    #[test]
    fn other_fences_run_nothing() {
        assert!(commands("```!sh\nls\n```").is_empty());
        assert!(commands("```bash\nls\n```").is_empty());
        assert!(commands("~~~!\nls\n~~~").is_empty());
        assert!(commands("```!\n\n```").is_empty());
        // Unclosed: an ordinary code block to the end of the text.
        assert!(commands("```!\nrm -rf x\n").is_empty());
    }

    #[test]
    fn crlf_lines() {
        assert_eq!(
            commands("```!\r\nls\r\n```\r\n!`pwd`\r\n"),
            [(DynamicKind::Fenced, "ls"), (DynamicKind::Inline, "pwd")]
        );
    }
}
