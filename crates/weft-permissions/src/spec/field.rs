//! Field specifiers: `Skill(name)`, `Agent(worker, researcher)`, `tool(param:value)`.
//!
//! The named input field (a string, number or boolean) must match one of the alternatives, each
//! a `*` wildcard. For `Skill(...)` a trailing ` *` or `:*` (Claude Code's "with any
//! arguments") is dropped: `use_skill` takes its arguments separately.

use serde_json::Value;

use super::{Verdict, scalar, shorten};
use crate::PatternErrorKind;
use crate::wildcard::Wildcard;

/// A compiled field specifier.
#[derive(Debug, Clone)]
pub(crate) struct FieldSpec {
    /// The input fields read, in order of preference.
    keys: Vec<&'static str>,
    /// For `param:value` on other tools, the parameter (owned).
    param: Option<String>,
    alternatives: Vec<Wildcard>,
    texts: Vec<String>,
}

impl FieldSpec {
    /// A comma-separated list of names for the fields `keys`. `None` admits every call.
    pub(crate) fn names(keys: &[&'static str], spec: &str) -> Option<Self> {
        let mut texts = Vec::new();
        for name in spec.split(',') {
            let name = name.trim();
            let name = name
                .strip_suffix(":*")
                .or_else(|| name.strip_suffix(" *"))
                .unwrap_or(name)
                .trim();
            if name.is_empty() || name == "*" {
                return None;
            }
            texts.push(name.to_owned());
        }
        Some(Self {
            keys: keys.to_vec(),
            param: None,
            alternatives: texts.iter().map(|t| Wildcard::new(t)).collect(),
            texts,
        })
    }

    /// `param:value` for a tool without a grammar of its own.
    pub(crate) fn param(tool: &str, spec: &str) -> Result<Self, PatternErrorKind> {
        let Some((param, value)) = spec.split_once(':') else {
            use weft_types::tool_names::{CLAUDE_CODE_ONLY_TOOLS, OTHER_RUNTIME_TOOLS};
            // A tool weft does not have (`PowerShell`): its own grammar is not known here, and
            // suggesting `param:value` would be wrong advice for it.
            if CLAUDE_CODE_ONLY_TOOLS.contains(&tool) || OTHER_RUNTIME_TOOLS.contains(&tool) {
                return Err(PatternErrorKind::Specifier(format!(
                    "`{tool}` is a tool of another runtime, which weft does not have"
                )));
            }
            return Err(PatternErrorKind::Specifier(format!(
                "`{tool}` has no specifier grammar of its own: write `{tool}(param:value)`"
            )));
        };
        let (param, value) = (param.trim(), value.trim());
        if param.is_empty() || param.contains(char::is_whitespace) {
            return Err(PatternErrorKind::Specifier(format!(
                "`{tool}(param:value)` needs a parameter name"
            )));
        }
        Ok(Self {
            keys: Vec::new(),
            param: Some(param.to_owned()),
            alternatives: vec![Wildcard::new(value)],
            texts: vec![value.to_owned()],
        })
    }

    fn value<'v>(&self, input: &'v Value) -> Result<std::borrow::Cow<'v, str>, super::Why> {
        match &self.param {
            Some(param) => match input.get(param.as_str()) {
                Some(Value::String(s)) => Ok(s.as_str().into()),
                Some(Value::Number(n)) => Ok(n.to_string().into()),
                Some(Value::Bool(b)) => Ok(b.to_string().into()),
                Some(Value::Null) | None => Err(super::Why::Missing(param.clone())),
                Some(_) => Err(super::Why::NotScalar(param.clone())),
            },
            None => scalar(input, &self.keys),
        }
    }

    /// Compares the call's field with the alternatives.
    pub(crate) fn verdict(&self, input: &Value) -> Verdict {
        match self.value(input) {
            Ok(value) if self.alternatives.iter().any(|a| a.matches(&value)) => Verdict::Match,
            Ok(_) => Verdict::NoMatch,
            Err(why) => Verdict::Unjudgeable(why),
        }
    }

    /// The field's value, shortened, for denial reasons.
    pub(crate) fn subject(&self, input: &Value) -> Option<String> {
        self.value(input).ok().map(|v| shorten(&v))
    }

    /// The specifier in canonical form.
    pub(crate) fn write_key(&self, out: &mut String) {
        if let Some(param) = &self.param {
            out.push_str(param);
            out.push(':');
        }
        for (i, text) in self.texts.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(text);
        }
    }

    #[cfg(test)]
    fn key(&self) -> String {
        let mut out = String::new();
        self.write_key(&mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_specifier_without_param_says_why_for_tools_weft_has_and_lacks() {
        let message = |tool: &str| match FieldSpec::param(tool, "Get-Service *") {
            Err(PatternErrorKind::Specifier(m)) => m,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            message("PowerShell"),
            "`PowerShell` is a tool of another runtime, which weft does not have"
        );
        assert_eq!(
            message("deploy"),
            "`deploy` has no specifier grammar of its own: write `deploy(param:value)`"
        );
    }

    #[test]
    fn names_with_alternatives() {
        let spec = FieldSpec::names(&["agent", "subagent_type"], "worker, research*").unwrap();
        assert_eq!(spec.verdict(&json!({"agent": "worker"})), Verdict::Match);
        assert_eq!(
            spec.verdict(&json!({"subagent_type": "researcher"})),
            Verdict::Match
        );
        assert_eq!(spec.verdict(&json!({"agent": "coder"})), Verdict::NoMatch);
        assert!(matches!(spec.verdict(&json!({})), Verdict::Unjudgeable(_)));
        assert!(FieldSpec::names(&["skill"], "*").is_none());
        let skill = FieldSpec::names(&["skill"], "deploy *").unwrap();
        assert_eq!(
            skill.verdict(&json!({"skill": "deploy", "args": "x"})),
            Verdict::Match
        );
    }

    #[test]
    fn params_for_other_tools() {
        let spec = FieldSpec::param("github__create_issue", "repo:weft/*").unwrap();
        assert_eq!(spec.verdict(&json!({"repo": "weft/main"})), Verdict::Match);
        assert_eq!(spec.verdict(&json!({"repo": "other/x"})), Verdict::NoMatch);
        assert!(matches!(
            spec.verdict(&json!({"repo": [1]})),
            Verdict::Unjudgeable(_)
        ));
        assert!(FieldSpec::param("specKit", "anything").is_err());
        assert!(FieldSpec::param("specKit", ":x").is_err());
        assert_eq!(spec.key(), "repo:weft/*");
    }
}
