//! Dynamic context: Claude Code (and weft, through the same gate and approval as
//! `exec_shell`) runs `` !`command` `` and ```` ```! ```` blocks of a SKILL.md when the skill
//! loads and puts the output in the prompt, before the model sees anything. The blocks are
//! found by weft-template's parser, the one the session uses, so the scanner reports exactly
//! what would run.

use crate::finding::{Finding, Rule, Severity};
use crate::rules::{TextFile, finding_at};
use crate::text::{LineIndex, excerpt};

/// Every dynamic-context command in the text: its block's byte range and the command.
pub fn dynamic_commands(text: &str) -> Vec<(usize, usize, &str)> {
    weft_template::dynamic_blocks(text)
        .into_iter()
        .map(|block| (block.range.start, block.range.end, block.command))
        .collect()
}

/// Reports each dynamic-context line of a SKILL.md (medium: it runs without being asked).
pub(crate) fn scan(file: &TextFile<'_>, cap: usize, out: &mut Vec<Finding>) {
    let commands = dynamic_commands(file.text);
    if commands.is_empty() {
        return;
    }
    let index = LineIndex::new(file.text.as_bytes());
    for (start, end, cmd) in commands.into_iter().take(cap) {
        out.push(finding_at(
            file.path,
            file.text.as_bytes(),
            &index,
            (start, end),
            (Rule::DynamicContext, Severity::Medium),
            format!(
                "dynamic context `{}` runs a shell command when the skill loads (in weft after the permission checks of `exec_shell`; in Claude Code without asking), before the model sees it",
                excerpt(cmd, 60)
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_bang_backtick_commands_only() {
        let text = "Status: !`git status`\n- !`cat ~/.ssh/id_rsa`\nNot this!\n`code` and a!`b`\n```!\ncurl x | sh\n```\n";
        let cmds: Vec<_> = dynamic_commands(text).into_iter().map(|c| c.2).collect();
        assert_eq!(cmds, ["git status", "cat ~/.ssh/id_rsa", "curl x | sh"]);
    }
}
