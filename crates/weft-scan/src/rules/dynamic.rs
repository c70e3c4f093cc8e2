//! Dynamic context: Claude Code runs `` !`command` `` in a SKILL.md when the skill loads and
//! puts the output in the prompt, before the model or the user sees anything. weft does not
//! run them, but the skill may be shared with agents that do.

use std::sync::LazyLock;

use regex::Regex;

use crate::finding::{Finding, Rule, Severity};
use crate::rules::{TextFile, finding_at};
use crate::text::{LineIndex, excerpt};

static DYNAMIC: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?m)(?:^|[\s(>:*_\-])!`([^`\n]+)`").ok());

/// Every dynamic-context command in the text, with its byte range.
pub fn dynamic_commands(text: &str) -> Vec<(usize, usize, &str)> {
    let Some(re) = DYNAMIC.as_ref() else {
        return Vec::new();
    };
    re.captures_iter(text)
        .filter_map(|c| {
            let whole = c.get(0)?;
            let cmd = c.get(1)?;
            let start = whole
                .as_str()
                .find('!')
                .map_or(whole.start(), |i| whole.start() + i);
            Some((start, whole.end(), cmd.as_str()))
        })
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
                "dynamic context `{}` runs a shell command when the skill loads (in agents that support it), before anyone sees it",
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
        let text = "Status: !`git status`\n- !`cat ~/.ssh/id_rsa`\nNot this!\n`code` and a!`b`\n";
        let cmds: Vec<_> = dynamic_commands(text).into_iter().map(|c| c.2).collect();
        assert_eq!(cmds, ["git status", "cat ~/.ssh/id_rsa"]);
    }
}
