//! `weft skills new NAME [--agent]`: a skill (or an agent) to start from, written where
//! Claude Code looks too (`~/.claude/skills/NAME/SKILL.md`, or the project's `.claude/skills`
//! with `--scope project`; agents as `.claude/agents/NAME.md`), so both tools see it. The
//! file validates clean; nothing is overwritten.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use weft_parse::name::name_problems;
use weft_runtime::{UsageError, Workspace};
use weft_term::tilde;

use crate::cli::{InstallScope, NewArgs, ReportFormat};
use crate::output::outln;

/// `weft skills new`.
pub fn new(workspace: &Workspace, args: &NewArgs) -> Result<ExitCode> {
    if let Some(problem) = name_problems(&args.name).into_iter().next() {
        return Err(UsageError::new(format!(
            "{problem}: a new skill or agent takes a name of a-z, 0-9 and `-`, such as `review-diff`"
        ))
        .into());
    }
    let root = match args.scope {
        InstallScope::User => workspace
            .home
            .clone()
            .ok_or_else(|| UsageError::new("no home directory (set HOME or pass --home)"))?,
        InstallScope::Project => workspace.base_dir()?,
    };
    let (path, text) = if args.agent {
        let path = root
            .join(".claude/agents")
            .join(format!("{}.md", args.name));
        (path, agent_text(&args.name, args.description.as_deref()))
    } else {
        let path = root
            .join(".claude/skills")
            .join(&args.name)
            .join("SKILL.md");
        (path, skill_text(&args.name, args.description.as_deref()))
    };
    write_new(&path, &text)?;
    let shown = tilde(&path, workspace.home.as_deref());
    match args.format {
        ReportFormat::Json => outln!(
            "{}",
            crate::output::json_pretty(&serde_json::json!({
                "kind": if args.agent { "agent" } else { "skill" },
                "name": args.name,
                "path": path,
            }))?
        ),
        ReportFormat::Text if args.agent => outln!(
            "Created {shown}\nEdit its description, tools and prompt, then: weft agents show {name}; weft --agent {name} \"...\"",
            name = args.name
        ),
        ReportFormat::Text => outln!(
            "Created {shown}\nEdit its description and steps, then: weft skills show {name}; in a session: /{name}",
            name = args.name
        ),
    }
    Ok(ExitCode::SUCCESS)
}

/// The description a scaffold gets when none is given: one to replace, which still tells
/// the model when (not) to use it.
fn placeholder(kind: &str, name: &str) -> String {
    format!(
        "Describe what {name} does and when to use it; the model reads this to choose the {kind}."
    )
}

/// A SKILL.md: the frontmatter a skill needs (the spec's keys only, so every profile
/// accepts it; Claude Code's `argument-hint` is there as a comment) and numbered steps.
fn skill_text(name: &str, description: Option<&str>) -> String {
    let description = description.map_or_else(|| placeholder("skill", name), str::to_owned);
    format!(
        "---\nname: {name}\ndescription: {}\n# argument-hint: \"[what to work on]\"  (shown as you type /{name})\n---\n\n# {name}\n\nWhen this skill is used for $ARGUMENTS:\n\n1. Find out what is asked and read the files it concerns.\n2. Do the work, one step at a time.\n3. Say what was done and what is left.\n",
        yaml_string(&description)
    )
}

/// A Claude Code agent file: read-only tools to begin with, the prompt as the body.
fn agent_text(name: &str, description: Option<&str>) -> String {
    let description = description.map_or_else(|| placeholder("agent", name), str::to_owned);
    format!(
        "---\nname: {name}\ndescription: {}\ntools: Read, Grep, Glob\n---\n\nYou are {name}. Describe here how the agent works and what it returns; add tools above (Edit, Write, Bash) when it needs them.\n",
        yaml_string(&description)
    )
}

/// `text` as a double-quoted YAML string (a `: ` or a `#` in a description stays text).
fn yaml_string(text: &str) -> String {
    serde_json::to_string(&weft_term::one_line(text)).unwrap_or_else(|_| "\"\"".to_owned())
}

/// Writes `text` to `path`, a file that must not exist yet (created with its directories).
fn write_new(path: &Path, text: &str) -> Result<()> {
    if std::fs::symlink_metadata(path).is_ok() || dir_taken(path) {
        return Err(UsageError::new(format!(
            "{} exists already; nothing was written (choose another name, or edit it)",
            taken(path).display()
        ))
        .into());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    std::io::Write::write_all(&mut file, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// True when `path` is a SKILL.md whose skill directory already exists.
fn dir_taken(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "SKILL.md")
        && path
            .parent()
            .is_some_and(|dir| std::fs::symlink_metadata(dir).is_ok())
}

/// What is in the way of writing `path`: the skill directory, else the file.
fn taken(path: &Path) -> PathBuf {
    if dir_taken(path) {
        path.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        path.to_path_buf()
    }
}
