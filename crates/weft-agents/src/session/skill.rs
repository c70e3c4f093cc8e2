//! Invoking a skill: by the model through `use_skill` (seed 004) or by the user (`/name`,
//! `weft skills run`). Either way the body is rendered with the arguments and the skill's
//! allowed tools narrow the gate until the turn ends (SEC-SKILL-04: an intersection, never
//! a widening).

use serde_json::json;
use weft_llm::{ModelRef, ToolSpec};
use weft_permissions::{Policy, PolicyError, PreApproval, ToolGate};
use weft_template::Rendered;
use weft_types::suggest::{closest_names, did_you_mean};
use weft_types::{InvocationContext, Scope, SkillContext};

use std::sync::Arc;

use weft_registry::{SkillEntry, SkillError, SkillRegistry};
use weft_tools::{ReadGrant, ReadGrants};

use super::children::{ChildStatus, ChildSummary};
use super::spawn::{ChildPlan, SpawnRequest};
use super::view::pattern_context;
use super::{Session, SessionError};
use crate::transcript::{TranscriptRecord, TranscriptWriteError, now_millis};

pub use weft_types::tool_names::USE_SKILL;

/// Who asked for a skill: the rules differ (seed 004's trigger control matrix).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Invoker {
    /// The model, through `use_skill`: `disable-model-invocation` skills are refused.
    Model,
    /// The user: `user-invocable: false` skills are refused.
    User,
}

/// A skill that cannot be invoked.
#[derive(Debug, thiserror::Error)]
pub enum SkillInvocationError {
    /// No skill has that name.
    #[error("unknown skill `{name}`{}", did_you_mean(.suggestions))]
    Unknown {
        /// The name asked for.
        name: String,
        /// The closest names.
        suggestions: Vec<String>,
    },
    /// Several plugins have a skill of that name, and no skill has exactly that name.
    #[error("skill `{name}` is in several plugins; use one of: {}", .candidates.join(", "))]
    Ambiguous {
        /// The name asked for.
        name: String,
        /// The plugin skills it could mean (`plugin:name`).
        candidates: Vec<String>,
    },
    /// The configuration switches the skill off.
    #[error(
        "skill `{0}` is disabled in the configuration; to run it, remove it from `skills.disabled` or set `skills.entries.{0}.enabled` to true (`weft config show --origin` says which file)"
    )]
    Disabled(String),
    /// A file declares the skill but does not load.
    #[error("skill `{name}` does not load: {errors}")]
    DoesNotLoad {
        /// The name asked for.
        name: String,
        /// The file.
        path: std::path::PathBuf,
        /// Its errors, each `file:line:col: error[CODE]: message`, joined with `; `.
        errors: String,
    },
    /// `disable-model-invocation: true` (seed 000 AutoInvocationBlocked).
    #[error(
        "skill `{0}` can only be run by the user (disable-model-invocation); do not call it with use_skill"
    )]
    AutoInvocationBlocked(String),
    /// `user-invocable: false`.
    #[error("skill `{0}` is not user-invocable (user-invocable: false)")]
    NotUserInvocable(String),
    /// `context: fork` needs a subagent.
    #[error(
        "skill `{0}` runs in a forked subagent (context: fork), which this runtime cannot start yet; it was not run inline"
    )]
    ForkUnsupported(String),
    /// The arguments have an unclosed quote.
    #[error("skill `{name}`: cannot split the arguments: {source}")]
    BadArguments {
        /// Skill name.
        name: String,
        /// Why.
        #[source]
        source: weft_template::SplitError,
    },
    /// The body cannot be read.
    #[error("skill `{name}`: {source}")]
    Body {
        /// Skill name.
        name: String,
        /// Why.
        #[source]
        source: SkillError,
    },
    /// The skill's `allowed-tools` do not compile for this session's project (a registry
    /// configured for another project compiled them without error).
    #[error("skill `{name}`: {source}")]
    Policy {
        /// Skill name.
        name: String,
        /// Why.
        #[source]
        source: PolicyError,
    },
    /// The skill's `allowed-tools` name tools this session does not have: the model is not
    /// offered it (its readiness is false).
    #[error(
        "skill `{name}` is not ready here: its allowed-tools name {} (not a tool of this session), so it is not offered; run it yourself (`/{name}`) to use what it has",
        .tools.join(", ")
    )]
    MissingTools {
        /// Skill name.
        name: String,
        /// The tools it names that the session lacks.
        tools: Vec<String>,
    },
    /// The skill's `model:` cannot be used (and is not an alias that can fall back).
    #[error("skill `{name}`: {source}")]
    Model {
        /// Skill name.
        name: String,
        /// Why (boxed: it is large, and this error travels inside every session error).
        #[source]
        source: Box<weft_llm::ModelError>,
    },
    /// The transcript write failed.
    #[error(transparent)]
    Transcript(#[from] TranscriptWriteError),
}

