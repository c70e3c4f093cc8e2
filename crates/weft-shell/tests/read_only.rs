//! The read-only verdict: what a command that only reads inside the project looks like, and
//! everything that is not (failing closed: an unknown program or option, a write, a read
//! outside, another user, a variable weft does not know).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use weft_shell::{Dialect, ReadOnlyVerdict, ShellContext, analyse_command};

fn verdict(command: &str) -> ReadOnlyVerdict {
    let ctx = ShellContext::new()
        .with_project_root("/p")
        .with_dialect(Dialect::Bash);
    analyse_command(command, &ctx).read_only_verdict()
}

#[test]
fn reading_inside_the_project_is_read_only() {
    for command in [
        "ls",
        "ls -la src",
        "cat Cargo.toml | head -20",
        "head -n 5 src/lib.rs; tail -3 README.md",
        "wc -l src/*.rs 2>/dev/null || true",
        "grep -rn 'fn main' src",
        "rg --type rust -n TODO crates",
        "find . -name '*.rs' -newer Cargo.toml -print",
        "find src -maxdepth 2 -type f | sort | uniq -c",
        "git status",
        "git status -sb",
        "git log --oneline -n 20 | cat",
        "git log -5 --stat --format='%h %s'",
        "git diff --cached --name-only",
        "git diff HEAD~1 -- src/lib.rs",
        "git show HEAD:src/lib.rs | nl",
        "git branch -a --list 'feature/*'",
        "git branch --contains HEAD",
        "git rev-parse --abbrev-ref HEAD",
        "git ls-files -m",
        "git blame -L 1,10 src/lib.rs",
        "git --no-pager log -1",
        "git grep -n needle -- src",
        "cd crates && ls",
        "env LC_ALL=C sort data.txt",
        "timeout 5 cat big.log",
        "echo $(git rev-parse HEAD)",
        "sh -c 'ls && pwd'",
        "diff -u a.txt b.txt",
        "jq -r .name package.json",
        "date +%s",
        "i=0; echo $i",
        "LANG=C ls",
    ] {
        assert_eq!(verdict(command), ReadOnlyVerdict::ReadOnly, "{command:?}");
    }
}

