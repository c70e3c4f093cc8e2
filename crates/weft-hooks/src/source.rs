//! Where a hook comes from, and one configured handler ready to be matched ([`HookEntry`]).

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use weft_types::{HookEvent, HookGroup, HookHandler, Scope};

use crate::matcher::{Matcher, MatcherError};

/// Where a hook is configured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookSource {
    /// `~/.claude/settings.json`: the user's, runs as the user.
    UserSettings(PathBuf),
    /// `<project>/.claude/settings.json`: the project's, runs only when it is trusted.
    ProjectSettings(PathBuf),
    /// `<project>/.claude/settings.local.json`: the project's too (a checkout can hold one).
    LocalSettings(PathBuf),
    /// A skill's `hooks:`, active while the skill is.
    Skill {
        /// The skill.
        name: String,
        /// Where it was found.
        scope: Scope,
        /// Its file.
        path: Option<PathBuf>,
    },
    /// An agent's `hooks:`, active while the agent runs.
    Agent {
        /// The agent.
        name: String,
        /// Where it was found.
        scope: Scope,
        /// Its file.
        path: Option<PathBuf>,
    },
    /// An enabled plugin's `hooks/hooks.json`; its commands get `CLAUDE_PLUGIN_ROOT`.
    Plugin {
        /// The plugin.
        name: String,
        /// Its directory.
        root: PathBuf,
    },
}

impl HookSource {
    /// True for what a checkout supplies: the project's settings files, project skills and
    /// agents. They run only in a trusted project.
    pub fn is_project(&self) -> bool {
        match self {
            HookSource::ProjectSettings(_) | HookSource::LocalSettings(_) => true,
            HookSource::Skill { scope, .. } | HookSource::Agent { scope, .. } => {
                *scope == Scope::Project
            }
            HookSource::UserSettings(_) | HookSource::Plugin { .. } => false,
        }
    }

    /// The kind, one word: `user`, `project`, `local`, `skill`, `agent`, `plugin`.
    pub fn kind(&self) -> &'static str {
        match self {
            HookSource::UserSettings(_) => "user",
            HookSource::ProjectSettings(_) => "project",
            HookSource::LocalSettings(_) => "local",
            HookSource::Skill { .. } => "skill",
            HookSource::Agent { .. } => "agent",
            HookSource::Plugin { .. } => "plugin",
        }
    }

    /// The file the hook is written in, when there is one.
    pub fn path(&self) -> Option<&std::path::Path> {
        match self {
            HookSource::UserSettings(p)
            | HookSource::ProjectSettings(p)
            | HookSource::LocalSettings(p) => Some(p),
            HookSource::Skill { path, .. } | HookSource::Agent { path, .. } => path.as_deref(),
            HookSource::Plugin { root, .. } => Some(root),
        }
    }
}

impl fmt::Display for HookSource {
    /// `user settings`, `skill fmt`, `agent reviewer`, `plugin lint`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HookSource::UserSettings(_) => f.write_str("user settings"),
            HookSource::ProjectSettings(_) => f.write_str("project settings"),
            HookSource::LocalSettings(_) => f.write_str("local project settings"),
            HookSource::Skill { name, .. } => write!(f, "skill {name}"),
            HookSource::Agent { name, .. } => write!(f, "agent {name}"),
            HookSource::Plugin { name, .. } => write!(f, "plugin {name}"),
        }
    }
}

/// One handler of one group, with its source and its compiled matcher.
#[derive(Debug, Clone)]
pub struct HookEntry {
    /// Where it is configured.
    pub source: Arc<HookSource>,
    /// Its event.
    pub event: HookEvent,
    /// The matcher as written.
    pub matcher_text: Option<String>,
    /// The matcher compiled, or why it does not compile (such a hook never runs).
    pub matcher: Result<Matcher, MatcherError>,
    /// What to run.
    pub handler: HookHandler,
    /// It may run: not a project's hook, or the project is trusted.
    pub trusted: bool,
}

impl HookEntry {
    /// The entries of `groups` from `source`; `project_trusted` decides for a project's.
    pub fn from_groups(
        groups: &[HookGroup],
        source: HookSource,
        project_trusted: bool,
    ) -> Vec<HookEntry> {
        let trusted = project_trusted || !source.is_project();
        let source = Arc::new(source);
        let mut entries = Vec::new();
        for group in groups {
            let matcher = Matcher::compile(group.matcher.as_deref());
            for handler in &group.handlers {
                entries.push(HookEntry {
                    source: Arc::clone(&source),
                    event: group.event,
                    matcher_text: group.matcher.clone(),
                    matcher: matcher.clone(),
                    handler: handler.clone(),
                    trusted,
                });
            }
        }
        entries
    }

    /// Why this hook cannot run as written, and what that means, when it cannot: a matcher
    /// that does not compile, a handler weft cannot run. A PreToolUse hook that cannot run
    /// makes the calls it may concern ask a person; any other never runs.
    pub fn problem(&self) -> Option<String> {
        let why = match (&self.matcher, &self.handler.unrunnable) {
            (Err(e), _) if self.event == HookEvent::PreToolUse => format!(
                "matcher `{}` is not a regular expression weft can use ({})",
                e.matcher, e.reason
            ),
            (Err(e), _) => return Some(e.to_string()),
            (Ok(_), Some(why)) => format!("weft cannot run it: {why}"),
            (Ok(_), None) => return None,
        };
        Some(if self.event == HookEvent::PreToolUse {
            format!("{why}; every call it may concern asks a person until it is fixed")
        } else {
            format!("{why}; it never runs")
        })
    }

    /// The command as shown: the command, with its `args` in exec form.
    pub fn command_line(&self) -> String {
        match &self.handler.args {
            Some(args) if !args.is_empty() => {
                format!("{} {}", self.handler.command, args.join(" "))
            }
            _ => self.handler.command.clone(),
        }
    }
}
