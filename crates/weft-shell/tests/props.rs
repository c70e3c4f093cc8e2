//! Property tests for the shell analyser: a denied program is found wherever a compound
//! command runs it (through wrappers, strings run as commands, option values and heredocs read
//! by shells), or the analysis says it cannot see what runs; a command with no such part is
//! fully seen; and no input panics.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use weft_shell::{CommandAnalysis, Dialect, ShellContext, analyse_command, basename};

/// Spellings of a denied `rm`.
const DENIED: &[&str] = &[
    "rm -rf build",
    "rm x",
    "/bin/rm x",
    "\\rm x",
    "r''m x",
    "\"rm\" -f x",
    "$'\\x72m' x",
];

/// Commands that are not `rm`.
const HARMLESS: &[&str] = &[
    "git status",
    "ls -la",
    "echo hi",
    "cargo test",
    "grep -r x .",
    "echo rm",
    "rmdir x",
    "true",
];

/// Commands that may run a program the analyser cannot see: a scoped deny denies them.
const UNSEEN: &[&str] = &[
    "awk 'BEGIN{system(\"ls\")}'",
    "sed -n '1e ls' f",
    "git -c core.hooksPath=/tmp/h commit -m x",
    "tar -xf a.tar -I \"$P\"",
    "git filter-branch --tree-filter ls",
    "git --exec-path=/tmp/bin status",
    "python3 -c 'print(1)'",
    "perl -ne print f",
];

const SEPARATORS: &[&str] = &["; ", " && ", " || ", " | ", " & ", "\n"];

const WRAPPERS: &[&str] = &[
    "env ",
    "env -i LANG=C ",
    "env - ",
    "env -i -u HOME -C sub ",
    "command ",
    "command -p ",
    "builtin command ",
    "nice -n 5 ",
    "timeout 5 ",
    "sudo -u root ",
    "doas -u me ",
    "pkexec ",
    "exec ",
    "exec -a name ",
    "nohup ",
    "time ",
    "time -p ",
    "time -o t.out ",
    "time -p -o t.out -f %e ",
    "xargs ",
    "xargs -0 -n1 ",
    "flock /tmp/l ",
    "flock -n -w 5 /tmp/l ",
    "chroot / ",
    "unshare -r --fork ",
    "setpriv --nnp ",
    "taskset 1 ",
    "taskset -c 0,1 ",
    "fakeroot ",
    "systemd-run --user --wait ",
    "ionice -c 3 ",
    "chrt -o 0 ",
    "stdbuf -oL ",
    "nsenter -t 1 -m ",
    "firejail --quiet --net=none ",
    "strace -f ",
    "strace -o trace.txt ",
    "ltrace ",
    "catchsegv ",
    "numactl --localalloc ",
    "setsid -f ",
    "cgexec -g cpu:grp ",
    "busybox ",
    "watch -x ",
    "runuser -u nobody -- ",
    "parallel -j2 ",
];

/// How a form reads the string it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reads {
    /// `sh -c`, `su -c`, git's and tar's commands: a POSIX `sh`.
    Posix,
    /// `bash -lc`, `bash -s`: bash.
    Bash,
    /// `eval`, `. /dev/stdin`, groups: the shell the form itself runs in.
    Same,
}

/// Forms that run a string as commands: `{}` is the string, shell-quoted; how they read it;
/// whether the form itself is bash syntax (`<<<`).
const CODE_STRINGS: &[(&str, Reads, bool)] = &[
    ("sh -c {}", Reads::Posix, false),
    ("bash -lc {}", Reads::Bash, false),
    ("eval {}", Reads::Same, false),
    ("su -c {}", Reads::Posix, false),
    ("su - root -c {}", Reads::Posix, false),
    ("runuser -l nobody -c {}", Reads::Posix, false),
    ("flock /tmp/l -c {}", Reads::Posix, false),
    ("script -qc {} /dev/null", Reads::Posix, false),
    ("watch {}", Reads::Posix, false),
    ("watch -n 1 {}", Reads::Posix, false),
    ("bash -s <<< {}", Reads::Bash, true),
    (". /dev/stdin <<< {}", Reads::Same, true),
    ("sh /dev/stdin <<< {}", Reads::Posix, true),
    ("sudo sh -c {}", Reads::Posix, false),
    ("git -c alias.x=!{} x", Reads::Posix, false),
    ("git -c core.pager={} log", Reads::Posix, false),
    ("git rebase --exec {} main", Reads::Posix, false),
    ("tar -xf a.tar --to-command={}", Reads::Posix, false),
    ("rsync -e {} a b", Reads::Posix, false),
    ("GIT_SSH_COMMAND={} git fetch", Reads::Posix, false),
];

