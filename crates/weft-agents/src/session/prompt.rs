//! What the model is shown: the system prompt (agent prompt, preloaded skills, skill catalog)
//! and the tools the gate lets it see.
//!
//! Both stay byte for byte the same from one request to the next, so the providers' prompt
//! caches hold (OpenAI caches the longest prefix it saw before; Anthropic the prefix up to a
//! breakpoint): the tools are those the agent's gate lets it see, in the registry's order (a
//! skill's `allowed-tools` narrows the gate for its turn, which refuses calls outside it, and
//! the skill's text says which tools it leaves, but the list offered does not change); the
//! system prompt, catalog included, is written once per agent view and kept until the agent
//! changes, `/clear` or a compaction. Skills installed, changed or removed meanwhile are
//! announced in the next user message ([`Session::with_skill_news`]), and a conditional
//! skill a file reveals in that file's tool result; `use_skill` and `/name` always see the
//! registry as it is.

use std::fmt::Write as _;

use weft_llm::ToolSpec;
use weft_permissions::{CallKind, offered_in};
use weft_registry::SkillEntry;
use weft_registry::catalog::budget_for;
use weft_types::InvocationContext;

use super::Session;
use super::skill::{USE_SKILL, use_skill_spec};
use super::spawn::SESSIONS_SPAWN;
use super::spawn_tools::spawn_specs;

/// Used when an agent has no system prompt of its own.
const FALLBACK_PROMPT: &str =
    "You are a helpful agent. Use the tools you are given when they help, and answer concisely.";

/// The system prompt of this agent view, written once (see the module documentation).
#[derive(Debug, Default)]
pub(super) struct PromptCache {
    /// Whether it lists the skill catalog (only when `use_skill` is offered); `None`: not
    /// written yet.
    with_catalog: Option<bool>,
    /// Its parts, for `/context`.
    pub(super) parts: PromptParts,
    text: String,
}

impl PromptCache {
    /// True once a prompt with the catalog was written: skill changes are announced from
    /// then on.
    pub(super) fn lists_catalog(&self) -> bool {
        self.with_catalog == Some(true)
    }
}

/// The system prompt in its parts.
#[derive(Debug, Default, Clone)]
pub(super) struct PromptParts {
    /// The agent's prompt and the working directory.
    pub(super) base: String,
    /// The preloaded skills' bodies, with their heading.
    pub(super) preloaded: String,
    /// The skill catalog, with the blank line before it.
    pub(super) catalog: String,
}

impl Session {
    /// The tools offered to the model now: registered tools the gate lets the agent see (in
    /// `plan` mode only those that cannot change anything), plus `use_skill` when it is
    /// visible and some skill can be invoked by the model.
    pub fn offered_tools(&self) -> Vec<ToolSpec> {
        let mode = self.permission_mode();
        // The agent's gate, not the turn's: a skill narrowing the tools does not change the
        // list (the prompt cache would be lost for its turn); its gate refuses the rest.
        let gate = &self.view.gate;
        let mut specs: Vec<ToolSpec> = self
            .tools
            .iter()
            .filter(|t| gate.tool_visible(t.name()))
            .filter(|t| offered_in(mode, CallKind::of(t.name(), t.read_only_hint(), || true)))
            .map(|t| ToolSpec {
                name: t.name().to_owned(),
                description: t.description().to_owned(),
                input_schema: t.input_schema(),
            })
            .collect();
        if gate.tool_visible(USE_SKILL)
            && !self.tools.contains(USE_SKILL)
            && self.invocable_skills().next().is_some()
        {
            specs.push(use_skill_spec());
        }
        // At the depth limit the spawn tools are absent, not merely denied.
        let can_spawn = self.options.spawn.depth < self.options.spawn.max_depth
            && gate.tool_visible(SESSIONS_SPAWN);
        if can_spawn && !self.tools.contains(SESSIONS_SPAWN) {
            specs.extend(spawn_specs(&self.options.spawn.agents));
        }
        specs
    }

    /// The skills the model may invoke in this session (all model-invocable ones, or those
    /// of the skill filter).
    pub(super) fn invocable_skills(&self) -> impl Iterator<Item = std::sync::Arc<SkillEntry>> {
        let snapshot = self.skills.snapshot();
        let filter = self.options.skill_filter.clone();
        let entries: Vec<std::sync::Arc<SkillEntry>> = snapshot
            .model_invocable()
            .filter(|e| {
                filter
                    .as_ref()
                    .is_none_or(|f| f.iter().any(|n| n == e.name()))
                    && self.listed(e)
            })
            .cloned()
            .collect();
        entries.into_iter()
    }

