//! Agent definitions from files and built-ins, with the same precedence rules as skills:
//! project > user > ... > built-in, every shadowed copy recorded, per-file errors collected.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use weft_fs::Cap;
use weft_parse::{ParseOptions, Profile, Rule, parse_agent};
use weft_registry::read_error_diagnostic;
use weft_types::{AgentDefinition, Diagnostic, InvocationContext, PluginRef, Scope, has_errors};

use crate::builtin_agents::builtin_agents;

/// The most an agent file may hold. Agent files are a page of frontmatter and a system
/// prompt; the cap matches skill files.
pub const AGENT_FILE_CAP: Cap = Cap::new(256 * 1024, "agent files");

/// Claude Code's names for its built-in subagent types and the weft agent each one means.
/// Lookups also ignore case, so these list only what case alone does not cover.
pub const CLAUDE_CODE_AGENTS: [(&str, &str); 3] = [
    ("Explore", "explore"),
    ("Plan", "plan"),
    ("general-purpose", "general-purpose"),
];

/// A directory agent files are read from (`.clawft/agents`, `.claude/agents`, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentRoot {
    /// The directory (for a plugin, also one agent file its manifest names).
    pub path: PathBuf,
    /// Its scope.
    pub scope: Scope,
    /// The plugin it belongs to: its agents are named `plugin:name` and
    /// `${CLAUDE_PLUGIN_ROOT}` in their prompts is the plugin's root.
    pub plugin: Option<PluginRef>,
}

impl AgentRoot {
    /// A root.
    pub fn new(path: impl Into<PathBuf>, scope: Scope) -> Self {
        Self {
            path: path.into(),
            scope,
            plugin: None,
        }
    }

    /// The same root as part of `plugin`.
    #[must_use]
    pub fn of_plugin(self, plugin: PluginRef) -> Self {
        Self {
            plugin: Some(plugin),
            ..self
        }
    }
}

/// The user's limits an untrusted project's agents must stay within
/// ([`AgentRegistry::restrain_project_agents`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AgentLimits {
    /// Tool-call rounds per message (the user's `agent.max_tool_iterations`, else the default).
    pub max_tool_iterations: u32,
}

/// True for what [`AgentRegistry::restrain_project_agents`] reports (`W178`, `W179`): it
/// changes what runs, so callers show it whenever the agent is listed, shown or used, not
/// only with `-v`.
pub fn is_trust_warning(d: &Diagnostic) -> bool {
    d.rule().is_some_and(|r| {
        r == Rule::AgentProjectOverride.number() || r == Rule::AgentLimitLowered.number()
    })
}

/// A lower-precedence definition hidden by the winning one.
#[derive(Debug, Clone, PartialEq)]
pub struct ShadowedAgent {
    /// Its scope.
    pub scope: Scope,
    /// Its file (`None` for a built-in).
    pub path: Option<PathBuf>,
}

/// One agent name as resolved: the winning definition and what it hides.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentEntry {
    /// The definition in effect.
    pub agent: AgentDefinition,
    /// Hidden definitions, highest precedence first.
    pub shadows: Vec<ShadowedAgent>,
    /// Warnings about the winning file.
    pub diagnostics: Vec<Diagnostic>,
}

/// Every agent weft knows, by name.
///
/// ```
/// use weft_agents::AgentRegistry;
///
/// let agents = AgentRegistry::builtins();
/// assert!(agents.get("explore").is_some());
/// assert_eq!(agents.get("planner").unwrap().agent.tools, Some(vec![]));
/// ```
#[derive(Debug, Clone, Default)]
pub struct AgentRegistry {
    entries: BTreeMap<String, AgentEntry>,
    diagnostics: Vec<Diagnostic>,
}

impl AgentRegistry {
    /// Only the built-in agents.
    pub fn builtins() -> Self {
        let mut registry = Self::default();
        for agent in builtin_agents() {
            registry.offer(agent, Vec::new());
        }
        registry
    }

    /// Built-ins plus every agent file under `roots` (given highest precedence first; the
    /// order among roots of one scope decides ties). Files that fail to parse are reported in
    /// [`diagnostics`](Self::diagnostics) and skipped; the rest still load.
    pub fn discover(roots: &[AgentRoot], options: &ParseOptions) -> Self {
        let mut registry = Self::builtins();
        let mut ordered: Vec<&AgentRoot> = roots.iter().collect();
        // Lowest precedence first, so each later offer can shadow what came before; the
        // stable sort keeps the caller's order within a scope (reversed below).
        ordered.reverse();
        ordered.sort_by_key(|r| std::cmp::Reverse(r.scope));
        for root in ordered {
            let (mut files, problems) = if root.plugin.is_some() && root.path.is_file() {
                (vec![root.path.clone()], Vec::new())
            } else {
                agent_files(&root.path)
            };
            registry.diagnostics.extend(problems);
            files.reverse();
            for file in files {
                registry.load_file(&file, root, options);
            }
        }
        registry
    }

