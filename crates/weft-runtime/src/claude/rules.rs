//! Claude Code's permission rules as weft's patterns.
//!
//! The grammar is shared (`Bash(git *)`, `Read(./.env)`, `WebFetch(domain:x)`,
//! `mcp__server__tool`), with three differences weft bridges here:
//!
//! * path rules: `//p` is absolute, `~/p` is under the home directory, `/p` is under the
//!   settings file's root (the project for the project's files, the home directory for the
//!   user's), `p` and `./p` under the working directory (the project); read as gitignore
//!   reads them, `dir/` covers what is in `dir`, and a deny or ask rule's path also covers
//!   what is inside it and, when relative, matches at any depth (`Read(.env)` denies
//!   `app/.env`);
//! * `Edit(...)` covers every edit tool, so it stands for `Write(...)` too;
//! * a rule weft cannot read: a deny or ask rule applies to the whole tool instead (asking or
//!   refusing too much is the safe mistake), an allow rule is skipped; each is noted.

use std::path::{Path, PathBuf};

use weft_permissions::{AskRules, Origin, PatternContext, PatternSet, ToolPattern};

use super::{ClaudeSettings, SettingsFile};

/// Claude Code's tools whose specifier is a path.
const PATH_RULE_TOOLS: [&str; 8] = [
    "Read",
    "Edit",
    "Write",
    "MultiEdit",
    "Glob",
    "Grep",
    "LS",
    "NotebookEdit",
];

/// A rule weft could not use as written, and what it did instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleNote {
    /// The file.
    pub file: PathBuf,
    /// `allow`, `ask` or `deny`.
    pub list: &'static str,
    /// The rule as written.
    pub rule: String,
    /// What became of it.
    pub what: String,
}

/// The permission rules of the settings files in effect, compiled.
#[derive(Debug, Clone, Default)]
pub struct ClaudeRules {
    /// `permissions.deny`: a ceiling over every session (with `tools.deny`).
    pub deny: PatternSet,
    /// `permissions.ask`: calls a person approves whatever pre-approves them.
    pub ask: AskRules,
    /// `permissions.allow` (the user's, and a trusted project's): pre-approval.
    pub allow: PatternSet,
    /// Rules used otherwise than written.
    pub notes: Vec<RuleNote>,
}

impl ClaudeRules {
    /// Compiles the rules of `settings`; relative paths start at `base` (the project, else
    /// the current directory).
    pub fn compile(settings: &ClaudeSettings, base: &Path) -> Self {
        let ctx = crate::permissions::project_pattern_context(base);
        let mut rules = Self::default();
        for file in &settings.files {
            let root = settings.root_of(file.scope);
            let home = settings.sources.home.as_deref();
            for list in ["deny", "ask", "allow"] {
                let items = file
                    .value
                    .pointer(&format!("/permissions/{list}"))
                    .and_then(serde_json::Value::as_array);
                for rule in items.into_iter().flatten().filter_map(|r| r.as_str()) {
                    rules.add(file, list, rule, root.as_deref(), home, &ctx);
                }
            }
        }
        for note in &rules.notes {
            tracing::warn!(file = %note.file.display(), "Claude Code rule `{}` in `permissions.{}`: {}", note.rule, note.list, note.what);
        }
        rules
    }