/// Why a `use_skill` call failed; its message is the error result the model reads.
#[derive(Debug, thiserror::Error)]
pub(super) enum UseSkillError {
    /// The input names no skill.
    #[error("use_skill needs a `skill` name")]
    MissingName,
    /// The skill cannot be run.
    #[error(transparent)]
    Invocation(#[from] SkillInvocationError),
    /// The fork skill's subagent could not start.
    #[error(transparent)]
    Fork(Box<SessionError>),
    /// The fork skill's subagent ended without a result: what it reported.
    #[error("{0}")]
    ForkEnded(String),
}

/// The `use_skill` tool as offered to the model.
pub(super) fn use_skill_spec() -> ToolSpec {
    ToolSpec {
        name: USE_SKILL.to_owned(),
        description: "Invoke a skill by name when a task matches one listed under Skills. \
                      Returns the skill's instructions; follow them."
            .to_owned(),
        input_schema: json!({
            "type": "object",
            "properties": {
                "skill": {"type": "string", "description": "Skill name"},
                "args": {"type": "string", "description": "Arguments for the skill (optional)"}
            },
            "required": ["skill"],
            "additionalProperties": false
        }),
    }
}

impl Session {
    /// The skill `name` if `invoker` may run it in this session.
    fn invocable(
        &self,
        name: &str,
        invoker: Invoker,
    ) -> Result<Arc<SkillEntry>, SkillInvocationError> {
        let filter = self.options.skill_filter.as_ref();
        let allowed = |n: &str| filter.is_none_or(|f| f.iter().any(|x| x == n));
        let snapshot = self.skills.snapshot();
        let found = snapshot.resolve(name);
        let entry = found
            .as_ref()
            .ok()
            .filter(|e| allowed(name) || allowed(e.name()))
            .map(|e| Arc::clone(e));
        let Some(entry) = entry else {
            if let Err(weft_registry::Lookup::Ambiguous(candidates)) = found {
                let candidates: Vec<String> =
                    candidates.into_iter().filter(|c| allowed(c)).collect();
                if !candidates.is_empty() {
                    return Err(SkillInvocationError::Ambiguous {
                        name: name.to_owned(),
                        candidates,
                    });
                }
            }
            if allowed(name) && snapshot.disabled().iter().any(|e| e.name() == name) {
                return Err(SkillInvocationError::Disabled(name.to_owned()));
            }
            if let Some(broken) = snapshot
                .broken_named(name)
                .first()
                .filter(|_| allowed(name))
            {
                let errors: Vec<String> = broken.errors.iter().map(ToString::to_string).collect();
                return Err(SkillInvocationError::DoesNotLoad {
                    name: name.to_owned(),
                    path: broken.path.clone(),
                    errors: errors.join("; "),
                });
            }
            let names = snapshot.entries().iter().filter(|e| {
                allowed(e.name())
                    && match invoker {
                        Invoker::Model => !e.skill.disable_model_invocation,
                        Invoker::User => e.skill.user_invocable,
                    }
            });
            return Err(SkillInvocationError::Unknown {
                name: name.to_owned(),
                suggestions: closest_names(name, names.map(|e| e.name())),
            });
        };
        match invoker {
            Invoker::Model if entry.skill.disable_model_invocation => {
                Err(SkillInvocationError::AutoInvocationBlocked(name.to_owned()))
            }
            Invoker::Model if !self.skill_ready(&entry) => {
                Err(SkillInvocationError::MissingTools {
                    name: name.to_owned(),
                    tools: entry.missing_tools(&|t| self.has_tool(t)),
                })
            }
            Invoker::User if !entry.skill.user_invocable => {
                Err(SkillInvocationError::NotUserInvocable(name.to_owned()))
            }
            _ => Ok(entry),
        }
    }

