//! The gate: every tool call is checked here before it runs.
//!
//! A gate is a stack of [`Policy`] layers (the session or agent, the composed skills, the parent's
//! ceiling, background mode...). A call is allowed only when no layer denies it and every layer
//! that declares an allow set permits it, so adding a layer can only take tools away. An
//! `exec_shell` call under scoped `Bash(...)` patterns can also need approval (see `shell.rs`):
//! deny beats ask beats allow, in one layer and across layers.

mod decision;
mod explain;
mod files;
mod reason;
mod resolved;
pub(crate) mod shell;

use std::borrow::Cow;
use std::sync::{Arc, LazyLock};

use serde_json::Value;

pub use decision::{Decision, Reason, ReasonKind};
pub use explain::{CommandRulings, Explanation};
pub use files::FileRules;
pub use resolved::{PATH_KEYS, path_of};

use crate::name::{BUILTIN_TOOLS, ToolName, fx_hash};
use crate::spec::Why;
use weft_shell::{CommandAnalysis, ShellContext};

use crate::{Effect, PatternSet, Policy};
pub(crate) use reason::list;
use reason::{deny_reason, not_allowed_reason, unjudgeable_allow, unjudgeable_deny};

/// Checks every call against a stack of policies.
///
/// ```
/// use serde_json::json;
/// use weft_permissions::{Origin, PatternContext, Policy, ToolGate};
///
/// let skill = Policy::from_lists(Some(&["Read", "Bash(git:*)"][..]), &[], Origin::Skill("git-helper".into()), &PatternContext::new())?;
/// let gate = ToolGate::new([skill]);
/// assert!(gate.check("Read", &json!({"path": "README.md"})).is_allowed());
/// assert!(gate.check("exec_shell", &json!({"command": "git status"})).is_allowed());
/// assert!(gate.check("exec_shell", &json!({"command": "git log | head -5"})).is_allowed());
/// assert_eq!(
///     gate.check("exec_shell", &json!({"command": "git status; rm -rf /"})).to_string(),
///     "denied: `rm -rf /` matches none of the allowed `Bash(git:*)` from skill 'git-helper'",
/// );
/// assert_eq!(
///     gate.check("exec_shell", &json!({"command": "git -c core.pager=cat log"})).to_string(),
///     "ask: `git -c` can run other programs, in `git -c core.pager=cat log`",
/// );
/// assert_eq!(gate.visible_tools(&["read_file", "exec_shell", "write_file"]), ["read_file", "exec_shell"]);
///
/// // A background child of this gate: its layers intersected with read-only mode.
/// let child = gate.intersect(&ToolGate::background());
/// assert!(!child.check("exec_shell", &json!({"command": "git status"})).is_allowed());
/// # Ok::<(), weft_permissions::PolicyError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct ToolGate {
    layers: Vec<Arc<Policy>>,
    /// `(fx_hash, canonical name)`, sorted: tools every call of which is allowed (no deny can
    /// apply, every allow set has an unscoped pattern for them). Built-ins and every tool a
    /// layer names are examined when the gate is built; other tools take the full path.
    /// Shared, and the built-ins' names borrowed, because sessions clone and rebuild gates
    /// often (every spawn, every skill activation).
    always: Arc<[(u64, Cow<'static, str>)]>,
    /// Where shell commands run (for writes outside the project).
    shell: Arc<ShellContext>,
}

/// `(fx_hash, name)` of every built-in tool (their names are canonical), hashed once.
static BUILTIN_NAMES: LazyLock<Vec<(u64, &'static str)>> =
    LazyLock::new(|| BUILTIN_TOOLS.iter().map(|t| (fx_hash(t), *t)).collect());

impl ToolGate {
    /// A gate without layers: everything is allowed.
    pub fn unrestricted() -> Self {
        Self::default()
    }

    /// A gate of these layers.
    pub fn new(policies: impl IntoIterator<Item = Policy>) -> Self {
        Self::from_shared(policies.into_iter().map(Arc::new).collect())
    }

    /// A gate of shared layers.
    pub(crate) fn from_shared(layers: Vec<Arc<Policy>>) -> Self {
        // No deny can apply and every allow set has an unscoped pattern for it.
        let free = |name: &ToolName<'_>| {
            layers.iter().all(|layer| {
                let deny = layer.deny();
                deny.name_hit(name, Effect::Deny).is_none()
                    && !deny.has_scoped(name)
                    && layer
                        .allow()
                        .is_none_or(|allow| allow.name_hit(name, Effect::Allow).is_some())
            })
        };
        let mut always: Vec<(u64, Cow<'static, str>)> = BUILTIN_NAMES
            .iter()
            .filter(|&&(hash, tool)| {
                free(&ToolName {
                    given: tool,
                    canonical: tool,
                    hash,
                    mcp: None,
                })
            })
            .map(|&(hash, tool)| (hash, Cow::Borrowed(tool)))
            .collect();
        for layer in &layers {
            for tool in layer.allow().into_iter().flat_map(PatternSet::exact_tools) {
                let name = ToolName::new(tool);
                let known = always
                    .iter()
                    .any(|(h, t)| *h == name.hash && *t == name.canonical);
                if !known && free(&name) {
                    always.push((name.hash, Cow::Owned(name.canonical.to_owned())));
                }
            }
        }
        always.sort();
        Self {
            layers,
            always: always.into(),
            shell: Arc::default(),
        }
    }

    /// Sets where shell commands run: the project root (and working directory) the analyser
    /// compares redirections and written paths with.
    pub fn with_shell_context(self, ctx: ShellContext) -> Self {
        self.with_shared_shell(Arc::new(ctx))
    }

    /// Sets the shell context, with the files this gate's `Read(...)` denies marked
    /// unreadable in it ([`files::unreadable_paths`]): a command naming one is not judged
    /// read-only, so only a person lets it run.
    fn with_shared_shell(mut self, shell: Arc<ShellContext>) -> Self {
        let unreadable = files::unreadable_paths(&self.layers);
        self.shell = if unreadable.is_none() && shell.unreadable().is_none() {
            shell
        } else {
            Arc::new(shell.as_ref().clone().with_unreadable(unreadable))
        };
        self
    }

    /// Where shell commands run.
    pub fn shell_context(&self) -> &ShellContext {
        &self.shell
    }

    /// A gate of shared layers without the fast-path index (for one-off questions).
    pub(crate) fn unindexed(layers: Vec<Arc<Policy>>) -> Self {
        Self {
            layers,
            always: Arc::default(),
            shell: Arc::default(),
        }
    }

    /// True when every call of the tool is allowed (see `always`).
    fn always_allowed(&self, name: &ToolName<'_>) -> bool {
        let start = self.always.partition_point(|(h, _)| *h < name.hash);
        self.always[start..]
            .iter()
            .take_while(|(h, _)| *h == name.hash)
            .any(|(_, t)| *t == name.canonical)
    }

    /// The gate of background subagents: only `read_file`, `grep`, `glob`, `list_directory`.
    pub fn background() -> Self {
        static BACKGROUND: LazyLock<Arc<Policy>> = LazyLock::new(|| Arc::new(Policy::background()));
        Self::from_shared(vec![Arc::clone(&BACKGROUND)])
    }

    /// Adds a layer (it can only take tools away).
    pub fn with_layer(self, policy: Policy) -> Self {
        let shell = self.shell;
        let mut layers = self.layers;
        layers.push(Arc::new(policy));
        Self::from_shared(layers).with_shared_shell(shell)
    }

    /// A gate that allows only what both gates allow: a child's layers within its parent's
    /// ceiling, or a gate restricted to background mode.
    pub fn intersect(&self, other: &ToolGate) -> ToolGate {
        let mut layers = self.layers.clone();
        for layer in &other.layers {
            if !layers.iter().any(|l| Arc::ptr_eq(l, layer)) {
                layers.push(Arc::clone(layer));
            }
        }
        let shell = if self.shell.project_root().is_some() {
            Arc::clone(&self.shell)
        } else {
            Arc::clone(&other.shell)
        };
        ToolGate::from_shared(layers).with_shared_shell(shell)
    }

    /// The layers, in order.
    pub fn layers(&self) -> impl Iterator<Item = &Policy> {
        self.layers.iter().map(|l| &**l)
    }

    /// Checks one call. Deny beats ask beats allow, in every layer and across layers.
    pub fn check(&self, tool: &str, input: &Value) -> Decision {
        let name = ToolName::new(tool);
        if self.always_allowed(&name) {
            return Decision::Allowed;
        }
        check_named(&self.layers, &name, input, &self.shell)
    }

    /// Checks one call and says how each rule saw it: for an `exec_shell` call, the simple
    /// commands found and, for each, what every layer's patterns say (what
    /// `weft skills check-tool -v` prints).
    pub fn explain(&self, tool: &str, input: &Value) -> Explanation {
        explain::explain(self, tool, input)
    }

    /// True when the tool should be offered to the model: some call of it could be allowed
    /// (every layer with an allow set has a pattern for it, scoped or not) and no layer denies
    /// it unconditionally. A tool with only scoped allows (`Bash(git:*)`) is visible; each call
    /// is then checked against its input.
    pub fn tool_visible(&self, tool: &str) -> bool {
        let name = ToolName::new(tool);
        self.layers.iter().all(|layer| {
            layer.deny().name_hit(&name, Effect::Deny).is_none()
                && layer.allow().is_none_or(|allow| allow.could_permit(&name))
        })
    }

    /// The tools of `available` to offer the model, in the given order.
    pub fn visible_tools(&self, available: &[&str]) -> Vec<String> {
        available
            .iter()
            .filter(|tool| self.tool_visible(tool))
            .map(|tool| (*tool).to_owned())
            .collect()
    }
}

/// Checks a call against layers (anything that dereferences to a policy).
pub(crate) fn check_layers<P: AsRef<Policy>>(layers: &[P], tool: &str, input: &Value) -> Decision {
    check_named(layers, &ToolName::new(tool), input, &ShellContext::new())
}

/// The analysis of a shell call, made at most once per check.
struct LazyAnalysis<'a> {
    input: &'a Value,
    ctx: &'a ShellContext,
    result: Option<Result<CommandAnalysis, Why>>,
}

impl LazyAnalysis<'_> {
    fn get(&mut self) -> &Result<CommandAnalysis, Why> {
        let (input, ctx) = (self.input, self.ctx);
        self.result
            .get_or_insert_with(|| shell::analyse_call(input, ctx))
    }
}