    fn add(
        &mut self,
        file: &SettingsFile,
        list: &'static str,
        rule: &str,
        root: Option<&Path>,
        home: Option<&Path>,
        ctx: &PatternContext,
    ) {
        let origin = Origin::Other(format!("`permissions.{list}` in {}", file.path.display()));
        let mut note = |what: String| {
            self.notes.push(RuleNote {
                file: file.path.clone(),
                list,
                rule: rule.to_owned(),
                what,
            });
        };
        // A `Bash` rule is compared with each simple command of a call, so an operator in it
        // (`Bash(curl * | bash)`) can never match: say so (the call's own analysis still
        // judges the pipeline's programs).
        if let Some(spec) = rule.trim().strip_prefix("Bash(")
            && ["|", "&&", ";"].iter().any(|op| spec.contains(op))
        {
            note(
                "a `Bash` rule is compared with each command of a pipeline or list on its own, so one holding `|`, `&&` or `;` never matches; write one rule per program"
                    .to_owned(),
            );
        }
        // The patterns that compile (a deny or ask rule weft cannot read falls back to its
        // whole tool).
        let mut texts = Vec::new();
        for text in translate(rule, list != "allow", root, home) {
            match ToolPattern::parse_with(&text, ctx) {
                Ok(_) => texts.push(text),
                Err(e) if list == "allow" => {
                    note(format!(
                        "weft cannot read it ({}); it pre-approves nothing",
                        e.kind
                    ));
                }
                Err(e) => {
                    let tool = text.split('(').next().unwrap_or(&text).trim().to_owned();
                    match ToolPattern::parse_with(&tool, ctx) {
                        Ok(_) => {
                            note(format!(
                                "weft cannot read its specifier ({}); it applies to every `{tool}` call instead",
                                e.kind
                            ));
                            texts.push(tool);
                        }
                        Err(_) => note(format!("weft cannot read it ({}); skipped", e.kind)),
                    }
                }
            }
        }
        let compiled = match list {
            "ask" => AskRules::compile(&texts, &origin, ctx).map(|ask| self.ask.extend(&ask)),
            "deny" => {
                PatternSet::compile(&texts, &origin, ctx).map(|set| self.deny.extend_from(&set))
            }
            _ => PatternSet::compile(&texts, &origin, ctx).map(|set| self.allow.extend_from(&set)),
        };
        // Each text compiled above; nothing can fail here.
        if let Err(e) = compiled {
            tracing::warn!(file = %file.path.display(), "Claude Code rule `{rule}` skipped: {e}");
        }
    }
}

/// A Claude Code rule as the weft patterns that mean the same. `restrictive` for a deny or
/// ask rule, whose path reaches further (see [`path_specs`]).
fn translate(
    rule: &str,
    restrictive: bool,
    root: Option<&Path>,
    home: Option<&Path>,
) -> Vec<String> {
    let rule = rule.trim();
    let (tool, spec) = match rule.split_once('(') {
        Some((tool, rest)) if rest.ends_with(')') => (tool, Some(&rest[..rest.len() - 1])),
        _ => (rule, None),
    };
    let specs = match spec {
        Some(spec) if PATH_RULE_TOOLS.contains(&tool) => path_specs(spec, restrictive, root, home),
        Some(spec) => vec![spec.to_owned()],
        None => Vec::new(),
    };
    let tools: &[&str] = if tool == "Edit" {
        &["Edit", "Write"]
    } else {
        &[tool]
    };
    let mut patterns = Vec::new();
    for t in tools {
        if spec.is_none() {
            patterns.push((*t).to_owned());
        }
        patterns.extend(specs.iter().map(|spec| format!("{t}({spec})")));
    }
    patterns
}

/// A path specifier as the weft path globs that mean the same, read as gitignore reads its
/// patterns:
///
/// * `dir/` names a directory, so everything in it: `dir/**`;
/// * in a deny or ask rule (`restrictive`), a path without a wildcard in its last component
///   also covers what is inside it when it is a directory (`Read(./secrets)` covers
///   `secrets/key.pem`), and a relative path matches at any depth (`Read(.env)` covers
///   `app/.env`, `Edit(config/**)` covers `pkg/config/x.json`), as Claude Code applies them.
///   An allow rule stays as written: reaching less is its safe mistake.
fn path_specs(
    spec: &str,
    restrictive: bool,
    root: Option<&Path>,
    home: Option<&Path>,
) -> Vec<String> {
    let spec = spec.trim();
    // `dir/` (but not `/` alone): one slash off, so `//` (the file system root) stays `/`.
    let directory = spec.len() > 1 && spec.ends_with('/');
    let bare = if directory {
        &spec[..spec.len() - 1]
    } else {
        spec
    };
    let relative = !(bare.starts_with('/') || bare == "~" || bare.starts_with("~/"));
    let mut shapes = Vec::new();
    if directory {
        shapes.push(format!("{bare}/**"));
    } else {
        shapes.push(spec.to_owned());
        let last = bare.rsplit('/').next().unwrap_or(bare);
        if restrictive && !last.is_empty() && !last.contains(['*', '?', '[', '{']) {
            shapes.push(format!("{bare}/**"));
        }
    }
    if restrictive && relative {
        let anywhere: Vec<String> = shapes
            .iter()
            .map(|s| s.strip_prefix("./").unwrap_or(s))
            // `**/a/../b` cannot be compiled (`..` after a wildcard): such a path keeps only
            // its anchored form rather than falling back to denying the whole tool.
            .filter(|s| !s.starts_with("**/") && *s != "**" && !s.split('/').any(|p| p == ".."))
            .map(|s| format!("**/{s}"))
            .collect();
        shapes.extend(anywhere);
    }
    shapes
        .iter()
        .map(|shape| path_spec(shape, root, home))
        .collect()
}

