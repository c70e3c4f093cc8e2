//! The shell-command analyser of weft: a command is parsed the way the shell that runs it
//! parses it, and the analysis says which programs it may start, what cannot be analysed, and
//! what is risky. weft-permissions compares `Bash(...)` patterns with the analysis; the gate,
//! the pre-approvals and the permission modes are built on it.
//!
//! The shell that runs commands and the language they are read in are one value,
//! [`ShellProgram`] (bash as `bash --norc --noprofile -c`, or `/bin/sh`), whose [`Dialect`] the
//! [`ShellContext`] carries: under [`Dialect::Bash`] a command is parsed the way bash parses it;
//! under [`Dialect::Posix`] what bash and dash read differently is unanalysable.
//!
//! A command is parsed (lists, pipelines, subshells, groups, `if`, `for`, `while`, `case`,
//! functions, command and process substitution, heredocs, quoting of every kind) into
//! [`SimpleCommand`]s. Wrappers are looked through (`env`, `sudo`, `time`,
//! `timeout`, `xargs`, `flock`, `chroot`, `unshare`, `strace`... the table is
//! `wrapper_table.rs`), the strings of `sh -c` / `bash -lc` / `eval` / `trap` / `alias` /
//! `su -c` / `script -c` / `watch`, a heredoc read by a shell or by `source /dev/stdin`, the
//! commands of `find -exec`, and values that are commands (`git -c alias.x=!cmd`,
//! `tar --to-command`, `GIT_SSH_COMMAND=`) are analysed as commands too, and program paths are
//! compared by their basename (`/bin/rm` is `rm`).
//!
//! What cannot be seen through is reported, never guessed: a program name that is not literal
//! (`$CMD`, `$(echo rm)`), a non-literal `sh -c` string, a syntax error, arithmetic on variables
//! (an array subscript in a variable runs a command when evaluated). Risky things are reported
//! too: options that run other programs or write files (`git -c`, `find -exec`, `sed -i`,
//! `tar --to-command`, `rsync -e`...), writes outside the project, environment variables such
//! as `LD_PRELOAD=` or `GIT_SSH_COMMAND=`; each says whether it runs a program the analyser
//! could not see ([`Risk::runs_unseen_program`]), which a scoped deny denies. Lists fail
//! closed: a variable not on the harmless list, an option not in a helper's table, a program
//! not known to take only data are treated as able to do harm. A write of a protected path
//! (`.clawft/`, `.git/config`...: [`PROTECTED_PATHS`]) is a risk of its own kind
//! ([`Risk::writes_protected_path`]); [`CommandAnalysis::read_only_verdict`] says whether a
//! command only reads inside the project, and [`CommandAnalysis::needs_sandbox`] whether it
//! reads configuration (git's) that can name programs it runs.
//!
//! The parser is written for this job (see `docs/PERMISSIONS.md` for why no grammar crate was
//! adequate): it allocates only for the words it keeps, nests at most 32 levels, and reads at
//! most 64 KiB. The crate has no workspace dependency, never touches the file system or the
//! environment, and never prints.
//!
//! # Code map
//!
//! The shell-command analyser behind `Bash(...)` patterns, in a crate of its own because it is half
//! of what permissions are made of and uses nothing else of them. `analyse_command(command,
//! &ShellContext)` → `CommandAnalysis`: every `SimpleCommand` (program, arguments, the wrappers it
//! runs under, where it was found), the parts that cannot be analysed (`Unanalysable`), and the
//! risky things (`Risk`: options, variables and scripts that run programs or write files, writes
//! outside the project). A bash parser written for the job (see docs/PERMISSIONS.md for why no
//! grammar crate fitted); the tables (wrappers, risky options, read-only helpers, global options)
//! are data in their own modules, each module's documentation says what it decides. `ShellProgram`
//! and `Dialect`: the shell `exec_shell` runs and the language commands are read in, one value for
//! both. `Risk::writes_protected_path` (the protected paths), `CommandAnalysis::read_only_verdict`
//! (a table of reading commands, failing closed) and `needs_sandbox` (git reads configuration that
//! can name programs) are what the permission layer builds on. `tests/differential` runs generated
//! commands under the real bash and dash with logging stubs on `PATH` and checks every program
//! started against the analysis. Depends on shell-words only: no I/O, no environment, never prints.
//! It sits at L0 so that any L1 crate can use it (weft-permissions does).

