//! Skill composition: "most restrictive wins".
//!
//! For skills S1..Sn (duplicates counted once):
//!
//! * `deny = ⋃ deny_i`;
//! * [`CompositionMode::Union`] (default): `allow = ⋃ allow_i` over the skills that declare an
//!   allow list. A skill that declares none grants nothing and restricts nothing; when no skill
//!   declares one the allow set is `None` (no restriction beyond the ceiling);
//! * [`CompositionMode::Intersect`]: a call must be allowed by *every* declaring skill;
//! * zero skills compose to zero capability (seed 001: "no allowed tools and no forbidden
//!   tools");
//! * the result is then intersected with a ceiling, the parent's gate
//!   ([`Composition::gate_within`]), so a subagent never gets more than its parent.
//!
//! The effective policy does not depend on the order of the skills (patterns are ordered by
//! skill name, so even denial reasons are the same). The [`ComposedSkill`] lists follow the
//! request order (first occurrence), as seed 003's example does; as sets they do not depend on
//! it either.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use weft_types::Skill;

use crate::pattern::PatternCache;
use crate::{Origin, PatternContext, PatternSet, Policy, PolicyError, ToolGate, ToolPattern};

/// How the allow lists of several skills combine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CompositionMode {
    /// The union of the declared allow lists, minus every deny (DESIGN §5, seed 003's example).
    #[default]
    Union,
    /// The intersection of the declared allow lists, minus every deny (seed 001's FR text).
    Intersect,
}

/// Seed 003's `ComposedSkill`: the composed permissions in string form.
///
/// `allowed_tools` holds the declared allow patterns (as written, first occurrence) that no
/// member forbids; `forbidden_tools` every member's deny patterns; `execution_protocol` the
/// members' steps in skill order, duplicates removed. `unrestricted` (serialized only when
/// true) says that no member declares an allow list, so `allowed_tools` is empty but does not
/// mean "nothing".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComposedSkill {
    /// The composed skills, duplicates removed, in request order.
    pub skills: Vec<String>,
    /// Effective allowed tool patterns.
    pub allowed_tools: Vec<String>,
    /// Every forbidden tool pattern.
    pub forbidden_tools: Vec<String>,
    /// The ordered union of the execution protocols.
    pub execution_protocol: Vec<String>,
    /// True when no member declares an allow list.
    #[serde(default, skip_serializing_if = "is_false")]
    pub unrestricted: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A composition: the string form and the compiled policies behind it.
#[derive(Debug, Clone)]
pub struct Composition {
    composed: ComposedSkill,
    policies: Vec<Arc<Policy>>,
}

impl Composition {
    /// The string form (seed 003's `ComposedSkill`).
    pub fn composed(&self) -> &ComposedSkill {
        &self.composed
    }

    /// The string form, by value.
    pub fn into_composed(self) -> ComposedSkill {
        self.composed
    }

    /// The compiled policies (one for [`CompositionMode::Union`]; the denies plus one per
    /// declaring skill for [`CompositionMode::Intersect`]).
    pub fn policies(&self) -> impl Iterator<Item = &Policy> {
        self.policies.iter().map(|p| &**p)
    }

    /// A gate of this composition alone (the policies are shared, not copied).
    pub fn gate(&self) -> ToolGate {
        ToolGate::from_shared(self.policies.clone())
    }

    /// A gate for one-off questions (no fast-path index).
    pub(crate) fn quick_gate(&self) -> ToolGate {
        ToolGate::unindexed(self.policies.clone())
    }

    /// A gate of this composition within `ceiling` (the parent's gate).
    pub fn gate_within(&self, ceiling: &ToolGate) -> ToolGate {
        self.gate().intersect(ceiling)
    }

    /// The string form within a ceiling given as patterns: the allowed patterns the ceiling
    /// lets the model see (an unrestricted composition gets the ceiling's own patterns),
    /// never one the composition forbids. The string counterpart of
    /// [`gate_within`](Self::gate_within).
    ///
    /// ```
    /// use weft_permissions::{compose, Ceiling, CompositionMode};
    /// use weft_types::{Scope, Skill, ToolPolicy};
    ///
    /// let mut a = Skill::in_memory("a", "A", Scope::Builtin);
    /// a.tools = ToolPolicy::allow_only(["Read", "Bash"]);
    /// let ceiling = Ceiling::new(["Read", "Grep"])?;
    /// let composed = compose(&[&a], CompositionMode::Union)?.composed_within(&ceiling);
    /// assert_eq!(composed.allowed_tools, ["Read"]);
    /// # Ok::<(), weft_permissions::PolicyError>(())
    /// ```
    pub fn composed_within(&self, ceiling: &Ceiling) -> ComposedSkill {
        let mut composed = self.composed.clone();
        if composed.unrestricted {
            composed.allowed_tools.clone_from(&ceiling.patterns);
            composed.unrestricted = false;
        } else {
            composed
                .allowed_tools
                .retain(|t| ceiling.gate.tool_visible(t));
        }
        let forbidden = &composed.forbidden_tools;
        composed.allowed_tools.retain(|t| !forbidden.contains(t));
        composed
    }
}

