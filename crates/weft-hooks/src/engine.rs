//! [`Hooks`]: the configured hooks of a session and how one event runs them.

use std::collections::HashSet;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures_util::future::join_all;
use weft_tools::ProcessGroups;
use weft_types::{AgentDefinition, HookEvent, Skill};

use crate::command::{self, Spec};
use crate::input::{EventData, HookInput};
use crate::outcome::HookOutcome;
use crate::source::{HookEntry, HookSource};

/// A hook's timeout when it sets none: Claude Code's current default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);
/// A UserPromptSubmit hook's timeout when it sets none (the person is waiting).
pub const PROMPT_TIMEOUT: Duration = Duration::from_secs(30);
/// A SessionEnd hook's timeout when it sets none (the session is closing).
pub const SESSION_END_TIMEOUT: Duration = Duration::from_millis(1500);

/// What hook commands run with.
#[derive(Debug, Clone)]
pub struct HookSettings {
    /// Their whole environment (secrets already removed by the caller: weft's
    /// `exec_shell` environment), to which `CLAUDE_PROJECT_DIR` is added.
    pub env: Vec<(OsString, OsString)>,
    /// The project directory (`CLAUDE_PROJECT_DIR`).
    pub project_dir: PathBuf,
    /// Where their process groups are registered (killed on timeout, cancel and exit).
    pub groups: ProcessGroups,
}

/// The hooks of a session: those of the settings files (and plugins), plus the ones a
/// session adds while a skill or agent with `hooks:` is active. Cheap to clone; the default
/// runs nothing.
///
/// Untrusted entries (a project's hooks when the project is not trusted) are kept, so they
/// can be listed and counted, and never run.
#[derive(Clone, Default)]
pub struct Hooks {
    inner: Option<Arc<Engine>>,
}

struct Engine {
    entries: Vec<HookEntry>,
    settings: HookSettings,
    project_trusted: bool,
    /// Why no hook runs (`--no-hooks`, `disableAllHooks`), when none does.
    disabled: Option<String>,
    /// The `once: true` hooks that have run.
    ran_once: Mutex<HashSet<(String, String)>>,
}

impl std::fmt::Debug for Hooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.inner {
            None => f.write_str("Hooks(none)"),
            Some(e) => f
                .debug_struct("Hooks")
                .field("entries", &e.entries.len())
                .field("project_trusted", &e.project_trusted)
                .field("disabled", &e.disabled)
                .finish(),
        }
    }
}

impl Hooks {
    /// No hooks.
    pub fn none() -> Self {
        Self::default()
    }

    /// These entries, run with `settings`; `project_trusted` decides whether a project's
    /// skills and agents may add hooks.
    pub fn new(entries: Vec<HookEntry>, settings: HookSettings, project_trusted: bool) -> Self {
        Self {
            inner: Some(Arc::new(Engine {
                entries,
                settings,
                project_trusted,
                disabled: None,
                ran_once: Mutex::default(),
            })),
        }
    }

    /// The same hooks, none of which runs, for `reason` (`--no-hooks`, `disableAllHooks` in
    /// a settings file); they are still listed.
    #[must_use]
    pub fn disabled(self, reason: impl Into<String>) -> Self {
        let Some(engine) = self.inner else {
            return self;
        };
        let engine = Arc::try_unwrap(engine).unwrap_or_else(|shared| Engine {
            entries: shared.entries.clone(),
            settings: shared.settings.clone(),
            project_trusted: shared.project_trusted,
            disabled: None,
            ran_once: Mutex::default(),
        });
        Self {
            inner: Some(Arc::new(Engine {
                disabled: Some(reason.into()),
                ..engine
            })),
        }
    }

    /// Every configured entry (settings files, plugins), trusted or not.
    pub fn entries(&self) -> &[HookEntry] {
        self.inner.as_ref().map_or(&[], |e| e.entries.as_slice())
    }

    /// Why no hook runs, when none does.
    pub fn disabled_reason(&self) -> Option<&str> {
        self.inner.as_ref().and_then(|e| e.disabled.as_deref())
    }

    /// True when the project's hooks may run.
    pub fn project_trusted(&self) -> bool {
        self.inner.as_ref().is_some_and(|e| e.project_trusted)
    }

    /// A skill's `hooks:`, to pass to [`run`](Self::run) while the skill is active.
    pub fn skill_entries(&self, skill: &Skill) -> Vec<HookEntry> {
        if skill.hooks.is_empty() {
            return Vec::new();
        }
        let source = HookSource::Skill {
            name: skill.name.clone(),
            scope: skill.source.scope,
            path: skill.source.path.clone(),
        };
        HookEntry::from_groups(&skill.hooks, source, self.project_trusted())
    }

    /// An agent's `hooks:`, to pass to [`run`](Self::run) while the agent runs. In a
    /// subagent its `Stop` hooks are `SubagentStop` hooks, as in Claude Code.
    pub fn agent_entries(&self, agent: &AgentDefinition, subagent: bool) -> Vec<HookEntry> {
        if agent.hooks.is_empty() {
            return Vec::new();
        }
        let source = HookSource::Agent {
            name: agent.name.clone(),
            scope: agent.source.scope,
            path: agent.source.path.clone(),
        };
        let mut entries = HookEntry::from_groups(&agent.hooks, source, self.project_trusted());
        if subagent {
            for entry in &mut entries {
                if entry.event == HookEvent::Stop {
                    entry.event = HookEvent::SubagentStop;
                }
            }
        }
        entries
    }

