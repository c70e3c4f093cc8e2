//! Programs known not to run a program their arguments name. Any other program that is not a
//! wrapper, a shell or an interpreter the analyser reads through may do so (`setarch x86_64
//! rm -rf v`, `valgrind rm`, `prlimit --nofile=64 rm`, `npx rm`, `make --eval=...`,
//! `rbash -c`): a deny of `rm` matches it when one of its arguments names `rm`
//! ([`SimpleCommand::may_run_its_arguments`](crate::SimpleCommand::may_run_its_arguments)).

use super::{helpers, option_table, wrappers};

/// Programs whose arguments are data, not a program to run (beyond the read-only helpers, the
/// programs that write their operands, and those in the risky-option table, whose options that
/// run programs are judged there).
#[rustfmt::skip]
const DATA_ONLY: &[&str] = &[
    // Builtins and coreutils.
    "alias", "unalias", "type", "hash", "help", "read", "exit", "return", "shift", "set",
    "unset", "export", "declare", "typeset", "local", "readonly", "let", "getopts", "umask",
    "ulimit", "times", "wait", "jobs", "kill", "printenv", "sleep", "yes", "stat", "du", "df",
    "realpath", "readlink", "id", "whoami", "groups", "uname", "hostname", "tty", "file",
    "md5sum", "sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum", "base64", "base32", "xxd",
    "od", "hexdump", "strings", "column", "paste", "join", "comm", "fold", "fmt", "expand",
    "unexpand", "rev", "tac", "shuf", "split", "csplit", "tsort", "numfmt", "factor", "expr",
    "mktemp", "whereis", "man", "info", "ps", "pgrep", "pkill", "killall", "uptime", "free",
    "locale", "tput", "clear", "cmp", "sdiff", "patch",
    // Archives and transfers (their program-running options are in the risky table).
    "gzip", "gunzip", "zcat", "bzip2", "bunzip2", "xz", "unxz", "zstd", "zip", "unzip",
    // Tool chains whose subcommands run the project's own code, not a program an argument
    // names (their options that do are in the risky table).
    "cargo", "rustc", "rustfmt", "rustdoc", "go", "gofmt",
];

/// True when `program` may run a program one of its arguments names: it is not a wrapper or
/// a shell (looked through), and not known to take only data.
pub(crate) fn may_run_arguments(program: &str) -> bool {
    !(DATA_ONLY.contains(&program)
        || helpers::find(program).is_some()
        || wrappers::find(program).is_some()
        || option_table::is_listed(program)
        || super::runners::shell(program).is_some())
}
