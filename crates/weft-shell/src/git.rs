//! git beyond its options: the settings that run programs (`-c alias.x=!cmd`,
//! `core.pager`, `git config core.sshCommand ...`), the subcommands that run commands
//! (`submodule foreach`, `bisect run`, `filter-branch`), the operands where git writes
//! (`clone URL DIR`, `init DIR`, `worktree add PATH`, `bundle create FILE`), and another
//! repository named with `-C`, `--git-dir` or `--work-tree` (its configuration, maybe a
//! committed bare repository's, can name programs git runs: `core.fsmonitor`, `core.pager`).
//!
//! The project's own configuration can do the same, and the analyser cannot read it: every
//! git call reads the repository's configuration
//! ([`SimpleCommand::reads_repository_config`](crate::SimpleCommand::reads_repository_config)),
//! which the caller runs in the sandbox or asks a person about.
//!
//! A setting whose value is a command (an alias, a pager, an editor, a helper) has that value
//! analysed as commands; a setting known to run nothing is only a change of settings; any
//! other setting may run programs the analyser cannot see (`core.hooksPath`, `include.path`).

use super::analysis::{Code, CodeForm, Finding, Runs};
use super::environment::is_project_root;
use super::paths::{Place, ShellContext, place, project_path};
use super::protected::{Reach, protected_write};
use super::word::Word;

/// What a git setting's value can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Setting {
    /// Nothing that runs a program.
    Safe,
    /// The value is a command git runs (through a shell, or as a program).
    Command,
    /// `alias.NAME`: `!cmd` runs a command, anything else is git's own arguments.
    Alias,
    /// Unknown, or it makes git run programs from elsewhere (`core.hooksPath`).
    Unseen,
}

/// `section.key` settings whose value is a command.
const COMMAND_KEYS: &[&str] = &[
    "core.pager",
    "core.editor",
    "core.sshcommand",
    "core.askpass",
    "core.gitproxy",
    "core.fsmonitor",
    "sequence.editor",
    "diff.external",
    "credential.helper",
    "gpg.program",
    "sendemail.sendmailcmd",
    "sendemail.tocmd",
    "sendemail.cccmd",
    "sendemail.headercmd",
    "sendemail.smtpserver",
    "uploadpack.packobjectshook",
    "interactive.difffilter",
];

/// `section.*.key` settings whose value is a command (`diff.<driver>.textconv`).
const COMMAND_SUBKEYS: &[(&str, &[&str])] = &[
    ("diff", &["command", "textconv"]),
    ("merge", &["driver"]),
    ("filter", &["clean", "smudge", "process"]),
    ("credential", &["helper"]),
    ("gpg", &["program"]),
    ("remote", &["uploadpack", "receivepack"]),
    ("browser", &["cmd", "path"]),
    ("man", &["cmd", "path"]),
    ("difftool", &["cmd", "path"]),
    ("mergetool", &["cmd", "path"]),
];

/// Sections none of whose settings runs a program.
const SAFE_SECTIONS: &[&str] = &[
    "user",
    "author",
    "committer",
    "color",
    "column",
    "advice",
    "i18n",
    "pretty",
    "blame",
    "status",
];

/// Other settings that run no program.
const SAFE_KEYS: &[&str] = &[
    "core.quotepath",
    "core.autocrlf",
    "core.eol",
    "core.safecrlf",
    "core.abbrev",
    "core.filemode",
    "core.ignorecase",
    "core.precomposeunicode",
    "core.whitespace",
    "core.commentchar",
    "core.commentstring",
    "core.longpaths",
    "core.symlinks",
    "log.date",
    "log.decorate",
    "log.abbrevcommit",
    "log.follow",
    "log.showroot",
    "log.mailmap",
    "format.pretty",
    "diff.renames",
    "diff.algorithm",
    "diff.noprefix",
    "diff.mnemonicprefix",
    "diff.context",
    "diff.colormoved",
    "diff.submodule",
    "diff.relative",
    "diff.indentheuristic",
    "diff.statgraphwidth",
    "merge.ff",
    "merge.conflictstyle",
    "merge.log",
    "pull.rebase",
    "pull.ff",
    "push.default",
    "push.autosetupremote",
    "fetch.prune",
    "rebase.autostash",
    "rebase.autosquash",
    "init.defaultbranch",
    "commit.gpgsign",
    "commit.verbose",
    "tag.sort",
    "branch.sort",
    "safe.directory",
    "gc.auto",
    "protocol.version",
];

