//! Property tests for the shell analyser: a denied program is found wherever a compound
//! command runs it (through wrappers, strings run as commands, option values and heredocs read
//! by shells), or the analysis says it cannot see what runs; a command with no such part is
//! fully seen; and no input panics.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use weft_shell::{CommandAnalysis, ShellContext, analyse_command, basename};

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
    "env -i A=b ",
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

/// Forms that run a string as commands: `{}` is the string, shell-quoted.
const CODE_STRINGS: &[&str] = &[
    "sh -c {}",
    "bash -lc {}",
    "eval {}",
    "su -c {}",
    "su - root -c {}",
    "runuser -l nobody -c {}",
    "flock /tmp/l -c {}",
    "script -qc {} /dev/null",
    "watch {}",
    "watch -n 1 {}",
    "bash -s <<< {}",
    ". /dev/stdin <<< {}",
    "sh /dev/stdin <<< {}",
    "sudo sh -c {}",
    "git -c alias.x=!{} x",
    "git -c core.pager={} log",
    "git rebase --exec {} main",
    "tar -xf a.tar --to-command={}",
    "rsync -e {} a b",
    "GIT_SSH_COMMAND={} git fetch",
];

/// A generated command and whether it contains a denied `rm`.
#[derive(Debug, Clone)]
struct Cmd {
    text: String,
    denied: bool,
}

fn atom() -> impl Strategy<Value = Cmd> {
    prop_oneof![
        proptest::sample::select(DENIED).prop_map(|t| Cmd {
            text: t.to_owned(),
            denied: true
        }),
        proptest::sample::select(HARMLESS).prop_map(|t| Cmd {
            text: t.to_owned(),
            denied: false
        }),
        proptest::sample::select(UNSEEN).prop_map(|t| Cmd {
            text: t.to_owned(),
            denied: true
        }),
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
        .prop_map(|(wrapper, atom)| Cmd {
            text: format!("{}{}", wrapper.unwrap_or(""), atom.text),
            denied: atom.denied,
        });
    // `env -S` splits one string into words (not commands): a simple command only.
    let split = atom().prop_map(|atom| Cmd {
        text: format!("env -S {}", quote(&atom.text)),
        denied: atom.denied,
    });
    let leaf = prop_oneof![4 => wrapped, 1 => split];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (proptest::sample::select(CODE_STRINGS), inner.clone()).prop_map(|(form, c)| Cmd {
                text: form.replace("{}", &quote(&c.text)),
                ..c
            }),
            // A heredoc read by a shell; the delimiter differs at each depth.
            inner.clone().prop_map(|c| {
                let end = format!("E{}", c.text.len());
                Cmd {
                    text: format!("{{ sh /dev/stdin <<'{end}'\n{}\n{end}\n}}", c.text),
                    ..c
                }
            }),
            (
                inner.clone(),
                proptest::sample::select(SEPARATORS),
                inner.clone()
            )
                .prop_map(|(a, sep, b)| Cmd {
                    text: format!("{}{sep}{}", a.text, b.text),
                    denied: a.denied || b.denied,
                }),
            inner.clone().prop_map(|c| Cmd {
                text: format!("( {} )", c.text),
                ..c
            }),
            inner.clone().prop_map(|c| Cmd {
                text: format!("{{ {}\n}}", c.text),
                ..c
            }),
            inner.clone().prop_map(|c| Cmd {
                text: format!("echo $( {} )", c.text),
                ..c
            }),
            inner.clone().prop_map(|c| Cmd {
                text: format!("cat <( {} )", c.text),
                ..c
            }),
            inner.clone().prop_map(|c| Cmd {
                text: format!("sh -c {}", quote(&c.text)),
                ..c
            }),
            inner.clone().prop_map(|c| Cmd {
                text: format!("bash -lc {}", quote(&c.text)),
                ..c
            }),
            inner.clone().prop_map(|c| Cmd {
                text: format!("eval {}", quote(&c.text)),
                ..c
            }),
            inner.clone().prop_map(|c| Cmd {
                text: format!("if true; then {}\nfi", c.text),
                ..c
            }),
            inner.prop_map(|c| Cmd {
                text: format!("f() {{ {}\n}}", c.text),
                ..c
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

fn analyse(text: &str) -> CommandAnalysis {
    analyse_command(text, &ShellContext::new())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    #[test]
    fn a_denied_program_is_found_wherever_it_runs(cmd in command()) {
        let analysis = analyse(&cmd.text);
        if cmd.denied {
            prop_assert!(may_run_rm(&analysis), "{:?} hides rm: {:?}", cmd.text, analysis);
        } else {
            prop_assert!(!may_run_rm(&analysis), "{:?} was not seen through: {:?}", cmd.text, analysis);
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