/// A parent's tools as a ceiling: the patterns as written and the gate allowing exactly them.
#[derive(Debug, Clone)]
pub struct Ceiling {
    patterns: Vec<String>,
    gate: ToolGate,
}

impl Ceiling {
    /// A ceiling allowing exactly `patterns` (their origin is [`Origin::Parent`]).
    pub fn new<S: Into<String>>(
        patterns: impl IntoIterator<Item = S>,
    ) -> Result<Self, PolicyError> {
        Self::new_in(patterns, &PatternContext::new())
    }

    /// [`new`](Self::new) with relative path patterns resolved against `ctx` (the project).
    pub fn new_in<S: Into<String>>(
        patterns: impl IntoIterator<Item = S>,
        ctx: &PatternContext,
    ) -> Result<Self, PolicyError> {
        let patterns: Vec<String> = patterns.into_iter().map(Into::into).collect();
        let policy = Policy::from_lists(Some(patterns.as_slice()), &[], Origin::Parent, ctx)?;
        Ok(Self {
            patterns,
            gate: ToolGate::new([policy]),
        })
    }

    /// The patterns, as written.
    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }

    /// The gate allowing exactly the patterns.
    pub fn gate(&self) -> &ToolGate {
        &self.gate
    }
}

/// A skill set that cannot be composed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ComposeError {
    /// No skill of this name.
    #[error("unknown skill '{0}'")]
    UnknownSkill(String),
    /// A malformed tool pattern in a skill.
    #[error(transparent)]
    Policy(#[from] PolicyError),
}

/// Composes `skills` (duplicates by name counted once) with no substitution context beyond each
/// skill's own directory.
///
/// ```
/// use weft_permissions::{compose, CompositionMode};
/// use weft_types::{Scope, Skill, ToolPolicy};
///
/// let mut a = Skill::in_memory("a", "A", Scope::Builtin);
/// a.tools = ToolPolicy::allow_only(["write", "opencode"]);
/// let mut b = Skill::in_memory("b", "B", Scope::Builtin);
/// b.tools.deny = vec!["write".into()];
///
/// let composition = compose(&[&a, &b], CompositionMode::Union)?;
/// assert_eq!(composition.composed().allowed_tools, ["opencode"]);
/// assert_eq!(composition.composed().forbidden_tools, ["write"]);
/// assert!(!composition.gate().check("write", &serde_json::json!({})).is_allowed());
/// # Ok::<(), weft_permissions::PolicyError>(())
/// ```
pub fn compose(skills: &[&Skill], mode: CompositionMode) -> Result<Composition, PolicyError> {
    compose_with(skills, mode, &PatternContext::new())
}

/// Composes `skills` with substitution values from `ctx`.
pub fn compose_with(
    skills: &[&Skill],
    mode: CompositionMode,
    ctx: &PatternContext,
) -> Result<Composition, PolicyError> {
    let mut compiled: Vec<(&Skill, Policy)> = Vec::with_capacity(skills.len());
    let mut cache = PatternCache::with_capacity(pattern_count(skills.iter().copied()));
    for skill in skills {
        if compiled.iter().any(|(s, _)| s.name == skill.name) {
            continue;
        }
        compiled.push((skill, Policy::from_skill_cached(skill, ctx, &mut cache)?));
    }
    Ok(compose_compiled(&compiled, mode))
}

/// Looks `names` up and composes them.
///
/// ```
/// use weft_permissions::{compose_names, ComposeError, CompositionMode, PatternContext};
/// use weft_types::{Scope, Skill};
///
/// let skills = [Skill::in_memory("a", "A", Scope::Builtin)];
/// let lookup = |name: &str| skills.iter().find(|s| s.name == name);
/// let err = compose_names(&["a", "zzz"], lookup, CompositionMode::Union, &PatternContext::new()).unwrap_err();
/// assert_eq!(err, ComposeError::UnknownSkill("zzz".into()));
/// ```
pub fn compose_names<'a, S, F>(
    names: &[S],
    lookup: F,
    mode: CompositionMode,
    ctx: &PatternContext,
) -> Result<Composition, ComposeError>
where
    S: AsRef<str>,
    F: Fn(&str) -> Option<&'a Skill>,
{
    let skills = names
        .iter()
        .map(|n| lookup(n.as_ref()).ok_or_else(|| ComposeError::UnknownSkill(n.as_ref().into())))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(compose_with(&skills, mode, ctx)?)
}

