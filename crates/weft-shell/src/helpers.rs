//! Read-only helpers: filters such as `head`, `wc` or `grep` that keep ordinary pipelines
//! usable (`git log --oneline | head -5` under `Bash(git log:*)`).
//!
//! A helper counts as allowed by any policy layer that allows some `Bash` command, and only
//! when it is used read-only: no risky option (`sort -o`, `sed -i`, `rg --pre`...), no output
//! redirection to a file, no `sudo`, and every file it reads inside the project. A deny pattern
//! still matches a helper like any other command.

use std::collections::HashMap;
use std::sync::LazyLock;

use super::paths::{Place, ShellContext, place};
use super::word::Word;

/// How a helper's operands are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operands {
    /// Operands are not files (`echo`, `tr`, `test`).
    NotFiles,
    /// Every operand is a file.
    Files,
    /// The first operand is a pattern, script or filter, unless an option gave one (`grep -e`,
    /// `sed -e`, `jq -f`); the rest are files.
    PatternThenFiles,
}

/// One read-only helper.
#[derive(Debug)]
pub struct Helper {
    /// The program's name.
    pub name: &'static str,
    pub(crate) operands: Operands,
    /// Options taking a value (skipped, so the value is not read as a file).
    values: &'static [&'static str],
    /// Options giving the pattern (their value is the pattern; `-f` style ones a file).
    patterns: &'static [&'static str],
    /// Options taking two values (`jq --arg NAME VALUE`).
    pairs: &'static [&'static str],
    /// Options that write a file (`sort -o`): a helper using one is not read-only, wherever
    /// the file is.
    writes: &'static [&'static str],
    /// At most this many file operands (`uniq IN OUT` writes `OUT`).
    max_files: usize,
}

const fn helper(name: &'static str, operands: Operands) -> Helper {
    Helper {
        name,
        operands,
        values: &[],
        patterns: &[],
        pairs: &[],
        writes: &[],
        max_files: usize::MAX,
    }
}

const GREP_VALUES: &[&str] = &[
    "-m",
    "--max-count",
    "-A",
    "-B",
    "-C",
    "--after-context",
    "--before-context",
    "--context",
    "--include",
    "--exclude",
    "--exclude-dir",
    "-d",
    "--directories",
    "-D",
    "--devices",
    "--label",
    "--color",
    "--colour",
];
const GREP_PATTERNS: &[&str] = &["-e", "--regexp", "-f", "--file"];

/// The read-only helpers (see the module documentation for when they count as allowed).
pub const READ_ONLY_HELPERS: &[Helper] = &[
    Helper {
        values: &["-n", "-c", "--lines", "--bytes"],
        ..helper("head", Operands::Files)
    },
    Helper {
        values: &[
            "-n",
            "-c",
            "--lines",
            "--bytes",
            "-s",
            "--sleep-interval",
            "--pid",
        ],
        ..helper("tail", Operands::Files)
    },
    helper("wc", Operands::Files),
    Helper {
        values: &[
            "-k",
            "--key",
            "-t",
            "--field-separator",
            "-S",
            "--buffer-size",
            "--parallel",
            "--batch-size",
        ],
        writes: &["-o", "--output"],
        ..helper("sort", Operands::Files)
    },
    Helper {
        values: &[
            "-f",
            "--skip-fields",
            "-s",
            "--skip-chars",
            "-w",
            "--check-chars",
        ],
        max_files: 1,
        ..helper("uniq", Operands::Files)
    },
    Helper {
        values: &[
            "-d",
            "--delimiter",
            "-f",
            "--fields",
            "-b",
            "--bytes",
            "-c",
            "--characters",
            "--output-delimiter",
        ],
        ..helper("cut", Operands::Files)
    },
    helper("tr", Operands::NotFiles),
    helper("cat", Operands::Files),
    Helper {
        values: &["-b", "-d", "-i", "-n", "-s", "-v", "-w"],
        ..helper("nl", Operands::Files)
    },
    Helper {
        values: GREP_VALUES,
        patterns: GREP_PATTERNS,
        ..helper("grep", Operands::PatternThenFiles)
    },
    Helper {
        values: GREP_VALUES,
        patterns: GREP_PATTERNS,
        ..helper("egrep", Operands::PatternThenFiles)
    },
    Helper {
        values: GREP_VALUES,
        patterns: GREP_PATTERNS,
        ..helper("fgrep", Operands::PatternThenFiles)
    },
    Helper {
        values: &[
            "-m",
            "--max-count",
            "-A",
            "-B",
            "-C",
            "--after-context",
            "--before-context",
            "--context",
            "-g",
            "--glob",
            "--iglob",
            "-t",
            "--type",
            "-T",
            "--type-not",
            "--type-add",
            "-M",
            "--max-columns",
            "-j",
            "--threads",
            "--color",
            "--colors",
            "--sort",
            "--sortr",
            "-E",
            "--encoding",
            "--max-depth",
            "-d",
            "--max-filesize",
            "-r",
            "--replace",
            "--engine",
        ],
        patterns: GREP_PATTERNS,
        ..helper("rg", Operands::PatternThenFiles)
    },
    Helper {
        values: &[
            "-I",
            "--ignore",
            "-w",
            "--width",
            "-T",
            "--tabsize",
            "--color",
            "--format",
            "--sort",
            "--time",
            "--time-style",
            "--block-size",
            "--hide",
        ],
        ..helper("ls", Operands::Files)
    },
    Helper {
        values: &[
            "-C",
            "-U",
            "--label",
            "-I",
            "-x",
            "--exclude",
            "-X",
            "-W",
            "--width",
        ],
        ..helper("diff", Operands::Files)
    },
    Helper {
        values: &["--indent", "-L"],
        patterns: &["-f", "--from-file"],
        pairs: &["--arg", "--argjson", "--slurpfile", "--rawfile"],
        ..helper("jq", Operands::PatternThenFiles)
    },
    Helper {
        values: &["-l", "--line-length"],
        patterns: &["-e", "--expression", "-f", "--file"],
        ..helper("sed", Operands::PatternThenFiles)
    },
    Helper {
        values: &["-F", "-v", "--field-separator", "--assign"],
        patterns: &["-e", "--source", "-f", "--file"],
        ..helper("awk", Operands::PatternThenFiles)
    },
    helper("echo", Operands::NotFiles),
    helper("printf", Operands::NotFiles),
    helper("true", Operands::NotFiles),
    helper("false", Operands::NotFiles),
    helper("pwd", Operands::NotFiles),
    helper("basename", Operands::NotFiles),
    helper("dirname", Operands::NotFiles),
    helper("date", Operands::NotFiles),
    helper("which", Operands::NotFiles),
    helper("seq", Operands::NotFiles),
    helper("test", Operands::NotFiles),
    helper("[", Operands::NotFiles),
    helper("[[", Operands::NotFiles),
    helper("cd", Operands::NotFiles),
];

