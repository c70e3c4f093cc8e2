//! The read-only helper table, as data: every option of every helper (from the GNU coreutils,
//! grep, diffutils, sed, gawk, ripgrep and jq manuals), by what its value is. An option the
//! table does not list makes the call not read-only: it may take a value, or read or write a
//! file, the analyser does not know about (a pattern naming the program still matches).

use super::helpers::{Helper, Operands, helper};

#[rustfmt::skip]
const HEAD_TAIL_VALUES: &[&str] = &["-n", "-c", "--lines", "--bytes"];

#[rustfmt::skip]
const GREP_FLAGS: &[&str] = &[
    "-E", "-F", "-G", "-P", "-i", "-y", "-v", "-w", "-x", "-c", "-L", "-l", "-o", "-q", "-s",
    "-b", "-H", "-h", "-n", "-T", "-Z", "-z", "-a", "-I", "-r", "-R", "-U", "--extended-regexp",
    "--fixed-strings", "--basic-regexp", "--perl-regexp", "--ignore-case", "--no-ignore-case",
    "--invert-match", "--word-regexp", "--line-regexp", "--count", "--files-without-match",
    "--files-with-matches", "--only-matching", "--quiet", "--silent", "--no-messages",
    "--byte-offset", "--with-filename", "--no-filename", "--line-number", "--line-buffered",
    "--initial-tab", "--null", "--null-data", "--text", "--recursive",
    "--dereference-recursive", "--binary",
];
#[rustfmt::skip]
const GREP_VALUES: &[&str] = &[
    "-m", "--max-count", "-A", "-B", "-C", "--after-context", "--before-context", "--context",
    "--include", "--exclude", "--exclude-dir", "-d", "--directories", "-D", "--devices",
    "--label", "--binary-files",
];
const GREP_OPTIONAL: &[&str] = &["--color", "--colour"];
const GREP_PATTERNS: &[&str] = &["-e", "--regexp"];
const GREP_READS: &[&str] = &["-f", "--file", "--exclude-from"];

/// `grep` and its aliases.
const fn grep(name: &'static str) -> Helper {
    Helper {
        flags: GREP_FLAGS,
        values: GREP_VALUES,
        optional: GREP_OPTIONAL,
        patterns: GREP_PATTERNS,
        reads: GREP_READS,
        numeric: true,
        ..helper(name, Operands::PatternThenFiles)
    }
}