    /// True when this session has a tool of that (canonical) name: a registered tool, or one
    /// the session itself serves (`use_skill`, the subagent tools, `create_skill`).
    pub fn has_tool(&self, name: &str) -> bool {
        self.tools.contains(name) || weft_types::tool_names::SESSION_TOOLS.contains(&name)
    }

    /// True when every tool the skill's `allowed-tools` names exists in this session: only
    /// then is the model offered it.
    pub fn skill_ready(&self, entry: &SkillEntry) -> bool {
        entry.missing_tools(&|t| self.has_tool(t)).is_empty()
    }

    /// Renders a skill's body with `args` (and its argument names and effort) and takes
    /// its compiled policy. The text is not capped yet: its dynamic context comes first.
    fn render_skill(
        &self,
        entry: &SkillEntry,
        args: &[String],
    ) -> Result<(Rendered, Policy), SkillInvocationError> {
        let name = entry.name();
        let body = entry.body().map_err(|source| SkillInvocationError::Body {
            name: name.to_owned(),
            source,
        })?;
        // Compiled once, when the registry found the skill with this session's project (a
        // registry configured for another project gets it compiled for this one).
        let policy = entry
            .policy_for(&pattern_context(&self.options))
            .map_err(|source| SkillInvocationError::Policy {
                name: name.to_owned(),
                source,
            })?
            .into_owned();
        let mut ctx = InvocationContext::new(args.to_vec(), self.options.session_id.clone())
            .with_names(entry.skill.arguments.clone())
            .with_effort(
                entry
                    .skill
                    .effort
                    .clone()
                    .or_else(|| self.options.effort.clone()),
            );
        if let Some(dir) = entry.dir() {
            ctx = ctx.with_skill_dir(dir);
        }
        if let Some(dir) = &self.options.project_dir {
            ctx = ctx.with_project_dir(dir);
        }
        ctx = ctx.with_plugin(entry.skill.source.plugin.as_ref());
        let rendered = weft_template::render_report(&body.text, &ctx);
        if !rendered.unfilled.is_empty() {
            tracing::info!(skill = %name, unfilled = ?rendered.unfilled, "placeholders left unfilled");
        }
        Ok((rendered, policy))
    }

    /// The rendered skill with its dynamic context filled in (run under `gate`, the skill's),
    /// capped (SEC-SKILL-03).
    async fn skill_text(
        &mut self,
        name: &str,
        rendered: &Rendered,
        gate: &ToolGate,
    ) -> Result<String, SkillInvocationError> {
        let text = self.fill_dynamic_context(name, rendered, gate).await?;
        Ok(self.cap_skill_text(name, text))
    }

    /// The model a skill's turns use: `None` for no `model:` or `inherit` (the session's);
    /// an alias no provider serves falls back to the session's model with a notice.
    fn skill_model(
        &self,
        entry: &SkillEntry,
    ) -> Result<(Option<ModelRef>, Option<String>), SkillInvocationError> {
        let Some(spec) = entry.skill.model.as_deref().map(str::trim) else {
            return Ok((None, None));
        };
        if spec == "inherit" {
            return Ok((None, None));
        }
        let owner = format!("skill `{}`", entry.name());
        let (model, notice) = self
            .models
            .resolve_or_fallback(spec, Some(&self.view.model), &owner)
            .map_err(|source| SkillInvocationError::Model {
                name: entry.name().to_owned(),
                source: Box::new(source),
            })?;
        Ok(((model != self.view.model).then_some(model), notice))
    }

    /// Runs a `context: fork` skill: a subagent of the skill's `agent` type (default
    /// `general-purpose`) gets the rendered body as its task, within the skill's own
    /// `allowed-tools`; returns its receipt once it has finished.
    pub async fn run_fork_skill(
        &mut self,
        name: &str,
        args: Vec<String>,
        invoker: Invoker,
    ) -> Result<ChildSummary, SessionError> {
        let (plan, record) = self.prepare_fork_skill(name, args, invoker).await?;
        self.record(record)?;
        Ok(self.start_child(plan).await?)
    }