    /// Adds an agent defined through the API; it replaces one of the same name.
    pub fn register(&mut self, agent: AgentDefinition) {
        let shadows = self
            .entries
            .remove(&agent.name)
            .map(shadow_list)
            .unwrap_or_default();
        self.entries.insert(
            agent.name.clone(),
            AgentEntry {
                agent,
                shadows,
                diagnostics: Vec::new(),
            },
        );
    }

    /// The agent called `name`: an exact match first, then Claude Code's name for a
    /// built-in ([`CLAUDE_CODE_AGENTS`]: `Explore`, `Plan`, `general-purpose`), then the one
    /// plugin agent named `plugin:name`, then the one agent whose name matches ignoring case.
    pub fn get(&self, name: &str) -> Option<&AgentEntry> {
        if let Some(entry) = self.entries.get(name) {
            return Some(entry);
        }
        let mut of_plugins = self.entries.values().filter(|e| {
            e.agent.source.plugin.as_ref().is_some_and(|p| {
                e.agent
                    .name
                    .strip_prefix(p.name.as_str())
                    .and_then(|rest| rest.strip_prefix(':'))
                    == Some(name)
            })
        });
        if let (Some(entry), None) = (of_plugins.next(), of_plugins.next()) {
            return Some(entry);
        }
        if let Some((_, weft)) = CLAUDE_CODE_AGENTS.iter().find(|(cc, _)| *cc == name)
            && let Some(entry) = self.entries.get(*weft)
        {
            return Some(entry);
        }
        let mut folded = self
            .entries
            .values()
            .filter(|e| e.agent.name.eq_ignore_ascii_case(name));
        match (folded.next(), folded.next()) {
            (Some(entry), None) => Some(entry),
            _ => None,
        }
    }

    /// True when [`get`](Self::get) finds `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Every agent: the built-ins still in effect in their listing order (`default`,
    /// `general-purpose`, `explore`, ...), then the others by name.
    pub fn list(&self) -> impl Iterator<Item = &AgentEntry> {
        const ORDER: [&str; 6] = [
            "default",
            "general-purpose",
            "explore",
            "plan",
            "planner",
            "coder",
        ];
        let mut entries: Vec<&AgentEntry> = self.entries.values().collect();
        entries.sort_by_key(|e| {
            let rank = (e.agent.source.scope == Scope::Builtin)
                .then(|| ORDER.iter().position(|n| *n == e.agent.name))
                .flatten()
                .unwrap_or(ORDER.len());
            (rank, e.agent.name.as_str())
        });
        entries.into_iter()
    }

    /// Names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }

    /// Errors and warnings from files, including those that were skipped.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// What an untrusted project's agents get: a warning (`W178`) on each that overrides a
    /// user or built-in agent, and their limits lowered to the user's (`W179`). The warnings
    /// go to the entry and to [`diagnostics`](Self::diagnostics).
    pub fn restrain_project_agents(&mut self, limits: &AgentLimits) {
        for entry in self.entries.values_mut() {
            let agent = &mut entry.agent;
            if agent.source.scope != Scope::Project {
                continue;
            }
            let mut found = Vec::new();
            if let Some(hidden) = entry.shadows.iter().find(|s| s.scope != Scope::Project) {
                let place = hidden
                    .path
                    .as_deref()
                    .map(|p| format!(" at {}", p.display()))
                    .unwrap_or_default();
                found.extend(Rule::AgentProjectOverride.diagnostic(
                    Profile::Load,
                    format!(
                        "project agent `{}` overrides the {} agent{place} (--trust-project silences this)",
                        agent.name, hidden.scope
                    ),
                ));
            }
            if let Some(asked) = agent.max_tool_iterations
                && asked > limits.max_tool_iterations
            {
                agent.max_tool_iterations = Some(limits.max_tool_iterations);
                found.extend(Rule::AgentLimitLowered.diagnostic(
                    Profile::Load,
                    format!(
                        "project agent `{}` asks for max_tool_iterations {asked}; lowered to your limit of {} (--trust-project lifts it)",
                        agent.name, limits.max_tool_iterations
                    ),
                ));
            }
            for d in found {
                let d = match &agent.source.path {
                    Some(p) => d.with_path(p),
                    None => d,
                };
                entry.diagnostics.push(d.clone());
                self.diagnostics.push(d);
            }
        }
    }

