//! The risky-option table, as data: which options of which programs run other programs or
//! write files, and which programs write their operands.

use std::collections::HashMap;
use std::sync::LazyLock;

/// What a risky option does.
#[derive(Clone, Copy)]
pub(super) enum Danger {
    /// Risky, but runs nothing else; the text completes "`find -delete` ...".
    Always(&'static str),
    /// May run programs the analyser cannot see; the text completes "`sed -f` ...".
    Unseen(&'static str),
    /// Its value is a command (a string a shell runs, or a program): analysed as commands.
    Runs,
    /// Its value is a git setting `KEY=VALUE` (see `git.rs`).
    GitSetting,
    /// Writes to the option's value: risky when that path is outside the project.
    WritesTo,
}

/// Which subcommands an entry applies to.
#[derive(Clone, Copy)]
pub(super) enum Sub {
    /// Any position (programs without subcommands).
    Any,
    /// Before the subcommand (`git -c`).
    Global,
    /// After one of these subcommands.
    Of(&'static [&'static str]),
    /// After any subcommand.
    Every,
}

/// One entry of the table.
pub(super) struct RiskyOption {
    pub(super) programs: &'static [&'static str],
    pub(super) sub: Sub,
    pub(super) options: &'static [&'static str],
    pub(super) danger: Danger,
}

impl Danger {
    /// True when the option may run another program (seen or not).
    pub(super) fn runs(self) -> bool {
        matches!(self, Danger::Unseen(_) | Danger::Runs | Danger::GitSetting)
    }
}

pub(super) const AWKS: &[&str] = &["awk", "gawk", "mawk", "nawk"];

/// git's subcommands that talk to another repository, and what they run to do it.
const GIT_TRANSPORTS: &[&str] = &[
    "fetch",
    "pull",
    "clone",
    "ls-remote",
    "archive",
    "push",
    "submodule",
];

