//! Reads outside the project, checked against the real programs: a project directory with a
//! secret file beside it (outside), commands run by the real bash as `exec_shell` starts it.
//!
//! * Each attack of issue 23 (and variants of our own) really reads the secret here, and the
//!   analysis must say it is not read-only, with a risk (so no pre-approval covers it).
//! * Commands generated from the helpers and their options (reading ones among them, with
//!   values naming the secret in every spelling) that the analysis calls read-only are run,
//!   and the secret must not appear in what they print.
//!
//! A program missing on this machine skips its cases; bash, sed, date, wc, sort, awk and diff
//! are required where bash is installed.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use weft_shell::{Dialect, ShellContext, ShellProgram, analyse_command};

/// What the secret file holds (one line: `sed R` and `date -f` read lines).
const SECRET: &str = "CANARY-7f3a";

struct Place {
    _dir: tempfile::TempDir,
    root: PathBuf,
    project: PathBuf,
    secret: String,
    bash: ShellProgram,
}

fn real(name: &str) -> Option<PathBuf> {
    ["/usr/bin", "/bin"]
        .iter()
        .map(|d| Path::new(d).join(name))
        .find(|p| p.is_file())
}

fn place() -> Option<Place> {
    let bash = ShellProgram::bash(real("bash")?);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let project = root.join("project");
    std::fs::create_dir_all(project.join("sub")).unwrap();
    std::fs::create_dir_all(root.join("home")).unwrap();
    let secret = root.join("secret.txt");
    std::fs::write(&secret, format!("{SECRET}\n")).unwrap();
    std::fs::write(project.join("notes.txt"), "one\ntwo\n").unwrap();
    std::fs::write(project.join("x.json"), "{\"a\": 1}\n").unwrap();
    let mut list = secret.to_string_lossy().into_owned().into_bytes();
    list.push(0);
    std::fs::write(project.join("list0"), list).unwrap();
    Some(Place {
        secret: secret.to_string_lossy().into_owned(),
        _dir: dir,
        root,
        project,
        bash,
    })
}

impl Place {
    /// `{S}`: the secret's absolute path.
    fn fill(&self, template: &str) -> String {
        template.replace("{S}", &self.secret)
    }

    /// What `command` prints (stdout and stderr) under the real bash, in the project.
    fn run(&self, command: &str) -> String {
        let out = Command::new(self.bash.program())
            .args(self.bash.argv(command))
            .current_dir(&self.project)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", self.root.join("home"))
            .env("OLDPWD", &self.root)
            .env("LC_ALL", "C")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&out.stderr));
        text
    }

    fn analyse(&self, command: &str) -> weft_shell::CommandAnalysis {
        let ctx = ShellContext::new()
            .with_project_root(self.project.to_string_lossy())
            .with_dialect(Dialect::Bash);
        analyse_command(command, &ctx)
    }
}

/// Issue 23's reads (and our variants), each with the programs it needs.
const ATTACKS: &[(&str, &[&str])] = &[
    ("sed '1r {S}' notes.txt", &["sed"]),
    ("sed -e 1r{S} notes.txt", &["sed"]),
    ("sed --expression='$ r {S}' notes.txt", &["sed"]),
    ("sed 'R {S}' notes.txt", &["sed"]),
    ("sed -n '1~2R ../secret.txt' notes.txt", &["sed"]),
    ("date -f {S}", &["date"]),
    ("date --file=../secret.txt", &["date"]),
    ("sort --files0-from=list0", &["sort"]),
    ("wc -l --files0-from list0 | sort", &["wc", "sort"]),
    ("awk '{getline l < \"{S}\"; print l}' notes.txt", &["awk"]),
    (
        "awk -v f={S} 'BEGIN{while((getline l < f)>0) print l}'",
        &["awk"],
    ),
    ("awk 'BEGIN{ARGV[1]=\"{S}\"; ARGC=2} {print}'", &["awk"]),
    ("jq --rawfile k {S} -n '$k'", &["jq"]),
    ("jq -rn --rawfile k ../secret.txt '$k'", &["jq"]),
    ("diff --from-file={S} notes.txt", &["diff"]),
    ("diff notes.txt --to-file ../secret.txt", &["diff"]),
    ("cat < {S}", &["cat"]),
    ("echo \"$(<{S})\"", &[]),
    ("exec 3<{S}; cat <&3", &["cat"]),
    ("head ../secret.txt", &["head"]),
    ("tail -n1 ~/../secret.txt", &["tail"]),
    ("cd ..; cat secret.txt", &["cat"]),
    ("cd - >/dev/null && cat secret.txt", &["cat"]),
    ("cd && cat ../secret.txt", &["cat"]),
    ("cd sub && grep -h CANARY ../../secret.txt", &["grep"]),
    ("grep -r CANARY ..", &["grep"]),
    ("diff ../secret.txt notes.txt", &["diff"]),
    ("sort -m notes.txt {S}", &["sort"]),
    ("nl ../secret.txt", &["nl"]),
];

