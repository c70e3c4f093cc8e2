//! `weft skills validate` as a library: paths (skill files, skill directories, trees) in,
//! one verdict per skill out, with the same checks the registry's walk and reader apply.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;
use weft_parse::{ParseOptions, Profile, Rule};
use weft_permissions::PatternContext;
use weft_types::{Diagnostic, Severity, has_errors};

use crate::read::read_skill;
use crate::walk::{FoundSkill, SkillFile, WalkNote, WalkOptions, Walker, skill_file_in};

/// The verdict on one skill (or on a path that holds none).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValidationOutcome {
    /// The skill file, or the path that was given.
    pub path: PathBuf,
    /// The skill's name, when it has one.
    pub name: Option<String>,
    /// No errors (warnings allowed).
    pub valid: bool,
    /// Every problem, in file order.
    pub diagnostics: Vec<Diagnostic>,
}

/// Something to check: a skill found on disk, or a path that holds none.
enum Target {
    Skill(FoundSkill),
    Problem {
        path: PathBuf,
        diagnostic: Diagnostic,
    },
}

/// Validates the skills at `paths` (each a `SKILL.md` / `skill.json` file, a skill directory
/// or a tree to search) under `profile`, in path order; a skill reached twice is checked once.
/// Files are parsed in parallel.
///
/// A path's skill directory needs a name for the name-versus-directory check: pass `.` or a
/// bare `SKILL.md` through [`with_named_dir`] first.
pub fn validate_paths(paths: &[PathBuf], profile: Profile) -> Vec<ValidationOutcome> {
    validate_paths_with(paths, profile, None, None, &PatternContext::new())
}

