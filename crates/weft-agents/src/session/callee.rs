//! What a tool call reaches: a tool of the registry, or one of the session's own tools
//! (`use_skill` and the four spawn tools), which need the session itself and so cannot live
//! in the registry. Both are looked up by name the same way and go through the same gate,
//! hooks and approval in `dispatch.rs`; only the last step, running it, differs.

use std::sync::Arc;

use weft_tools::Tool;
use weft_types::tool_names;

use super::Session;
use super::skill::USE_SKILL;
use super::spawn::SESSIONS_SPAWN;

/// The tool a call reaches.
pub(super) enum Callee {
    /// A tool of the registry (a registered tool wins over a session tool of the same name).
    Registered(Arc<dyn Tool>),
    /// A tool the session implements itself.
    Session(SessionTool),
}

/// The session's own tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SessionTool {
    /// `use_skill`: activates a skill, or runs a fork skill in a subagent.
    UseSkill,
    /// `sessions_spawn` or one of its companions (`sessions_result`, `sessions_list`,
    /// `sessions_cancel`), by name.
    Spawn(&'static str),
}

impl SessionTool {
    /// The session tool called `name` (canonical spelling), if there is one.
    fn named(name: &str) -> Option<SessionTool> {
        if name == USE_SKILL {
            return Some(SessionTool::UseSkill);
        }
        tool_names::SUBAGENT_TOOLS
            .into_iter()
            .find(|t| *t == name)
            .map(SessionTool::Spawn)
    }

    /// The name the gate checks, when it is not the one called: the companions of
    /// `sessions_spawn` are allowed exactly when it is.
    pub(super) fn gate_name(self) -> Option<&'static str> {
        match self {
            SessionTool::UseSkill => None,
            SessionTool::Spawn(_) => Some(SESSIONS_SPAWN),
        }
    }

    /// Runs an authorized call; `Err` is the error result the model reads.
    pub(super) async fn run(
        self,
        session: &mut Session,
        input: &serde_json::Value,
    ) -> Result<String, String> {
        match self {
            SessionTool::UseSkill => session.use_skill(input).await.map_err(|e| e.to_string()),
            SessionTool::Spawn(name) => session
                .run_spawn_tool(name, input)
                .await
                .map_err(|e| e.to_string()),
        }
    }
}

impl Callee {
    /// Whether the tool says it only reads (a session tool does not say).
    pub(super) fn read_only_hint(&self) -> bool {
        match self {
            Callee::Registered(tool) => tool.read_only_hint(),
            Callee::Session(_) => false,
        }
    }
}

impl Session {
    /// The tool `name` (canonical spelling, or the registry's own) reaches: the registry's,
    /// else a session tool's; `None` for an unknown tool.
    pub(super) fn callee(&self, name: &str) -> Option<Callee> {
        match self.tools.get(name) {
            Some(tool) => Some(Callee::Registered(Arc::clone(tool))),
            None => SessionTool::named(name).map(Callee::Session),
        }
    }
}