#[test]
fn anything_else_is_not() {
    for (command, why) in [
        ("make test", "`make` is not on the read-only table"),
        ("cargo build", "`cargo` is not on the read-only table"),
        ("python3 tool.py", "`python3` is not on the read-only table"),
        ("rm -rf build", "`rm` is not on the read-only table"),
        ("touch x", "`touch` is not on the read-only table"),
        ("ls > listing.txt", "a redirection writes a file"),
        ("{ ls; } >> listing.txt", "a redirection writes a file"),
        (
            "cat /etc/passwd",
            "`cat` reads `/etc/passwd`, which is outside the project",
        ),
        (
            "cat ../secret",
            "`cat` reads `../secret`, which climbs out of the project",
        ),
        (
            "grep -f /etc/x y",
            "`grep -f` reads `/etc/x`, which is outside the project",
        ),
        (
            "find /etc -name x",
            "`find` searches `/etc`, which is outside the project",
        ),
        ("find . -delete", "`find -delete` deletes files"),
        (
            "find . -exec cat {} +",
            "`find -exec` runs a command for each file",
        ),
        (
            "find . -fls out",
            "`find -fls` is not on the read-only table",
        ),
        (
            "sort -o out.txt in.txt",
            "`sort -o out.txt in.txt` is not used read-only",
        ),
        ("head --bogus x", "`head --bogus x` is not used read-only"),
        ("sed -i s/a/b/ f", "`sed -i` edits files in place"),
        ("git push", "`git push` is not on the read-only table"),
        (
            "git commit -m x",
            "`git commit` is not on the read-only table",
        ),
        ("git branch topic", "`git branch topic` writes"),
        (
            "git branch -D topic",
            "`git branch -D` is not on the read-only table",
        ),
        ("git tag v1", "`git tag v1` writes"),
        (
            "git log --output=x",
            "`git --output` writes to `x`, which is inside the project, so it is not read-only",
        ),
        (
            "git diff --ext-diff",
            "`git diff --ext-diff` is not on the read-only table",
        ),
        (
            "git log --show-signature",
            "`git log --show-signature` is not on the read-only table",
        ),
        (
            "git -C sub status",
            "`git -C sub` may use another repository, whose configuration can run programs",
        ),
        ("git", "`git` without a subcommand"),
        ("sudo ls", "`sudo` runs it as another user"),
        (
            "xargs cat < list",
            "`xargs` is not a wrapper the read-only table knows",
        ),
        ("nsenter -t 1 ls", "`nsenter` runs it as another user"),
        (
            "unshare -r ls",
            "`unshare` is not a wrapper the read-only table knows",
        ),
        ("time -o out ls", "`time -o` is not on the read-only table"),
        (
            "env -C /tmp ls",
            "`env -C` runs the command in `/tmp`, which is outside the project",
        ),
        ("env -u X ls", "`env -u` is not on the read-only table"),
        (
            "FOO=1 ls",
            "`FOO=` may change what programs run or load: it is not one of the variables weft knows to be harmless",
        ),
        ("$CMD", "the program name `$CMD` is not literal"),
        (
            "date 010100002030",
            "`date 010100002030` sets the system clock",
        ),
        ("ls; curl https://x", "`curl` is not on the read-only table"),
        // They look read-only, and read outside the project.
        (
            "sed '1r /home/me/.ssh/id_rsa' notes.txt",
            "the `sed` script reads `/home/me/.ssh/id_rsa` (`r`/`R`), which is outside the project",
        ),
        (
            "sed -n 'R ../x' notes.txt",
            "the `sed` script reads `../x` (`r`/`R`), which climbs out of the project",
        ),
        (
            "date -f ~/.ssh/id_rsa",
            "`date -f` reads `~/.ssh/id_rsa`, which is in a home directory",
        ),
        (
            "wc -l --files0-from=list",
            "`wc --files0-from` reads the files another file names",
        ),
        (
            "sort --files0-from list",
            "`sort --files0-from` reads the files another file names",
        ),
        (
            "awk '{getline l < \"/etc/passwd\"; print l}' x",
            "the `awk` program reads files it names (`getline <`)",
        ),
        (
            "awk 'BEGIN{ARGV[1]=\"/etc/passwd\"; ARGC=2} {print}'",
            "the `awk` program reads files it names (`@include`, `ARGV`)",
        ),
        (
            "jq --rawfile k /home/me/key -n '$k'",
            "`jq --rawfile` reads `/home/me/key`, which is outside the project",
        ),
        (
            "diff --from-file=/etc/passwd notes.txt",
            "`diff --from-file` reads `/etc/passwd`, which is outside the project",
        ),
        (
            "cat < /etc/passwd",
            "`< /etc/passwd` reads a path that is outside the project",
        ),
        (
            "echo \"$(< ../secret)\"",
            "`< ../secret` reads a path that climbs out of the project",
        ),
        (
            "cd - && cat x",
            "`cd -` returns to the previous directory, which may be outside the project",
        ),
        (
            "cd && cat .ssh/id_rsa",
            "`cd` without a directory leaves the project",
        ),
        (
            "HOME=. git status",
            "`HOME=` may change what programs run or load: it is not one of the variables weft knows to be harmless",
        ),
        (
            "git -C ../other log",
            "`git -C ../other` may use another repository, whose configuration can run programs",
        ),
        ("rg --pre cat x", "`rg --pre` can run other programs"),
        ("git grep -O x", "`git -O` runs a pager"),
        ("tail -f x | tee y", "`tee` is not on the read-only table"),
    ] {
        let got = verdict(command);
        let reason = match &got {
            ReadOnlyVerdict::NotReadOnly(reason) => reason.as_str(),
            ReadOnlyVerdict::ReadOnly => "read-only",
        };
        if why.contains("so it is not read-only") {
            assert!(!got.is_read_only(), "{command:?}");
        } else {
            assert_eq!(reason, why, "{command:?}");
        }
    }
}

/// Read-only git commands still need the sandbox (the repository's configuration can name
/// programs git runs); other read-only commands do not.
#[test]
fn read_only_git_still_needs_the_sandbox() {
    let ctx = ShellContext::new()
        .with_project_root("/p")
        .with_dialect(Dialect::Bash);
    for (command, sandbox) in [
        ("git status", true),
        ("git log -p | head", true),
        ("ls -la && cat README.md", false),
    ] {
        let analysis = analyse_command(command, &ctx);
        assert!(analysis.read_only_verdict().is_read_only(), "{command:?}");
        assert_eq!(analysis.needs_sandbox(), sandbox, "{command:?}");
    }
}

/// Under `/bin/sh` (dash, whose reading differs from bash's) what bash alone reads is never
/// read-only.
#[test]
fn under_sh_bash_only_syntax_is_not_read_only() {
    let ctx = ShellContext::new()
        .with_project_root("/p")
        .with_dialect(Dialect::Posix);
    for command in [
        "cat $'x'",
        "[[ -f x ]] && cat x",
        "ls &>/dev/null",
        "alias l=ls\nl",
    ] {
        assert!(
            !analyse_command(command, &ctx)
                .read_only_verdict()
                .is_read_only(),
            "{command:?}"
        );
    }
    assert!(
        analyse_command("ls -la | head", &ctx)
            .read_only_verdict()
            .is_read_only()
    );
}
