//! Hooks as configured: Claude Code's hook events and the command handlers attached to them,
//! in the shape of its settings files and of skill and agent frontmatter (`hooks:`).
//!
//! weft-parse reads them (one parser for settings JSON and frontmatter YAML); weft-hooks
//! matches and runs them.
//!
//! ```
//! use weft_types::HookEvent;
//!
//! assert_eq!("PreToolUse".parse::<HookEvent>(), Ok(HookEvent::PreToolUse));
//! assert_eq!(HookEvent::SubagentStop.as_str(), "SubagentStop");
//! assert!(HookEvent::PreToolUse.matches_tools());
//! assert!("PermissionRequest".parse::<HookEvent>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

/// A moment a hook can run at (Claude Code's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum HookEvent {
    /// Before a tool call runs (after the permission rules judged it).
    PreToolUse,
    /// After a tool call ran.
    PostToolUse,
    /// A person's message, before the model sees it.
    UserPromptSubmit,
    /// weft needs the person: a permission question, an idle prompt.
    Notification,
    /// The model answered and the turn is about to end.
    Stop,
    /// A subagent answered and is about to end.
    SubagentStop,
    /// Before the conversation is compacted.
    PreCompact,
    /// A session starts (`startup`, `resume`, `clear`, `compact`).
    SessionStart,
    /// A session ends.
    SessionEnd,
}

impl HookEvent {
    /// Every event weft runs, in Claude Code's documentation order.
    pub const ALL: [HookEvent; 9] = [
        HookEvent::PreToolUse,
        HookEvent::PostToolUse,
        HookEvent::UserPromptSubmit,
        HookEvent::Notification,
        HookEvent::Stop,
        HookEvent::SubagentStop,
        HookEvent::PreCompact,
        HookEvent::SessionStart,
        HookEvent::SessionEnd,
    ];

    /// Claude Code's name (`PreToolUse`).
    pub fn as_str(self) -> &'static str {
        match self {
            HookEvent::PreToolUse => "PreToolUse",
            HookEvent::PostToolUse => "PostToolUse",
            HookEvent::UserPromptSubmit => "UserPromptSubmit",
            HookEvent::Notification => "Notification",
            HookEvent::Stop => "Stop",
            HookEvent::SubagentStop => "SubagentStop",
            HookEvent::PreCompact => "PreCompact",
            HookEvent::SessionStart => "SessionStart",
            HookEvent::SessionEnd => "SessionEnd",
        }
    }

    /// True for the events whose matcher names tools (`Bash`, `Edit|Write`, `mcp__gh__.*`).
    pub fn matches_tools(self) -> bool {
        matches!(self, HookEvent::PreToolUse | HookEvent::PostToolUse)
    }

    /// True for the events Claude Code matches nothing against (a matcher there is ignored).
    pub fn ignores_matcher(self) -> bool {
        matches!(self, HookEvent::UserPromptSubmit | HookEvent::Stop)
    }
}

impl fmt::Display for HookEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A hook event name weft does not know (or does not run).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownHookEvent(pub String);

impl fmt::Display for UnknownHookEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown hook event `{}`", self.0)
    }
}

impl std::error::Error for UnknownHookEvent {}

impl FromStr for HookEvent {
    type Err = UnknownHookEvent;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        HookEvent::ALL
            .into_iter()
            .find(|e| e.as_str() == s)
            .ok_or_else(|| UnknownHookEvent(s.to_owned()))
    }
}

/// Hook events Claude Code defines that weft does not run (named when a file uses them).
pub const UNSUPPORTED_HOOK_EVENTS: [&str; 22] = [
    "PermissionRequest",
    "PostToolUseFailure",
    "SubagentStart",
    "PostCompact",
    "Setup",
    "StopFailure",
    "InstructionsLoaded",
    "UserPromptExpansion",
    "PostToolBatch",
    "PermissionDenied",
    "TaskCreated",
    "TaskCompleted",
    "TeammateIdle",
    "ConfigChange",
    "CwdChanged",
    "DirectoryAdded",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "Elicitation",
    "ElicitationResult",
    "MessageDisplay",
];

/// True for an event Claude Code documents: one weft runs ([`HookEvent`]) or one it names as
/// not run ([`UNSUPPORTED_HOOK_EVENTS`]).
///
/// ```
/// assert!(weft_types::is_claude_code_hook_event("PreToolUse"));
/// assert!(weft_types::is_claude_code_hook_event("PostCompact"));
/// assert!(!weft_types::is_claude_code_hook_event("PreToolUsed"));
/// ```
pub fn is_claude_code_hook_event(name: &str) -> bool {
    name.parse::<HookEvent>().is_ok() || UNSUPPORTED_HOOK_EVENTS.contains(&name)
}

/// One command to run (`{"type": "command", "command": "...", "timeout": 30}`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HookHandler {
    /// The command, run with `sh -c` (or, with [`args`](Self::args), the program).
    pub command: String,
    /// Exec form (`args`): `command` is run directly with these arguments, no shell.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub args: Option<Vec<String>>,
    /// Seconds it may take (Claude Code's `timeout`); `None`: the event's default.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub timeout_secs: Option<u64>,
    /// A permission rule (`if`: `Bash(git *)`): the handler runs only for tool calls it
    /// matches (PreToolUse and PostToolUse).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub condition: Option<String>,
    /// Run at most once per session (`once: true`, skills only in Claude Code).
    #[cfg_attr(feature = "serde", serde(default))]
    pub once: bool,
    /// Why weft cannot run this handler (a type weft does not run, a malformed entry), when
    /// it cannot. Such a handler never runs; it is kept only under PreToolUse, where a policy
    /// hook that cannot run must not let calls through unjudged: every call it matches asks
    /// a person ([`command`](Self::command) then says what was written).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub unrunnable: Option<String>,
}

impl HookHandler {
    /// A handler running `command` with the event's default timeout.
    pub fn new(command: impl Into<String>) -> Self {
        Self {
            command: command.into(),
            args: None,
            timeout_secs: None,
            condition: None,
            once: false,
            unrunnable: None,
        }
    }

    /// A PreToolUse handler weft cannot run, shown as `label`, for `why`.
    pub fn unrunnable(label: impl Into<String>, why: impl Into<String>) -> Self {
        Self {
            unrunnable: Some(why.into()),
            ..Self::new(label)
        }
    }
}

/// The handlers of one matcher under one event (an entry of `hooks.<Event>[]`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HookGroup {
    /// The event.
    pub event: HookEvent,
    /// The matcher as written; `None` (or `""`, `"*"`) matches everything.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub matcher: Option<String>,
    /// The commands, in order.
    pub handlers: Vec<HookHandler>,
}
