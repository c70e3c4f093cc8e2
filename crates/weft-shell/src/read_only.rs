//! Whether a whole command only reads inside the project
//! ([`CommandAnalysis::read_only_verdict`]), decided by a table and failing closed: every
//! simple command must be a read-only helper used read-only (`ls`, `cat`, `head`, `grep`...,
//! see `helper_table.rs`), `find` without actions, or a git subcommand that only reads
//! (`status`, `log`, `diff`, `show`, `branch` listing...) with options from its row below;
//! wrappers only from a short list (`env`, `nice`, `timeout`, `command`, `time`...); nothing
//! unanalysable, no risk (a write, a read outside the project, a variable weft does not know,
//! another repository), no redirection that writes a file. Anything else, an unknown program
//! or option among them, is not read-only.
//!
//! git reads the repository's configuration, which can name programs it runs: a read-only
//! git command still [needs the sandbox](CommandAnalysis::needs_sandbox).

use super::analysis::{CommandAnalysis, SimpleCommand, basename};
use super::word::Word;

/// What [`CommandAnalysis::read_only_verdict`] says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadOnlyVerdict {
    /// Every program only reads, inside the project.
    ReadOnly,
    /// Not read-only, and why ("`make` is not on the read-only table").
    NotReadOnly(String),
}

impl ReadOnlyVerdict {
    /// True for [`ReadOnlyVerdict::ReadOnly`].
    pub fn is_read_only(&self) -> bool {
        *self == ReadOnlyVerdict::ReadOnly
    }
}

/// Wrappers that change nothing a read-only command does, with the options they may have
/// then (`time -o FILE` writes; `env` may set variables, judged as assignments).
#[rustfmt::skip]
const WRAPPERS: &[(&str, &[&str])] = &[
    ("env", &[]),
    ("nice", &["-n", "--adjustment"]),
    (
        "timeout",
        &[
            "-s", "--signal", "-k", "--kill-after", "--preserve-status", "--foreground",
        ],
    ),
    ("command", &[]),
    ("builtin", &[]),
    ("time", &["-p", "--portability"]),
    (
        "stdbuf",
        &["-i", "-o", "-e", "--input", "--output", "--error"],
    ),
    ("nohup", &[]),
    (
        "ionice",
        &["-c", "-n", "-t", "--class", "--classdata", "--ignore"],
    ),
];

/// `find`'s tests, options and read-only actions (`-print`, `-ls`, `-printf`: to its output).
#[rustfmt::skip]
const FIND: &[&str] = &[
    "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
    "-lname", "-ilname", "-type", "-xtype", "-size", "-empty", "-executable", "-readable",
    "-writable", "-perm", "-user", "-group", "-uid", "-gid", "-nouser", "-nogroup", "-links",
    "-inum", "-samefile", "-newer", "-anewer", "-cnewer", "-mtime", "-mmin", "-atime", "-amin",
    "-ctime", "-cmin", "-used", "-fstype", "-maxdepth", "-mindepth", "-depth", "-xdev",
    "-mount", "-daystart", "-follow", "-regextype", "-noleaf", "-ignore_readdir_race", "-print",
    "-print0", "-printf", "-ls", "-prune", "-quit", "-true", "-false", "-not", "-a", "-and",
    "-o", "-or", "!", "(", ")", "-L", "-P", "-H",
];

/// One git subcommand that only reads: the options it may have (an option with a value may
/// be written `--opt=value`, or as two words when in `values`) and whether it may have
/// operands (revisions and paths; for `branch` and `tag` an operand creates one).
struct GitReader {
    subcommands: &'static [&'static str],
    flags: &'static [&'static str],
    values: &'static [&'static str],
    operands: bool,
}