#[test]
fn attacks_read_the_secret_and_are_not_read_only() {
    let Some(place) = place() else {
        println!("no bash here: nothing to run");
        return;
    };
    let mut ran = 0;
    let mut failures = Vec::new();
    for (template, programs) in ATTACKS {
        if programs.iter().any(|p| real(p).is_none()) {
            continue;
        }
        let command = place.fill(template);
        let out = place.run(&command);
        // The case must model what the real program does.
        let leak = if template.starts_with("wc") {
            place.secret.clone()
        } else {
            SECRET.to_owned()
        };
        assert!(
            out.contains(&leak),
            "{command:?} did not read the secret here: {out:?}"
        );
        ran += 1;
        let analysis = place.analyse(&command);
        let verdict = analysis.read_only_verdict();
        if verdict.is_read_only() || analysis.risks().is_empty() {
            failures.push(format!(
                "{command:?}: {verdict:?}, risks {:?}",
                analysis.risks()
            ));
        }
    }
    assert!(ran >= 20, "only {ran} attacks could run here");
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Helpers, with options from their tables (and a few they do not list), and values that
/// name the secret in every spelling or stay inside.
const PROGRAMS: &[(&str, &[&str])] = &[
    ("cat", &["-n", "-A", "-s", "--bogus"]),
    ("head", &["-n", "-c", "-q", "-5"]),
    ("tail", &["-n", "-c", "-q", "-3"]),
    ("wc", &["-l", "-c", "--files0-from", "--total"]),
    (
        "sort",
        &[
            "-r",
            "-k",
            "-m",
            "--files0-from",
            "--random-source",
            "-o",
            "-T",
        ],
    ),
    ("uniq", &["-c", "-f", "-u"]),
    ("cut", &["-d", "-f", "-c"]),
    ("nl", &["-b", "-s"]),
    (
        "grep",
        &["-e", "-f", "-r", "-R", "--exclude-from", "-h", "-c"],
    ),
    (
        "diff",
        &["-u", "-r", "--from-file", "--to-file", "-X", "--label"],
    ),
    ("sed", &["-n", "-e", "-f", "-s", "-E"]),
    ("awk", &["-F", "-v", "-f"]),
    (
        "jq",
        &["-r", "-n", "--rawfile", "--slurpfile", "--arg", "-f", "-L"],
    ),
    ("date", &["-f", "-r", "-d", "-u"]),
    ("ls", &["-la", "-R", "-d", "--hide"]),
];

/// What an option's value or an operand may be.
const VALUES: &[&str] = &[
    "notes.txt",
    "{S}",
    "../secret.txt",
    "~/../secret.txt",
    "sub/../../secret.txt",
    "list0",
    "1",
    "CANARY",
    "1r {S}",
    "R ../secret.txt",
    "{getline l < \"{S}\"; print l}",
    "\"$(<{S})\"",
    "x",
    ".",
    "..",
];

/// The generated commands: each program with each option, its value in three spellings, and
/// an operand; with `cd ..` and `cd sub` in front for a few.
fn generated() -> Vec<String> {
    let quote = |v: &str| {
        if v.contains(' ') || v.contains('{') || v.contains('<') {
            format!("'{}'", v.replace('\'', ""))
        } else {
            v.to_owned()
        }
    };
    let mut out = Vec::new();
    for (program, options) in PROGRAMS {
        for (i, option) in options.iter().enumerate() {
            for (j, value) in VALUES.iter().enumerate() {
                let operand = quote(VALUES[(i + j * 7) % VALUES.len()]);
                let value = quote(value);
                out.push(format!("{program} {option} {value} {operand}"));
                if option.starts_with("--") {
                    out.push(format!("{program} {option}={value} {operand}"));
                } else {
                    out.push(format!("{program} {option}{value} {operand}"));
                }
                if j % 5 == 0 {
                    out.push(format!("cd sub && {program} {option} {value} {operand}"));
                }
            }
        }
    }
    out
}

#[test]
fn what_the_analysis_calls_read_only_never_prints_the_secret() {
    let Some(place) = place() else {
        println!("no bash here: nothing to run");
        return;
    };
    let commands = generated();
    let mut read_only = 0;
    let mut failures = Vec::new();
    for template in &commands {
        let command = place.fill(template);
        if !place.analyse(&command).read_only_verdict().is_read_only() {
            continue;
        }
        let program = command
            .trim_start_matches("cd sub && ")
            .split(' ')
            .next()
            .unwrap_or("");
        if real(program).is_none() {
            continue;
        }
        read_only += 1;
        let out = place.run(&command);
        if out.contains(SECRET) {
            failures.push(format!("{command:?} printed the secret: {out:?}"));
        }
    }
    println!(
        "reads outside: {} generated commands, {read_only} read-only ones run",
        commands.len()
    );
    // The corpus must exercise the verdict both ways.
    assert!(read_only >= 100, "only {read_only} read-only commands");
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
