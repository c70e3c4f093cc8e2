//! Skill-set validation before a spawn (seed 001 US3, seed 003 V001–V006).
//!
//! Errors (the set is invalid):
//!
//! * `V001` an unknown skill;
//! * `V002` a missing required companion (`composability_rules` or `compatibility_rules` of
//!   type `requires`);
//! * `V003` a declared incompatibility (`compatibility_rules` `incompatible`, or
//!   `composability_rules` `forbids`);
//! * `V007` (weft's addition) a tool pattern that cannot be compiled: the skill cannot be used
//!   until it is fixed.
//!
//! Warnings (the set stays valid): `V004` a tool both allowed and forbidden by one skill (deny
//! wins), `V005` an empty allow list (zero capability, valid), `V006` a skill listed more than
//! once (counted once), and an `execution_protocol` step naming a tool (`tool:<name>`, or
//! exactly one of the known tool names) that the composed set does not allow.

use std::fmt;

use serde::{Deserialize, Serialize};
use weft_types::{CompatibilityKind, ComposabilityKind, Skill};

use crate::compose::compose_compiled;
use crate::pattern::PatternCache;
use crate::{Composition, CompositionMode, PatternContext, Policy, canonical_tool_name};

/// The code of a validation error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ValidationCode {
    /// `V001`: no skill of that name.
    #[serde(rename = "V001")]
    UnknownSkill,
    /// `V002`: a skill requires another that is not in the set.
    #[serde(rename = "V002")]
    MissingCompanion,
    /// `V003`: two skills in the set are declared incompatible.
    #[serde(rename = "V003")]
    Incompatible,
    /// `V007`: a skill holds a tool pattern that cannot be compiled.
    #[serde(rename = "V007")]
    InvalidToolPattern,
}

impl ValidationCode {
    /// `V001`, `V002`, `V003` or `V007`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ValidationCode::UnknownSkill => "V001",
            ValidationCode::MissingCompanion => "V002",
            ValidationCode::Incompatible => "V003",
            ValidationCode::InvalidToolPattern => "V007",
        }
    }
}

impl fmt::Display for ValidationCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One blocking problem (seed 003 `ValidationError`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValidationError {
    /// The rule violated.
    pub code: ValidationCode,
    /// What is wrong, naming the skills involved.
    pub message: String,
    /// The skill the error is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
}

/// The outcome of validating a skill set (seed 003 `ValidationResult`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValidationResult {
    /// True iff `errors` is empty.
    pub valid: bool,
    /// Blocking problems.
    pub errors: Vec<ValidationError>,
    /// Non-blocking remarks.
    pub warnings: Vec<String>,
}

/// Validates the skill set `names` against the skills `lookup` finds.
///
/// `known_tools` are the tool names registered in the session: an execution-protocol step equal
/// to one of them (or written `tool:<name>`) is checked against the composed set.
///
/// ```
/// use weft_permissions::validate_skill_set;
/// use weft_types::{ComposabilityKind, ComposabilityRule, Scope, Skill};
///
/// let mut implementer = Skill::in_memory("opencode-implementer", "Implements", Scope::Builtin);
/// implementer.contract.composability_rules.push(ComposabilityRule {
///     kind: ComposabilityKind::Requires,
///     skill: "specification-engine".into(),
///     reason: Some("Implementation requires a spec".into()),
/// });
/// let skills = [implementer];
/// let result = validate_skill_set(&["opencode-implementer"], |n| skills.iter().find(|s| s.name == n), &[]);
/// assert!(!result.valid);
/// assert_eq!(result.errors[0].code.as_str(), "V002");
/// assert!(result.errors[0].message.contains("specification-engine"));
/// ```
pub fn validate_skill_set<'a, S, F>(
    names: &[S],
    lookup: F,
    known_tools: &[&str],
) -> ValidationResult
where
    S: AsRef<str>,
    F: Fn(&str) -> Option<&'a Skill>,
{
    validate_and_compose(
        names,
        lookup,
        known_tools,
        CompositionMode::Union,
        &PatternContext::new(),
    )
    .0
}