fn classify(key: &str) -> Setting {
    let key = key.to_ascii_lowercase();
    let parts: Vec<&str> = key.split('.').collect();
    let (section, last) = (parts[0], parts[parts.len() - 1]);
    if parts.len() < 2 {
        return Setting::Unseen;
    }
    if section == "alias" {
        return Setting::Alias;
    }
    if section == "pager" && parts.len() == 2 {
        return Setting::Command;
    }
    if parts.len() == 2 && COMMAND_KEYS.contains(&key.as_str()) {
        return Setting::Command;
    }
    if parts.len() >= 3
        && COMMAND_SUBKEYS
            .iter()
            .any(|(s, keys)| *s == section && keys.contains(&last))
    {
        return Setting::Command;
    }
    if SAFE_SECTIONS.contains(&section) || (parts.len() == 2 && SAFE_KEYS.contains(&key.as_str())) {
        return Setting::Safe;
    }
    Setting::Unseen
}

/// What setting `key` to `value` does; `reason` says what sets it.
fn setting(reason: String, by: &str, key: &str, value: &Word) -> Finding {
    let text = value.text();
    let code = match classify(key) {
        Setting::Safe => return Finding::nothing(reason),
        Setting::Unseen => return Finding::unseen(reason),
        Setting::Alias => match text.strip_prefix('!') {
            Some(command) => value.part(command),
            None if text.trim().is_empty() => return Finding::nothing(reason),
            // An alias of git's own arguments runs git with them.
            None => value.part(&format!("git {text}")),
        },
        Setting::Command => {
            let command = text.strip_prefix('!').unwrap_or(text);
            let off = matches!(command.trim(), "" | "true" | "false" | "0" | "1");
            if off && value.is_literal() {
                return Finding::nothing(reason);
            }
            value.part(command)
        }
    };
    Finding::shell(reason, format!("{by} {key}"), code)
}

/// `git -c KEY=VALUE` (or `git clone -c`): what the setting does.
pub(super) fn setting_option(option: &str, value: Option<&Word>) -> Finding {
    let reason = format!("`git {option}` can run other programs");
    let Some(value) = value.filter(|v| v.is_literal()) else {
        return Finding::unseen(reason);
    };
    let (key, text) = value.text().split_once('=').unwrap_or((value.text(), ""));
    setting(reason, &format!("git {option}"), key, &Word::literal(text))
}

/// What a `git config` call (the words after `config`) does, if it writes a setting.
pub(super) fn config_write(args: &[Word]) -> Option<Finding> {
    const REMOVES: &[&str] = &["--unset", "--unset-all", "--remove-section"];
    const EDITS: &[&str] = &["-e", "--edit", "--rename-section"];
    const READS: &[&str] = &[
        "--get",
        "--get-all",
        "--get-regexp",
        "--get-urlmatch",
        "--get-color",
        "--get-colorbool",
        "-l",
        "--list",
    ];
    const VALUES: &[&str] = &["-f", "--file", "--blob", "--type", "--default", "--comment"];
    let reason = || "`git config` can write settings that run programs".to_owned();
    let mut operands: Vec<&Word> = Vec::new();
    let mut removes = false;
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let text = word.text();
        i += 1;
        if !word.is_literal() && word.may_be_option() {
            return Some(Finding::unseen(reason()));
        }
        if EDITS.contains(&text) {
            return Some(Finding::unseen(reason()));
        }
        if READS.contains(&text) {
            return None;
        }
        if REMOVES.contains(&text) {
            removes = true;
        } else if VALUES.contains(&text) {
            i += 1;
        } else if !text.starts_with('-') {
            operands.push(word);
        }
    }
    let (key, value) = match operands.first().map(|w| w.text()) {
        Some("edit" | "rename-section") => return Some(Finding::unseen(reason())),
        Some("unset" | "remove-section") => return Some(Finding::nothing(reason())),
        Some("get" | "list") => return None,
        Some("set") => (operands.get(1), operands.get(2)),
        _ if removes => return Some(Finding::nothing(reason())),
        _ => (operands.first(), operands.get(1)),
    };
    let (Some(key), Some(value)) = (key, value) else {
        return None;
    };
    if !key.is_literal() {
        return Some(Finding::unseen(reason()));
    }
    Some(setting(reason(), "git config", key.text(), value))
}