fn check_named<P: AsRef<Policy>>(
    layers: &[P],
    name: &ToolName<'_>,
    input: &Value,
    ctx: &ShellContext,
) -> Decision {
    let is_shell = *name.canonical == *shell::SHELL_TOOL;
    let mut analysis = LazyAnalysis {
        input,
        ctx,
        result: None,
    };
    for layer in layers {
        let deny = layer.as_ref().deny();
        if is_shell && deny.name_hit(name, Effect::Deny).is_none() && deny.has_scoped(name) {
            let reason = match analysis.get() {
                Err(why) => Some(unjudgeable_deny(deny, name, why)),
                Ok(analysis) => shell::deny_reason(deny, name, analysis),
            };
            if let Some(reason) = reason {
                return Decision::denied(reason);
            }
        } else if let Some(index) = deny.deny_hit(name, input) {
            return Decision::denied(deny_reason(name, deny, index, input));
        }
    }
    let mut ask = None;
    for layer in layers {
        let layer = layer.as_ref();
        let Some(allow) = layer.allow() else {
            continue;
        };
        if is_shell && allow.name_hit(name, Effect::Allow).is_none() && allow.has_scoped(name) {
            let verdict = match analysis.get() {
                Err(why) => shell::LayerVerdict::Denied(unjudgeable_allow(allow, name, why)),
                Ok(analysis) => shell::allow_verdict(allow, name, analysis),
            };
            match verdict {
                shell::LayerVerdict::Allowed(_) => {}
                shell::LayerVerdict::Ask(reason) => {
                    ask.get_or_insert(reason);
                }
                shell::LayerVerdict::Denied(reason) => return Decision::denied(reason),
            }
        } else if !allow.permits(name, input) {
            return Decision::denied(not_allowed_reason(name, layer, allow, input));
        }
    }
    match ask {
        Some(reason) => Decision::ask(reason),
        None => Decision::Allowed,
    }
}