    /// Everything a `context: fork` skill's subagent would be, without starting it: the
    /// child (its system prompt, tools and model: see [`ChildPlan`]) and the transcript
    /// record of the invocation. `--dry-run` prints the child's request from it. The child's
    /// model is the skill's `model:` (`inherit`, or none: the agent's, else the session's);
    /// its effort is the skill's `effort:`.
    /// Its dynamic context runs here, in the parent, under the parent's gate narrowed by the
    /// skill (a dry run judges it without running it).
    pub async fn prepare_fork_skill(
        &mut self,
        name: &str,
        args: Vec<String>,
        invoker: Invoker,
    ) -> Result<(ChildPlan, TranscriptRecord), SessionError> {
        let entry = self.invocable(name, invoker)?;
        // The skill's own name from here on (`fmt:lint` when `lint` was asked for).
        let canonical = entry.name().to_owned();
        let name = canonical.as_str();
        let (rendered, policy) = self.render_skill(&entry, &args)?;
        let gate = self.gate().clone().with_layer(policy.clone());
        let task = self.skill_text(name, &rendered, &gate).await?;
        let unfilled = rendered.unfilled;
        let model = entry.skill.model.clone().filter(|m| m.trim() != "inherit");
        let request = SpawnRequest {
            task,
            agent: entry.skill.agent.clone(),
            label: Some(name.to_owned()),
            model: model.clone(),
            effort: entry.skill.effort.clone(),
            ..SpawnRequest::default()
        };
        let mut plan = self.prepare_child_with(request, Some(policy))?;
        // The subagent runs the skill: its files are readable there for the child's life.
        if let Some(grant) = grant_dir(&entry, &self.options.read_grants) {
            plan.hold_grant(grant);
        }
        self.last_skill.unfilled.clone_from(&unfilled);
        let record = TranscriptRecord::Skill {
            at: now_millis(),
            skill: name.to_owned(),
            args,
            model: model.map(|_| plan.summary().model.clone()),
            effort: entry.skill.effort.clone(),
            unfilled,
        };
        Ok((plan, record))
    }

    /// True when `name` is a `context: fork` skill.
    pub fn is_fork_skill(&self, name: &str) -> bool {
        self.skills
            .get(name)
            .is_some_and(|e| e.skill.context == SkillContext::Fork)
    }

    /// Activates a skill for the rest of this turn and returns its rendered body (prefixed
    /// with a note when it narrows the tools). A `context: fork` skill cannot be activated
    /// inline: it is run with [`run_fork_skill`](Self::run_fork_skill).
    pub async fn activate_skill(
        &mut self,
        name: &str,
        args: Vec<String>,
        invoker: Invoker,
    ) -> Result<String, SkillInvocationError> {
        let entry = self.invocable(name, invoker)?;
        let canonical = entry.name().to_owned();
        let name = canonical.as_str();
        if entry.skill.context == SkillContext::Fork {
            return Err(SkillInvocationError::ForkUnsupported(name.to_owned()));
        }
        let (rendered, policy) = self.render_skill(&entry, &args)?;
        let unfilled = rendered.unfilled.clone();
        let (model, notice) = self.skill_model(&entry)?;
        self.record(TranscriptRecord::Skill {
            at: now_millis(),
            skill: name.to_owned(),
            args,
            model: model.as_ref().map(ToString::to_string),
            effort: entry.skill.effort.clone(),
            unfilled: unfilled.clone(),
        })?;
        // The skill's model and effort hold until the turn ends.
        if model.is_some() {
            self.turn.model = model;
        }
        if entry.skill.effort.is_some() {
            self.turn.effort.clone_from(&entry.skill.effort);
        }
        self.notices.extend(notice);
        self.last_skill.unfilled = unfilled;
        if let Some(allow) = policy.allow().filter(|_| self.skill_pre_approves(&entry)) {
            let pre = PreApproval::new(allow.clone())
                .with_shell_context(self.gate().shell_context().clone());
            self.turn.pre_approvals.push(pre);
        }
        let narrows = !policy.is_unrestricted();
        if narrows {
            self.turn.gate = Some(self.gate().clone().with_layer(policy));
        }
        self.turn.active_skills.push(name.to_owned());
        self.turn
            .grants
            .extend(grant_dir(&entry, &self.options.read_grants));
        // The commands run under the gate the skill's turn has (narrowed above).
        let gate = self.gate().clone();
        let rendered = self.skill_text(name, &rendered, &gate).await?;
        if !narrows {
            return Ok(rendered);
        }
        let mut visible: Vec<&str> = self
            .tools
            .names()
            .filter(|t| self.gate().tool_visible(t))
            .collect();
        if self.gate().tool_visible(USE_SKILL) {
            visible.push(USE_SKILL);
        }
        let list = if visible.is_empty() {
            "none".to_owned()
        } else {
            visible.join(", ")
        };
        Ok(format!(
            "[skill `{name}` is active: tools are limited to {list} until this request is answered]\n\n{rendered}"
        ))
    }