/// `git -C DIR`, `--git-dir DIR`, `--work-tree DIR`: a risk unless it names the project's own
/// repository (the project root, its `.git`): another one's configuration can run programs.
pub(super) fn other_repository(
    option: &str,
    target: Option<&Word>,
    ctx: &ShellContext,
) -> Option<Finding> {
    let own = target.is_some_and(|t| match option {
        "--git-dir" => project_path(t, ctx).is_some_and(|p| p == [".git"]),
        _ => is_project_root(t, ctx),
    });
    (!own).then(|| {
        let shown = target.map_or("", Word::text);
        Finding::unseen(format!(
            "`git {option} {shown}` may use another repository, whose configuration can run programs"
        ))
    })
}

/// What a git subcommand runs on its own: `submodule foreach CMD`, `bisect run CMD`,
/// `filter-branch`, `instaweb`.
pub(super) fn subcommand_runs(sub: &str, rest: &[Word]) -> Option<Finding> {
    match sub {
        "filter-branch" | "instaweb" => {
            Some(Finding::unseen(format!("`git {sub}` runs other programs")))
        }
        "submodule" => {
            let at = rest.iter().position(|w| w.text() == "foreach")?;
            let command: Vec<&Word> = rest[at + 1..]
                .iter()
                .skip_while(|w| matches!(w.text(), "--recursive" | "-q" | "--quiet" | "--"))
                .collect();
            let text = command
                .iter()
                .map(|w| w.text())
                .collect::<Vec<_>>()
                .join(" ");
            let word = if command.iter().all(|w| w.is_literal()) {
                Word::literal(text)
            } else {
                Word::placeholder(text)
            };
            Some(Finding::shell(
                "`git submodule foreach` runs a command in every submodule".to_owned(),
                "git submodule foreach",
                word,
            ))
        }
        "bisect" if rest.first().is_some_and(|w| w.text() == "run") => Some(Finding {
            reason: "`git bisect run` runs a command".to_owned(),
            runs: Runs::Analysed,
            code: Some(Code {
                by: "git bisect run".to_owned(),
                form: CodeForm::Words(rest[1..].to_vec()),
            }),
            protected: false,
        }),
        _ => None,
    }
}

/// The operands where a git subcommand writes (`clone URL DIR`), each checked against the
/// project like a redirection.
pub(super) fn written_operands(sub: &str, rest: &[Word], ctx: &ShellContext) -> Vec<Finding> {
    let (what, values, skip, position): (&str, &[&str], usize, usize) = match sub {
        "clone" => (
            "git clone",
            &[
                "-o",
                "--origin",
                "-b",
                "--branch",
                "-u",
                "--upload-pack",
                "--reference",
                "--reference-if-able",
                "--separate-git-dir",
                "--depth",
                "--shallow-since",
                "--shallow-exclude",
                "-j",
                "--jobs",
                "--template",
                "-c",
                "--config",
                "--filter",
                "--server-option",
                "--bundle-uri",
                "--ref-format",
                "--revision",
            ],
            0,
            1,
        ),
        "init" => (
            "git init",
            &[
                "--template",
                "--separate-git-dir",
                "--object-format",
                "--ref-format",
                "-b",
                "--initial-branch",
            ],
            0,
            0,
        ),
        "worktree" => match rest.first().map(Word::text) {
            Some("add") => ("git worktree add", &["-b", "-B", "--reason"], 1, 0),
            Some("move") => ("git worktree move", &[], 1, 1),
            _ => return Vec::new(),
        },
        "bundle" if rest.first().is_some_and(|w| w.text() == "create") => {
            ("git bundle create", &[], 1, 0)
        }
        "submodule" if rest.first().is_some_and(|w| w.text() == "add") => (
            "git submodule add",
            &["-b", "--branch", "--name", "--reference", "--depth"],
            1,
            1,
        ),
        _ => return Vec::new(),
    };
    let operands = operands(rest.get(skip..).unwrap_or(&[]), values);
    let Some(target) = operands.get(position) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let place = place(target, ctx);
    if let Place::Outside(why) = place {
        out.push(Finding::nothing(format!(
            "`{what}` writes to `{}`, which {why}",
            target.text()
        )));
    }
    if place != Place::Special {
        let shown = format!("`{what} {}`", target.text());
        out.extend(protected_write(&shown, target, ctx, Reach::Tree));
    }
    out
}

