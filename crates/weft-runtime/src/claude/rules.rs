//! Claude Code's permission rules as weft's patterns.
//!
//! The grammar is shared (`Bash(git *)`, `Read(./.env)`, `WebFetch(domain:x)`,
//! `mcp__server__tool`), with three differences weft bridges here:
//!
//! * path rules: `//p` is absolute, `~/p` is under the home directory, `/p` is under the
//!   settings file's root (the project for the project's files, the home directory for the
//!   user's), `p` and `./p` under the working directory (the project);
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
        // The patterns that compile (a deny or ask rule weft cannot read falls back to its
        // whole tool).
        let mut texts = Vec::new();
        for text in translate(rule, root, home) {
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

/// A Claude Code rule as the weft patterns that mean the same.
fn translate(rule: &str, root: Option<&Path>, home: Option<&Path>) -> Vec<String> {
    let rule = rule.trim();
    let (tool, spec) = match rule.split_once('(') {
        Some((tool, rest)) if rest.ends_with(')') => (tool, Some(&rest[..rest.len() - 1])),
        _ => (rule, None),
    };
    let spec = match spec {
        Some(spec) if PATH_RULE_TOOLS.contains(&tool) => Some(path_spec(spec, root, home)),
        other => other.map(str::to_owned),
    };
    let tools: &[&str] = if tool == "Edit" {
        &["Edit", "Write"]
    } else {
        &[tool]
    };
    tools
        .iter()
        .map(|t| match &spec {
            Some(spec) => format!("{t}({spec})"),
            None => (*t).to_owned(),
        })
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
        let t = |rule: &str| translate(rule, root, home);
        assert_eq!(t("Read(./.env)"), ["Read(./.env)"]);
        assert_eq!(t("Read(//etc/passwd)"), ["Read(/etc/passwd)"]);
        assert_eq!(t("Read(~/.ssh/**)"), ["Read(/home/me/.ssh/**)"]);
        assert_eq!(t("Read(/secrets/**)"), ["Read(/proj/secrets/**)"]);
        assert_eq!(t("Edit(src/**)"), ["Edit(src/**)", "Write(src/**)"]);
        assert_eq!(t("Edit"), ["Edit", "Write"]);
        assert_eq!(t("Bash(npm run test:*)"), ["Bash(npm run test:*)"]);
        assert_eq!(t("mcp__github"), ["mcp__github"]);
    }
}
