//! Property tests for the shell analyser: a deny never passes when any part of a compound
//! command matches it, a command with no denied part is not denied, and no input panics.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use serde_json::json;
use weft_permissions::{Origin, PatternContext, Policy, ShellContext, ToolGate, analyse_command};

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

const SEPARATORS: &[&str] = &["; ", " && ", " || ", " | ", " & ", "\n"];

const WRAPPERS: &[&str] = &[
    "env ",
    "env -i A=b ",
    "command ",
    "nice -n 5 ",
    "timeout 5 ",
    "sudo -u root ",
    "exec ",
    "nohup ",
    "time ",
    "xargs ",
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
    ]
}

fn quote(text: &str) -> String {
    shell_words::quote(text).into_owned()
}

fn command() -> impl Strategy<Value = Cmd> {
    let leaf = (
        proptest::option::of(proptest::sample::select(WRAPPERS)),
        atom(),
    )
        .prop_map(|(wrapper, atom)| Cmd {
            text: format!("{}{}", wrapper.unwrap_or(""), atom.text),
            denied: atom.denied,
        });
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
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

fn deny_rm() -> ToolGate {
    ToolGate::new([Policy::from_lists::<&str>(
        None,
        &["Bash(rm:*)"],
        Origin::Session,
        &PatternContext::new(),
    )
    .unwrap()])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    #[test]
    fn a_deny_never_passes_when_any_part_matches(cmd in command()) {
        let decision = deny_rm().check("Bash", &json!({ "command": cmd.text }));
        if cmd.denied {
            prop_assert!(decision.is_denied(), "{:?} passed: {}", cmd.text, decision);
        } else {
            prop_assert!(decision.is_allowed(), "{:?} was refused: {}", cmd.text, decision);
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
            assert!(
                deny_rm()
                    .check("Bash", &json!({ "command": text }))
                    .is_denied()
            );
        }
    }
    let long = "a".repeat(70_000);
    assert!(!analyse_command(&long, &ShellContext::new()).is_fully_analysed());
}