/// Options of the history and diff commands (`log`, `show`, `diff`...).
#[rustfmt::skip]
const HISTORY_FLAGS: &[&str] = &[
    "--oneline", "--graph", "--decorate", "--no-decorate", "--stat", "--shortstat", "--numstat",
    "--name-only", "--name-status", "--abbrev-commit", "--no-abbrev-commit", "--abbrev",
    "--all", "--branches", "--tags", "--remotes", "--first-parent", "--no-merges", "--merges",
    "--reverse", "-p", "-u", "--patch", "--no-patch", "-s", "--raw", "--cached", "--staged",
    "-w", "-b", "--ignore-all-space", "--ignore-space-change", "--ignore-blank-lines",
    "--color", "--no-color", "--word-diff", "--color-words", "--diff-filter", "-M", "-C",
    "--find-renames", "--find-copies", "--no-renames", "--follow", "--unified", "--date",
    "--relative", "--summary", "--dirstat", "--check", "--exit-code", "--quiet", "-q",
    "--no-ext-diff", "--no-textconv", "--histogram", "--patience", "--minimal", "--full-diff",
    "--left-right", "--cherry-pick", "--cherry-mark", "--boundary", "--topo-order",
    "--date-order", "--author-date-order", "--simplify-by-decoration", "--source",
    "--use-mailmap", "--notes", "--no-notes", "-g", "--walk-reflogs", "-z", "-i",
    "--regexp-ignore-case", "-E", "--extended-regexp", "-F", "--fixed-strings", "--all-match",
    "--invert-grep", "--pickaxe-all", "--pickaxe-regex", "--full-history", "--no-walk",
    "--do-walk", "--parents", "--children", "--format", "--pretty", "--max-count", "--skip",
    "--since", "--after", "--until", "--before", "--author", "--committer", "--grep",
    "--name-only", "--full-index", "--binary", "--submodule", "--ita-invisible-in-index",
    "--merge-base", "--no-index-info",
];
#[rustfmt::skip]
const HISTORY_VALUES: &[&str] = &[
    "-n", "-U", "-S", "-G", "-L", "--max-count", "--skip", "--since", "--after", "--until",
    "--before", "--author", "--committer", "--grep", "--format", "--pretty", "--date",
];

/// The git subcommands that only read.
#[rustfmt::skip]
const GIT_READERS: &[GitReader] = &[
    GitReader {
        subcommands: &[
            "log", "show", "diff", "whatchanged", "shortlog", "diff-tree", "diff-index",
            "diff-files", "range-diff", "cherry",
        ],
        flags: HISTORY_FLAGS,
        values: HISTORY_VALUES,
        operands: true,
    },
    GitReader {
        subcommands: &["status"],
        flags: &[
            "-s", "--short", "-b", "--branch", "--porcelain", "--long", "-u",
            "--untracked-files", "--ignored", "-z", "--column", "--no-column", "--ahead-behind",
            "--no-ahead-behind", "--renames", "--no-renames", "-v", "--verbose", "--show-stash",
            "--ignore-submodules",
        ],
        values: &[],
        operands: true,
    },
    GitReader {
        subcommands: &["branch"],
        flags: &[
            "-a", "-r", "-l", "--list", "-v", "-vv", "--all", "--remotes", "--no-column",
            "--column", "--show-current", "--color", "--no-color", "-i", "--ignore-case",
            "--abbrev", "--no-abbrev", "--contains", "--no-contains", "--merged", "--no-merged",
            "--sort", "--format", "--points-at",
        ],
        values: &[
            "--contains", "--no-contains", "--merged", "--no-merged", "--sort", "--format",
            "--points-at",
        ],
        operands: false,
    },
    GitReader {
        subcommands: &["tag"],
        flags: &[
            "-l", "--list", "-n", "--column", "--no-column", "--sort", "--contains",
            "--no-contains", "--merged", "--no-merged", "--points-at", "--format", "-i",
            "--ignore-case",
        ],
        values: &[
            "--sort", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at",
            "--format",
        ],
        operands: false,
    },
    GitReader {
        subcommands: &["rev-parse"],
        flags: &[
            "--show-toplevel", "--abbrev-ref", "--short", "--git-dir", "--absolute-git-dir",
            "--git-common-dir", "--is-inside-work-tree", "--is-inside-git-dir",
            "--is-bare-repository", "--verify", "-q", "--quiet", "--symbolic",
            "--symbolic-full-name", "--show-prefix", "--show-cdup", "--default", "--all",
            "--branches", "--tags", "--remotes", "--show-object-format",
        ],
        values: &["--default"],
        operands: true,
    },
    GitReader {
        subcommands: &["ls-files"],
        flags: &[
            "-c", "-d", "-o", "-m", "-i", "-s", "-u", "-k", "-z", "-t", "-v", "-f", "--cached",
            "--deleted", "--others", "--modified", "--ignored", "--stage", "--unmerged",
            "--killed", "--exclude-standard", "--directory", "--no-empty-directory",
            "--full-name", "--abbrev", "--error-unmatch", "--eol", "--format", "-x",
            "--exclude",
        ],
        values: &["-x", "--exclude", "--format"],
        operands: true,
    },
    GitReader {
        subcommands: &["ls-tree"],
        flags: &[
            "-d", "-r", "-t", "-l", "-z", "--name-only", "--name-status", "--full-name",
            "--full-tree", "--abbrev", "--long", "--object-only", "--format",
        ],
        values: &["--format"],
        operands: true,
    },
    GitReader {
        subcommands: &["cat-file"],
        flags: &["-t", "-s", "-e", "-p"],
        values: &[],
        operands: true,
    },
    GitReader {
        subcommands: &[
            "describe", "name-rev", "merge-base", "rev-list", "show-ref", "for-each-ref",
            "count-objects", "check-ignore", "check-attr", "var",
        ],
        flags: &[
            "--tags", "--all", "--long", "--abbrev", "--always", "--dirty", "--exact-match",
            "--match", "--exclude", "--contains", "--first-parent", "--is-ancestor",
            "--fork-point", "--octopus", "--independent", "--count", "--max-count", "--heads",
            "--head", "--verify", "-q", "--quiet", "-s", "--hash", "--dereference", "--format",
            "--sort", "-v", "--verbose", "-H", "--name-only", "--no-undefined", "-n", "--stdin",
            "-z", "--non-matching", "--cached", "--objects", "--no-walk", "--reverse",
            "--topo-order", "--date-order", "--since", "--until", "--merges", "--no-merges",
            "--left-right", "--branches", "--remotes",
        ],
        values: &[
            "--match", "--exclude", "--abbrev", "--format", "--sort", "--max-count", "-n",
            "--since", "--until",
        ],
        operands: true,
    },
    GitReader {
        subcommands: &["blame", "annotate"],
        flags: &[
            "-w", "-M", "-C", "-s", "-e", "-l", "-t", "-n", "-f", "-p", "--porcelain",
            "--line-porcelain", "--date", "--show-name", "--show-number", "--show-email",
            "--root", "--incremental", "-L", "--no-textconv",
        ],
        values: &["-L", "--date"],
        operands: true,
    },
    GitReader {
        subcommands: &["grep"],
        flags: &[
            "-i", "--ignore-case", "-I", "-w", "--word-regexp", "-v", "--invert-match", "-h",
            "-H", "--full-name", "-E", "--extended-regexp", "-G", "--basic-regexp", "-F",
            "--fixed-strings", "-P", "--perl-regexp", "-n", "--line-number", "--column", "-l",
            "--files-with-matches", "--name-only", "-L", "--files-without-match", "-z",
            "--null", "-o", "--only-matching", "-c", "--count", "--color", "--no-color",
            "--break", "--heading", "-p", "--show-function", "-W", "--function-context", "-q",
            "--quiet", "--cached", "--untracked", "--no-index", "--recurse-submodules", "-r",
            "--recursive", "--all-match", "-e", "--and", "--or", "--not", "-A", "-B", "-C",
            "--max-depth", "-m", "--max-count", "--threads",
        ],
        values: &[
            "-e", "-A", "-B", "-C", "--max-depth", "-m", "--max-count", "--threads",
        ],
        operands: true,
    },
];

