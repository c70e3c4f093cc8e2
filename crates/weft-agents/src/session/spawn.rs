//! `sessions_spawn`: a subagent with a fresh context whose tools are exactly what its agent,
//! its skills and its parent allow. Everything is validated (agent, depth, skill set, model,
//! background rules) before the child exists; only then is it created and run, in the
//! foreground (the receipt carries its final message) or the background (the receipt carries
//! its id; the result arrives on the parent's next turn or through `sessions_result`).
//!
//! This module is what a spawn is (settings, request, the validated [`ChildPlan`]), every
//! check, and the start of a child; `spawn_tools.rs` holds the four tools the model drives
//! subagents with and what the parent does with its children afterwards.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use weft_llm::{ModelRef, Usage};
use weft_permissions::{
    CompositionMode, Policy, ToolGate, is_mcp_tool, validate_and_compose_compiled,
};
use weft_types::{AgentDefinition, Skill, tool_names};

use super::children::{ChildStatus, ChildSummary};
pub use super::subagent_error::{SpawnFailure, SubagentError};
use super::view::pattern_context;
use super::{Quiet, Session, SessionError, SessionOptions, SessionParts, TurnOutcome};
use crate::AgentRegistry;
use crate::transcript::{TranscriptRecord, now_millis};

pub use weft_types::tool_names::{SESSIONS_CANCEL, SESSIONS_LIST, SESSIONS_RESULT, SESSIONS_SPAWN};

/// The agent a spawn without `agent` uses (Claude Code's default subagent type).
const DEFAULT_SUBAGENT: &str = "general-purpose";

/// Tools a child never gets: it cannot change the skill registry.
const REGISTRY_WRITERS: [&str; 1] = [tool_names::CREATE_SKILL];

/// Who may be spawned, how deep, how many at once.
#[derive(Debug, Clone)]
pub struct SpawnSettings {
    /// Agent types a spawn may name.
    pub agents: Arc<AgentRegistry>,
    /// Sessions at this depth cannot spawn (default 1: only the top session can).
    pub max_depth: u32,
    /// This session's depth (0 for the top session).
    pub depth: u32,
    /// Background children running at once (default 4).
    pub max_concurrent: usize,
    /// A child's timeout when the request sets none (default 10 minutes).
    pub default_timeout: Duration,
    /// The parent session's id, for a child.
    pub parent: Option<String>,
}

impl Default for SpawnSettings {
    fn default() -> Self {
        Self {
            agents: Arc::new(AgentRegistry::builtins()),
            max_depth: 1,
            depth: 0,
            max_concurrent: 4,
            default_timeout: Duration::from_secs(600),
            parent: None,
        }
    }
}

/// The input of `sessions_spawn` (seed 003's SubagentSpawnRequest).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpawnRequest {
    /// What the child is to do: its first and only user message.
    pub task: String,
    /// Skills injected into the child; its tools are their composition. `None` = a default
    /// spawn (no skill restriction).
    #[serde(default)]
    pub skills: Option<Vec<String>>,
    /// The agent type (default `general-purpose`).
    #[serde(default, alias = "subagent_type")]
    pub agent: Option<String>,
    /// A short name for listings.
    #[serde(default)]
    pub label: Option<String>,
    /// The model (default: the agent's, else the parent's).
    #[serde(default)]
    pub model: Option<String>,
    /// Accepted for compatibility; recorded, not sent (the clients have no reasoning knob).
    #[serde(default)]
    pub thinking: Option<serde_json::Value>,
    /// Return at once with the child's id; read-only tools only.
    #[serde(default)]
    pub run_in_background: bool,
    /// Seconds before the child is stopped (ExecutionTimeout).
    #[serde(default)]
    pub timeout_secs: Option<u64>,
    /// The child's reasoning effort (a fork skill's `effort:`); not part of the tool's input.
    #[serde(skip)]
    pub effort: Option<String>,
}

/// A validated child, created but not started.
pub struct ChildPlan {
    session: Session,
    task: String,
    summary: ChildSummary,
    timeout: Duration,
    /// Why the child's model is not the one asked for (an alias no provider serves).
    notice: Option<String>,
}

impl ChildPlan {
    /// Keeps `grant` for as long as the child session lives (a fork skill's directory).
    pub(super) fn hold_grant(&mut self, grant: weft_tools::ReadGrant) {
        self.session.view_grants.push(grant);
    }
}

