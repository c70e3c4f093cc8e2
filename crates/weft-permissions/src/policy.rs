//! Policies: `allow: Option<set>` (None = no restriction) and `deny: set`.

use std::sync::Arc;

use serde_json::Value;
use weft_types::{AgentDefinition, Skill, ToolPolicy};

use crate::name::{BACKGROUND_TOOLS, has_variable};
use crate::pattern::PatternCache;
use crate::{Origin, PatternContext, PatternSet, PolicyError, ToolPattern};

/// What one definition (or one composition) says about tools, compiled.
///
/// Deny always beats allow. `allow: None` restricts nothing; `Some(empty)` allows nothing.
///
/// ```
/// use serde_json::json;
/// use weft_permissions::{Decision, Origin, PatternContext, Policy};
/// use weft_types::ToolPolicy;
///
/// let written = ToolPolicy { allow: Some(vec!["Read".into(), "Write".into()]), deny: vec!["Write".into()] };
/// let policy = Policy::from_tool_policy(&written, Origin::Agent("explore".into()), &PatternContext::new())?;
/// assert!(policy.check("read_file", &json!({})).is_allowed());
/// assert_eq!(
///     policy.check("Write", &json!({})),
///     Decision::denied("`Write` is forbidden by agent 'explore'"),
/// );
/// # Ok::<(), weft_permissions::PolicyError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Policy {
    allow: Option<PatternSet>,
    deny: PatternSet,
    grantors: Vec<Arc<Origin>>,
}

impl Policy {
    /// No restriction at all.
    pub fn unrestricted() -> Self {
        Self::default()
    }

    /// Zero capability: nothing is allowed (`origin` is named in denials).
    pub fn nothing(origin: Origin) -> Self {
        Self {
            allow: Some(PatternSet::new()),
            deny: PatternSet::new(),
            grantors: vec![Arc::new(origin)],
        }
    }

    /// A policy from compiled sets. The origins of the allow patterns are named in denials.
    pub fn new(allow: Option<PatternSet>, deny: PatternSet) -> Self {
        let mut grantors: Vec<Arc<Origin>> = Vec::new();
        for origin in allow.iter().flat_map(PatternSet::shared_origins) {
            if !grantors.contains(origin) {
                grantors.push(Arc::clone(origin));
            }
        }
        Self {
            allow,
            deny,
            grantors,
        }
    }

    /// A policy whose allow set (possibly empty) is granted by `grantors`.
    pub(crate) fn with_grantors(
        allow: Option<PatternSet>,
        deny: PatternSet,
        grantors: Vec<Arc<Origin>>,
    ) -> Self {
        Self {
            allow,
            deny,
            grantors,
        }
    }

    /// Compiles allow and deny lists, all from `origin`.
    pub fn from_lists<S: AsRef<str>>(
        allow: Option<&[S]>,
        deny: &[S],
        origin: Origin,
        ctx: &PatternContext,
    ) -> Result<Self, PolicyError> {
        let shared = Arc::new(origin);
        let allow = allow
            .map(|list| PatternSet::compile_shared(list, &shared, ctx))
            .transpose()?;
        let deny = PatternSet::compile_shared(deny, &shared, ctx)?;
        Ok(Self::with_grantors(allow, deny, vec![shared]))
    }

    /// Compiles a [`ToolPolicy`] (a skill's `allowed_tools` / `forbidden_tools`).
    pub fn from_tool_policy(
        policy: &ToolPolicy,
        origin: Origin,
        ctx: &PatternContext,
    ) -> Result<Self, PolicyError> {
        Self::from_lists(policy.allow.as_deref(), &policy.deny, origin, ctx)
    }

    /// Compiles a skill's tool policy. `${CLAUDE_SKILL_DIR}` is the skill's directory unless
    /// `ctx` sets one.
    pub fn from_skill(skill: &Skill, ctx: &PatternContext) -> Result<Self, PolicyError> {
        Self::from_skill_cached(skill, ctx, &mut PatternCache::disabled())
    }

    /// [`from_skill`](Self::from_skill) through a cache shared by the skills of one set.
    pub(crate) fn from_skill_cached<'t>(
        skill: &'t Skill,
        ctx: &PatternContext,
        cache: &mut PatternCache<'t>,
    ) -> Result<Self, PolicyError> {
        let skill_ctx = skill_context(skill, ctx);
        let ctx = skill_ctx.as_ref().unwrap_or(ctx);
        let origin = Arc::new(Origin::Skill(skill.name.clone()));
        let allow = skill
            .tools
            .allow
            .as_deref()
            .map(|list| PatternSet::compile_cached(list, &origin, ctx, cache))
            .transpose()?;
        let deny = PatternSet::compile_cached(&skill.tools.deny, &origin, ctx, cache)?;
        Ok(Self::with_grantors(allow, deny, vec![origin]))
    }

    /// Compiles an agent's `tools` and `disallowed_tools` (Claude Code: the disallowed tools
    /// are removed first, so a tool in both is denied).
    pub fn from_agent(agent: &AgentDefinition, ctx: &PatternContext) -> Result<Self, PolicyError> {
        Self::from_lists(
            agent.tools.as_deref(),
            &agent.disallowed_tools,
            Origin::Agent(agent.name.clone()),
            ctx,
        )
    }

    /// The read-only tools of background subagents: `read_file`, `grep`, `glob`,
    /// `list_directory` (no MCP, no writes, no exec, no spawning).
    pub fn background() -> Self {
        let mut allow = PatternSet::new();
        for tool in BACKGROUND_TOOLS {
            if let Ok(pattern) = ToolPattern::parse(tool) {
                allow.push(pattern, Origin::Background);
            }
        }
        Self::with_grantors(
            Some(allow),
            PatternSet::new(),
            vec![Arc::new(Origin::Background)],
        )
    }

    /// The allow set; `None` when the policy restricts nothing.
    pub fn allow(&self) -> Option<&PatternSet> {
        self.allow.as_ref()
    }

    /// The deny set.
    pub fn deny(&self) -> &PatternSet {
        &self.deny
    }

    /// The definitions that grant the allow set (named when a call is not allowed).
    pub fn grantors(&self) -> impl Iterator<Item = &Origin> {
        self.grantors.iter().map(|o| &**o)
    }

    pub(crate) fn shared_grantors(&self) -> &[Arc<Origin>] {
        &self.grantors
    }

    /// True when the policy neither allows nor denies anything explicitly.
    pub fn is_unrestricted(&self) -> bool {
        self.allow.is_none() && self.deny.is_empty()
    }

    /// Checks one call against this policy alone (see [`ToolGate`](crate::ToolGate) for
    /// several layers).
    pub fn check(&self, tool: &str, input: &Value) -> crate::Decision {
        crate::gate::check_layers(std::slice::from_ref(self), tool, input)
    }
}