/// Validates the set and, when it is valid, composes it (each pattern is compiled once).
pub fn validate_and_compose<'a, S, F>(
    names: &[S],
    lookup: F,
    known_tools: &[&str],
    mode: CompositionMode,
    ctx: &PatternContext,
) -> (ValidationResult, Option<Composition>)
where
    S: AsRef<str>,
    F: Fn(&str) -> Option<&'a Skill>,
{
    // Shared by the set's skills: a pattern several of them hold is compiled once.
    let mut cache = PatternCache::with_capacity(names.len() * 4);
    check_set(names, known_tools, mode, |name| {
        let skill = lookup(name)?;
        let policy = Policy::from_skill_cached(skill, ctx, &mut cache);
        Some((skill, policy.map_err(|e| e.error.to_string())))
    })
}

/// [`validate_and_compose`] for skills whose policies are compiled already (a registry
/// compiles each skill's tool patterns once, when it finds the skill): `lookup` gives a skill
/// with its policy, and nothing is compiled again.
///
/// ```
/// use weft_permissions::{validate_and_compose_compiled, CompositionMode, PatternContext, Policy};
/// use weft_types::{Scope, Skill, ToolPolicy};
///
/// let mut skill = Skill::in_memory("reader", "Reads", Scope::User);
/// skill.tools = ToolPolicy::allow_only(["Read"]);
/// let policy = Policy::from_skill(&skill, &PatternContext::new())?;
/// let (result, composition) = validate_and_compose_compiled(
///     &["reader"],
///     |n| (n == "reader").then_some((&skill, &policy)),
///     &[],
///     CompositionMode::Union,
/// );
/// assert!(result.valid);
/// assert_eq!(composition.unwrap().composed().allowed_tools, ["Read"]);
/// # Ok::<(), weft_permissions::PolicyError>(())
/// ```
pub fn validate_and_compose_compiled<'a, S, F>(
    names: &[S],
    lookup: F,
    known_tools: &[&str],
    mode: CompositionMode,
) -> (ValidationResult, Option<Composition>)
where
    S: AsRef<str>,
    F: Fn(&str) -> Option<(&'a Skill, &'a Policy)>,
{
    check_set(names, known_tools, mode, |name| {
        lookup(name).map(|(skill, policy)| (skill, Ok(policy.clone())))
    })
}

/// The checks of a set whose skills `compiled` finds with their policies (or why a policy
/// does not compile: `V007`), and its composition when it is valid.
fn check_set<'a, S, F>(
    names: &[S],
    known_tools: &[&str],
    mode: CompositionMode,
    mut compiled: F,
) -> (ValidationResult, Option<Composition>)
where
    S: AsRef<str>,
    F: FnMut(&str) -> Option<(&'a Skill, Result<Policy, String>)>,
{
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let unique = count_names(names, &mut warnings);
    let mut found: Vec<(&Skill, Result<Policy, String>)> = Vec::new();
    for (name, _) in &unique {
        match compiled(name) {
            Some(pair) => found.push(pair),
            None => errors.push(ValidationError {
                code: ValidationCode::UnknownSkill,
                message: format!("unknown skill '{name}': no skill of that name is registered"),
                skill: Some((*name).to_owned()),
            }),
        }
    }
    let known: Vec<&Skill> = found.iter().map(|(s, _)| *s).collect();
    let requested = |name: &str| unique.iter().any(|(n, _)| *n == name);
    companion_errors(&known, requested, &mut errors);

    // V007, V004, V005.
    let mut policies: Vec<(&Skill, Policy)> = Vec::with_capacity(found.len());
    for (skill, policy) in found {
        match policy {
            Ok(policy) => {
                overlap_warnings(skill, &policy, &mut warnings);
                policies.push((skill, policy));
            }
            Err(e) => errors.push(ValidationError {
                code: ValidationCode::InvalidToolPattern,
                message: format!("skill '{}' has an invalid tool pattern: {e}", skill.name),
                skill: Some(skill.name.clone()),
            }),
        }
    }

    let composition = (policies.len() == known.len()).then(|| compose_compiled(&policies, mode));
    if let Some(composition) = &composition {
        protocol_warnings(&known, composition, known_tools, &mut warnings);
    }
    let valid = errors.is_empty();
    (
        ValidationResult {
            valid,
            errors,
            warnings,
        },
        composition.filter(|_| valid),
    )
}

/// Each requested name once, with how often it was listed (V006 for repeats).
fn count_names<'n, S: AsRef<str>>(
    names: &'n [S],
    warnings: &mut Vec<String>,
) -> Vec<(&'n str, usize)> {
    let mut unique: Vec<(&str, usize)> = Vec::new();
    for name in names {
        let name = name.as_ref();
        match unique.iter_mut().find(|(n, _)| *n == name) {
            Some((_, count)) => *count += 1,
            None => unique.push((name, 1)),
        }
    }
    for (name, count) in &unique {
        if *count > 1 {
            warnings.push(format!(
                "V006: skill '{name}' is listed {count} times; it counts once"
            ));
        }
    }
    unique
}