impl std::fmt::Debug for ChildPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChildPlan")
            .field("summary", &self.summary)
            .finish_non_exhaustive()
    }
}

impl ChildPlan {
    /// The child as the receipt will describe it.
    pub fn summary(&self) -> &ChildSummary {
        &self.summary
    }

    /// The child session (its gate, offered tools, system prompt...).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The task: the child's first and only user message.
    pub fn task(&self) -> &str {
        &self.task
    }

    /// Why the child's model is not the one its skill or agent asked for, if it is not.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// The child's first request, exactly as it would be sent (for `--dry-run`).
    pub fn preview(&mut self) -> weft_llm::ChatRequest {
        self.session.preview(&self.task)
    }
}

fn failed(agent: &str, source: impl Into<SpawnFailure>) -> SubagentError {
    SubagentError::SpawnFailed {
        subagent_type: agent.to_owned(),
        source: source.into(),
    }
}

/// `names` without repeats, first occurrence first.
fn unique<'a>(names: impl IntoIterator<Item = &'a String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in names {
        if !out.contains(name) {
            out.push(name.clone());
        }
    }
    out
}

/// The first MCP tool an agent or a skill set names explicitly.
fn first_mcp_tool<'a>(lists: impl IntoIterator<Item = &'a String>) -> Option<&'a String> {
    lists.into_iter().find(|t| {
        let name = t.split('(').next().unwrap_or(t);
        is_mcp_tool(name) || name.starts_with(tool_names::MCP_PREFIX)
    })
}

impl Session {
    /// Validates `request` and creates the child session without running it. Nothing exists
    /// (no session, no transcript, no request to a model) when this fails.
    pub fn prepare_child(&self, request: SpawnRequest) -> Result<ChildPlan, SubagentError> {
        self.prepare_child_with(request, None)
    }

    /// [`prepare_child`](Self::prepare_child) with an extra policy layer (a fork skill's own
    /// `allowed-tools`).
    pub(super) fn prepare_child_with(
        &self,
        request: SpawnRequest,
        extra: Option<Policy>,
    ) -> Result<ChildPlan, SubagentError> {
        let agent_name = request
            .agent
            .as_deref()
            .unwrap_or(DEFAULT_SUBAGENT)
            .to_owned();
        let mut agent = self.spawnable_agent(&request, &agent_name)?;
        // `Explore` is `explore`: the receipt names the agent that runs.
        let agent_name = agent.name.clone();
        let background = request.run_in_background || agent.background;
        if background && self.children.running() >= self.options.spawn.max_concurrent {
            return Err(failed(
                &agent_name,
                SpawnFailure::TooManyBackground {
                    running: self.children.running(),
                    limit: self.options.spawn.max_concurrent,
                },
            ));
        }
        let skill_names = unique(request.skills.iter().flatten());
        let injected = request.skills.is_some().then_some(skill_names.as_slice());
        let ceiling = self.child_ceiling(&agent, &agent_name, injected, extra, background)?;
        let (model, notice) = self.child_model(&request, &agent, &agent_name)?;
        // Injecting a skill means its body joins the child's system prompt.
        for name in &skill_names {
            if !agent.skills.contains(name) {
                agent.skills.push(name.clone());
            }
        }
        let child_id = format!(
            "{}.{}",
            self.options.session_id,
            self.children.next_number()
        );
        let options = self.child_options(&child_id, ceiling, &request, &skill_names, background);
        let session = Session::new(SessionParts {
            models: Arc::clone(&self.models),
            skills: Arc::clone(&self.skills),
            tools: self.tools.filtered(|n| !REGISTRY_WRITERS.contains(&n)),
            agent,
            model: Some(model.to_string()),
            options,
        })
        .map_err(|e| failed(&agent_name, e))?;
        let summary = ChildSummary {
            id: child_id,
            label: request.label.clone(),
            agent: agent_name,
            model: model.to_string(),
            tools: session
                .offered_tools()
                .into_iter()
                .map(|t| t.name)
                .collect(),
            skills: skill_names,
            background,
            status: ChildStatus::Running,
            duration_ms: 0,
            usage: Usage::default(),
        };
        Ok(ChildPlan {
            timeout: self.child_timeout(&request),
            session,
            task: request.task,
            summary,
            notice,
        })
    }

