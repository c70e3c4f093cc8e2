//! Tool policies in string form, as written in skills and agents.

/// What a skill or agent says about tools, before any pattern is compiled.
///
/// `allow: None` means "no restriction from this definition"; `allow: Some(vec![])` means
/// "no tools at all". `deny` always wins over `allow`.
///
/// ```
/// use weft_types::ToolPolicy;
///
/// let unrestricted = ToolPolicy::default();
/// assert!(unrestricted.allow.is_none());
/// let nothing = ToolPolicy::allow_only(Vec::<String>::new());
/// assert_eq!(nothing.allow.as_deref(), Some(&[][..]));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ToolPolicy {
    /// Tool patterns this definition allows; `None` when it declares none.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub allow: Option<Vec<String>>,
    /// Tool patterns this definition forbids.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub deny: Vec<String>,
}

impl ToolPolicy {
    /// A policy that allows exactly `patterns` and denies nothing.
    pub fn allow_only<S: Into<String>>(patterns: impl IntoIterator<Item = S>) -> Self {
        Self {
            allow: Some(patterns.into_iter().map(Into::into).collect()),
            deny: Vec::new(),
        }
    }

    /// True when the policy neither allows nor denies anything explicitly.
    pub fn is_unrestricted(&self) -> bool {
        self.allow.is_none() && self.deny.is_empty()
    }
}