/// A generated command: whether it contains a denied `rm`, whether it needs bash where it
/// stands (so `/bin/sh` running it is unanalysable), and whether some part of it is read as
/// POSIX although it is bash syntax (unanalysable whichever shell runs the whole).
#[derive(Debug, Clone)]
struct Cmd {
    text: String,
    denied: bool,
    needs_bash: bool,
    refused: bool,
    /// Parsed by the same parser as the text around it: a heredoc operator and a `;`
    /// separator in it (a `$(...)`/`<(...)` holding both is unanalysable under bash, which
    /// runs it from a printed copy that can lose the `;`).
    heredoc: bool,
    semicolon: bool,
    /// Such a substitution is in it, read in the dialect of the text around it: refused
    /// when that is bash.
    refused_if_bash: bool,
}

impl Cmd {
    fn new(text: &str, denied: bool) -> Self {
        Self {
            text: text.to_owned(),
            denied,
            needs_bash: text.contains("$'"),
            refused: false,
            heredoc: false,
            semicolon: false,
            refused_if_bash: false,
        }
    }

    /// `self` as a string another parser reads (`sh -c`, `eval`, a heredoc's body), as
    /// `reads`; `form_needs_bash` when the form itself is bash syntax; `heredoc` when the
    /// form is a heredoc.
    fn parsed_apart(
        self,
        text: String,
        reads: Reads,
        form_needs_bash: bool,
        heredoc: bool,
    ) -> Self {
        let refused_if_bash = self.refused_if_bash;
        let mut cmd = self.inside(text, reads, form_needs_bash);
        (cmd.heredoc, cmd.semicolon) = (heredoc, false);
        match reads {
            // Read as bash whatever runs the whole.
            Reads::Bash => cmd.refused |= refused_if_bash,
            // Read as POSIX: the rule is bash's.
            Reads::Posix => cmd.refused_if_bash = false,
            Reads::Same => {}
        }
        cmd
    }

    /// `self` in a `$(...)` or `<(...)`.
    fn substituted(self, text: String, form_needs_bash: bool) -> Self {
        let unsafe_copy = self.heredoc && self.semicolon;
        let mut cmd = self.inside(text, Reads::Same, form_needs_bash);
        cmd.refused_if_bash |= unsafe_copy;
        cmd
    }

    /// Whether the analyser must refuse it when the whole is read as bash.
    fn refused_under_bash(&self) -> bool {
        self.refused || self.refused_if_bash
    }

    /// `self` run by a form that reads it as `reads`; `form_needs_bash` when the form itself
    /// is bash syntax.
    fn inside(self, text: String, reads: Reads, form_needs_bash: bool) -> Self {
        let (needs_bash, refused) = match reads {
            Reads::Posix => (form_needs_bash, self.refused || self.needs_bash),
            Reads::Bash => (form_needs_bash, self.refused),
            Reads::Same => (form_needs_bash || self.needs_bash, self.refused),
        };
        Self {
            text,
            denied: self.denied,
            needs_bash,
            refused,
            ..self
        }
    }

    /// A form that runs `self` in the same shell.
    fn around(self, text: String) -> Self {
        self.inside(text, Reads::Same, false)
    }
}

fn atom() -> impl Strategy<Value = Cmd> {
    prop_oneof![
        proptest::sample::select(DENIED).prop_map(|t| Cmd::new(t, true)),
        proptest::sample::select(HARMLESS).prop_map(|t| Cmd::new(t, false)),
        proptest::sample::select(UNSEEN).prop_map(|t| Cmd::new(t, true)),
    ]
}

fn quote(text: &str) -> String {
    shell_words::quote(text).into_owned()
}