    /// The child's model: the request's, else its agent's, else the parent's; an alias that
    /// no provider serves runs on the parent's model, with a notice saying so.
    fn child_model(
        &self,
        request: &SpawnRequest,
        agent: &AgentDefinition,
        agent_name: &str,
    ) -> Result<(ModelRef, Option<String>), SubagentError> {
        let Some(spec) = request.model.as_deref().or(agent.model.as_deref()) else {
            return Ok((self.view.model.clone(), None));
        };
        let owner = match &request.label {
            Some(label) => format!("subagent `{agent_name}` ({label})"),
            None => format!("subagent `{agent_name}`"),
        };
        self.models
            .resolve_or_fallback(spec, Some(&self.view.model), &owner)
            .map_err(|e| failed(agent_name, e))
    }

    /// How long the child may run: the request's `timeout_secs` (at least a second), else
    /// the session's default.
    fn child_timeout(&self, request: &SpawnRequest) -> Duration {
        request
            .timeout_secs
            .map_or(self.options.spawn.default_timeout, |s| {
                Duration::from_secs(s.max(1))
            })
    }

    /// The agent a spawn may start: this session may spawn, the task is not empty and the
    /// agent type exists.
    fn spawnable_agent(
        &self,
        request: &SpawnRequest,
        agent_name: &str,
    ) -> Result<AgentDefinition, SubagentError> {
        let settings = &self.options.spawn;
        if settings.depth >= settings.max_depth {
            return Err(SubagentError::SpawnBlocked {
                id: self.options.session_id.clone(),
                reason: format!(
                    "it is at depth {} and max_spawn_depth is {}",
                    settings.depth, settings.max_depth
                ),
            });
        }
        if request.task.trim().is_empty() {
            return Err(failed(agent_name, SpawnFailure::EmptyTask));
        }
        match settings.agents.get(agent_name) {
            Some(entry) => Ok(entry.agent.clone()),
            None => Err(SubagentError::SubagentNotFound {
                subagent_type: agent_name.to_owned(),
                available: settings.agents.names().collect::<Vec<_>>().join(", "),
            }),
        }
    }

    /// Everything the child may do: what the parent may do now (with `extra`), within the
    /// injected skills' composition, and read-only in the background.
    fn child_ceiling(
        &self,
        agent: &AgentDefinition,
        agent_name: &str,
        injected: Option<&[String]>,
        extra: Option<Policy>,
        background: bool,
    ) -> Result<ToolGate, SubagentError> {
        let mut ceiling = self.gate().clone();
        if let Some(policy) = extra {
            ceiling = ceiling.with_layer(policy);
        }
        if let Some(names) = injected {
            ceiling = self.within_skills(names, agent_name, background, &ceiling)?;
        }
        if background {
            if let Some(tool) = first_mcp_tool(agent.tools.iter().flatten()) {
                return Err(SubagentError::BackgroundMcpBlocked { tool: tool.clone() });
            }
            ceiling = ceiling.intersect(&ToolGate::background());
        }
        Ok(ceiling)
    }