    /// True when the skill's `allowed-tools` pre-approves while it is active: skills from the
    /// user's own folders, installed and plugin skills, weft's own, and the project's only
    /// when the project is trusted ([`Permissions::project_skills_pre_approve`]).
    ///
    /// [`Permissions::project_skills_pre_approve`]: super::Permissions::project_skills_pre_approve
    fn skill_pre_approves(&self, entry: &SkillEntry) -> bool {
        match entry.skill.source.scope {
            Scope::Project => self.options.permissions.project_skills_pre_approve,
            Scope::User | Scope::Workspace | Scope::Plugin | Scope::Builtin => true,
        }
    }

    /// Handles a `use_skill` call; `Err` is the error result for the model. A fork skill runs
    /// in a subagent and its final message is the result.
    pub(super) async fn use_skill(
        &mut self,
        input: &serde_json::Value,
    ) -> Result<String, UseSkillError> {
        let name = input
            .get("skill")
            .or_else(|| input.get("name"))
            .and_then(|v| v.as_str())
            .ok_or(UseSkillError::MissingName)?;
        let args = match input.get("args") {
            None | Some(serde_json::Value::Null) => Vec::new(),
            Some(serde_json::Value::String(raw)) => {
                weft_template::split_args(raw).map_err(|source| {
                    SkillInvocationError::BadArguments {
                        name: name.to_owned(),
                        source,
                    }
                })?
            }
            Some(serde_json::Value::Array(items)) => items
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                .collect(),
            Some(other) => vec![other.to_string()],
        };
        if self.is_fork_skill(name) {
            let child = self
                .run_fork_skill(name, args, Invoker::Model)
                .await
                .map_err(|e| UseSkillError::Fork(Box::new(e)))?;
            let header = format!(
                "[skill `{name}` ran in subagent {} ({}); its final message follows]\n\n",
                child.id, child.agent
            );
            return match &child.status {
                ChildStatus::Completed { result } => Ok(format!("{header}{result}")),
                other => Err(UseSkillError::ForkEnded(format!(
                    "{header}{}: {}",
                    other.label(),
                    other.text()
                ))),
            };
        }
        Ok(self.activate_skill(name, args, Invoker::Model).await?)
    }

    /// SEC-SKILL-03: caps a rendered skill at `max_skill_prompt_bytes` with a warning.
    pub(super) fn cap_skill_text(&self, name: &str, mut text: String) -> String {
        let cap = self.options.max_skill_prompt_bytes;
        if text.len() > cap {
            tracing::warn!(skill = %name, bytes = text.len(), cap, "skill prompt truncated");
            let mut cut = cap;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
            text.push_str("\n\n[skill truncated to the configured maximum size]");
        }
        text
    }
}

/// Makes the skill's own directory readable (read-only, links resolved) for as long as the
/// grant is held; a built-in skill has none. A directory that cannot be resolved is logged.
pub(super) fn grant_dir(entry: &SkillEntry, grants: &ReadGrants) -> Option<ReadGrant> {
    let dir = entry.dir()?;
    grants
        .grant(dir)
        .inspect_err(|e| {
            tracing::warn!(skill = %entry.name(), dir = %dir.display(), error = %e, "skill directory not readable by the file tools");
        })
        .ok()
}

/// [`grant_dir`] for each named skill that exists (an agent's preloaded skills).
pub(super) fn grant_dirs(
    skills: &SkillRegistry,
    grants: &ReadGrants,
    names: &[String],
) -> Vec<ReadGrant> {
    names
        .iter()
        .filter_map(|name| skills.get(name))
        .filter_map(|entry| grant_dir(&entry, grants))
        .collect()
}