impl CommandAnalysis {
    /// Whether the command only reads inside the project, by the table of
    /// programs and options above; fails closed (see the module documentation, and
    /// docs/PERMISSIONS.md, "Read-only commands").
    ///
    /// This is what a permission mode may use to run a command without asking. `ReadOnly` is
    /// judged on the command's text, with paths as written, so the caller must still run the
    /// command in the sandbox (read-only where it can): a symlink inside the project that
    /// points elsewhere, a file named like an option, and git's configuration (see
    /// [`needs_sandbox`](Self::needs_sandbox), true for every read-only git command) are not
    /// seen here. Judge the analysis made with the [`ShellContext`](crate::ShellContext) of
    /// the call: its project root, working directory and the [`Dialect`](crate::Dialect) of
    /// the shell that runs it. Commands that look read-only and are not: `sed '1r F'`,
    /// `date -f F`, `wc --files0-from=L`, `awk 'BEGIN{ARGV[1]="F"...}'`, `cd - && cat x`,
    /// `cat < F`, `HOME=. git status`, `git -C ../other log`, `git log --output=x`.
    ///
    /// ```
    /// use weft_shell::{Dialect, ReadOnlyVerdict, ShellContext, analyse_command};
    ///
    /// let ctx = ShellContext::new().with_project_root("/p").with_dialect(Dialect::Bash);
    /// let verdict = |c: &str| analyse_command(c, &ctx).read_only_verdict();
    /// assert!(verdict("git log --oneline | head -5 && ls -la src").is_read_only());
    /// assert_eq!(
    ///     verdict("make test"),
    ///     ReadOnlyVerdict::NotReadOnly("`make` is not on the read-only table".to_owned()),
    /// );
    /// assert!(!verdict("cat /etc/passwd").is_read_only());
    /// assert!(!verdict("git log > log.txt").is_read_only());
    /// assert!(!verdict("sed '1r /home/me/.ssh/id_rsa' notes.txt").is_read_only());
    /// // Read-only, and still to be run in the sandbox: git's configuration can name programs.
    /// assert!(analyse_command("git status", &ctx).needs_sandbox());
    /// ```
    pub fn read_only_verdict(&self) -> ReadOnlyVerdict {
        let no = |why: String| ReadOnlyVerdict::NotReadOnly(why);
        if let Some(part) = self.unanalysable.first() {
            return no(part.to_string());
        }
        if let Some(risk) = self.risks.first() {
            return no(risk.to_string());
        }
        if self.writes_files {
            return no("a redirection writes a file".to_owned());
        }
        for command in &self.commands {
            if let Some(why) = not_read_only(command) {
                return no(why);
            }
        }
        ReadOnlyVerdict::ReadOnly
    }
}