/// A path specifier in weft's terms: `//p` absolute, `~/p` under `home`, `/p` under `root`.
fn path_spec(spec: &str, root: Option<&Path>, home: Option<&Path>) -> String {
    let join = |dir: Option<&Path>, rest: &str| match dir {
        Some(dir) => format!("{}/{rest}", dir.display().to_string().trim_end_matches('/')),
        None => format!("/{rest}"),
    };
    if let Some(rest) = spec.strip_prefix("//") {
        format!("/{rest}")
    } else if let Some(rest) = spec.strip_prefix("~/") {
        join(home, rest)
    } else if spec == "~" {
        join(home, "")
    } else if let Some(rest) = spec.strip_prefix('/') {
        join(root, rest)
    } else {
        spec.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_translated_to_weft_patterns() {
        let root = Some(Path::new("/proj"));
        let home = Some(Path::new("/home/me"));
        let allow = |rule: &str| translate(rule, false, root, home);
        assert_eq!(allow("Read(./.env)"), ["Read(./.env)"]);
        assert_eq!(allow("Read(//etc/passwd)"), ["Read(/etc/passwd)"]);
        assert_eq!(allow("Read(~/.ssh/**)"), ["Read(/home/me/.ssh/**)"]);
        assert_eq!(allow("Read(/secrets/**)"), ["Read(/proj/secrets/**)"]);
        assert_eq!(allow("Edit(src/**)"), ["Edit(src/**)", "Write(src/**)"]);
        assert_eq!(allow("Edit(src/)"), ["Edit(src/**)", "Write(src/**)"]);
        assert_eq!(allow("Edit"), ["Edit", "Write"]);
        assert_eq!(allow("Bash(npm run test:*)"), ["Bash(npm run test:*)"]);
        assert_eq!(allow("mcp__github"), ["mcp__github"]);
    }

    #[test]
    fn deny_and_ask_paths_reach_inside_directories_and_any_depth() {
        let root = Some(Path::new("/proj"));
        let home = Some(Path::new("/home/me"));
        let deny = |rule: &str| translate(rule, true, root, home);
        assert_eq!(
            deny("Read(.env)"),
            [
                "Read(.env)",
                "Read(.env/**)",
                "Read(**/.env)",
                "Read(**/.env/**)"
            ]
        );
        assert_eq!(
            deny("Read(./secrets/)"),
            ["Read(./secrets/**)", "Read(**/secrets/**)"]
        );
        assert_eq!(
            deny("Edit(config/**)"),
            [
                "Edit(config/**)",
                "Edit(**/config/**)",
                "Write(config/**)",
                "Write(**/config/**)"
            ]
        );
        assert_eq!(deny("Read(**/*.key)"), ["Read(**/*.key)"]);
        assert_eq!(
            deny("Read(~/.ssh)"),
            ["Read(/home/me/.ssh)", "Read(/home/me/.ssh/**)"]
        );
        assert_eq!(deny("Read(//etc/)"), ["Read(/etc/**)"]);
        assert_eq!(deny("Read(/build/*.log)"), ["Read(/proj/build/*.log)"]);
        assert_eq!(deny("Read(//)"), ["Read(/**)"]);
        assert_eq!(
            deny("Read(./a/../.env)"),
            ["Read(./a/../.env)", "Read(./a/../.env/**)"]
        );
        assert_eq!(deny("Bash(rm *)"), ["Bash(rm *)"]);
    }
}