/// The words of `args` that are not options or their values.
fn operands<'a>(args: &'a [Word], values: &[&str]) -> Vec<&'a Word> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut ended = false;
    while let Some(word) = args.get(i) {
        i += 1;
        let text = word.text();
        if ended || !text.starts_with('-') || text == "-" {
            out.push(word);
        } else if text == "--" {
            ended = true;
        } else if values.contains(&text) {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<Word> {
        text.split(' ').map(Word::literal).collect()
    }

    #[test]
    fn settings_are_classified() {
        assert_eq!(classify("alias.x"), Setting::Alias);
        assert_eq!(classify("core.pager"), Setting::Command);
        assert_eq!(classify("core.sshCommand"), Setting::Command);
        assert_eq!(classify("pager.log"), Setting::Command);
        assert_eq!(classify("diff.pdf.textconv"), Setting::Command);
        assert_eq!(classify("filter.lfs.smudge"), Setting::Command);
        assert_eq!(classify("user.name"), Setting::Safe);
        assert_eq!(classify("color.ui"), Setting::Safe);
        assert_eq!(classify("core.hooksPath"), Setting::Unseen);
        assert_eq!(classify("include.path"), Setting::Unseen);
        assert_eq!(classify("protocol.ext.allow"), Setting::Unseen);
        assert_eq!(classify("x"), Setting::Unseen);
    }

    #[test]
    fn settings_that_run_commands_carry_them() {
        let code = |f: Finding| match f.code.map(|c| c.form) {
            Some(CodeForm::Shell(w)) => w.text().to_owned(),
            _ => String::new(),
        };
        let lit = Word::literal;
        assert_eq!(
            code(setting_option("-c", Some(&lit("alias.x=!rm -f a")))),
            "rm -f a"
        );
        assert_eq!(
            code(setting_option("-c", Some(&lit("alias.p=push --force")))),
            "git push --force"
        );
        assert_eq!(
            code(setting_option("-c", Some(&lit("core.pager=rm x")))),
            "rm x"
        );
        assert_eq!(
            setting_option("-c", Some(&lit("color.ui=always"))).runs,
            Runs::Nothing
        );
        assert_eq!(
            setting_option("-c", Some(&lit("core.hooksPath=/tmp/h"))).runs,
            Runs::Unseen
        );
        assert_eq!(
            setting_option("-c", Some(&Word::placeholder("$X"))).runs,
            Runs::Unseen
        );
        assert_eq!(
            code(config_write(&words("--global core.pager less")).unwrap()),
            "less"
        );
        assert_eq!(code(config_write(&words("set alias.x !rm")).unwrap()), "rm");
        assert!(config_write(&words("--get user.name")).is_none());
        assert!(config_write(&words("user.name")).is_none());
        assert_eq!(
            config_write(&words("--unset alias.x")).unwrap().runs,
            Runs::Nothing
        );
        assert_eq!(config_write(&words("--edit")).unwrap().runs, Runs::Unseen);
    }

    #[test]
    fn operands_where_git_writes() {
        let ctx = ShellContext::new().with_project_root("/p");
        let found = |sub: &str, rest: &str| written_operands(sub, &words(rest), &ctx).len();
        assert_eq!(found("clone", "https://x/y.git /tmp/y"), 1);
        assert_eq!(found("clone", "--depth 1 https://x/y.git y"), 0);
        assert_eq!(found("clone", "https://x/y.git"), 0);
        assert_eq!(found("init", "../elsewhere"), 1);
        assert_eq!(found("init", "sub"), 0);
        assert_eq!(found("worktree", "add -b topic /tmp/wt"), 1);
        assert_eq!(found("worktree", "add ../wt main"), 1);
        assert_eq!(found("worktree", "list"), 0);
        assert_eq!(found("bundle", "create /tmp/b.bundle --all"), 1);
        assert_eq!(found("submodule", "add https://x/y.git /tmp/y"), 1);
    }
}