/// The helper named `program`.
pub(crate) fn find(program: &str) -> Option<&'static Helper> {
    static INDEX: LazyLock<HashMap<&'static str, &'static Helper>> =
        LazyLock::new(|| READ_ONLY_HELPERS.iter().map(|x| (x.name, x)).collect());
    INDEX.get(program).copied()
}

impl Helper {
    /// True when every file the helper reads is inside the project (`args` after its name).
    pub(crate) fn reads_inside(&self, args: &[Word], appended: bool, ctx: &ShellContext) -> bool {
        if self.operands == Operands::NotFiles {
            return true;
        }
        if appended {
            return false;
        }
        let mut pattern_given = false;
        let mut files = 0usize;
        let mut pattern_skipped = false;
        let mut options_end = false;
        let mut i = 0;
        while let Some(word) = args.get(i) {
            i += 1;
            let text = word.text();
            if !word.is_literal() && (word.may_be_option() || !options_end) {
                return false;
            }
            if !options_end && text == "--" {
                options_end = true;
                continue;
            }
            if !options_end && text.starts_with('-') && text != "-" {
                let name = text.split_once('=').map_or(text, |(n, _)| n);
                let inline = name.len() < text.len() || (!text.starts_with("--") && text.len() > 2);
                let short = if text.starts_with("--") {
                    name
                } else {
                    text.get(..2).unwrap_or(text)
                };
                let abbreviates =
                    |o: &&str| name.len() > 3 && name.starts_with("--") && o.starts_with(name);
                if self.writes.iter().any(|o| *o == short || abbreviates(o)) {
                    return false;
                }
                if self.pairs.contains(&name) {
                    i += 2;
                } else if self.patterns.contains(&short) {
                    pattern_given = true;
                    let value = if inline { None } else { args.get(i) };
                    if !inline {
                        i += 1;
                    }
                    let is_file = matches!(short, "-f" | "--file" | "--from-file");
                    if is_file && value.is_some_and(|v| matches!(place(v, ctx), Place::Outside(_)))
                    {
                        return false;
                    }
                } else if self.values.contains(&short) && !inline {
                    i += 1;
                }
                continue;
            }
            if self.operands == Operands::PatternThenFiles && !pattern_given && !pattern_skipped {
                pattern_skipped = true;
                continue;
            }
            files += 1;
            if files > self.max_files || matches!(place(word, ctx), Place::Outside(_)) {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inside(program: &str, args: &[&str]) -> bool {
        let words: Vec<Word> = args.iter().map(|a| Word::literal(*a)).collect();
        find(program)
            .unwrap()
            .reads_inside(&words, false, &ShellContext::new())
    }

    #[test]
    fn operands_must_stay_inside_the_project() {
        assert!(inside("head", &["-n", "5"]));
        assert!(inside("head", &["-5", "src/a.rs"]));
        assert!(!inside("cat", &["/etc/passwd"]));
        assert!(!inside("cat", &["../secret"]));
        assert!(inside("grep", &["-rn", "/etc/passwd", "src"]));
        assert!(!inside("grep", &["-e", "x", "/etc/passwd"]));
        assert!(!inside("grep", &["-f", "/etc/patterns", "src"]));
        assert!(inside("jq", &["--arg", "a", "/x", ".a", "data.json"]));
        assert!(inside("cut", &["-d", "/", "-f", "2"]));
        assert!(inside("echo", &["/etc/passwd"]));
        assert!(inside("sed", &["-n", "1,5p", "Cargo.toml"]));
        assert!(!inside("sort", &["-o", "sorted.txt"]));
        assert!(!inside("sort", &["--outp=sorted.txt"]));
        assert!(inside("uniq", &["-c", "in.txt"]));
        assert!(!inside("uniq", &["in.txt", "out.txt"]));
    }
}