mod analysis;
mod compound;
mod dialect;
mod environment;
mod git;
mod globals;
mod helper_table;
mod helpers;
mod heredoc;
mod interpreters;
mod language;
mod lex;
mod option_table;
mod parse;
mod paths;
mod programs;
mod protected;
mod read_only;
mod risky;
mod runners;
mod scripts;
mod walk;
mod word;
mod wrapper_options;
mod wrapper_table;
mod wrappers;

pub use analysis::{CommandAnalysis, Context, Risk, SimpleCommand, Unanalysable, basename};
pub use dialect::{Dialect, ShellProgram};
pub use environment::SAFE_VARIABLES;
pub use globals::without_global_options;
pub use helpers::{Helper, READ_ONLY_HELPERS};
pub use paths::{ShellContext, UnreadablePaths};
pub use protected::PROTECTED_PATHS;
pub use read_only::ReadOnlyVerdict;
pub use word::Word;

/// The names of the wrappers the analyser looks through, in table order.
pub fn wrapper_names() -> impl Iterator<Item = &'static str> {
    wrappers::WRAPPERS.iter().map(|w| w.name)
}

/// Analyses a shell command: its simple commands, the parts that cannot be analysed, and the
/// risky things in it. Never fails and never panics: whatever cannot be parsed is reported
/// in [`CommandAnalysis::unanalysable`].
///
/// ```
/// use weft_shell::{ShellContext, analyse_command};
///
/// let analysis = analyse_command("env -i PATH=/x /bin/rm -rf build", &ShellContext::new());
/// let rm = &analysis.commands()[0];
/// assert_eq!(rm.program(), "rm");
/// assert_eq!(rm.wrappers(), ["env"]);
/// assert_eq!(
///     analysis.risks()[0].reason(),
///     "`PATH=` may change what programs run or load: it is not one of the variables weft knows to be harmless",
/// );
/// ```
pub fn analyse_command(command: &str, ctx: &ShellContext) -> CommandAnalysis {
    walk::analyse(command, ctx)
}

