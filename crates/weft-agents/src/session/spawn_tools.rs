//! The four spawn tools (`sessions_spawn`, `sessions_result`, `sessions_list`,
//! `sessions_cancel`): as offered to the model and handled, and what they do to the children
//! after a spawn: list, cancel, wait for, collect and record their results. Separate from
//! `spawn.rs` because that module decides whether and how a child starts; this one is the
//! tool surface and the parent's side of a child's life.

use serde_json::json;
use weft_llm::ToolSpec;

use super::children::{ChildError, ChildStatus, ChildSummary};
use super::subagent_error::SpawnToolError;
use super::{
    SESSIONS_CANCEL, SESSIONS_LIST, SESSIONS_RESULT, SESSIONS_SPAWN, Session, SessionError,
    SpawnRequest,
};
use crate::AgentRegistry;
use crate::transcript::{TranscriptRecord, now_millis};

/// The most agent types `sessions_spawn`'s description names; the others are counted.
const LISTED_AGENT_TYPES: usize = 40;

/// The longest description of one agent type there, in characters.
const AGENT_TYPE_DESCRIPTION_CHARS: usize = 160;

/// What `sessions_spawn` says of its `agent` input: the agent types the model may name, each
/// with its description on one line (cut to [`AGENT_TYPE_DESCRIPTION_CHARS`]), at most
/// [`LISTED_AGENT_TYPES`] of them. Without the list the model could not know a plugin's or
/// the project's agents exist, as Claude Code's Task tool lists them.
fn agent_types(agents: &AgentRegistry) -> String {
    let mut text = "Agent type (default general-purpose). Available:".to_owned();
    let all: Vec<_> = agents.list().collect();
    for entry in all.iter().take(LISTED_AGENT_TYPES) {
        let words: Vec<&str> = entry.agent.description.split_whitespace().collect();
        let mut description = words.join(" ");
        if description.chars().count() > AGENT_TYPE_DESCRIPTION_CHARS {
            description = description
                .chars()
                .take(AGENT_TYPE_DESCRIPTION_CHARS - 1)
                .collect::<String>()
                + "…";
        }
        text.push_str(&format!("\n- {}: {description}", entry.agent.name));
    }
    if all.len() > LISTED_AGENT_TYPES {
        text.push_str(&format!("\n(and {} more)", all.len() - LISTED_AGENT_TYPES));
    }
    text
}

/// The spawn tools as offered to the model, `agents` being the types `sessions_spawn` may
/// start.
pub(super) fn spawn_specs(agents: &AgentRegistry) -> [ToolSpec; 4] {
    [
        ToolSpec {
            name: SESSIONS_SPAWN.to_owned(),
            description: "Start a subagent with a fresh context to do a task and report back. \
                          `skills` injects skills and limits its tools to what they allow; \
                          `agent` picks its type; `run_in_background` returns at once (read-only \
                          tools) and the result arrives later."
                .to_owned(),
            input_schema: json!({
                "type": "object",
                "properties": {
                    "task": {"type": "string", "description": "What the subagent must do; it sees nothing else of this conversation"},
                    "skills": {"type": "array", "items": {"type": "string"}, "description": "Skills to inject; its tools become their composition"},
                    "agent": {"type": "string", "description": agent_types(agents)},
                    "label": {"type": "string", "description": "A short name for listings"},
                    "model": {"type": "string", "description": "provider/model or an alias (default: inherit)"},
                    "thinking": {"description": "Accepted for compatibility; ignored"},
                    "run_in_background": {"type": "boolean", "description": "Return at once; read-only tools only"},
                    "timeout_secs": {"type": "integer", "minimum": 1, "description": "Stop the subagent after this many seconds"}
                },
                "required": ["task"],
                "additionalProperties": false
            }),
        },
        ToolSpec {
            name: SESSIONS_RESULT.to_owned(),
            description: "The state or result of a subagent started with sessions_spawn."
                .to_owned(),
            input_schema: json!({
                "type": "object",
                "properties": {
                    "id": {"type": "string", "description": "The subagent id from the receipt"},
                    "wait": {"type": "boolean", "description": "Wait until it finishes (default false)"}
                },
                "required": ["id"],
                "additionalProperties": false
            }),
        },
        ToolSpec {
            name: SESSIONS_LIST.to_owned(),
            description: "List the subagents of this session with their state.".to_owned(),
            input_schema: json!({"type": "object", "properties": {}, "additionalProperties": false}),
        },
        ToolSpec {
            name: SESSIONS_CANCEL.to_owned(),
            description: "Stop a running background subagent.".to_owned(),
            input_schema: json!({
                "type": "object",
                "properties": {"id": {"type": "string"}},
                "required": ["id"],
                "additionalProperties": false
            }),
        },
    ]
}

impl Session {
    /// True when this session can spawn at all (depth below the maximum and the tool visible
    /// to its agent).
    pub fn can_spawn(&self) -> bool {
        self.options.spawn.depth < self.options.spawn.max_depth
            && self.gate().tool_visible(SESSIONS_SPAWN)
    }

    /// The subagents of this session, oldest first.
    pub fn children(&self) -> Vec<ChildSummary> {
        self.children.list()
    }

    /// Background subagents still running.
    pub fn running_children(&self) -> usize {
        self.children.running()
    }

