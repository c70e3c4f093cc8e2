//! Reasons: every refusal names the rule and the definition it came from.

use serde_json::Value;

use crate::name::ToolName;
use crate::spec::{Verdict, Why};
use crate::{Effect, Origin, PatternSet, Policy, ToolPattern};

/// A shell call whose command cannot be read, under scoped denies.
pub(super) fn unjudgeable_deny(deny: &PatternSet, name: &ToolName<'_>, why: &Why) -> String {
    let scoped = deny.scoped_for(name);
    let (pattern, origin) = deny.entry(scoped[0]);
    format!(
        "{} (it cannot be checked against `{pattern}`, forbidden by {origin})",
        why.describe()
    )
}

/// A shell call whose command cannot be read, under scoped allows.
pub(super) fn unjudgeable_allow(allow: &PatternSet, name: &ToolName<'_>, why: &Why) -> String {
    let scoped = allow.scoped_for(name);
    let (pattern, origin) = allow.entry(scoped[0]);
    format!(
        "{} (needed to check `{pattern}` from {origin})",
        why.describe()
    )
}

/// Why a deny pattern applies.
pub(super) fn deny_reason(
    name: &ToolName<'_>,
    deny: &PatternSet,
    index: usize,
    input: &Value,
) -> String {
    let (pattern, origin) = deny.entry(index);
    let tool = name.given;
    if !pattern.is_scoped() {
        // The common denial, built without the formatting machinery.
        let mut reason = String::with_capacity(64 + tool.len() + pattern.as_str().len());
        reason.push('`');
        reason.push_str(tool);
        reason.push_str("` is forbidden by ");
        origin.push_to(&mut reason);
        if pattern.as_str() != tool {
            reason.push_str(" (rule `");
            reason.push_str(pattern.as_str());
            reason.push_str("`)");
        }
        return reason;
    }
    match pattern.verdict(input, Effect::Deny) {
        Verdict::Unjudgeable(why) => format!(
            "{} (it cannot be checked against `{pattern}`, forbidden by {origin})",
            why.describe()
        ),
        _ => format!(
            "`{tool}` {}matches `{pattern}`, forbidden by {origin}",
            subject(pattern, input)
        ),
    }
}

/// Why no allow pattern applies.
pub(super) fn not_allowed_reason(
    name: &ToolName<'_>,
    layer: &Policy,
    allow: &PatternSet,
    input: &Value,
) -> String {
    let tool = name.given;
    let scoped = allow.scoped_for(name);
    if scoped.is_empty() {
        let grantors = list(layer.grantors().map(Origin::to_string), "the policy");
        let allowed = list(allow.iter().map(|(p, _)| p.to_string()), "none");
        return format!("`{tool}` is not in the tools allowed by {grantors} (allowed: {allowed})");
    }
    for &index in &scoped {
        let (pattern, origin) = allow.entry(index);
        if let Verdict::Unjudgeable(why) = pattern.verdict(input, Effect::Allow) {
            return format!(
                "{} (needed to check `{pattern}` from {origin})",
                why.describe()
            );
        }
    }
    let (first, _) = allow.entry(scoped[0]);
    let rules = list(
        scoped.iter().map(|&i| {
            let (pattern, origin) = allow.entry(i);
            format!("`{pattern}` from {origin}")
        }),
        "none",
    );
    format!(
        "`{tool}` {}is outside the allowed {rules}",
        subject(first, input)
    )
}

/// "call `git push` " for a scoped pattern whose subject is known, else "".
fn subject(pattern: &ToolPattern, input: &Value) -> String {
    pattern
        .specifier()
        .and_then(|s| s.subject(input))
        .map_or_else(String::new, |s| format!("call `{s}` "))
}

/// Items joined by ", " (at most 12, then "…"), or `empty`.
pub(crate) fn list(items: impl Iterator<Item = String>, empty: &str) -> String {
    const MAX: usize = 12;
    let mut out = String::new();
    for (i, item) in items.enumerate() {
        if i == MAX {
            out.push_str(", …");
            break;
        }
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&item);
    }
    if out.is_empty() {
        empty.to_owned()
    } else {
        out
    }
}
