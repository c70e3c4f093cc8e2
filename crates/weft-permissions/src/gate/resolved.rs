//! Path rules on real paths: a call's path is judged as spelled and as it resolves.
//!
//! `Read(src/**)` must not admit `src/notes.txt` when that is a symbolic link to `../.env`,
//! and `Read(/etc/**)` denied must not be dodged by a link that leads there. The gate is pure,
//! so the caller resolves the path (symbolic links followed, as the tool will follow them) and
//! passes both inputs; both must pass, and a denial of either denies.

use serde_json::Value;

use super::{Decision, ToolGate};
use crate::spec::shorten;

/// The input keys that hold the path a file or search tool works on.
pub const PATH_KEYS: [&str; 2] = ["path", "file_path"];

impl ToolGate {
    /// Checks a call as [`check`](Self::check) does, on its path as spelled in `input` and on
    /// `real`, the same input with the path replaced by its real path (symbolic links
    /// resolved by the caller; `None` when there is no path or it could not be resolved).
    ///
    /// ```
    /// use serde_json::json;
    /// use weft_permissions::{Origin, PatternContext, Policy, ToolGate};
    ///
    /// let ctx = PatternContext::new().with_working_dir("/p");
    /// let gate = ToolGate::new([Policy::from_lists(Some(&["Read(src/**)"][..]), &[], Origin::Session, &ctx)?]);
    /// let spelled = json!({"path": "src/notes.txt"});
    /// assert!(gate.check("read_file", &spelled).is_allowed());
    /// let real = json!({"path": "/p/.env"});
    /// assert_eq!(
    ///     gate.check_resolved("read_file", &spelled, Some(&real)).to_string(),
    ///     "denied: `src/notes.txt` resolves to `/p/.env`: `read_file` call `/p/.env` is outside the allowed `Read(src/**)` from the session",
    /// );
    /// # Ok::<(), weft_permissions::PolicyError>(())
    /// ```
    pub fn check_resolved(&self, tool: &str, input: &Value, real: Option<&Value>) -> Decision {
        let spelled = self.check(tool, input);
        let Some(real) = real.filter(|r| *r != input) else {
            return spelled;
        };
        if spelled.is_denied() {
            return spelled;
        }
        let link = || {
            format!(
                "`{}` resolves to `{}`",
                shorten(path_of(input).unwrap_or("")),
                shorten(path_of(real).unwrap_or(""))
            )
        };
        match self.check(tool, real) {
            Decision::Denied { reason } => Decision::Denied {
                reason: reason.within(&link()),
            },
            Decision::Ask { reason } if !spelled.is_ask() => Decision::Ask {
                reason: reason.within(&link()),
            },
            _ => spelled,
        }
    }
}

/// The path of a call's input, under the first of [`PATH_KEYS`] present.
pub fn path_of(input: &Value) -> Option<&str> {
    PATH_KEYS
        .iter()
        .find_map(|k| input.get(*k).and_then(Value::as_str))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::{Origin, PatternContext, Policy};

    fn gate(allow: Option<&[&str]>, deny: &[&str]) -> ToolGate {
        let ctx = PatternContext::new().with_working_dir("/p");
        ToolGate::new([Policy::from_lists(allow, deny, Origin::Session, &ctx).unwrap()])
    }

    #[test]
    fn both_the_spelled_and_the_real_path_must_pass() {
        let read = gate(Some(&["Read(src/**)"]), &[]);
        let spelled = json!({"path": "src/a.rs"});
        // A link inside the allowed tree to another place inside it.
        let inside = json!({"path": "/p/src/b.rs"});
        assert!(
            read.check_resolved("read_file", &spelled, Some(&inside))
                .is_allowed()
        );
        // A path spelled outside that resolves inside is refused too.
        let outside_spelled = json!({"path": "docs/link.rs"});
        assert!(
            read.check_resolved("read_file", &outside_spelled, Some(&inside))
                .is_denied()
        );
        // Without a real path, the spelled one decides.
        assert!(
            read.check_resolved("read_file", &spelled, None)
                .is_allowed()
        );
    }

    #[test]
    fn a_deny_on_either_path_denies() {
        let deny = gate(None, &["Read(/home/me/.ssh/**)"]);
        let spelled = json!({"file_path": "notes/key"});
        let real = json!({"file_path": "/home/me/.ssh/id_ed25519"});
        assert!(deny.check("Read", &spelled).is_allowed());
        assert_eq!(
            deny.check_resolved("Read", &spelled, Some(&real))
                .to_string(),
            "denied: `notes/key` resolves to `/home/me/.ssh/id_ed25519`: `Read` call `/home/me/.ssh/id_ed25519` matches `Read(/home/me/.ssh/**)`, forbidden by the session"
        );
        assert_eq!(path_of(&json!({"x": 1})), None);
    }
}