/// Why `command` is not read-only, if it is not.
fn not_read_only(command: &SimpleCommand) -> Option<String> {
    if let Some(user) = command.other_user() {
        return Some(format!("`{user}` runs it as another user"));
    }
    // Its string's or its body's commands are judged on their own.
    if command.runs_analysed_string() || command.calls_defined_function() {
        return None;
    }
    for level in 0..command.level_count().saturating_sub(1) {
        let words = command.level(level);
        let own = words.len() - command.level(level + 1).len();
        let wrapper = words.first().map_or("", |w| basename(w.text()));
        let Some((_, options)) = WRAPPERS.iter().find(|(name, _)| *name == wrapper) else {
            return Some(format!(
                "`{wrapper}` is not a wrapper the read-only table knows"
            ));
        };
        for word in &words[1..own] {
            let text = word.text();
            let name = text.split_once('=').map_or(text, |(n, _)| n);
            let short = name.get(..2).unwrap_or(name);
            let known =
                options.contains(&name) || (!name.starts_with("--") && options.contains(&short));
            if text.starts_with('-') && !known {
                return Some(format!("`{wrapper} {name}` is not on the read-only table"));
            }
        }
    }
    let program = command.program();
    if command.is_read_only_helper() {
        return None;
    }
    let args = command.args();
    match program {
        "find" => find_reads(args),
        "git" => git_reads(args),
        _ if super::helpers::find(program).is_some() => {
            Some(format!("{} is not used read-only", command.describe()))
        }
        _ => Some(format!("`{program}` is not on the read-only table")),
    }
}

/// `find` with tests and printing actions only (its starting points were checked against the
/// project with the risks).
fn find_reads(args: &[Word]) -> Option<String> {
    let mut i = 0;
    while let Some(word) = args.get(i) {
        i += 1;
        let text = word.text();
        if !word.is_literal() && word.may_be_option() {
            return Some(format!("`{text}` may be a `find` action"));
        }
        if !text.starts_with('-') && !matches!(text, "!" | "(" | ")") {
            continue; // a starting point, or a test's value
        }
        if !FIND.contains(&text) {
            return Some(format!("`find {text}` is not on the read-only table"));
        }
    }
    None
}

/// A git subcommand on the read-only table, with options from its row.
fn git_reads(args: &[Word]) -> Option<String> {
    let (rest, unsure) = super::globals::without_global_options("git", args);
    if let Some(why) = unsure {
        return Some(why);
    }
    let Some((sub, rest)) = rest.split_first() else {
        return Some("`git` without a subcommand".to_owned());
    };
    let sub = sub.text();
    let Some(reader) = GIT_READERS.iter().find(|r| r.subcommands.contains(&sub)) else {
        return Some(format!("`git {sub}` is not on the read-only table"));
    };
    // `git branch --list PATTERN`: with `--list` the operands are patterns, not new names.
    let operands = reader.operands || rest.iter().any(|w| matches!(w.text(), "-l" | "--list"));
    let mut i = 0;
    let mut options_end = false;
    while let Some(word) = rest.get(i) {
        i += 1;
        let text = word.text();
        if !word.is_literal() && (word.may_be_option() || !operands) {
            return Some(format!("`{text}` is not literal"));
        }
        if options_end || !text.starts_with('-') || text == "-" {
            if !operands {
                return Some(format!("`git {sub} {text}` writes"));
            }
            continue;
        }
        if text == "--" {
            options_end = true;
            continue;
        }
        let name = text.split_once('=').map_or(text, |(n, _)| n);
        let numeric = text[1..].bytes().all(|b| b.is_ascii_digit());
        if reader.values.contains(&name) && name == text {
            i += 1;
        } else if !(reader.flags.contains(&name)
            || reader.values.contains(&name)
            || numeric
            || short_cluster(reader, text))
        {
            return Some(format!("`git {sub} {name}` is not on the read-only table"));
        }
    }
    None
}

/// `-sb`, `-n5`: short options of `reader` clustered (a value-taking one ends the cluster).
fn short_cluster(reader: &GitReader, text: &str) -> bool {
    if text.starts_with("--") || text.len() < 3 {
        return false;
    }
    for (at, c) in text.char_indices().skip(1) {
        let name = format!("-{c}");
        if reader.values.contains(&name.as_str()) {
            return at + c.len_utf8() < text.len();
        }
        if !reader.flags.contains(&name.as_str()) {
            return false;
        }
    }
    true
}