/// The risky-option table.
pub(super) const RISKY: &[RiskyOption] = &[
    RiskyOption {
        programs: &["git"],
        sub: Sub::Global,
        options: &["-c"],
        danger: Danger::GitSetting,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Global,
        options: &["--config-env", "--exec-path"],
        danger: Danger::Unseen("can run other programs"),
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Every,
        options: &["--output"],
        danger: Danger::WritesTo,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(GIT_TRANSPORTS),
        options: &["--upload-pack", "--receive-pack", "--exec"],
        danger: Danger::Runs,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["clone", "ls-remote"]),
        options: &["-u"],
        danger: Danger::Runs,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["rebase"]),
        options: &["--exec", "-x"],
        danger: Danger::Runs,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["grep"]),
        options: &["-O", "--open-files-in-pager"],
        danger: Danger::Unseen("runs a pager"),
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["difftool", "mergetool"]),
        options: &["-x", "--extcmd"],
        danger: Danger::Runs,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["difftool", "mergetool"]),
        options: &["-t", "--tool"],
        danger: Danger::Unseen("runs a diff or merge tool"),
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["send-email"]),
        options: &[
            "--sendmail-cmd",
            "--smtp-server",
            "--to-cmd",
            "--cc-cmd",
            "--header-cmd",
        ],
        danger: Danger::Runs,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["clone", "init", "submodule"]),
        options: &["--template"],
        danger: Danger::Unseen("can install hooks that run programs"),
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["clone"]),
        options: &["-c", "--config"],
        danger: Danger::GitSetting,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["archive", "format-patch", "bugreport", "diagnose"]),
        options: &["-o", "--output-directory"],
        danger: Danger::WritesTo,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["clone", "init"]),
        options: &["--separate-git-dir"],
        danger: Danger::WritesTo,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["checkout-index"]),
        options: &["--prefix"],
        danger: Danger::WritesTo,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["apply"]),
        options: &["--directory"],
        danger: Danger::WritesTo,
    },
    RiskyOption {
        programs: &["find"],
        sub: Sub::Any,
        options: &["-exec", "-execdir", "-ok", "-okdir"],
        danger: Danger::Always("runs a command for each file"),
    },
    RiskyOption {
        programs: &["find"],
        sub: Sub::Any,
        options: &["-delete"],
        danger: Danger::Always("deletes files"),
    },
    RiskyOption {
        programs: &["find"],
        sub: Sub::Any,
        options: &["-fprint", "-fprint0", "-fprintf", "-fls"],
        danger: Danger::WritesTo,
    },
    RiskyOption {
        programs: &["sed"],
        sub: Sub::Any,
        options: &["-i", "--in-place"],
        danger: Danger::Always("edits files in place"),
    },
    RiskyOption {
        programs: &["sed"],
        sub: Sub::Any,
        options: &["-f", "--file"],
        danger: Danger::Unseen(
            "runs a script file (whose `e` and `w` commands run programs and write files)",
        ),
    },
    RiskyOption {
        programs: AWKS,
        sub: Sub::Any,
        options: &[
            "-f",
            "--file",
            "-i",
            "--include",
            "-l",
            "--load",
            "-E",
            "--exec",
        ],
        danger: Danger::Unseen("runs program files or extensions"),
    },
    RiskyOption {
        programs: &["tar"],
        sub: Sub::Any,
        options: &[
            "--to-command",
            "--use-compress-program",
            "-I",
            "--checkpoint-action",
            "--info-script",
            "--new-volume-script",
            "-F",
            "--rsh-command",
            "--rmt-command",
        ],
        danger: Danger::Runs,
    },
    RiskyOption {
        programs: &["tar"],
        sub: Sub::Any,
        options: &["-C", "--directory"],
        danger: Danger::WritesTo,
    },
    RiskyOption {
        programs: &["unzip"],
        sub: Sub::Any,
        options: &["-d"],
        danger: Danger::WritesTo,
    },
    RiskyOption {
        programs: &["rsync"],
        sub: Sub::Any,
        options: &["-e", "--rsh", "--rsync-path"],
        danger: Danger::Runs,
    },
    RiskyOption {
        programs: &["sort"],
        sub: Sub::Any,
        options: &["-o", "--output", "-T", "--temporary-directory"],
        danger: Danger::WritesTo,
    },
    RiskyOption {
        programs: &["sort"],
        sub: Sub::Any,
        options: &["--compress-program"],
        danger: Danger::Runs,
    },
    RiskyOption {
        programs: &["date"],
        sub: Sub::Any,
        options: &["-s", "--set"],
        danger: Danger::Always("sets the system clock"),
    },
    RiskyOption {
        programs: &["rg"],
        sub: Sub::Any,
        options: &["--pre"],
        danger: Danger::Runs,
    },
    RiskyOption {
        programs: &["curl"],
        sub: Sub::Any,
        options: &[
            "-o",
            "--output",
            "-c",
            "--cookie-jar",
            "-D",
            "--dump-header",
            "--trace",
            "--trace-ascii",
            "--stderr",
        ],
        danger: Danger::WritesTo,
    },
    RiskyOption {
        programs: &["curl"],
        sub: Sub::Any,
        options: &["-K", "--config"],
        danger: Danger::Always("reads its options from a file"),
    },
    RiskyOption {
        programs: &["wget"],
        sub: Sub::Any,
        options: &[
            "-O",
            "--output-document",
            "-o",
            "--output-file",
            "-a",
            "--append-output",
            "-P",
            "--directory-prefix",
        ],
        danger: Danger::WritesTo,
    },
    RiskyOption {
        programs: &["wget"],
        sub: Sub::Any,
        options: &["-e", "--execute"],
        danger: Danger::Unseen("can run other programs"),
    },
    RiskyOption {
        programs: &["cargo"],
        sub: Sub::Global,
        options: &["--config"],
        danger: Danger::Unseen("can set runners and wrappers that run other programs"),
    },
    RiskyOption {
        programs: &["cargo"],
        sub: Sub::Every,
        options: &["--config"],
        danger: Danger::Unseen("can set runners and wrappers that run other programs"),
    },
    RiskyOption {
        programs: &["npm", "pnpm", "yarn"],
        sub: Sub::Every,
        options: &["--script-shell"],
        danger: Danger::Runs,
    },
];

/// Programs that write to their operands: each operand must stay inside the project.
/// `(program, operands to skip first)`: `chmod MODE FILE...` skips the mode.
pub(super) const WRITES_OPERANDS: &[(&str, usize)] = &[
    ("cp", 0),
    ("mv", 0),
    ("rm", 0),
    ("rmdir", 0),
    ("touch", 0),
    ("mkdir", 0),
    ("tee", 0),
    ("ln", 0),
    ("install", 0),
    ("truncate", 0),
    ("shred", 0),
    ("unlink", 0),
    ("chmod", 1),
    ("chown", 1),
    ("chgrp", 1),
    ("cd", 0),
    ("pushd", 0),
];

/// The entries of [`RISKY`] by program, in table order.
static BY_PROGRAM: LazyLock<HashMap<&'static str, Vec<&'static RiskyOption>>> =
    LazyLock::new(|| {
        let mut map: HashMap<&'static str, Vec<&'static RiskyOption>> = HashMap::new();
        for entry in RISKY {
            for program in entry.programs {
                map.entry(program).or_default().push(entry);
            }
        }
        map
    });

/// True when the risky table or the written-operands table has `program`.
pub(crate) fn is_listed(program: &str) -> bool {
    BY_PROGRAM.contains_key(program) || WRITES_OPERANDS.iter().any(|(p, _)| *p == program)
}

/// The entries of the table for `program`.
pub(super) fn entries_for(program: &str) -> &'static [&'static RiskyOption] {
    BY_PROGRAM.get(program).map_or(&[], Vec::as_slice)
}
