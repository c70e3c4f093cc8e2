//! What holds only for the current turn: the active skills and what they brought (a
//! narrower gate, a model, an effort, readable directories, pre-approvals). A turn ends by
//! replacing it with the default, so nothing a skill set can outlive its turn by being
//! forgotten in a reset.

use weft_llm::ModelRef;
use weft_permissions::{PreApproval, ToolGate};
use weft_tools::ReadGrant;

/// The state of the current turn; [`Default`] is a turn without active skills.
#[derive(Debug, Default)]
pub(super) struct TurnState {
    /// Skills active in this turn, in activation order.
    pub(super) active_skills: Vec<String>,
    /// The agent's gate narrowed by the active skills; `None` when none narrows it.
    pub(super) gate: Option<ToolGate>,
    /// The model of this turn when an active skill chose one (`model:`).
    pub(super) model: Option<ModelRef>,
    /// The reasoning effort of this turn when an active skill set one (`effort:`).
    pub(super) effort: Option<String>,
    /// The directories of the skills active in this turn, readable until it ends.
    pub(super) grants: Vec<ReadGrant>,
    /// The `allowed-tools` of the trusted skills active in this turn, pre-approving what
    /// they match until it ends (Claude Code's meaning of the field).
    pub(super) pre_approvals: Vec<PreApproval>,
}

/// What the last skill loaded left behind, read after it (`--dry-run` prints both): kept
/// past the turn, replaced by the next skill.
#[derive(Debug, Default)]
pub(super) struct LastSkill {
    /// What its body left unfilled.
    pub(super) unfilled: Vec<String>,
    /// Its dynamic-context commands and what became of them.
    pub(super) dynamic: Vec<super::DynamicCommand>,
}