impl AsRef<Policy> for Policy {
    fn as_ref(&self) -> &Policy {
        self
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::{Origin, PatternContext};

    fn skill(name: &str, allow: Option<&[&str]>, deny: &[&str]) -> Policy {
        Policy::from_lists(
            allow,
            deny,
            Origin::Skill(name.into()),
            &PatternContext::new(),
        )
        .unwrap()
    }

    fn reason(gate: &ToolGate, tool: &str, input: Value) -> String {
        gate.check(tool, &input).to_string()
    }

    #[test]
    fn reasons_name_the_rule_and_its_origin() {
        let gate = ToolGate::new([
            skill(
                "opencode-implementer",
                Some(&["opencode-executor"]),
                &["write", "edit"],
            ),
            skill("specification-engine", Some(&["specKit"]), &[]),
        ]);
        assert_eq!(
            reason(&gate, "write", json!({})),
            "denied: `write` is forbidden by skill 'opencode-implementer'"
        );
        assert_eq!(
            reason(&gate, "exec_shell", json!({})),
            "denied: `exec_shell` is not in the tools allowed by skill 'opencode-implementer' (allowed: opencode-executor)"
        );
        let spec = ToolGate::new([skill("specification-engine", Some(&["specKit"]), &[])]);
        assert_eq!(
            reason(&spec, "exec_shell", json!({})),
            "denied: `exec_shell` is not in the tools allowed by skill 'specification-engine' (allowed: specKit)"
        );
    }

    #[test]
    fn alias_reasons_show_the_rule() {
        let gate = ToolGate::new([skill("x", None, &["exec_shell"])]);
        assert_eq!(
            reason(&gate, "Bash", json!({})),
            "denied: `Bash` is forbidden by skill 'x' (rule `exec_shell`)"
        );
    }

    #[test]
    fn scoped_reasons() {
        let gate = ToolGate::new([skill("x", Some(&["Bash(git:*)"]), &["Bash(git push:*)"])]);
        assert_eq!(
            reason(
                &gate,
                "exec_shell",
                json!({"command": "git status; rm -rf /"})
            ),
            "denied: `rm -rf /` matches none of the allowed `Bash(git:*)` from skill 'x'"
        );
        assert_eq!(
            reason(
                &gate,
                "exec_shell",
                json!({"command": "git log; git -C . push origin"})
            ),
            "denied: `git -C . push origin` matches `Bash(git push:*)`, forbidden by skill 'x'"
        );
        assert_eq!(
            reason(&gate, "exec_shell", json!({"command": "sh -c 'git $x'"})),
            "denied: `git $x` (in `sh -c`) could match `Bash(git push:*)` (`$x` may be an option of `git`), forbidden by skill 'x'"
        );
        assert_eq!(
            reason(&gate, "exec_shell", json!({"command": "git log $x"})),
            "ask: `$x` may expand to an option of `git` that runs programs or writes files, in `git log $x`"
        );
        assert_eq!(
            reason(&gate, "exec_shell", json!({"command": "$CMD"})),
            "denied: the program name `$CMD` is not literal, so the command could reach a program forbidden by `Bash(git push:*)` from skill 'x'"
        );
        assert_eq!(
            reason(&gate, "exec_shell", json!({})),
            "denied: the call has no `command` (it cannot be checked against `Bash(git push:*)`, forbidden by skill 'x')"
        );
        assert_eq!(
            reason(&gate, "exec_shell", json!({"command": "git log"})),
            "allowed"
        );
    }

    #[test]
    fn empty_allow_sets_allow_nothing() {
        let gate = ToolGate::new([Policy::nothing(Origin::EmptySkillSet)]);
        assert_eq!(
            reason(&gate, "read_file", json!({})),
            "denied: `read_file` is not in the tools allowed by the empty skill set (allowed: none)"
        );
        assert!(gate.visible_tools(&["read_file"]).is_empty());
    }

    #[test]
    fn layers_intersect() {
        let parent = ToolGate::new([skill("parent", Some(&["Read", "Grep"]), &[])]);
        let child =
            ToolGate::new([skill("child", Some(&["Read", "Write"]), &[])]).intersect(&parent);
        assert!(child.check("Read", &json!({})).is_allowed());
        assert!(!child.check("Write", &json!({})).is_allowed());
        assert!(!child.check("Grep", &json!({})).is_allowed());
        assert_eq!(child.layers().count(), 2);
        assert_eq!(child.intersect(&parent).layers().count(), 2);
        assert!(
            ToolGate::unrestricted()
                .check("anything", &json!({}))
                .is_allowed()
        );
    }

    #[test]
    fn gates_are_shareable_across_threads() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<ToolGate>();
        assert_send_sync::<Policy>();
        assert_send_sync::<crate::Composition>();
    }

    #[test]
    fn visibility() {
        let gate = ToolGate::new([skill(
            "x",
            Some(&["Bash(git:*)", "Read", "github__*"]),
            &["Bash(rm:*)", "Read"],
        )]);
        assert!(gate.tool_visible("exec_shell"));
        assert!(!gate.tool_visible("read_file"));
        assert!(gate.tool_visible("mcp__github__x"));
        assert!(!gate.tool_visible("write_file"));
        assert_eq!(Decision::Allowed.to_string(), "allowed");
    }
}
