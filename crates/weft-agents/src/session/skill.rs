//! Invoking a skill: by the model through `use_skill` (seed 004) or by the user (`/name`,
//! `weft skills run`). Either way the body is rendered with the arguments and the skill's
//! allowed tools narrow the gate until the turn ends (SEC-SKILL-04: an intersection, never
//! a widening).

use serde_json::json;
use weft_llm::ToolSpec;
use weft_permissions::Policy;
use weft_types::{InvocationContext, SkillContext};

use std::sync::Arc;

use weft_registry::{SkillEntry, SkillRegistry};
use weft_tools::{ReadGrant, ReadGrants};

use super::children::{ChildStatus, ChildSummary};
use super::spawn::SpawnRequest;
use super::view::pattern_context;
use super::{Session, SessionError};
use crate::transcript::{TranscriptRecord, now_millis};

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
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SkillInvocationError {
    /// No skill has that name.
    #[error("unknown skill `{name}`{}", did_you_mean(.suggestions))]
    Unknown {
        /// The name asked for.
        name: String,
        /// The closest names.
        suggestions: Vec<String>,
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
    #[error("skill `{name}`: cannot split the arguments: {message}")]
    BadArguments {
        /// Skill name.
        name: String,
        /// Why.
        message: String,
    },
    /// The body cannot be read or the tool policy does not compile.
    #[error("skill `{name}`: {message}")]
    Unusable {
        /// Skill name.
        name: String,
        /// Why.
        message: String,
    },
    /// The transcript write failed.
    #[error("transcript: {0}")]
    Transcript(String),
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

fn did_you_mean(suggestions: &[String]) -> String {
    if suggestions.is_empty() {
        String::new()
    } else {
        format!("; did you mean: {}?", suggestions.join(", "))
    }
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
        let Some(entry) = self.skills.get(name).filter(|_| allowed(name)) else {
            let snapshot = self.skills.snapshot();
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
            Invoker::User if !entry.skill.user_invocable => {
                Err(SkillInvocationError::NotUserInvocable(name.to_owned()))
            }
            _ => Ok(entry),
        }
    }

    /// Renders a skill's body with `args`, capped (SEC-SKILL-03), and compiles its policy.
    fn render_skill(
        &self,
        entry: &SkillEntry,
        args: &[String],
    ) -> Result<(String, Policy), SkillInvocationError> {
        let name = entry.name();
        let unusable = |message: String| SkillInvocationError::Unusable {
            name: name.to_owned(),
            message,
        };
        let body = entry.body().map_err(|e| unusable(e.to_string()))?;
        let policy = Policy::from_skill(&entry.skill, &pattern_context(&self.options))
            .map_err(|e| unusable(e.to_string()))?;
        let mut ctx = InvocationContext::new(args.to_vec(), self.options.session_id.clone());
        if let Some(dir) = entry.dir() {
            ctx = ctx.with_skill_dir(dir);
        }
        Ok((
            self.cap_skill_text(name, weft_template::render(&body.text, &ctx)),
            policy,
        ))
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
        let entry = self.invocable(name, invoker)?;
        let (task, policy) = self.render_skill(&entry, &args)?;
        self.record(TranscriptRecord::Skill {
            at: now_millis(),
            skill: name.to_owned(),
            args,
        })?;
        let request = SpawnRequest {
            task,
            agent: entry.skill.agent.clone(),
            label: Some(name.to_owned()),
            ..SpawnRequest::default()
        };
        let mut plan = self.prepare_child_with(request, Some(policy))?;
        // The subagent runs the skill: its files are readable there for the child's life.
        if let Some(grant) = grant_dir(&entry, &self.options.read_grants) {
            plan.hold_grant(grant);
        }
        Ok(self.start_child(plan).await?)
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
    pub fn activate_skill(
        &mut self,
        name: &str,
        args: Vec<String>,
        invoker: Invoker,
    ) -> Result<String, SkillInvocationError> {
        let entry = self.invocable(name, invoker)?;
        if entry.skill.context == SkillContext::Fork {
            return Err(SkillInvocationError::ForkUnsupported(name.to_owned()));
        }
        let (rendered, policy) = self.render_skill(&entry, &args)?;
        self.record(TranscriptRecord::Skill {
            at: now_millis(),
            skill: name.to_owned(),
            args,
        })
        .map_err(|e| SkillInvocationError::Transcript(e.to_string()))?;
        let narrows = !policy.is_unrestricted();
        if narrows {
            self.gate = self.gate.clone().with_layer(policy);
        }
        self.active_skills.push(name.to_owned());
        self.turn_grants
            .extend(grant_dir(&entry, &self.options.read_grants));
        if !narrows {
            return Ok(rendered);
        }
        let mut visible: Vec<&str> = self
            .tools
            .names()
            .filter(|t| self.gate.tool_visible(t))
            .collect();
        if self.gate.tool_visible(USE_SKILL) {
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
                weft_template::split_args(raw).map_err(|e| SkillInvocationError::BadArguments {
                    name: name.to_owned(),
                    message: e.to_string(),
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
        Ok(self.activate_skill(name, args, Invoker::Model)?)
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

/// Up to three names closest to `target` by edit distance (and prefix), best first.
fn closest_names<'a>(target: &str, names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let limit = (target.chars().count() / 3).max(2);
    let mut scored: Vec<(usize, &str)> = names
        .filter_map(|n| {
            let d = edit_distance(target, n);
            let related = n.starts_with(target) || target.starts_with(n) || n.contains(target);
            (d <= limit || related).then_some((if related { d.min(1) } else { d }, n))
        })
        .collect();
    scored.sort();
    scored
        .into_iter()
        .take(3)
        .map(|(_, n)| n.to_owned())
        .collect()
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_names_prefers_near_and_related_names() {
        let names = ["code-review", "commit", "deploy", "review-pr"];
        assert_eq!(
            closest_names("code-reveiw", names.into_iter()),
            ["code-review"]
        );
        assert_eq!(closest_names("comit", names.into_iter()), ["commit"]);
        assert_eq!(
            closest_names("review", names.into_iter()),
            ["code-review", "review-pr"]
        );
        assert!(closest_names("zzzzzzzz", names.into_iter()).is_empty());
    }
}