/// V002 (a required companion is missing) and V003 (two skills exclude each other).
fn companion_errors(
    known: &[&Skill],
    requested: impl Fn(&str) -> bool,
    errors: &mut Vec<ValidationError>,
) {
    let mut conflicts: Vec<(&str, &str)> = Vec::new();
    for skill in known {
        let contract = &skill.contract;
        let requires = contract
            .composability_rules
            .iter()
            .filter(|r| r.kind == ComposabilityKind::Requires)
            .map(|r| (&r.skill, &r.reason))
            .chain(
                contract
                    .compatibility_rules
                    .iter()
                    .filter(|r| r.kind == CompatibilityKind::Requires)
                    .map(|r| (&r.skill, &r.reason)),
            );
        let mut reported: Vec<&str> = Vec::new();
        for (other, reason) in requires {
            if requested(other) || reported.contains(&other.as_str()) {
                continue;
            }
            reported.push(other);
            errors.push(ValidationError {
                code: ValidationCode::MissingCompanion,
                message: format!(
                    "skill '{}' requires skill '{other}', which is not in the set{}",
                    skill.name,
                    because(reason.as_deref())
                ),
                skill: Some(skill.name.clone()),
            });
        }
        let excludes = contract
            .compatibility_rules
            .iter()
            .filter(|r| r.kind == CompatibilityKind::Incompatible)
            .map(|r| (&r.skill, &r.reason))
            .chain(
                contract
                    .composability_rules
                    .iter()
                    .filter(|r| r.kind == ComposabilityKind::Forbids)
                    .map(|r| (&r.skill, &r.reason)),
            );
        for (other, reason) in excludes {
            let pair = (skill.name.as_str(), other.as_str());
            if *other == skill.name
                || !requested(other)
                || conflicts
                    .iter()
                    .any(|&(a, b)| (a, b) == pair || (b, a) == pair)
            {
                continue;
            }
            conflicts.push(pair);
            errors.push(ValidationError {
                code: ValidationCode::Incompatible,
                message: format!(
                    "skill '{}' is incompatible with skill '{other}'; they cannot be in one set{}",
                    skill.name,
                    because(reason.as_deref())
                ),
                skill: Some(skill.name.clone()),
            });
        }
    }
}

/// Protocol steps naming tools the composed set does not allow.
fn protocol_warnings(
    known: &[&Skill],
    composition: &Composition,
    known_tools: &[&str],
    warnings: &mut Vec<String>,
) {
    let gate = composition.quick_gate();
    for skill in known {
        for step in &skill.contract.execution_protocol {
            let Some(tool) = step_tool(step, known_tools) else {
                continue;
            };
            if !gate.tool_visible(tool) {
                let warning = format!(
                    "skill '{}': execution_protocol step '{step}' needs tool `{tool}`, which the skill set does not allow",
                    skill.name
                );
                if !warnings.contains(&warning) {
                    warnings.push(warning);
                }
            }
        }
    }
}

/// " (reason)" or "".
fn because(reason: Option<&str>) -> String {
    reason
        .filter(|r| !r.trim().is_empty())
        .map_or_else(String::new, |r| format!(" ({r})"))
}

/// The tool an execution-protocol step names, if any.
fn step_tool<'s>(step: &'s str, known_tools: &[&str]) -> Option<&'s str> {
    let step = step.trim();
    if let Some(tool) = step.strip_prefix("tool:") {
        let tool = tool.trim();
        return (!tool.is_empty()).then_some(tool);
    }
    let canonical = canonical_tool_name(step);
    known_tools
        .iter()
        .any(|t| *t == step || canonical_tool_name(t) == canonical)
        .then_some(step)
}