    /// True when some hook would run for `input`'s event (cheap: no matcher is applied), so
    /// a caller can skip building the input.
    pub fn listens(&self, event: HookEvent, scoped: &[HookEntry]) -> bool {
        let Some(engine) = &self.inner else {
            return false;
        };
        engine.disabled.is_none()
            && engine
                .entries
                .iter()
                .chain(scoped)
                .any(|e| e.event == event && e.trusted)
    }

    /// Runs every hook `input` selects, in parallel, and reads their answers. `scoped` are
    /// the active agent's and skills' entries; `condition` says whether the tool call
    /// matches a handler's `if` rule.
    pub async fn run(
        &self,
        input: &HookInput,
        scoped: &[HookEntry],
        condition: &(dyn Fn(&str) -> bool + Sync),
    ) -> HookOutcome {
        let mut outcome = HookOutcome::default();
        let Some(engine) = &self.inner else {
            return outcome;
        };
        if engine.disabled.is_some() {
            return outcome;
        }
        let all: Vec<HookEntry> = engine.entries.iter().chain(scoped).cloned().collect();
        let (mut selected, unrunnable) = select(input, &all, condition);
        // A PreToolUse hook weft cannot run answers as a hook that failed: the call is put to
        // a person rather than let through unjudged.
        for (entry, why) in unrunnable {
            let not_run = command::Finished {
                end: crate::RunEnd::Failed(why),
                stdout: String::new(),
                stderr: String::new(),
                duration: Duration::ZERO,
            };
            outcome.add(
                input.event,
                Arc::clone(&entry.source),
                entry.command_line(),
                not_run,
            );
        }
        selected.retain(|entry| {
            if !entry.handler.once {
                return true;
            }
            let key = (entry.source.to_string(), entry.command_line());
            engine
                .ran_once
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(key)
        });
        if selected.is_empty() {
            return outcome;
        }
        let payload = input.to_json().to_string().into_bytes();
        let runs = selected.iter().map(|entry| {
            let timeout = entry
                .handler
                .timeout_secs
                .map_or_else(|| default_timeout(input.event), Duration::from_secs);
            let plugin_root = match &*entry.source {
                HookSource::Plugin { root, .. } => Some(root.as_path()),
                _ => None,
            };
            tracing::info!(event = %input.event, command = %entry.command_line(), source = %entry.source, "running hook");
            command::run(Spec {
                command: &entry.handler.command,
                args: entry.handler.args.as_deref(),
                env: &engine.settings.env,
                project_dir: &engine.settings.project_dir,
                plugin_root,
                cwd: &input.cwd,
                stdin: payload.clone(),
                timeout,
                groups: &engine.settings.groups,
            })
        });
        let finished = join_all(runs).await;
        for (entry, run) in selected.iter().zip(finished) {
            tracing::info!(event = %input.event, command = %entry.command_line(), end = ?run.end, "hook finished");
            outcome.add(
                input.event,
                Arc::clone(&entry.source),
                entry.command_line(),
                run,
            );
        }
        outcome
    }
}

/// The entries that would run for `input` (trusted, matching, conditions met, each
/// command once, `once` hooks not yet run), in order: the configured ones, then
/// the active agent's and skills'. Second, the PreToolUse entries weft cannot run that this
/// call may concern (a handler it cannot run, a matcher it cannot compile), with why.
fn select<'e>(
    input: &HookInput,
    entries: &'e [HookEntry],
    condition: &(dyn Fn(&str) -> bool + Sync),
) -> (Vec<&'e HookEntry>, Vec<(&'e HookEntry, String)>) {
    let subject = input.subject();
    let weft_subject = input.weft_subject();
    let mut seen: HashSet<(String, Option<Vec<String>>)> = HashSet::new();
    let mut out = Vec::new();
    let mut unrunnable = Vec::new();
    let judges_calls = input.event == HookEvent::PreToolUse;
    for entry in entries {
        if entry.event != input.event || !entry.trusted {
            continue;
        }
        let matcher = match &entry.matcher {
            Ok(matcher) => matcher,
            Err(e) => {
                if judges_calls {
                    let why = format!(
                        "its matcher `{}` is not a regular expression weft can use ({})",
                        e.matcher, e.reason
                    );
                    unrunnable.push((entry, why));
                }
                continue;
            }
        };
        if !input.event.ignores_matcher() {
            let hit = match &subject {
                Some(subject) => {
                    matcher.matches(subject) || weft_subject.is_some_and(|w| matcher.matches(w))
                }
                None => true,
            };
            if !hit {
                continue;
            }
        }
        if matches!(input.data, EventData::Tool { .. })
            && let Some(rule) = &entry.handler.condition
            && !condition(rule)
        {
            continue;
        }
        if let Some(why) = &entry.handler.unrunnable {
            if judges_calls {
                unrunnable.push((entry, why.clone()));
            }
            continue;
        }
        let key = (entry.handler.command.clone(), entry.handler.args.clone());
        if !seen.insert(key) {
            continue;
        }
        out.push(entry);
    }
    (out, unrunnable)
}

/// The timeout of a hook of `event` that sets none.
pub fn default_timeout(event: HookEvent) -> Duration {
    match event {
        HookEvent::UserPromptSubmit => PROMPT_TIMEOUT,
        HookEvent::SessionEnd => SESSION_END_TIMEOUT,
        _ => DEFAULT_TIMEOUT,
    }
}