    /// True when the catalog lists `entry` now: not a conditional skill (`paths:`), or one
    /// whose files this session has read or edited.
    fn listed(&self, entry: &SkillEntry) -> bool {
        (!entry.skill.is_conditional() || self.revealed.contains(entry.name()))
            && self.skill_ready(entry)
    }

    /// After a file tool touched `path`: the conditional skills whose `paths` match it join
    /// the catalog for the rest of the session (Claude Code's `paths:`). Returns their names.
    pub(super) fn reveal_conditional_skills(&mut self, path: &str) -> Vec<String> {
        let Some(relative) = weft_registry::conditional::project_relative(
            std::path::Path::new(path),
            self.options.project_dir.as_deref(),
        ) else {
            return Vec::new();
        };
        let snapshot = self.skills.snapshot();
        let newly: Vec<String> = snapshot
            .entries()
            .iter()
            .filter(|e| !self.revealed.contains(e.name()) && e.matches_path(&relative))
            .map(|e| e.name().to_owned())
            .collect();
        for name in &newly {
            tracing::info!(skill = %name, file = %relative.display(), "conditional skill now listed");
            self.revealed.insert(name.clone());
        }
        newly
    }

    /// The system prompt for a request offering `tools`: the one written for this agent view
    /// (see the module documentation), or a new one when there is none yet or `use_skill`
    /// came or went.
    pub(super) fn system_prompt(&mut self, tools: &[ToolSpec]) -> String {
        let with_catalog = tools.iter().any(|t| t.name == USE_SKILL);
        if self.prompt_cache.with_catalog == Some(with_catalog) {
            return self.prompt_cache.text.clone();
        }
        let snapshot = self.skills.snapshot();
        let mut base = self
            .view
            .agent
            .system_prompt
            .as_deref()
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .unwrap_or(FALLBACK_PROMPT)
            .to_owned();
        if let Some(dir) = &self.options.project_dir {
            let _ = write!(base, "\n\nWorking directory: {}", dir.display());
        }
        let mut parts = PromptParts {
            base,
            ..PromptParts::default()
        };
        let preloaded = self.preloaded_skills();
        if !preloaded.is_empty() {
            parts.preloaded = format!("\n\n## Preloaded skills\n{preloaded}");
        }
        self.skills_known.clear();
        if with_catalog {
            let budget = budget_for(self.view.context_window);
            let filter = self.options.skill_filter.as_ref();
            let catalog = snapshot.catalog_where(self.options.catalog_format, budget, |e| {
                filter.is_none_or(|allowed| allowed.iter().any(|n| n == e.name())) && self.listed(e)
            });
            if !catalog.report.dropped.is_empty() || catalog.report.names_only {
                tracing::warn!(
                    dropped = catalog.report.dropped.len(),
                    names_only = catalog.report.names_only,
                    "skill catalog shortened to fit its budget"
                );
            }
            if !catalog.text.is_empty() {
                parts.catalog = format!("\n\n{}", catalog.text.trim_end());
            }
            self.skills_known = self.listed_skills();
        }
        let text = format!("{}{}{}", parts.base, parts.preloaded, parts.catalog);
        self.prompt_cache = PromptCache {
            with_catalog: Some(with_catalog),
            parts,
            text: text.clone(),
        };
        text
    }

    /// The skills the catalog would list now, with their descriptions.
    pub(super) fn listed_skills(&self) -> std::collections::BTreeMap<String, String> {
        self.invocable_skills()
            .map(|e| (e.name().to_owned(), e.skill.description.clone()))
            .collect()
    }

    /// The bodies of the agent's `skills`, rendered without arguments. A missing skill is
    /// logged and skipped (seed 002 3.4).
    fn preloaded_skills(&self) -> String {
        let mut out = String::new();
        for name in &self.view.agent.skills {
            let Some(entry) = self.skills.get(name) else {
                tracing::warn!(agent = %self.view.agent.name, skill = %name, "preloaded skill not found");
                continue;
            };
            let body = match entry.body() {
                Ok(b) => b,
                Err(e) => {
                    tracing::warn!(skill = %name, error = %e, "preloaded skill body unreadable");
                    continue;
                }
            };
            let mut ctx = InvocationContext::new(Vec::new(), self.options.session_id.clone());
            if let Some(dir) = entry.dir() {
                ctx = ctx.with_skill_dir(dir);
            }
            ctx = ctx.with_plugin(entry.skill.source.plugin.as_ref());
            let rendered = weft_template::render(&body.text, &ctx);
            let rendered = self.cap_skill_text(name, rendered);
            let _ = write!(out, "\n### {name}\n\n{}\n", rendered.trim_end());
        }
        out
    }
}