    /// `ceiling` within the composition of the injected skills, once they are checked: each
    /// available to this session, the set valid, no MCP tool when in the background.
    fn within_skills(
        &self,
        skill_names: &[String],
        agent_name: &str,
        background: bool,
        ceiling: &ToolGate,
    ) -> Result<ToolGate, SubagentError> {
        if let Some(allowed) = &self.options.skill_filter
            && let Some(outside) = skill_names.iter().find(|n| !allowed.contains(n))
        {
            return Err(failed(
                agent_name,
                SpawnFailure::SkillNotAvailable(outside.clone()),
            ));
        }
        let snapshot = self.skills.snapshot();
        let known: Vec<&str> = self.tools.names().collect();
        // The policies the registry compiled when it found the skills (for this session's
        // project), compiled again only for a registry configured for another.
        let ctx = pattern_context(&self.options);
        let mut policies: Vec<(&Skill, Cow<'_, Policy>)> = Vec::new();
        for entry in skill_names.iter().filter_map(|n| snapshot.get(n)) {
            let policy = entry.policy_for(&ctx).map_err(|e| failed(agent_name, e))?;
            policies.push((&entry.skill, policy));
        }
        let (result, composition) = validate_and_compose_compiled(
            skill_names,
            |n| {
                policies
                    .iter()
                    .find(|(s, _)| s.name == n)
                    .map(|(s, p)| (*s, p.as_ref()))
            },
            &known,
            CompositionMode::Union,
        );
        let Some(composition) = composition.filter(|_| result.valid) else {
            return Err(failed(
                agent_name,
                SpawnFailure::InvalidSkillSet(result.errors),
            ));
        };
        let skills: Vec<&Skill> = skill_names
            .iter()
            .filter_map(|n| snapshot.get(n).map(|e| &e.skill))
            .collect();
        if background
            && let Some(tool) =
                first_mcp_tool(skills.iter().flat_map(|s| s.tools.allow.iter().flatten()))
        {
            return Err(SubagentError::BackgroundMcpBlocked { tool: tool.clone() });
        }
        Ok(composition.gate_within(ceiling))
    }

    /// The child's session options: this session's, one level deeper, without streaming,
    /// under `ceiling`, in this session's permission mode (its agent can only narrow it),
    /// asking no one in the background and, when skills were injected, limited to them.
    fn child_options(
        &self,
        child_id: &str,
        ceiling: ToolGate,
        request: &SpawnRequest,
        skill_names: &[String],
        background: bool,
    ) -> SessionOptions {
        let mut options = self.options.clone();
        options.session_id = child_id.to_owned();
        options.stream = false;
        options.ceiling = ceiling;
        options.permissions.mode = self.permission_mode();
        options.permissions.agent_cap = self.view.mode_cap;
        if background {
            options.permissions.approver = None;
        }
        if request.skills.is_some() {
            options.skill_filter = Some(skill_names.to_vec());
        }
        options.spawn.depth = self.options.spawn.depth + 1;
        options.spawn.parent = Some(self.options.session_id.clone());
        if request.effort.is_some() {
            options.effort.clone_from(&request.effort);
        }
        options
    }

    /// Spawns a subagent and returns its receipt: in the foreground once it has finished,
    /// in the background at once.
    pub async fn spawn(&mut self, request: SpawnRequest) -> Result<ChildSummary, SubagentError> {
        let plan = self.prepare_child(request)?;
        self.start_child(plan).await
    }

    /// Runs a prepared child.
    pub(super) async fn start_child(
        &mut self,
        plan: ChildPlan,
    ) -> Result<ChildSummary, SubagentError> {
        let ChildPlan {
            session: mut child,
            task,
            summary,
            timeout,
            notice,
        } = plan;
        self.notices.extend(notice);
        let spawn_record = TranscriptRecord::Spawn {
            at: now_millis(),
            child_id: summary.id.clone(),
            agent: summary.agent.clone(),
            model: summary.model.clone(),
            tools: summary.tools.clone(),
            skills: summary.skills.clone(),
            background: summary.background,
        };
        self.record(spawn_record)
            .map_err(|e| failed(&summary.agent, SessionError::from(e)))?;
        self.children.start(summary.clone());
        let id = summary.id.clone();
        let agent = summary.agent.clone();
        if summary.background {
            let children = Arc::clone(&self.children);
            let handle = tokio::spawn(async move {
                let (status, usage) = run_child(&mut child, task, timeout, &agent).await;
                children.finish(&id, status, usage, false);
            });
            self.children.set_handle(&summary.id, handle);
            return Ok(summary);
        }
        let (status, usage) = run_child(&mut child, task, timeout, &agent).await;
        let done = self
            .children
            .finish(&id, status.clone(), usage, true)
            .unwrap_or(ChildSummary {
                status,
                usage,
                ..summary
            });
        self.record_child_result(&done)
            .map_err(|e| failed(&done.agent, e))?;
        Ok(done)
    }
}

/// Runs a child to the end of its one turn within `timeout`.
fn run_child<'a>(
    child: &'a mut Session,
    task: String,
    timeout: Duration,
    agent: &'a str,
) -> Pin<Box<dyn Future<Output = (ChildStatus, Usage)> + Send + 'a>> {
    Box::pin(async move {
        let mut quiet = Quiet;
        let turn: Pin<Box<dyn Future<Output = Result<TurnOutcome, SessionError>> + Send + '_>> =
            Box::pin(child.send(task, &mut quiet));
        match tokio::time::timeout(timeout, turn).await {
            Ok(Ok(outcome)) => (
                ChildStatus::Completed {
                    result: outcome.text,
                },
                outcome.usage,
            ),
            Ok(Err(e)) => (
                ChildStatus::Failed {
                    error: e.to_string(),
                },
                child.usage(),
            ),
            Err(_) => (
                ChildStatus::TimedOut {
                    error: SubagentError::ExecutionTimeout {
                        subagent_type: agent.to_owned(),
                        timeout_ms: u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
                    }
                    .to_string(),
                },
                child.usage(),
            ),
        }
    })
}