    /// Background subagents that ended and whose results the model has not seen yet (they
    /// are delivered with the next message).
    pub fn undelivered_children(&self) -> usize {
        self.children.undelivered()
    }

    /// Cancels a running background child.
    pub fn cancel_child(&mut self, id: &str) -> Result<ChildSummary, ChildError> {
        let summary = self.children.cancel(id)?;
        if let Err(e) = self.record_child_result(&summary) {
            tracing::warn!(error = %e, "cannot record the cancellation");
        }
        Ok(summary)
    }

    /// Waits until no background child is running (each is bounded by its own timeout).
    pub async fn wait_for_children(&self) {
        self.children.wait_until(|c| c.running() == 0).await;
    }

    /// Ended background children not yet reported to the model, recorded in the transcript.
    pub(super) fn collect_finished_children(&mut self) -> Result<Vec<ChildSummary>, SessionError> {
        let finished = self.children.take_undelivered();
        for child in &finished {
            self.record_child_result(child)?;
        }
        Ok(finished)
    }

    pub(super) fn record_child_result(&mut self, child: &ChildSummary) -> Result<(), SessionError> {
        self.ledger.add_subagent(&child.model, child.usage);
        self.record(TranscriptRecord::ChildResult {
            at: now_millis(),
            child_id: child.id.clone(),
            status: child.status.label().to_owned(),
            text: child.status.text().to_owned(),
            duration_ms: child.duration_ms,
            usage: child.usage,
        })?;
        Ok(())
    }

    /// Handles the four spawn tools; `Err` is an error result for the model.
    pub(super) async fn spawn_tool(
        &mut self,
        name: &str,
        input: &serde_json::Value,
    ) -> Result<String, SpawnToolError> {
        let id_of = |input: &serde_json::Value| {
            input
                .get("id")
                .and_then(|v| v.as_str())
                .map(str::to_owned)
                .ok_or_else(|| SpawnToolError::MissingId {
                    tool: name.to_owned(),
                })
        };
        match name {
            SESSIONS_SPAWN => {
                let request: SpawnRequest =
                    serde_json::from_value(input.clone()).map_err(SpawnToolError::InvalidInput)?;
                let receipt = self.spawn(request).await?;
                let text = receipt_text(&receipt);
                match receipt.status {
                    ChildStatus::Running | ChildStatus::Completed { .. } => Ok(text),
                    _ => Err(SpawnToolError::NotCompleted(text)),
                }
            }
            SESSIONS_RESULT => {
                let id = id_of(input)?;
                if input.get("wait").and_then(|v| v.as_bool()).unwrap_or(false) {
                    self.children.wait_until(|c| !c.is_running(&id)).await;
                }
                let child = self
                    .children
                    .get(&id)
                    .ok_or_else(|| ChildError::NotFound(id.clone()))?;
                if child.status != ChildStatus::Running {
                    self.record_child_result(&child)?;
                }
                Ok(receipt_text(&child))
            }
            SESSIONS_LIST => Ok(serde_json::to_string_pretty(&self.children.list())?),
            _ => {
                let id = id_of(input)?;
                Ok(self.cancel_child(&id).map(|c| receipt_text(&c))?)
            }
        }
    }
}

/// The receipt as the model reads it.
pub(super) fn receipt_text(child: &ChildSummary) -> String {
    serde_json::to_string_pretty(child).unwrap_or_else(|_| format!("{child:?}"))
}

#[cfg(test)]
mod tests {
    use weft_types::{AgentDefinition, AgentFormat, Scope, Source};

    use super::*;

    #[test]
    fn the_spawn_tool_names_every_agent_type_with_its_description() {
        let mut agents = AgentRegistry::builtins();
        agents.register(AgentDefinition::new(
            "rev:checker",
            format!("Checks a change.\n  Use after edits. {}", "x".repeat(200)),
            Source::in_memory(Scope::Plugin, AgentFormat::Markdown),
        ));
        let text = agent_types(&agents);
        let expected = format!(
            "Agent type (default general-purpose). Available:\n\
             - default: General-purpose agent (uses config defaults)\n\
             - general-purpose: Researches complex questions and carries out multi-step tasks\n\
             - explore: Read-only exploration of a codebase\n\
             - plan: Read-only research for planning a change\n\
             - planner: Planning mode (no tool execution)\n\
             - coder: Code-focused agent with file write access and a shell\n\
             - rev:checker: Checks a change. Use after edits. {}…",
            "x".repeat(
                AGENT_TYPE_DESCRIPTION_CHARS - 1 - "Checks a change. Use after edits. ".len()
            )
        );
        assert_eq!(text, expected);
        let spec = &spawn_specs(&agents)[0];
        assert_eq!(
            spec.input_schema["properties"]["agent"]["description"],
            expected
        );
    }

    #[test]
    fn a_long_list_of_agent_types_is_cut_and_counted() {
        let mut agents = AgentRegistry::builtins();
        for i in 0..50 {
            agents.register(AgentDefinition::new(
                format!("a{i:02}"),
                "An agent.",
                Source::in_memory(Scope::Project, AgentFormat::Markdown),
            ));
        }
        let text = agent_types(&agents);
        assert_eq!(text.lines().count(), 1 + LISTED_AGENT_TYPES + 1);
        assert!(text.ends_with("\n(and 16 more)"), "{text}");
    }
}
