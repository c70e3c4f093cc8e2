//! Dynamic context: Claude Code (and weft, through the same gate and approval as
//! `exec_shell`) runs `` !`command` `` and ```` ```! ```` blocks of a SKILL.md when the skill
//! loads and puts the output in the prompt, before the model sees anything. The blocks are
//! found by weft-template's parser, the one the session uses, so the scanner reports exactly
//! what would run.

use std::sync::LazyLock;

use regex::Regex;

use crate::finding::{Finding, Rule, Severity};
use crate::rules::{TextFile, finding_at};
use crate::text::{LineIndex, excerpt};

/// A command that puts secrets into the prompt: a secret file (S401's list, public keys
/// aside), a `.env` file, or the whole environment.
static SECRET_COMMAND: LazyLock<Option<(Regex, Regex)>> = LazyLock::new(|| {
    let files = Regex::new(crate::rules::patterns::SECRET_FILES).ok()?;
    let env = Regex::new(
        r"(?i)(?:^|[;&|(]\s*|\s)(?:env|printenv|set|export\s+-p)\s*(?:$|[;&|)])|(?:^|[\s/'\x22])\.env(?:\.[\w.-]+)?\b|/proc/self/environ|\$\{?[A-Z][A-Z0-9_]*_(?:API_KEY|APIKEY|SECRET_KEY|ACCESS_KEY|SECRET|TOKEN)\b",
    )
    .ok()?;
    Some((files, env))
});

/// True when the dynamic-context command reads secrets into the prompt.
fn reads_secrets(command: &str) -> bool {
    let Some((files, env)) = SECRET_COMMAND.as_ref() else {
        return false;
    };
    files
        .find_iter(command)
        .any(|m| !m.as_str().ends_with(".pub"))
        || env.is_match(command)
}

/// Every dynamic-context command in the text: its block's byte range and the command.
pub fn dynamic_commands(text: &str) -> Vec<(usize, usize, &str)> {
    weft_template::dynamic_blocks(text)
        .into_iter()
        .map(|block| (block.range.start, block.range.end, block.command))
        .collect()
}

/// Reports each dynamic-context line of a SKILL.md (medium: it runs when the skill loads;
/// high when it reads secrets into the prompt).
pub(crate) fn scan(file: &TextFile<'_>, cap: usize, out: &mut Vec<Finding>) {
    let commands = dynamic_commands(file.text);
    if commands.is_empty() {
        return;
    }
    let index = LineIndex::new(file.text.as_bytes());
    for (start, end, cmd) in commands.into_iter().take(cap) {
        let (severity, message) = if reads_secrets(cmd) {
            (
                Severity::High,
                format!(
                    "dynamic context `{}` puts secrets (credentials, a .env file, the environment) into the prompt when the skill loads, before anyone sees it",
                    excerpt(cmd, 60)
                ),
            )
        } else {
            (
                Severity::Medium,
                format!(
                    "dynamic context `{}` runs a shell command when the skill loads (in weft after the permission checks of `exec_shell`; in Claude Code without asking), before the model sees it",
                    excerpt(cmd, 60)
                ),
            )
        };
        out.push(finding_at(
            file.path,
            file.text.as_bytes(),
            &index,
            (start, end),
            (Rule::DynamicContext, severity),
            message,
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

    #[test]
    fn secret_reads_are_told_apart() {
        for secret in [
            "cat ~/.netrc",
            "cat ~/.ssh/id_ed25519",
            "env",
            "printenv | sort",
            "cat .env",
            "echo $OPENAI_API_KEY",
            "cat /proc/self/environ",
        ] {
            assert!(reads_secrets(secret), "{secret}");
        }
        for plain in [
            "git status",
            "cat ~/.ssh/id_rsa.pub",
            "ls env/",
            "npm run env-check",
        ] {
            assert!(!reads_secrets(plain), "{plain}");
        }
    }
}
