//! Skill packages for the install, update, verify and scan tests: a sandbox whose project
//! can hold installed skills, SKILL.md files written outside the project to install from,
//! and the outcomes of several commands side by side for one snapshot.

use std::path::PathBuf;
use std::process::Output;

use super::{Sandbox, render};

/// A sandbox whose project has a `.clawft` directory, so commands run in it find it.
pub fn sandbox() -> Sandbox {
    let s = Sandbox::new();
    std::fs::create_dir_all(s.project.join(".clawft")).unwrap();
    s
}

/// A SKILL.md for the skill `name` with these frontmatter lines and body.
pub fn skill_md(name: &str, extra: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill\n{extra}---\n{body}\n")
}

/// Writes `<tmp>/<dir>/SKILL.md` for the skill `name`; returns the directory.
pub fn skill(s: &Sandbox, dir: &str, name: &str, extra: &str, body: &str) -> PathBuf {
    s.outside(&format!("{dir}/SKILL.md"), &skill_md(name, extra, body))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Standard output, then standard error, for a message.
pub fn both(out: &Output) -> String {
    format!("{}{}", super::stdout(out), super::stderr(out))
}

/// The commands' outcomes, each under its label, for a snapshot.
pub fn runs(runs: &[(&str, &Output)]) -> String {
    runs.iter().map(|(label, out)| render(label, out)).collect()
}