/// The read-only helpers (see `helpers.rs` for when they count as allowed).
#[rustfmt::skip]
pub const READ_ONLY_HELPERS: &[Helper] = &[
    Helper {
        flags: &[
            "-q", "--quiet", "--silent", "-v", "--verbose", "-z", "--zero-terminated",
        ],
        values: HEAD_TAIL_VALUES,
        numeric: true,
        ..helper("head", Operands::Files)
    },
    Helper {
        flags: &[
            "-f", "-F", "-q", "--quiet", "--silent", "-v", "--verbose", "-z",
            "--zero-terminated", "--retry",
        ],
        values: &[
            "-n", "-c", "--lines", "--bytes", "-s", "--sleep-interval", "--pid",
            "--max-unchanged-stats",
        ],
        optional: &["--follow"],
        numeric: true,
        ..helper("tail", Operands::Files)
    },
    Helper {
        flags: &[
            "-c", "-m", "-l", "-L", "-w", "--bytes", "--chars", "--lines", "--words",
            "--max-line-length",
        ],
        optional: &["--total"],
        names_files: &["--files0-from"],
        ..helper("wc", Operands::Files)
    },
    Helper {
        flags: &[
            "-b", "-d", "-f", "-g", "-i", "-M", "-h", "-n", "-R", "-r", "-V", "-c", "-C", "-m",
            "-s", "-u", "-z", "--ignore-leading-blanks", "--dictionary-order", "--ignore-case",
            "--general-numeric-sort", "--ignore-nonprinting", "--month-sort",
            "--human-numeric-sort", "--numeric-sort", "--random-sort", "--reverse",
            "--version-sort", "--merge", "--stable", "--unique", "--zero-terminated", "--debug",
        ],
        values: &[
            "-k", "--key", "-t", "--field-separator", "-S", "--buffer-size", "--parallel",
            "--batch-size", "--sort",
        ],
        optional: &["--check"],
        reads: &["--random-source"],
        names_files: &["--files0-from"],
        disqualifying: &[
            "-o", "--output", "-T", "--temporary-directory", "--compress-program",
        ],
        ..helper("sort", Operands::Files)
    },
    Helper {
        flags: &[
            "-c", "-d", "-D", "-i", "-u", "-z", "--count", "--repeated", "--ignore-case",
            "--unique", "--zero-terminated",
        ],
        values: &[
            "-f", "-s", "-w", "--skip-fields", "--skip-chars", "--check-chars",
        ],
        optional: &["--all-repeated", "--group"],
        max_files: 1,
        ..helper("uniq", Operands::Files)
    },
    Helper {
        flags: &[
            "-n", "-s", "-z", "--complement", "--only-delimited", "--zero-terminated",
        ],
        values: &[
            "-b", "-c", "-d", "-f", "--bytes", "--characters", "--delimiter", "--fields",
            "--output-delimiter",
        ],
        ..helper("cut", Operands::Files)
    },
    Helper {
        flags: &[
            "-c", "-C", "-d", "-s", "-t", "--complement", "--delete", "--squeeze-repeats",
            "--truncate-set1",
        ],
        ..helper("tr", Operands::NotFiles)
    },
    Helper {
        flags: &[
            "-A", "-b", "-e", "-E", "-n", "-s", "-t", "-T", "-u", "-v", "--show-all",
            "--number-nonblank", "--show-ends", "--number", "--squeeze-blank", "--show-tabs",
            "--show-nonprinting",
        ],
        ..helper("cat", Operands::Files)
    },
    Helper {
        flags: &["-p", "--no-renumber"],
        values: &[
            "-b", "-d", "-f", "-h", "-i", "-l", "-n", "-s", "-v", "-w", "--body-numbering",
            "--section-delimiter", "--footer-numbering", "--header-numbering",
            "--line-increment", "--join-blank-lines", "--number-format", "--number-separator",
            "--starting-line-number", "--number-width",
        ],
        ..helper("nl", Operands::Files)
    },
    grep("grep"),
    grep("egrep"),
    grep("fgrep"),
    Helper {
        flags: &[
            "-i", "--ignore-case", "-s", "--case-sensitive", "-S", "--smart-case", "-v",
            "--invert-match", "-w", "--word-regexp", "-x", "--line-regexp", "-F",
            "--fixed-strings", "-c", "--count", "--count-matches", "-l", "--files-with-matches",
            "--files-without-match", "-o", "--only-matching", "-q", "--quiet", "-n",
            "--line-number", "-N", "--no-line-number", "-H", "--with-filename", "-I",
            "--no-filename", "--heading", "--no-heading", "-p", "--pretty", "--vimgrep",
            "--json", "-U", "--multiline", "--multiline-dotall", "-P", "--pcre2", "-.",
            "--hidden", "--no-ignore", "--no-ignore-vcs", "--no-ignore-dot",
            "--no-ignore-parent", "--no-ignore-global", "--no-ignore-exclude",
            "--no-ignore-files", "-u", "-uu", "-uuu", "-L", "--follow", "-a", "--text", "-z",
            "--search-zip", "-0", "--null", "--null-data", "--files", "--type-list", "--trim",
            "-b", "--byte-offset", "--column", "--stats", "--debug", "--no-messages",
            "--sort-files", "-l", "--one-file-system", "--crlf", "--no-unicode", "--passthru",
            "--unrestricted", "--no-config", "--binary", "--no-require-git", "--line-buffered",
            "--block-buffered", "--no-pcre2-unicode", "--include-zero",
        ],
        values: &[
            "-m", "--max-count", "-A", "-B", "-C", "--after-context", "--before-context",
            "--context", "-g", "--glob", "--iglob", "-t", "--type", "-T", "--type-not",
            "--type-add", "--type-clear", "-M", "--max-columns", "-j", "--threads", "--color",
            "--colors", "--sort", "--sortr", "-E", "--encoding", "--max-depth", "-d",
            "--max-filesize", "-r", "--replace", "--engine", "--context-separator",
            "--field-context-separator", "--field-match-separator", "--path-separator",
            "--dfa-size-limit", "--regex-size-limit", "--hyperlink-format",
        ],
        patterns: GREP_PATTERNS,
        reads: &["-f", "--file", "--ignore-file"],
        disqualifying: &["--pre", "--pre-glob"],
        ..helper("rg", Operands::PatternThenFiles)
    },
    Helper {
        flags: &[
            "-a", "-A", "-b", "-B", "-c", "-C", "-d", "-f", "-F", "-g", "-G", "-h", "-H", "-i",
            "-k", "-l", "-L", "-m", "-n", "-N", "-o", "-p", "-q", "-Q", "-r", "-R", "-s", "-S",
            "-t", "-u", "-U", "-v", "-x", "-X", "-Z", "-1", "--all", "--almost-all", "--author",
            "--escape", "--classify", "--file-type", "--group-directories-first",
            "--human-readable", "--si", "--dereference", "--dereference-command-line",
            "--dereference-command-line-symlink-to-dir", "--inode", "--kibibytes", "--literal",
            "--numeric-uid-gid", "--no-group", "--hide-control-chars", "--show-control-chars",
            "--quote-name", "--recursive", "--size", "--directory", "--full-time", "--context",
            "--zero", "--reverse",
        ],
        values: &[
            "-I", "--ignore", "-w", "--width", "-T", "--tabsize", "--format", "--sort",
            "--time", "--time-style", "--block-size", "--hide", "--indicator-style",
            "--quoting-style",
        ],
        optional: &["--color", "--colour", "--hyperlink"],
        ..helper("ls", Operands::Files)
    },
    Helper {
        flags: &[
            "-q", "-s", "-c", "-u", "-e", "-n", "-y", "-t", "-T", "-r", "-N", "-i", "-E", "-Z",
            "-b", "-w", "-B", "-a", "-d", "--brief", "--report-identical-files",
            "--side-by-side", "--expand-tabs", "--initial-tab", "--recursive", "--new-file",
            "--unidirectional-new-file", "--ignore-case", "--ignore-file-name-case",
            "--no-ignore-file-name-case", "--text", "--strip-trailing-cr", "--minimal",
            "--speed-large-files", "--suppress-common-lines", "--left-column",
            "--no-dereference", "--normal", "--ignore-tab-expansion", "--ignore-trailing-space",
            "--ignore-space-change", "--ignore-all-space", "--ignore-blank-lines",
            "--suppress-blank-empty", "--show-c-function", "--rcs", "--ed",
        ],
        values: &[
            "-C", "-U", "-x", "--exclude", "-I", "--ignore-matching-lines", "-W", "--width",
            "--label", "-S", "--starting-file", "--tabsize", "-D", "--ifdef", "--horizon-lines",
            "-F", "--show-function-line", "--line-format", "--old-line-format",
            "--new-line-format", "--unchanged-line-format", "--old-group-format",
            "--new-group-format", "--changed-group-format", "--unchanged-group-format",
            "--palette",
        ],
        optional: &["--context", "--unified", "--color"],
        reads: &["-X", "--exclude-from", "--from-file", "--to-file"],
        ..helper("diff", Operands::Files)
    },
    Helper {
        flags: &[
            "-n", "--null-input", "-r", "--raw-output", "-j", "--join-output", "--raw-output0",
            "-a", "--ascii-output", "-s", "--slurp", "-c", "--compact-output", "--tab", "-C",
            "--color-output", "-M", "--monochrome-output", "-S", "--sort-keys", "-e",
            "--exit-status", "-R", "--raw-input", "--seq", "--stream", "--stream-errors",
        ],
        values: &["--indent"],
        reads: &["-f", "--from-file", "-L"],
        pairs: &["--arg", "--argjson"],
        file_pairs: &["--slurpfile", "--rawfile"],
        rest_not_files: &["--args", "--jsonargs"],
        ..helper("jq", Operands::PatternThenFiles)
    },
    Helper {
        flags: &[
            "-n", "--quiet", "--silent", "-E", "-r", "--regexp-extended", "-s", "--separate",
            "-u", "--unbuffered", "-z", "--null-data", "--posix", "--debug", "--sandbox",
        ],
        values: &["-l", "--line-length"],
        patterns: &["-e", "--expression"],
        reads: &["-f", "--file"],
        disqualifying: &["-i", "--in-place"],
        ..helper("sed", Operands::PatternThenFiles)
    },
    Helper {
        values: &["-F", "-v", "--field-separator", "--assign"],
        patterns: &["-e", "--source"],
        disqualifying: &[
            "-f", "--file", "-i", "--include", "-l", "--load", "-E", "--exec",
        ],
        ..helper("awk", Operands::PatternThenFiles)
    },
    helper("echo", Operands::NotFiles),
    helper("printf", Operands::NotFiles),
    helper("true", Operands::NotFiles),
    helper("false", Operands::NotFiles),
    helper("pwd", Operands::NotFiles),
    helper("basename", Operands::NotFiles),
    helper("dirname", Operands::NotFiles),
    Helper {
        flags: &["-u", "--utc", "--universal", "-R", "--rfc-email", "--debug"],
        values: &["-d", "--date"],
        optional: &["-I", "--iso-8601", "--rfc-3339"],
        reads: &["-f", "--file", "-r", "--reference"],
        disqualifying: &["-s", "--set"],
        ..helper("date", Operands::Format)
    },
    helper("which", Operands::NotFiles),
    helper("seq", Operands::NotFiles),
    helper("test", Operands::NotFiles),
    helper("[", Operands::NotFiles),
    helper("[[", Operands::NotFiles),
    helper("cd", Operands::NotFiles),
];