/// V004 and V005 for one skill.
fn overlap_warnings(skill: &Skill, policy: &Policy, warnings: &mut Vec<String>) {
    let Some(allow) = policy.allow() else {
        return;
    };
    if allow.is_empty() {
        warnings.push(format!(
            "V005: skill '{}' allows no tools (valid: a zero-capability skill)",
            skill.name
        ));
    }
    let deny = policy.deny();
    for (pattern, _) in allow.iter() {
        let forbidden =
            deny.iter().any(|(d, _)| d.key() == pattern.key()) || deny.denies_tool_of(pattern);
        if forbidden {
            warnings.push(format!(
                "V004: skill '{}' lists `{pattern}` as both allowed and forbidden; forbidden wins",
                skill.name
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use weft_types::{CompatibilityRule, ComposabilityRule, Scope, ToolPolicy};

    use super::*;

    fn skill(name: &str) -> Skill {
        Skill::in_memory(name, name, Scope::Builtin)
    }

    fn run(skills: &[Skill], names: &[&str], tools: &[&str]) -> ValidationResult {
        validate_skill_set(names, |n| skills.iter().find(|s| s.name == n), tools)
    }

    #[test]
    fn unknown_and_duplicate_skills() {
        let skills = [skill("a")];
        let r = run(&skills, &["a", "nope", "a"], &[]);
        assert!(!r.valid);
        assert_eq!(r.errors.len(), 1);
        assert_eq!(r.errors[0].code, ValidationCode::UnknownSkill);
        assert_eq!(r.errors[0].skill.as_deref(), Some("nope"));
        assert_eq!(
            r.warnings,
            ["V006: skill 'a' is listed 2 times; it counts once"]
        );
    }

    #[test]
    fn requirements_from_both_rule_kinds_are_reported_once() {
        let mut a = skill("a");
        a.contract.composability_rules.push(ComposabilityRule {
            kind: ComposabilityKind::Requires,
            skill: "b".into(),
            reason: None,
        });
        a.contract.compatibility_rules.push(CompatibilityRule {
            kind: CompatibilityKind::Requires,
            skill: "b".into(),
            reason: Some("needs b".into()),
        });
        let r = run(&[a, skill("b")], &["a"], &[]);
        assert_eq!(r.errors.len(), 1);
        assert_eq!(
            r.errors[0].message,
            "skill 'a' requires skill 'b', which is not in the set"
        );
    }

    #[test]
    fn incompatibilities_are_reported_once_per_pair() {
        let mut a = skill("a");
        a.contract.compatibility_rules.push(CompatibilityRule {
            kind: CompatibilityKind::Incompatible,
            skill: "b".into(),
            reason: Some("they fight".into()),
        });
        let mut b = skill("b");
        b.contract.composability_rules.push(ComposabilityRule {
            kind: ComposabilityKind::Forbids,
            skill: "a".into(),
            reason: None,
        });
        let r = run(&[a, b], &["a", "b"], &[]);
        assert_eq!(r.errors.len(), 1);
        assert_eq!(r.errors[0].code, ValidationCode::Incompatible);
        assert_eq!(
            r.errors[0].message,
            "skill 'a' is incompatible with skill 'b'; they cannot be in one set (they fight)"
        );
    }

    #[test]
    fn invalid_patterns_are_errors() {
        let mut a = skill("a");
        a.tools = ToolPolicy::allow_only(["Bash("]);
        let r = run(&[a], &["a"], &[]);
        assert_eq!(r.errors[0].code, ValidationCode::InvalidToolPattern);
        assert!(
            r.errors[0].message.contains("unbalanced parentheses"),
            "{}",
            r.errors[0].message
        );
    }

    #[test]
    fn protocol_steps_naming_tools() {
        let mut a = skill("a");
        a.tools = ToolPolicy::allow_only(["Read"]);
        a.contract.execution_protocol = vec![
            "tool:read_file".into(),
            "tool:write".into(),
            "Bash".into(),
            "plan".into(),
        ];
        let r = run(&[a], &["a"], &["exec_shell", "read_file"]);
        assert!(r.valid);
        assert_eq!(
            r.warnings,
            [
                "skill 'a': execution_protocol step 'tool:write' needs tool `write`, which the skill set does not allow",
                "skill 'a': execution_protocol step 'Bash' needs tool `Bash`, which the skill set does not allow",
            ]
        );
    }

    #[test]
    fn codes_serialize_as_v_codes() {
        assert_eq!(
            serde_json::to_string(&ValidationCode::UnknownSkill).unwrap(),
            "\"V001\""
        );
        assert_eq!(ValidationCode::InvalidToolPattern.to_string(), "V007");
    }
}