/// How a reason shows text from a call (a command, a word, a path): at most 120 characters,
/// on one line, control characters as spaces.
///
/// ```
/// assert_eq!(weft_shell::shorten("a\nb"), "a b");
/// assert_eq!(weft_shell::shorten(&"x".repeat(200)).chars().count(), 121);
/// ```
pub fn shorten(text: &str) -> String {
    const MAX: usize = 120;
    let mut out: String = text
        .chars()
        .take(MAX)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().nth(MAX).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bash() -> ShellContext {
        ShellContext::new().with_dialect(Dialect::Bash)
    }

    /// `(program, args, context)` of every simple command, and the unanalysable reasons, with
    /// bash running the command.
    fn found(command: &str) -> (Vec<String>, Vec<String>) {
        found_in(command, &bash())
    }

    fn found_in(command: &str, ctx: &ShellContext) -> (Vec<String>, Vec<String>) {
        let analysis = analyse_command(command, ctx);
        let commands = analysis
            .commands()
            .iter()
            .map(|c| {
                let args: Vec<&str> = c.args().iter().map(Word::text).collect();
                let context: Vec<String> = c.context().iter().map(ToString::to_string).collect();
                format!("{} [{}] {}", c.program(), args.join(","), context.join(">"))
                    .trim_end()
                    .to_owned()
            })
            .collect();
        let parts = analysis
            .unanalysable()
            .iter()
            .map(|u| u.reason().to_owned())
            .collect();
        (commands, parts)
    }

    fn commands(command: &str) -> Vec<String> {
        let (commands, parts) = found(command);
        assert!(parts.is_empty(), "{command:?}: {parts:?}");
        commands
    }

    #[test]
    fn quoting_is_removed() {
        assert_eq!(commands("r''m \"-r\"f x\\ y"), ["rm [-rf,x y]"]);
        assert_eq!(
            commands("$'\\x72\\155' $'a\\tb' $'x\\0yz'"),
            ["rm [a\tb,x]"]
        );
        assert_eq!(commands("echo \"a \\\"b\\\" \\$c\""), ["echo [a \"b\" $c]"]);
        assert_eq!(commands("echo a\\\nb"), ["echo [ab]"]);
        assert_eq!(commands("echo a#b # c"), ["echo [a#b]"]);
    }

    #[test]
    fn heredocs_are_read_after_the_line() {
        assert_eq!(
            commands("cat <<-EOF | grep x\n\tline $(id)\n\tEOF\nls"),
            ["cat []", "grep [x]", "id [] `$(...)`", "ls []"]
        );
        assert_eq!(
            commands("cat <<'A' <<B\n$(no)\nA\n`yes`\nB\n"),
            ["cat []", "yes [] `$(...)`"]
        );
        assert_eq!(
            commands("cat <<< \"$(here)\""),
            ["here [] `$(...)`", "cat []"]
        );
        // Found by the differential harness: a line continuation goes before a heredoc's
        // lines are compared with the delimiter, and before a backquoted body is read, even
        // inside quotes there.
        assert_eq!(
            commands("sh <<E\nx\\\nE\nrm\nE\n"),
            [
                "sh []",
                "xE [] the input of `sh`",
                "rm [] the input of `sh`"
            ]
        );
        assert_eq!(
            commands("cat <<E\n$(sh -c 'ls a\\\nb')\nE"),
            [
                "cat []",
                "sh [-c,ls ab] `$(...)`",
                "ls [ab] `$(...)`>`sh -c`"
            ]
        );
        // bash 5.2 runs `$(...)` with a heredoc from a printed copy that loses `;`.
        assert_eq!(
            found("x=$(cat <<E\na\nE\necho b; rm c)").1,
            [
                "bash runs a command substitution that has a heredoc from a copy that can lose its `;` separators"
            ]
        );
        assert!(found("x=$(cat <<E\na\nE\necho b && rm c)").1.is_empty());
        assert!(
            found("git commit -m \"$(cat <<'E'\nfix; tidy\nE\n)\"")
                .1
                .is_empty()
        );
        // bash closes the descriptor at `>&-` and reads the rest as the next word.
        assert_eq!(commands("ls 2>&-x"), ["ls [x]"]);
        assert_eq!(commands("ls 2>& -x y"), ["ls [x,y]"]);
        assert_eq!(
            commands("echo `sh -c 'ls a\\\nb'`"),
            [
                "sh [-c,ls ab] `$(...)`",
                "echo [`sh -c 'ls a\\\nb'`]",
                "ls [ab] `$(...)`>`sh -c`"
            ]
        );
    }

    #[test]
    fn compound_commands_are_walked() {
        assert_eq!(
            commands("for f in $(ls); do wc -l \"$f\"; done"),
            ["ls [] `$(...)`", "wc [-l,$f]"]
        );
        assert_eq!(
            commands("case $x in a|b) one;; (c) two;;& *) three;& esac"),
            ["one []", "two []", "three []"]
        );
        assert_eq!(
            commands("while read l; do echo $l; done < in.txt"),
            ["read [l]", "echo [$l]"]
        );
        assert_eq!(
            commands("if a; then b; elif c; then d; else e; fi"),
            ["a []", "b []", "c []", "d []", "e []"]
        );
        assert_eq!(
            commands("[[ $x =~ ^(a|b)$ && -f y ]] || z"),
            ["[[ [$x,=~,^(a|b)$,-f,y]", "z []"]
        );
        assert_eq!(commands("coproc w { a; }"), ["a []"]);
        assert_eq!(
            commands("function f() { g; }\nf"),
            ["g [] function `f`", "f []"]
        );
        assert_eq!(commands("a=(1 $(b) 3) c"), ["b [] `$(...)`", "c []"]);
    }

    #[test]
    fn strings_run_as_commands_are_analysed() {
        assert_eq!(
            commands("xargs -0 sh -c 'rm \"$1\"' _"),
            ["sh [-c,rm \"$1\",_]", "rm [$1] `sh -c`"]
        );
        assert_eq!(
            commands("trap 'cleanup x' EXIT; alias ll='ls -l'"),
            [
                "trap [cleanup x,EXIT]",
                "alias [ll=ls -l]",
                "cleanup [x] `trap`",
                "ls [-l] `alias`"
            ]
        );
        assert_eq!(
            commands("find . -name x -exec grep -l y {} +"),
            [
                "find [.,-name,x,-exec,grep,-l,y,{},+]",
                "grep [-l,y,{}] `find -exec`"
            ]
        );
    }

    #[test]
    fn what_cannot_be_analysed_is_reported() {
        for (command, reason) in [
            ("$CMD x", "the program name `$CMD` is not literal"),
            (
                "sh -c \"$X\"",
                "the string `sh -c` runs (`$X`) is not literal",
            ),
            ("eval $X", "the string `eval` runs (`$X`) is not literal"),
            ("cat x | bash", "`bash` reads commands from its input"),
            (
                "echo $((x))",
                "arithmetic on variables can run commands (through array subscripts)",
            ),
            (
                "echo ${!x}",
                "indirect expansion `${!...}` can run commands (through array subscripts)",
            ),
            (
                "echo ${a[$i]}",
                "array subscripts are evaluated as arithmetic and can run commands",
            ),
            (
                "echo ${x@P}",
                "the `@P` operator expands a value as a prompt, which can run commands",
            ),
            (
                "let x=y+1",
                "`let`: arithmetic on variables can run commands (through array subscripts)",
            ),
            (
                "printf -v 'a[$i]' x",
                "`printf`: array subscripts are evaluated as arithmetic and can run commands",
            ),
            (
                "env -S 'r\\_m x'",
                "`env -S` builds its command from a string the analyser does not split (`r\\_m x`)",
            ),
            (
                "sh <(curl -s x)",
                "`<(curl -s x)` after the shell is not literal",
            ),
            (". \"./$F\"", "the script `.` runs (`./$F`) is not literal"),
            ("sh /dev/stdin", "`sh` reads commands from `/dev/stdin`"),
            (
                "chroot /srv",
                "`chroot` without a command starts a shell that reads commands from its input",
            ),
            (
                "parallel ::: 'rm x'",
                "`parallel` takes the commands it runs from its arguments or its input",
            ),
            ("sudo --bogus x", "unknown option `--bogus` of `sudo`"),
            (
                "echo @(a|b)",
                "the command cannot be parsed: extended globs `?(...)` are not analysed",
            ),
            (
                "echo \"x",
                "the command cannot be parsed: unclosed double quote",
            ),
            (
                "if x; then y",
                "the command cannot be parsed: `fi` expected at byte 12",
            ),
            (
                "a )",
                "the command cannot be parsed: unexpected `)` at byte 2",
            ),
        ] {
            let (_, parts) = found(command);
            assert_eq!(
                parts.first().map(String::as_str),
                Some(reason),
                "{command:?}"
            );
        }
    }

    #[test]
    fn posix_sh_refuses_what_dash_and_bash_read_otherwise() {
        let posix = ShellContext::new();
        for (command, what) in [
            ("git status; echo $'\\' ; rm x", "`$'...'` quoting"),
            ("echo $\"x\"", "`$\"...\"` quoting"),
            ("[[ a > f ]]", "`[[`"),
            ("a &>/dev/null b", "`&>`"),
            ("a |& b", "`|&`"),
            ("case x in x) a;& y) b;; esac", "`;&`"),
            ("case x in x) a;;& esac", "`;;&`"),
            ("function f { rm x; }", "`function`"),
            ("select x in a; do b; done", "`select`"),
            ("coproc a", "`coproc`"),
            ("((x = 1))", "an arithmetic command `((...))`"),
            ("echo $[1+1]", "`$[...]` arithmetic"),
            ("a=(1 2)", "an array assignment `NAME=(...)`"),
            ("echo ${a[0]}", "an array subscript `${NAME[...]}`"),
            ("cat <(ls)", "process substitution `<(...)`"),
            ("cat <<< x", "`<<<`"),
            ("ls >&out", "`>&` to a file"),
            ("exec {fd}>f", "a descriptor chosen by the shell `{NAME}>`"),
        ] {
            let (_, parts) = found_in(command, &posix);
            let expected = format!(
                "{what} means one thing to bash and may mean another to `/bin/sh`, which runs the command"
            );
            assert_eq!(parts.first(), Some(&expected), "{command:?}");
            let (_, in_bash) = found(command);
            assert!(
                in_bash.iter().all(|p| !p.contains("to bash")),
                "{command:?}: {in_bash:?}"
            );
        }
        // `/bin/sh` uses aliases in scripts; bash started by weft does not.
        assert_eq!(
            found_in("alias x=eval", &posix).1,
            ["`alias` defines words `/bin/sh` replaces in the commands after it"]
        );
        // `time` is a program to `/bin/sh`, a keyword to bash.
        let wrappers = |ctx: &ShellContext| {
            analyse_command("time rm x", ctx).commands()[0]
                .wrappers()
                .join(" ")
        };
        assert_eq!(wrappers(&bash()), "");
        assert_eq!(wrappers(&posix), "time");
        // Nested shells are read in their own language: `sh -c` as POSIX even under bash.
        assert!(found("sh -c \"echo $'x'\"").1[0].contains("to bash"));
        assert!(found_in("bash -c \"echo $'x'\"", &posix).1.is_empty());
        assert_eq!(
            found("zsh -c 'rm x'").1,
            ["the analyser does not read the language of `zsh`"]
        );
    }

    #[test]
    fn what_changes_bash_language_is_unanalysable() {
        for (command, reason) in [
            (
                "shopt -s expand_aliases",
                "`shopt -s expand_aliases` changes how the shell reads the commands after it",
            ),
            (
                "set -o posix",
                "`set -o posix` changes how the shell reads the commands after it",
            ),
            (
                "enable -f ./x.so ls",
                "`enable -f ./x.so ls` changes how the shell reads the commands after it",
            ),
            (
                "POSIXLY_CORRECT=1",
                "`POSIXLY_CORRECT=` changes how bash reads the commands after it",
            ),
        ] {
            assert_eq!(found(command).1, [reason], "{command:?}");
        }
        assert!(found("set -euo pipefail; set -x").1.is_empty());
    }

    #[test]
    fn writes_of_protected_paths_are_marked() {
        let ctx = bash().with_project_root("/p");
        let protected = |command: &str| {
            analyse_command(command, &ctx)
                .protected_write()
                .map(|r| r.reason().to_owned())
        };
        for command in [
            "echo '{}' > .clawft/config.json",
            "cat x >> .mcp.json",
            "ls | tee .claude/settings.json",
            "cp evil .git/hooks/pre-commit",
            "mv x .git/config",
            "rm -rf .git",
            "rm -rf .",
            "mkdir -p .agents/skills/x",
            "sed -i s/a/b/ .codex/config.toml",
            "cd .git/hooks && echo x > pre-commit",
            "git clone https://x/y .claude/skills/y",
            "tar -xf a.tar -C .claude",
            "cp --target-directory=.git x",
            "echo x > sub/../.clawft/x",
            "echo x > /p/.git/config",
            "echo x > \"$F\"",
            "echo x > .c*",
            "time -o .clawft/x ls",
        ] {
            assert!(protected(command).is_some(), "{command:?}");
        }
        assert_eq!(
            protected("echo x > sub/../.clawft/x").as_deref(),
            Some("`> sub/../.clawft/x` writes the protected path `.clawft`")
        );
        for command in [
            "echo x > notes.txt",
            "cat .claude/settings.json",
            "rm -rf build *.o",
            "ls .git/config",
            "git log > /dev/null",
            "echo x > .git/HEAD.lock",
        ] {
            assert_eq!(protected(command), None, "{command:?}");
        }
    }

    #[test]
    fn wrappers_are_recorded() {
        let analysis = analyse_command("sudo -u x nice -n 5 /usr/bin/git -C s log", &bash());
        let git = &analysis.commands()[0];
        assert_eq!(git.program(), "git");
        assert_eq!(git.wrappers(), ["sudo", "nice"]);
        assert_eq!(git.program_word().text(), "/usr/bin/git");
        assert_eq!(git.to_string(), "sudo -u x nice -n 5 /usr/bin/git -C s log");
        assert!(analyse_command("ls | xargs rm", &bash()).commands()[1].appends_input_arguments());
    }
}
