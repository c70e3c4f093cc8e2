//! Where a pattern came from, for denial reasons.

use std::fmt;

/// The definition a pattern or policy came from: named in every denial reason.
///
/// ```
/// use weft_permissions::Origin;
///
/// assert_eq!(Origin::Skill("opencode-implementer".into()).to_string(), "skill 'opencode-implementer'");
/// assert_eq!(Origin::Agent("explore".into()).to_string(), "agent 'explore'");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Origin {
    /// A skill, by name.
    Skill(String),
    /// An agent definition, by name.
    Agent(String),
    /// The session's own configuration.
    Session,
    /// The parent agent (the ceiling a subagent lives within).
    Parent,
    /// The read-only restriction of background subagents.
    Background,
    /// An empty skill set (zero skills compose to zero capability).
    EmptySkillSet,
    /// Anything else, shown as written.
    Other(String),
}

impl Origin {
    /// Appends the display form to `out` (what `to_string` gives, without `fmt`).
    pub(crate) fn push_to(&self, out: &mut String) {
        let (before, name, after) = match self {
            Origin::Skill(name) => ("skill '", name.as_str(), "'"),
            Origin::Agent(name) => ("agent '", name.as_str(), "'"),
            Origin::Session => ("the session", "", ""),
            Origin::Parent => ("the parent agent", "", ""),
            Origin::Background => ("background subagent mode", "", ""),
            Origin::EmptySkillSet => ("the empty skill set", "", ""),
            Origin::Other(text) => ("", text.as_str(), ""),
        };
        out.push_str(before);
        out.push_str(name);
        out.push_str(after);
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Skill(name) => write!(f, "skill '{name}'"),
            Origin::Agent(name) => write!(f, "agent '{name}'"),
            Origin::Session => f.write_str("the session"),
            Origin::Parent => f.write_str("the parent agent"),
            Origin::Background => f.write_str("background subagent mode"),
            Origin::EmptySkillSet => f.write_str("the empty skill set"),
            Origin::Other(text) => f.write_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_to_agrees_with_display() {
        for origin in [
            Origin::Skill("s".into()),
            Origin::Agent("a".into()),
            Origin::Session,
            Origin::Parent,
            Origin::Background,
            Origin::EmptySkillSet,
            Origin::Other("the config file".into()),
        ] {
            let mut pushed = String::new();
            origin.push_to(&mut pushed);
            assert_eq!(pushed, origin.to_string());
        }
    }
}
