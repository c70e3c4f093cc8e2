//! Where a skill or agent came from, and in which format.

use std::fmt;
use std::path::PathBuf;

/// The discovery scope of a skill or agent, highest precedence first.
///
/// The derived order is the precedence order: `Project < User < ... < Builtin`, so the smallest
/// scope wins a name clash.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Scope {
    /// `<project>/.clawft/...`, `<project>/.claude/...`, `<project>/.agents/...`.
    Project,
    /// `~/.clawft/...`, `~/.claude/...`, `~/.agents/...`.
    User,
    /// `~/.clawft/workspace/...`.
    Workspace,
    /// Plugin and extra directories from the configuration.
    Plugin,
    /// Compiled into the binary.
    Builtin,
}

impl Scope {
    /// Every scope, highest precedence first.
    pub const ALL: [Scope; 5] = [
        Scope::Project,
        Scope::User,
        Scope::Workspace,
        Scope::Plugin,
        Scope::Builtin,
    ];

    /// The lowercase name used in listings and flags.
    pub const fn as_str(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::User => "user",
            Scope::Workspace => "workspace",
            Scope::Plugin => "plugin",
            Scope::Builtin => "builtin",
        }
    }

    /// Parses the lowercase name (`built-in` is accepted for `builtin`).
    pub fn parse(s: &str) -> Option<Scope> {
        Some(match s {
            "project" => Scope::Project,
            "user" => Scope::User,
            "workspace" => Scope::Workspace,
            "plugin" | "extra" => Scope::Plugin,
            "builtin" | "built-in" => Scope::Builtin,
            _ => return None,
        })
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The file format a skill was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SkillFormat {
    /// `SKILL.md`: YAML frontmatter and a markdown body.
    #[cfg_attr(feature = "serde", serde(rename = "SKILL.md"))]
    SkillMd,
    /// `skill.json` with an optional `prompt.md`.
    #[cfg_attr(feature = "serde", serde(rename = "legacy"))]
    Legacy,
    /// A skill-injection definition (JSON or YAML) or one registered through the API.
    #[cfg_attr(feature = "serde", serde(rename = "definition"))]
    Definition,
    /// A Claude Code custom command: `.claude/commands/**/<name>.md`, markdown with optional
    /// frontmatter, named after its path (`frontend/test.md` is `frontend:test`).
    #[cfg_attr(feature = "serde", serde(rename = "command"))]
    Command,
}

impl SkillFormat {
    /// The name shown in listings (`SKILL.md`, `legacy`, `definition`, `command`).
    pub const fn as_str(self) -> &'static str {
        match self {
            SkillFormat::SkillMd => "SKILL.md",
            SkillFormat::Legacy => "legacy",
            SkillFormat::Definition => "definition",
            SkillFormat::Command => "command",
        }
    }
}

impl fmt::Display for SkillFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The file format an agent definition was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum AgentFormat {
    /// `agent.yaml` / `<name>.yaml`.
    Yaml,
    /// `agent.json` / `<name>.json`.
    Json,
    /// Markdown with YAML frontmatter: `AGENT.md` or Claude Code's `.claude/agents/<name>.md`.
    Markdown,
    /// The Context Graph template: markdown without frontmatter, `## Model`, `## Allowed Tools`.
    ContextGraph,
    /// Compiled into the binary.
    Builtin,
}

impl AgentFormat {
    /// The name shown in listings.
    pub const fn as_str(self) -> &'static str {
        match self {
            AgentFormat::Yaml => "yaml",
            AgentFormat::Json => "json",
            AgentFormat::Markdown => "markdown",
            AgentFormat::ContextGraph => "context-graph",
            AgentFormat::Builtin => "builtin",
        }
    }
}

impl fmt::Display for AgentFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The plugin a skill, command or agent came from (Claude Code's plugins): its namespace and
/// its directories.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PluginRef {
    /// The plugin's name, the namespace of what it brings (`fmt` in `fmt:lint`).
    pub name: String,
    /// Its id: `name@marketplace`, or the name alone for a plugin from no marketplace.
    pub id: String,
    /// Its root directory: `${CLAUDE_PLUGIN_ROOT}`.
    pub root: PathBuf,
    /// Its data directory, which survives updates: `${CLAUDE_PLUGIN_DATA}` (`None` when
    /// weft manages none for it).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub data: Option<PathBuf>,
}

impl PluginRef {
    /// `namespace:name`, the name a plugin's skill, command or agent `name` is known by.
    pub fn qualify(&self, name: &str) -> String {
        format!("{}:{name}", self.name)
    }
}

/// Where a definition came from: scope and file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Source<F> {
    /// Discovery scope.
    pub scope: Scope,
    /// File format.
    pub format: F,
    /// The file that was read (`SKILL.md`, `skill.json`, `agent.yaml`, ...); `None` for
    /// built-ins and API registrations.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub path: Option<PathBuf>,
    /// The plugin that brought it, when a plugin did (its name is then `plugin:name`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub plugin: Option<PluginRef>,
}

impl<F> Source<F> {
    /// A source without a file (built-in or registered through the API).
    pub fn in_memory(scope: Scope, format: F) -> Self {
        Self {
            scope,
            format,
            path: None,
            plugin: None,
        }
    }

    /// The directory holding the file, when there is a file.
    pub fn dir(&self) -> Option<&std::path::Path> {
        self.path.as_deref().and_then(std::path::Path::parent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_order_is_precedence() {
        let mut scopes = vec![Scope::Builtin, Scope::User, Scope::Project, Scope::Plugin];
        scopes.sort();
        assert_eq!(
            scopes,
            [Scope::Project, Scope::User, Scope::Plugin, Scope::Builtin]
        );
        for s in Scope::ALL {
            assert_eq!(Scope::parse(s.as_str()), Some(s));
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn formats_serialize_as_listed() {
        assert_eq!(
            serde_json::to_string(&SkillFormat::SkillMd).unwrap(),
            "\"SKILL.md\""
        );
        assert_eq!(
            serde_json::to_string(&AgentFormat::ContextGraph).unwrap(),
            "\"context-graph\""
        );
    }
}