/// Composes skills whose policies are compiled already (as a registry holds them): duplicates
/// by name counted once, nothing compiled again.
pub fn compose_compiled_skills(skills: &[(&Skill, &Policy)], mode: CompositionMode) -> Composition {
    let mut unique: Vec<(&Skill, Policy)> = Vec::with_capacity(skills.len());
    for (skill, policy) in skills {
        if !unique.iter().any(|(s, _)| s.name == skill.name) {
            unique.push((skill, (*policy).clone()));
        }
    }
    compose_compiled(&unique, mode)
}

/// The number of tool patterns the skills hold (to size caches).
pub(crate) fn pattern_count<'a>(skills: impl Iterator<Item = &'a Skill>) -> usize {
    skills
        .map(|s| s.tools.allow.as_ref().map_or(0, Vec::len) + s.tools.deny.len())
        .sum()
}

/// Composes skills whose policies are compiled (names already unique, request order).
pub(crate) fn compose_compiled(skills: &[(&Skill, Policy)], mode: CompositionMode) -> Composition {
    if skills.is_empty() {
        return Composition {
            composed: ComposedSkill::default(),
            policies: vec![Arc::new(Policy::nothing(Origin::EmptySkillSet))],
        };
    }
    // The policies: ordered by skill name, so they do not depend on the request order.
    let mut by_name: Vec<&(&Skill, Policy)> = skills.iter().collect();
    by_name.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    let mut deny = PatternSet::with_capacity(by_name.iter().map(|(_, p)| p.deny().len()).sum());
    for (_, policy) in &by_name {
        deny.extend_from(policy.deny());
    }
    let declaring: Vec<&(&Skill, Policy)> = by_name
        .iter()
        .copied()
        .filter(|(_, p)| p.allow().is_some())
        .collect();
    let composed = composed_strings(skills, mode, &deny);
    let policies = match mode {
        CompositionMode::Union => {
            let allow = (!declaring.is_empty()).then(|| {
                let total = declaring
                    .iter()
                    .filter_map(|(_, p)| p.allow())
                    .map(PatternSet::len)
                    .sum();
                let mut allow = PatternSet::with_capacity(total);
                for (_, policy) in &declaring {
                    if let Some(set) = policy.allow() {
                        allow.extend_from(set);
                    }
                }
                allow
            });
            let grantors = declaring
                .iter()
                .flat_map(|(_, p)| p.shared_grantors().iter().cloned())
                .collect();
            vec![Policy::with_grantors(allow, deny, grantors)]
        }
        CompositionMode::Intersect => {
            let mut policies = vec![Policy::new(None, deny)];
            for (_, policy) in &declaring {
                policies.push(Policy::with_grantors(
                    policy.allow().cloned(),
                    PatternSet::new(),
                    policy.shared_grantors().to_vec(),
                ));
            }
            policies
        }
    };
    Composition {
        composed,
        policies: policies.into_iter().map(Arc::new).collect(),
    }
}

/// The string form, in request order.
fn composed_strings(
    skills: &[(&Skill, Policy)],
    mode: CompositionMode,
    deny: &PatternSet,
) -> ComposedSkill {
    let mut forbidden: Vec<&ToolPattern> = Vec::with_capacity(deny.len());
    let mut forbidden_keys = KeySet::default();
    for (_, policy) in skills {
        for (pattern, _) in policy.deny().iter() {
            if forbidden_keys.insert(pattern) {
                forbidden.push(pattern);
            }
        }
    }
    let declared: Vec<&PatternSet> = skills.iter().filter_map(|(_, p)| p.allow()).collect();
    let mut allowed: Vec<&ToolPattern> = Vec::with_capacity(declared.iter().map(|s| s.len()).sum());
    let mut allowed_keys = KeySet::default();
    for (i, set) in declared.iter().enumerate() {
        if mode == CompositionMode::Intersect && i > 0 {
            break;
        }
        for (pattern, _) in set.iter() {
            let in_all = mode == CompositionMode::Union
                || declared.iter().all(|other| {
                    other.iter().any(|(p, _)| {
                        p.key_hash() == pattern.key_hash() && p.key() == pattern.key()
                    })
                });
            if in_all
                && !forbidden_keys.contains(pattern)
                && !deny.denies_tool_of(pattern)
                && allowed_keys.insert(pattern)
            {
                allowed.push(pattern);
            }
        }
    }
    let steps = skills
        .iter()
        .map(|(s, _)| s.contract.execution_protocol.len())
        .sum();
    let mut protocol: Vec<String> = Vec::with_capacity(steps);
    for (skill, _) in skills {
        for step in &skill.contract.execution_protocol {
            if !protocol.contains(step) {
                protocol.push(step.clone());
            }
        }
    }
    ComposedSkill {
        skills: skills.iter().map(|(s, _)| s.name.clone()).collect(),
        allowed_tools: allowed.iter().map(|p| p.as_str().to_owned()).collect(),
        forbidden_tools: forbidden.iter().map(|p| p.as_str().to_owned()).collect(),
        execution_protocol: protocol,
        unrestricted: declared.is_empty(),
    }
}