/// `ctx` with the skill's directory as `${CLAUDE_SKILL_DIR}`, when `ctx` has none and the skill
/// has a (UTF-8) directory.
pub(crate) fn skill_context(skill: &Skill, ctx: &PatternContext) -> Option<PatternContext> {
    if ctx.skill_dir().is_some() || !uses_skill_dir(skill) {
        return None;
    }
    let dir = skill.source.dir()?.to_str()?;
    Some(ctx.clone().with_skill_dir(dir))
}

/// True when some pattern of the skill uses `${CLAUDE_SKILL_DIR}`.
fn uses_skill_dir(skill: &Skill) -> bool {
    let allow = skill.tools.allow.iter().flatten();
    allow
        .chain(&skill.tools.deny)
        .any(|p| has_variable(p) && p.contains("${CLAUDE_SKILL_DIR}"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use weft_types::Scope;

    use super::*;
    #[test]
    fn skill_dir_comes_from_the_source() {
        let mut skill = Skill::in_memory("render", "Renders", Scope::Project);
        skill.source.path = Some("/skills/render/SKILL.md".into());
        skill.tools = ToolPolicy::allow_only(["Bash(${CLAUDE_SKILL_DIR}/run.sh:*)"]);
        let policy = Policy::from_skill(&skill, &PatternContext::new()).unwrap();
        assert!(
            policy
                .check("Bash", &json!({"command": "/skills/render/run.sh x"}))
                .is_allowed()
        );
        skill.source.path = None;
        let err = Policy::from_skill(&skill, &PatternContext::new()).unwrap_err();
        assert_eq!(err.origin, Origin::Skill("render".into()));
    }

    #[test]
    fn agents_remove_disallowed_tools_first() {
        let mut agent = AgentDefinition::new(
            "explore",
            "Explores",
            weft_types::Source::in_memory(Scope::Builtin, weft_types::AgentFormat::Builtin),
        );
        agent.tools = Some(vec!["Read".into(), "Write".into()]);
        agent.disallowed_tools = vec!["Write".into()];
        let policy = Policy::from_agent(&agent, &PatternContext::new()).unwrap();
        assert!(policy.check("Read", &json!({})).is_allowed());
        assert!(!policy.check("Write", &json!({})).is_allowed());
        assert!(!policy.check("Grep", &json!({})).is_allowed());
    }

    #[test]
    fn project_skills_reach_mcp_tools_only_by_name_or_server() {
        let compiled = |allow: &[&str]| {
            let mut skill = Skill::in_memory("helper", "Helps", Scope::Project);
            skill.tools = ToolPolicy::allow_only(allow.iter().copied());
            Policy::from_skill(&skill, &PatternContext::new()).unwrap()
        };
        for allow in [
            &["*"][..],
            &["*__*"],
            &["mcp__*"],
            &["git*__*"],
            &["*issue"],
        ] {
            let policy = compiled(allow);
            for tool in ["github__create_issue", "mcp__github__create_issue"] {
                assert!(
                    !policy.check(tool, &json!({})).is_allowed(),
                    "{allow:?} {tool}"
                );
            }
        }
        for allow in [
            &["github__create_issue"][..],
            &["mcp__github__create_issue"],
            &["github__*"],
            &["mcp__github"],
            &["mcp__github__create_*"],
        ] {
            let policy = compiled(allow);
            for tool in ["github__create_issue", "mcp__github__create_issue"] {
                assert!(
                    policy.check(tool, &json!({})).is_allowed(),
                    "{allow:?} {tool}"
                );
            }
            assert!(
                !policy
                    .check("gitlab__create_issue", &json!({}))
                    .is_allowed()
            );
        }
    }

    #[test]
    fn background_is_read_only() {
        let policy = Policy::background();
        for tool in ["read_file", "Read", "grep", "glob", "LS"] {
            assert!(policy.check(tool, &json!({})).is_allowed(), "{tool}");
        }
        for tool in [
            "write_file",
            "exec_shell",
            "sessions_spawn",
            "github__x",
            "web_fetch",
        ] {
            assert!(!policy.check(tool, &json!({})).is_allowed(), "{tool}");
        }
    }
}
