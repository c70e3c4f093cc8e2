//! The context-aware skill selector (seed 001 FR-006, FR-007): which skills a task gets.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use weft_registry::Snapshot;
use weft_registry::matcher::{DEFAULT_MIN_CONFIDENCE, TriggerMatcher};
use weft_types::{CompatibilityKind, ComposabilityKind, Skill};

/// The skills every coding task gets, together (FR-007).
pub const CODING_SKILLS: [&str; 2] = ["specification-engine", "opencode-implementer"];

/// At most this many skills are added from the description (companions come on top).
pub const MAX_MATCHED_SKILLS: usize = 3;

/// How much damage a task could do.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RiskLevel {
    /// Reversible, local.
    #[default]
    Low,
    /// Changes that need review.
    Medium,
    /// Production, money, data loss.
    High,
}

impl RiskLevel {
    /// The confidence a description match needs: higher-risk tasks only get skills the
    /// matcher is surer of.
    pub fn min_confidence(self) -> f32 {
        match self {
            RiskLevel::Low | RiskLevel::Medium => DEFAULT_MIN_CONFIDENCE,
            RiskLevel::High => 0.7,
        }
    }
}

/// A risk level that is none of `low`, `medium`, `high`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown risk level `{0}` (low, medium, high)")]
pub struct UnknownRiskLevel(pub String);

impl FromStr for RiskLevel {
    type Err = UnknownRiskLevel;
    fn from_str(s: &str) -> Result<Self, UnknownRiskLevel> {
        match s {
            "low" => Ok(RiskLevel::Low),
            "medium" => Ok(RiskLevel::Medium),
            "high" => Ok(RiskLevel::High),
            other => Err(UnknownRiskLevel(other.to_owned())),
        }
    }
}

impl fmt::Display for RiskLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RiskLevel::Low => "low",
            RiskLevel::Medium => "medium",
            RiskLevel::High => "high",
        })
    }
}

/// What the selector knows about a task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskContext {
    /// The task in words.
    pub description: String,
    /// How risky it is.
    #[serde(default)]
    pub risk_level: RiskLevel,
    /// Whether it changes code.
    #[serde(default)]
    pub coding: bool,
}

/// Selects the skills for `task` from `snapshot`:
///
/// 1. a coding task always gets both [`CODING_SKILLS`] (FR-007);
/// 2. up to [`MAX_MATCHED_SKILLS`] model-invocable skills whose trigger match on the
///    description reaches the risk level's minimum confidence are added, best first;
///    a non-coding task never gets a coding skill (one of [`CODING_SKILLS`], or one that
///    requires one of them);
/// 3. required companions are added by closure, so no pipeline is left incomplete;
/// 4. a skill incompatible with one already chosen is left out (the earlier choice wins).
///
/// The result is in selection order and has no duplicates.
pub fn select_skills(snapshot: &Snapshot, task: &TaskContext) -> Vec<String> {
    let mut selected: Vec<String> = Vec::new();
    if task.coding {
        for name in CODING_SKILLS {
            push_with_companions(snapshot, name, &mut selected);
        }
    }
    let matcher = TriggerMatcher::new(snapshot.model_invocable().map(|e| &e.skill))
        .with_min_confidence(task.risk_level.min_confidence());
    let mut matched = 0;
    for m in matcher.rank(&task.description) {
        if matched == MAX_MATCHED_SKILLS || m.confidence < task.risk_level.min_confidence() {
            break;
        }
        if !m.model_invocable || selected.contains(&m.name) {
            continue;
        }
        if !task.coding && is_coding_skill(snapshot, &m.name) {
            continue;
        }
        if conflicts(snapshot, &m.name, &selected) {
            continue;
        }
        push_with_companions(snapshot, &m.name, &mut selected);
        matched += 1;
    }
    selected
}

fn skill<'s>(snapshot: &'s Snapshot, name: &str) -> Option<&'s Skill> {
    snapshot.get(name).map(|e| &e.skill)
}

/// The names `skill` requires (composability `requires` and compatibility `requires`).
fn requirements(skill: &Skill) -> impl Iterator<Item = &str> {
    let c = &skill.contract;
    c.composability_rules
        .iter()
        .filter(|r| r.kind == ComposabilityKind::Requires)
        .map(|r| r.skill.as_str())
        .chain(
            c.compatibility_rules
                .iter()
                .filter(|r| r.kind == CompatibilityKind::Requires)
                .map(|r| r.skill.as_str()),
        )
}

/// The names `skill` cannot be combined with.
fn exclusions(skill: &Skill) -> impl Iterator<Item = &str> {
    let c = &skill.contract;
    c.composability_rules
        .iter()
        .filter(|r| r.kind == ComposabilityKind::Forbids)
        .map(|r| r.skill.as_str())
        .chain(
            c.compatibility_rules
                .iter()
                .filter(|r| r.kind == CompatibilityKind::Incompatible)
                .map(|r| r.skill.as_str()),
        )
}

/// Adds `name` and, transitively, everything it requires that exists.
fn push_with_companions(snapshot: &Snapshot, name: &str, selected: &mut Vec<String>) {
    let mut queue = vec![name.to_owned()];
    while let Some(next) = queue.pop() {
        if selected.contains(&next) {
            continue;
        }
        let Some(s) = skill(snapshot, &next) else {
            tracing::debug!(skill = %next, "required companion is not registered");
            continue;
        };
        let mut required: Vec<String> = requirements(s).map(str::to_owned).collect();
        // Popped from the back: reverse so companions are added in declaration order.
        required.reverse();
        queue.extend(required);
        selected.push(next);
    }
}

/// A coding skill is one of [`CODING_SKILLS`] or one that (transitively) requires one.
fn is_coding_skill(snapshot: &Snapshot, name: &str) -> bool {
    let mut seen: Vec<String> = Vec::new();
    let mut queue = vec![name.to_owned()];
    while let Some(next) = queue.pop() {
        if CODING_SKILLS.contains(&next.as_str()) {
            return true;
        }
        if seen.contains(&next) {
            continue;
        }
        if let Some(s) = skill(snapshot, &next) {
            queue.extend(requirements(s).map(str::to_owned));
        }
        seen.push(next);
    }
    false
}

/// True when `name` (or a companion it would bring) excludes a chosen skill or is excluded
/// by one.
fn conflicts(snapshot: &Snapshot, name: &str, selected: &[String]) -> bool {
    let mut candidate = Vec::new();
    push_with_companions(snapshot, name, &mut candidate);
    candidate.iter().any(|c| {
        let c_excludes = skill(snapshot, c)
            .is_some_and(|s| exclusions(s).any(|x| selected.iter().any(|sel| sel == x)));
        let excluded = selected
            .iter()
            .any(|sel| skill(snapshot, sel).is_some_and(|s| exclusions(s).any(|x| x == c)));
        c_excludes || excluded
    })
}