fn command() -> impl Strategy<Value = Cmd> {
    let wrapped = (
        proptest::option::of(proptest::sample::select(WRAPPERS)),
        atom(),
    )
        .prop_map(|(wrapper, atom)| {
            let text = format!("{}{}", wrapper.unwrap_or(""), atom.text);
            atom.around(text)
        });
    // `env -S` splits one string into words (not commands): a simple command only.
    let split = atom().prop_map(|atom| {
        let text = format!("env -S {}", quote(&atom.text));
        Cmd {
            needs_bash: false,
            ..atom.around(text)
        }
    });
    let leaf = prop_oneof![4 => wrapped, 1 => split];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (proptest::sample::select(CODE_STRINGS), inner.clone()).prop_map(
                |((form, reads, bash), c)| {
                    let text = form.replace("{}", &quote(&c.text));
                    c.parsed_apart(text, reads, bash, false)
                }
            ),
            // A heredoc read by a shell; the delimiter differs at each depth.
            inner.clone().prop_map(|c| {
                let end = format!("E{}", c.text.len());
                let text = format!("{{ sh /dev/stdin <<'{end}'\n{}\n{end}\n}}", c.text);
                c.parsed_apart(text, Reads::Posix, false, true)
            }),
            (
                inner.clone(),
                proptest::sample::select(SEPARATORS),
                inner.clone()
            )
                .prop_map(|(a, sep, b)| Cmd {
                    text: format!("{}{sep}{}", a.text, b.text),
                    denied: a.denied || b.denied,
                    needs_bash: a.needs_bash || b.needs_bash,
                    refused: a.refused || b.refused,
                    heredoc: a.heredoc || b.heredoc,
                    semicolon: a.semicolon || b.semicolon || sep.starts_with(';'),
                    refused_if_bash: a.refused_if_bash || b.refused_if_bash,
                }),
            inner.clone().prop_map(|c| {
                let text = format!("( {} )", c.text);
                c.around(text)
            }),
            inner.clone().prop_map(|c| {
                let text = format!("{{ {}\n}}", c.text);
                c.around(text)
            }),
            inner.clone().prop_map(|c| {
                let text = format!("echo $( {} )", c.text);
                c.substituted(text, false)
            }),
            inner.clone().prop_map(|c| {
                let text = format!("cat <( {} )", c.text);
                c.substituted(text, true)
            }),
            inner.clone().prop_map(|c| {
                let text = format!("sh -c {}", quote(&c.text));
                c.parsed_apart(text, Reads::Posix, false, false)
            }),
            inner.clone().prop_map(|c| {
                let text = format!("bash -lc {}", quote(&c.text));
                c.parsed_apart(text, Reads::Bash, false, false)
            }),
            inner.clone().prop_map(|c| {
                let text = format!("eval {}", quote(&c.text));
                c.parsed_apart(text, Reads::Same, false, false)
            }),
            inner.clone().prop_map(|c| {
                let text = format!("if true; then {}\nfi", c.text);
                Cmd {
                    semicolon: true,
                    ..c.around(text)
                }
            }),
            inner.prop_map(|c| {
                let text = format!("f() {{ {}\n}}", c.text);
                c.around(text)
            }),
        ]
    })
}

/// What a scoped deny of `rm` (`Bash(rm:*)`) sees: `rm` at some level of some simple command,
/// a part that cannot be analysed, or a risk that may run a program the analyser cannot see.
fn may_run_rm(analysis: &CommandAnalysis) -> bool {
    let named = analysis.commands().iter().any(|c| {
        (0..c.level_count()).any(|l| {
            c.level(l)
                .first()
                .is_some_and(|w| basename(w.text()) == "rm")
        })
    });
    named
        || !analysis.is_fully_analysed()
        || analysis.risks().iter().any(|r| r.runs_unseen_program())
}

/// The analysis with bash running the command.
fn analyse(text: &str) -> CommandAnalysis {
    analyse_command(text, &ShellContext::new().with_dialect(Dialect::Bash))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    #[test]
    fn a_denied_program_is_found_wherever_it_runs(cmd in command()) {
        let analysis = analyse(&cmd.text);
        if cmd.denied {
            prop_assert!(may_run_rm(&analysis), "{:?} hides rm: {:?}", cmd.text, analysis);
        } else if !cmd.refused_under_bash() {
            prop_assert!(!may_run_rm(&analysis), "{:?} was not seen through: {:?}", cmd.text, analysis);
        } else {
            prop_assert!(!analysis.is_fully_analysed(), "{:?} is refused under bash: {:?}", cmd.text, analysis);
        }
    }

    #[test]
    fn under_posix_sh_too(cmd in command()) {
        let analysis = analyse_command(&cmd.text, &ShellContext::new());
        if cmd.denied {
            prop_assert!(may_run_rm(&analysis), "{:?} hides rm: {:?}", cmd.text, analysis);
        } else if !cmd.refused && !cmd.needs_bash {
            prop_assert!(!may_run_rm(&analysis), "{:?} was not seen through: {:?}", cmd.text, analysis);
        } else {
            prop_assert!(!analysis.is_fully_analysed(), "{:?} needs bash: {:?}", cmd.text, analysis);
        }
    }

    #[test]
    fn no_input_panics(text in "\\PC{0,200}") {
        let analysis = analyse_command(&text, &ShellContext::new());
        let _ = analysis.commands().len();
    }

    #[test]
    fn no_shell_like_input_panics(text in "[a-z$(){}<>|&;'\"`\\\\ \n#=*?\\[\\]~!-]{0,120}") {
        let analysis = analyse_command(&text, &ShellContext::new());
        let _ = analysis.commands().len();
    }
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    for n in [40, 1_000, 20_000] {
        for (open, close) in [("(", ")"), ("$(", ")"), ("{ ", ";}"), ("sh -c '", "'")] {
            let text = format!("{}rm x{}", open.repeat(n), close.repeat(n));
            let analysis = analyse_command(&text, &ShellContext::new());
            assert!(!analysis.is_fully_analysed(), "{open} x {n}");
            assert!(may_run_rm(&analysis));
        }
    }
    let long = "a".repeat(70_000);
    assert!(!analyse_command(&long, &ShellContext::new()).is_fully_analysed());
}