/// Pattern keys seen so far (sorted by hash; equal hashes compared by key).
#[derive(Default)]
struct KeySet<'p> {
    keys: Vec<(u64, &'p ToolPattern)>,
}

impl<'p> KeySet<'p> {
    fn contains(&self, pattern: &ToolPattern) -> bool {
        let hash = pattern.key_hash();
        let start = self.keys.partition_point(|(h, _)| *h < hash);
        self.keys[start..]
            .iter()
            .take_while(|(h, _)| *h == hash)
            .any(|(_, p)| p.key() == pattern.key())
    }

    /// Adds the pattern's key; false when it was there already.
    fn insert(&mut self, pattern: &'p ToolPattern) -> bool {
        if self.contains(pattern) {
            return false;
        }
        let hash = pattern.key_hash();
        let at = self.keys.partition_point(|(h, _)| *h <= hash);
        self.keys.insert(at, (hash, pattern));
        true
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use weft_types::{Scope, ToolPolicy};

    use super::*;

    fn skill(name: &str, allow: Option<&[&str]>, deny: &[&str]) -> Skill {
        let mut s = Skill::in_memory(name, name, Scope::Builtin);
        s.tools = ToolPolicy {
            allow: allow.map(|a| a.iter().map(|t| (*t).to_owned()).collect()),
            deny: deny.iter().map(|t| (*t).to_owned()).collect(),
        };
        s
    }

    #[test]
    fn zero_skills_is_zero_capability() {
        let c = compose(&[], CompositionMode::Union).unwrap();
        assert_eq!(c.composed(), &ComposedSkill::default());
        assert!(!c.gate().check("read_file", &json!({})).is_allowed());
    }

    #[test]
    fn skills_without_allow_lists_restrict_nothing() {
        let a = skill("a", None, &["Bash"]);
        let c = compose(&[&a], CompositionMode::Union).unwrap();
        assert!(c.composed().unrestricted);
        assert!(c.gate().check("read_file", &json!({})).is_allowed());
        assert!(!c.gate().check("exec_shell", &json!({})).is_allowed());
        let b = skill("b", Some(&["Read"]), &[]);
        let c = compose(&[&a, &b], CompositionMode::Union).unwrap();
        assert!(!c.composed().unrestricted);
        assert!(!c.gate().check("write_file", &json!({})).is_allowed());
    }

    #[test]
    fn intersect_mode() {
        let a = skill("a", Some(&["Read", "Grep", "specKit"]), &[]);
        let b = skill("b", Some(&["read_file", "Grep"]), &["Grep"]);
        let c = compose(&[&a, &b], CompositionMode::Intersect).unwrap();
        assert_eq!(c.composed().allowed_tools, ["Read"]);
        let gate = c.gate();
        assert!(gate.check("read_file", &json!({})).is_allowed());
        assert!(!gate.check("grep", &json!({})).is_allowed());
        assert!(!gate.check("specKit", &json!({})).is_allowed());
        let u = compose(&[&a, &b], CompositionMode::Union).unwrap();
        assert_eq!(u.composed().allowed_tools, ["Read", "specKit"]);
    }

    #[test]
    fn denies_remove_covered_allows() {
        let a = skill(
            "a",
            Some(&["github__create_issue", "Bash(git:*)", "read_*"]),
            &[],
        );
        let b = skill("b", None, &["mcp__github", "Bash", "read_*"]);
        let c = compose(&[&a, &b], CompositionMode::Union).unwrap();
        assert!(c.composed().allowed_tools.is_empty());
        assert_eq!(
            c.composed().forbidden_tools,
            ["mcp__github", "Bash", "read_*"]
        );
    }

    #[test]
    fn duplicates_count_once_and_order_of_lists_follows_request() {
        let a = skill("a", Some(&["x"]), &[]);
        let b = skill("b", Some(&["y"]), &[]);
        let c = compose(&[&b, &a, &b], CompositionMode::Union).unwrap();
        assert_eq!(c.composed().skills, ["b", "a"]);
        assert_eq!(c.composed().allowed_tools, ["y", "x"]);
    }

    #[test]
    fn serialized_shape() {
        let a = skill("a", None, &[]);
        let c = compose(&[&a], CompositionMode::Union).unwrap();
        assert_eq!(
            serde_json::to_value(c.composed()).unwrap(),
            json!({"skills": ["a"], "allowed_tools": [], "forbidden_tools": [], "execution_protocol": [], "unrestricted": true})
        );
    }
}