/// `path` as [`validate_paths`] needs it: naming a skill directory that has a name. `.`,
/// `..` and a bare `SKILL.md` are made absolute against `cwd` (the caller's current
/// directory), `.` and `..` resolved lexically, so the name-versus-directory check has a
/// directory name; any other path is returned as it is.
///
/// ```
/// use std::path::Path;
/// use weft_registry::validate::with_named_dir;
///
/// let cwd = Path::new("/work/skills/pdf");
/// assert_eq!(with_named_dir(Path::new("."), cwd), Path::new("/work/skills/pdf"));
/// assert_eq!(with_named_dir(Path::new(".."), cwd), Path::new("/work/skills"));
/// assert_eq!(with_named_dir(Path::new("skills/pdf"), cwd), Path::new("skills/pdf"));
/// ```
pub fn with_named_dir(path: &Path, cwd: &Path) -> PathBuf {
    let dir_has_name = if path.is_file() {
        path.parent().and_then(Path::file_name).is_some()
    } else {
        path.file_name().is_some()
    };
    if dir_has_name {
        return path.to_path_buf();
    }
    let mut clean = PathBuf::new();
    for part in cwd.join(path).components() {
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

/// [`validate_paths`], also checking each skill's `agent:` with `agents` (the agents the
/// caller discovered): an agent it does not know is [`Rule::UnknownAgent`], with the
/// closest of their names.
///
/// With `link_boundary` (an untrusted project), a tree given by a path inside it follows
/// directory links only inside it (`E018` for the others, as discovery does), so
/// `.claude/skills/x -> /` in a cloned repository is not a walk of the whole machine. A
/// path outside it is walked as given, links followed, within the walk's limits.
///
/// Tool patterns are compiled with `patterns` (the project directory), as discovery compiles
/// them ([`RegistryConfig::patterns`](crate::RegistryConfig::patterns)), so a pattern that
/// does not compile is the same `E132` here as in every listing and run. The `spec` profile
/// leaves them alone, as the reference validator does.
pub fn validate_paths_with(
    paths: &[PathBuf],
    profile: Profile,
    agents: Option<&KnownAgents<'_>>,
    link_boundary: Option<&Path>,
    patterns: &PatternContext,
) -> Vec<ValidationOutcome> {
    let options = ParseOptions::new(profile);
    let mut targets = Vec::new();
    let mut seen = HashSet::new();
    for path in paths {
        let boundary = link_boundary.filter(|b| spelled_inside(path, b));
        collect(path, profile, boundary, &mut targets, &mut seen);
    }
    targets
        .par_iter()
        .map(|t| {
            let mut outcome = check(t, &options, profile, patterns);
            if let (Some(agents), Target::Skill(found)) = (agents, t) {
                check_agent(&mut outcome, found, agents, profile);
            }
            outcome
        })
        .collect()
}

/// The agents `skills validate` checks `agent:` against.
pub struct KnownAgents<'a> {
    /// True when an agent of that name exists (however the caller resolves names).
    pub contains: &'a (dyn Fn(&str) -> bool + Sync),
    /// Every agent name, for the suggestion.
    pub names: Vec<String>,
}

/// Adds [`Rule::UnknownAgent`] when the skill's `agent:` names no known agent.
fn check_agent(
    outcome: &mut ValidationOutcome,
    found: &FoundSkill,
    agents: &KnownAgents<'_>,
    profile: Profile,
) {
    let SkillFile::Markdown(path) = &found.file else {
        return;
    };
    // Read as the skill was: regular file, capped, a link must stay in the skill directory.
    let cap = crate::read::skill_file_cap(&ParseOptions::new(profile));
    let Ok(bytes) = weft_fs::read_within(path, &found.dir, cap) else {
        return;
    };
    let text = String::from_utf8_lossy(&bytes);
    let Some(agent) = agent_of(&text) else {
        return;
    };
    if (agents.contains)(&agent) {
        return;
    }
    let hint = weft_types::suggest::did_you_mean(&weft_types::suggest::closest_names(
        &agent,
        agents.names.iter().map(String::as_str),
    ));
    let Some(d) = Rule::UnknownAgent.diagnostic(
        profile,
        format!(
            "`agent: {agent}` names no known agent (known: {}){hint}",
            agents.names.join(", ")
        ),
    ) else {
        return;
    };
    let d = d
        .with_path(path)
        .at_opt(weft_parse::skill_md::key_position(&text, "agent"));
    outcome.valid &= !d.is_error();
    outcome.diagnostics.push(d);
}

/// The `agent:` of a SKILL.md's text, parsed as loading does.
fn agent_of(text: &str) -> Option<String> {
    let parsed = weft_parse::parse_skill_md_header(
        text.as_bytes(),
        text.len() as u64,
        Path::new("SKILL.md"),
        &ParseOptions::new(Profile::Load),
    );
    parsed.skill?.agent
}

/// [`Rule::InvalidPathGlob`] for each `paths:` glob that does not compile (it would never
/// match, so the skill would never join the catalog).
fn glob_problems(globs: &[String], path: &Path, profile: Profile) -> Vec<Diagnostic> {
    globs
        .iter()
        .filter_map(|glob| {
            let why = crate::conditional::glob_problem(glob)?;
            let d = Rule::InvalidPathGlob.diagnostic(
                profile,
                format!("`paths` glob `{glob}` does not compile ({why}); it never matches"),
            )?;
            Some(d.with_path(path))
        })
        .collect()
}

fn problem(path: &Path, rule: Rule, weft: String, spec: String, profile: Profile) -> Target {
    let message = if profile == Profile::Spec { spec } else { weft };
    Target::Problem {
        path: path.to_path_buf(),
        diagnostic: Diagnostic::new(Severity::Error, rule.number(), message).with_path(path),
    }
}

/// True when `path`, as spelled (made absolute, links not resolved), lies inside
/// `boundary` (as given or resolved).
fn spelled_inside(path: &Path, boundary: &Path) -> bool {
    let Ok(absolute) = std::path::absolute(path) else {
        return false;
    };
    absolute.starts_with(boundary)
        || std::fs::canonicalize(boundary).is_ok_and(|real| absolute.starts_with(real))
}

/// Turns one path into targets: a skill file, a skill directory, or a tree (whose
/// directory links must stay inside `boundary`, when there is one).
fn collect(
    path: &Path,
    profile: Profile,
    boundary: Option<&Path>,
    out: &mut Vec<Target>,
    seen: &mut HashSet<PathBuf>,
) {
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
        match named_file(path, profile) {
            Target::Skill(found) => push(found, out),
            problem => out.push(problem),
        }
        return;
    }
    let found = Walker::new(WalkOptions::VALIDATE).walk_within(path, boundary);
    // A tree refused as a whole (a link out of the boundary) says so instead.
    if found.skills.is_empty() && !has_errors(&found.diagnostics) {
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

/// A file named on its own: a skill file (with what its directory listing says about it:
/// spelling, both formats present), or the problem with it.
fn named_file(path: &Path, profile: Profile) -> Target {
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
        return problem(
            path,
            Rule::MissingSkillFile,
            format!(
                "{} is not a skill file (expected SKILL.md or skill.json, or a directory)",
                path.display()
            ),
            format!("Not a directory: {}", path.display()),
            profile,
        );
    };
    let notes = match skill_file_in(&dir) {
        Some((chosen, notes)) if chosen.path() == path => notes,
        _ if matches!(file, SkillFile::Markdown(_)) && file_name != "SKILL.md" => {
            vec![WalkNote::FileName(file_name.to_owned())]
        }
        _ => Vec::new(),
    };
    Target::Skill(FoundSkill {
        dir,
        file,
        nested_in: None,
        notes,
    })
}

fn check(
    target: &Target,
    options: &ParseOptions,
    profile: Profile,
    patterns: &PatternContext,
) -> ValidationOutcome {
    match target {
        Target::Problem { path, diagnostic } => ValidationOutcome {
            path: path.clone(),
            name: None,
            valid: !diagnostic.is_error(),
            diagnostics: vec![diagnostic.clone()],
        },
        Target::Skill(found) => {
            let parsed = read_skill(found, options);
            let mut diagnostics = parsed.diagnostics;
            let mut compiles = true;
            if let Some(skill) = &parsed.skill {
                diagnostics.extend(glob_problems(&skill.paths, found.file.path(), profile));
                if profile != Profile::Spec
                    && let Err(error) = crate::tool_policy::compile(
                        skill,
                        Some(found.file.path()),
                        patterns,
                        profile,
                    )
                {
                    compiles = false;
                    diagnostics.extend(error);
                }
            }
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
            ValidationOutcome {
                path: found.file.path().to_path_buf(),
                name: parsed.name,
                valid: parsed.skill.is_some() && compiles && !has_errors(&diagnostics),
                diagnostics,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_directories_and_missing_paths_each_get_a_verdict() {
        let tmp = tempfile::tempdir().unwrap();
        let good = tmp.path().join("good");
        std::fs::create_dir_all(&good).unwrap();
        std::fs::write(
            good.join("SKILL.md"),
            "---\nname: good\ndescription: A good skill\n---\nBody\n",
        )
        .unwrap();
        let missing = tmp.path().join("missing");
        let outcomes = validate_paths(
            &[good.join("SKILL.md"), good.clone(), missing.clone()],
            Profile::Validate,
        );
        // The file and its directory are the same skill: checked once.
        assert_eq!(outcomes.len(), 2, "{outcomes:#?}");
        assert!(outcomes[0].valid);
        assert_eq!(outcomes[0].name.as_deref(), Some("good"));
        assert_eq!(outcomes[1].path, missing);
        assert!(!outcomes[1].valid);
        assert_eq!(outcomes[1].diagnostics[0].code, "E015");
    }
}
