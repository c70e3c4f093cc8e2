//! `weft skills validate`: check skills and report every problem.

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rayon::prelude::*;
use serde::Serialize;
use weft_parse::{ParseOptions, Profile, Rule};
use weft_registry::read_skill;
use weft_registry::walk::{FoundSkill, SkillFile, WalkNote, WalkOptions, skill_file_in, walk};
use weft_types::{Diagnostic, Severity, has_errors};

use crate::cli::{ProfileArg, ReportFormat, ValidateArgs};
use crate::output::format_diagnostic;

/// Something to check: a skill found on disk, or a path that holds none.
enum Target {
    Skill(FoundSkill),
    Problem {
        path: PathBuf,
        diagnostic: Diagnostic,
    },
}

/// The verdict on one target.
#[derive(Debug, Serialize)]
struct Outcome {
    path: PathBuf,
    name: Option<String>,
    valid: bool,
    diagnostics: Vec<Diagnostic>,
}

pub fn run(args: &ValidateArgs) -> anyhow::Result<ExitCode> {
    let profile = match (args.profile, args.strict) {
        (ProfileArg::Spec, _) => Profile::Spec,
        (ProfileArg::Load, _) => Profile::Load,
        (ProfileArg::Default, true) => Profile::Strict,
        (ProfileArg::Default, false) => Profile::Validate,
    };
    let options = ParseOptions::new(profile);

    let mut targets = Vec::new();
    let mut seen = HashSet::new();
    for path in &args.paths {
        collect(&named(path), profile, &mut targets, &mut seen);
    }
    let outcomes: Vec<Outcome> = targets
        .par_iter()
        .map(|t| check(t, &options, profile))
        .collect();

    let mut stdout = io::stdout().lock();
    match args.format {
        ReportFormat::Text => print_text(&mut stdout, &outcomes)?,
        ReportFormat::Json => print_json(&mut stdout, &outcomes)?,
    }
    stdout.flush()?;
    Ok(if outcomes.iter().any(|o| !o.valid) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// A path whose skill directory has a name: `.`, `..` and bare `SKILL.md` are made absolute
/// (and `.`/`..` resolved lexically) so the name-versus-directory check has a directory name.
fn named(path: &Path) -> PathBuf {
    let dir_has_name = if path.is_file() {
        path.parent().and_then(Path::file_name).is_some()
    } else {
        path.file_name().is_some()
    };
    if dir_has_name {
        return path.to_path_buf();
    }
    let Ok(absolute) = std::path::absolute(path) else {
        return path.to_path_buf();
    };
    let mut clean = PathBuf::new();
    for part in absolute.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                clean.pop();
            }
            other => clean.push(other),
        }
    }
    clean
}

fn problem(path: &Path, rule: Rule, weft: String, spec: String, profile: Profile) -> Target {
    let message = if profile == Profile::Spec { spec } else { weft };
    Target::Problem {
        path: path.to_path_buf(),
        diagnostic: Diagnostic::new(Severity::Error, rule.number(), message).with_path(path),
    }
}

/// Turns one command-line path into targets: a skill file, a skill directory, or a tree.
fn collect(path: &Path, profile: Profile, out: &mut Vec<Target>, seen: &mut HashSet<PathBuf>) {
    let mut push = |found: FoundSkill, out: &mut Vec<Target>| {
        if seen.insert(found.file.path().to_path_buf()) {
            out.push(Target::Skill(found));
        }
    };
    let Ok(meta) = std::fs::metadata(path) else {
        out.push(problem(
            path,
            Rule::PathNotFound,
            format!("path does not exist: {}", path.display()),
            format!("Path does not exist: {}", path.display()),
            profile,
        ));
        return;
    };
    // Anything but a directory is a file target: a FIFO named SKILL.md is refused when read.
    if !meta.is_dir() {
        let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        let file = if file_name.eq_ignore_ascii_case("skill.md") {
            SkillFile::Markdown(path.to_path_buf())
        } else if file_name == "skill.json" {
            let prompt = dir.join("prompt.md");
            SkillFile::Legacy {
                json: path.to_path_buf(),
                prompt: prompt.is_file().then_some(prompt),
            }
        } else {
            out.push(problem(
                path,
                Rule::MissingSkillFile,
                format!(
                    "{} is not a skill file (expected SKILL.md or skill.json, or a directory)",
                    path.display()
                ),
                format!("Not a directory: {}", path.display()),
                profile,
            ));
            return;
        };
        // What the directory listing says about the named file (spelling, both formats).
        let notes = match skill_file_in(&dir) {
            Some((chosen, notes)) if chosen.path() == path => notes,
            _ if matches!(file, SkillFile::Markdown(_)) && file_name != "SKILL.md" => {
                vec![WalkNote::FileName(file_name.to_owned())]
            }
            _ => Vec::new(),
        };
        push(
            FoundSkill {
                dir,
                file,
                nested_in: None,
                notes,
            },
            out,
        );
        return;
    }
    let found = walk(path, WalkOptions::VALIDATE);
    if found.skills.is_empty() {
        out.push(problem(
            path,
            Rule::MissingSkillFile,
            format!("no SKILL.md or skill.json found in {}", path.display()),
            "Missing required file: SKILL.md".to_owned(),
            profile,
        ));
    }
    for skill in found.skills {
        push(skill, out);
    }
    for d in found.diagnostics {
        out.push(Target::Problem {
            path: d.path.clone().unwrap_or_default(),
            diagnostic: d,
        });
    }
}

fn check(target: &Target, options: &ParseOptions, profile: Profile) -> Outcome {
    match target {
        Target::Problem { path, diagnostic } => Outcome {
            path: path.clone(),
            name: None,
            valid: !diagnostic.is_error(),
            diagnostics: vec![diagnostic.clone()],
        },
        Target::Skill(found) => {
            let parsed = read_skill(found, options);
            let mut diagnostics = parsed.diagnostics;
            if profile == Profile::Spec && matches!(found.file, SkillFile::Legacy { .. }) {
                diagnostics.insert(
                    0,
                    Diagnostic::new(
                        Severity::Error,
                        Rule::MissingSkillFile.number(),
                        "Missing required file: SKILL.md",
                    )
                    .with_path(found.file.path()),
                );
            }
            Outcome {
                path: found.file.path().to_path_buf(),
                name: parsed.name,
                valid: parsed.skill.is_some() && !has_errors(&diagnostics),
                diagnostics,
            }
        }
    }
}

fn print_text(out: &mut impl Write, outcomes: &[Outcome]) -> io::Result<()> {
    let (mut valid, mut warned, mut invalid) = (0usize, 0usize, 0usize);
    for o in outcomes {
        for d in &o.diagnostics {
            writeln!(out, "{}", format_diagnostic(d))?;
        }
        if !o.valid {
            invalid += 1;
        } else if o.diagnostics.is_empty() {
            valid += 1;
        } else {
            warned += 1;
        }
    }
    let total = outcomes.len();
    let noun = if total == 1 { "skill" } else { "skills" };
    writeln!(
        out,
        "{total} {noun}: {valid} valid, {warned} with warnings, {invalid} invalid"
    )
}

fn print_json(out: &mut impl Write, outcomes: &[Outcome]) -> io::Result<()> {
    writeln!(out, "[")?;
    for (i, o) in outcomes.iter().enumerate() {
        let line = serde_json::to_string(o).map_err(io::Error::other)?;
        let comma = if i + 1 < outcomes.len() { "," } else { "" };
        writeln!(out, "{line}{comma}")?;
    }
    writeln!(out, "]")
}