    fn load_file(&mut self, file: &Path, agent_root: &AgentRoot, options: &ParseOptions) {
        let scope = agent_root.scope;
        // A link may lead anywhere inside the directory holding the file (the agents
        // directory, or the agent's own directory for `<name>/AGENT.md`), never out of it.
        let root = file.parent().unwrap_or(Path::new("."));
        let bytes = match weft_fs::read_within(file, root, AGENT_FILE_CAP) {
            Ok(b) => b,
            Err(e) => {
                tracing::debug!(file = %file.display(), reason = %e.reason(), "agent file refused");
                self.diagnostics.push(read_error_diagnostic(&e));
                return;
            }
        };
        let parsed = parse_agent(&bytes, file, &(*options).with_scope(scope));
        let failed = has_errors(&parsed.diagnostics);
        self.diagnostics.extend(parsed.diagnostics.iter().cloned());
        match parsed.agent {
            Some(mut agent) if !failed => {
                if let Some(plugin) = &agent_root.plugin {
                    of_plugin(&mut agent, plugin);
                }
                let warnings = parsed.diagnostics;
                self.offer(agent, warnings);
            }
            _ => tracing::warn!(file = %file.display(), "agent file skipped: it has errors"),
        }
    }

    /// Inserts `agent` if it outranks (or ties with, being offered later) the current holder.
    fn offer(&mut self, agent: AgentDefinition, diagnostics: Vec<Diagnostic>) {
        let shadows = match self.entries.remove(&agent.name) {
            None => Vec::new(),
            Some(old) if old.agent.source.scope < agent.source.scope => {
                // The existing one wins (higher precedence); record the newcomer under it.
                let mut old = old;
                old.shadows.push(ShadowedAgent {
                    scope: agent.source.scope,
                    path: agent.source.path.clone(),
                });
                self.entries.insert(agent.name.clone(), old);
                return;
            }
            Some(old) => {
                // An untrusted project's overrides are warned about by
                // `restrain_project_agents`, which knows whether the project is trusted.
                tracing::debug!(agent = %agent.name, "agent overrides a lower-precedence one");
                shadow_list(old)
            }
        };
        self.entries.insert(
            agent.name.clone(),
            AgentEntry {
                agent,
                shadows,
                diagnostics,
            },
        );
    }
}

/// A plugin's agent: named `plugin:name`, the plugin in its source, and
/// `${CLAUDE_PLUGIN_ROOT}` (and the other directory variables) in its prompt filled.
fn of_plugin(agent: &mut AgentDefinition, plugin: &PluginRef) {
    agent.name = plugin.qualify(&agent.name);
    agent.source.plugin = Some(plugin.clone());
    if let Some(prompt) = &mut agent.system_prompt {
        let ctx = InvocationContext::default().with_plugin(Some(plugin));
        *prompt = weft_template::fill_directories(prompt, &ctx);
    }
}

fn shadow_list(old: AgentEntry) -> Vec<ShadowedAgent> {
    let mut shadows = vec![ShadowedAgent {
        scope: old.agent.source.scope,
        path: old.agent.source.path,
    }];
    shadows.extend(old.shadows);
    shadows
}

/// The agent files directly in `dir` (`*.md`, `*.yaml`, `*.yml`, `*.json`) and in its
/// subdirectories (`<name>/AGENT.md`, `<name>/agent.yaml`, ...), sorted by path; and a
/// warning (`W185`) for each name that is not UTF-8 (an agent file or folder that cannot name
/// an agent is reported, never skipped in silence).
fn agent_files(dir: &Path) -> (Vec<PathBuf>, Vec<Diagnostic>) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return (Vec::new(), Vec::new());
    };
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for entry in read.flatten() {
        let path = entry.path();
        let is_dir = path.is_dir();
        if entry.file_name().to_str().is_none() {
            let lossy = PathBuf::from(entry.file_name().to_string_lossy().into_owned());
            if is_dir || is_agent_file(&lossy) {
                problems.push(non_utf8_name(&path, is_dir));
            }
            continue;
        }
        if is_dir {
            for name in [
                "AGENT.md",
                "agent.md",
                "agent.yaml",
                "agent.yml",
                "agent.json",
            ] {
                let candidate = path.join(name);
                // Whatever it is: a FIFO or a link out is refused with a diagnostic when
                // read, not skipped in silence.
                if std::fs::symlink_metadata(&candidate).is_ok() {
                    files.push(candidate);
                    break;
                }
            }
        } else if is_agent_file(&path) {
            files.push(path);
        }
    }
    files.sort();
    problems.sort_by(|a, b| a.path.cmp(&b.path));
    (files, problems)
}

/// `W185` for an agent file or folder whose name is not UTF-8 (shown with its lossy path).
fn non_utf8_name(path: &Path, is_dir: bool) -> Diagnostic {
    let (what, skipped) = if is_dir {
        ("directory", "is not entered")
    } else {
        ("file", "is not read")
    };
    Diagnostic::new(
        weft_types::Severity::Warning,
        Rule::NonUtf8Name.number(),
        format!(
            "{what} name is not valid UTF-8 ({}); it cannot name an agent and {skipped}",
            path.display()
        ),
    )
    .with_path(path)
}

fn is_agent_file(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    if name.starts_with('.') || name.eq_ignore_ascii_case("README.md") {
        return false;
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    matches!(ext.as_deref(), Some("md" | "yaml" | "yml" | "json"))
}
