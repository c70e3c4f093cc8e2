//! A child's environment without secrets: the parent's variables minus every name that looks
//! like a credential, unless the user passes it through by name.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};

/// Name endings (compared case-insensitively, after `_` or as the whole name) of the
/// variables removed: `OPENAI_API_KEY`, `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`,
/// `DB_PASSWORD`, ...
pub const SECRET_SUFFIXES: [&str; 9] = [
    "API_KEY",
    "APIKEY",
    "TOKEN",
    "SECRET",
    "SECRET_KEY",
    "ACCESS_KEY",
    "PRIVATE_KEY",
    "PASSWORD",
    "PASSWD",
];

/// Whether `name` ends in one of [`SECRET_SUFFIXES`].
///
/// ```
/// use weft_sandbox::is_secret_name;
///
/// assert!(is_secret_name("ANTHROPIC_API_KEY"));
/// assert!(is_secret_name("gh_token"));
/// assert!(!is_secret_name("TOKENIZERS_PARALLELISM"));
/// assert!(!is_secret_name("PATH"));
/// ```
pub fn is_secret_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    SECRET_SUFFIXES.iter().any(|suffix| {
        upper == *suffix
            || upper
                .strip_suffix(suffix)
                .is_some_and(|rest| rest.ends_with('_'))
    })
}

/// Which variables a child does not get: every [secret-looking name](is_secret_name) and the
/// names added with [`also_remove`](Self::also_remove) (a provider's `api_key_env`), except
/// those named by [`passthrough`](Self::passthrough) (exact, case-sensitive names).
///
/// ```
/// use std::ffi::OsString;
/// use weft_sandbox::EnvScrub;
///
/// let parent = [("PATH", "/bin"), ("OPENAI_API_KEY", "sk-1"), ("GH_TOKEN", "t"), ("MY_LLM", "k")]
///     .map(|(k, v)| (OsString::from(k), OsString::from(v)));
/// let child = EnvScrub::new().passthrough(["GH_TOKEN"]).also_remove(["MY_LLM"]).apply(parent);
/// let names: Vec<_> = child.keys().map(|k| k.to_str().unwrap()).collect();
/// assert_eq!(names, ["GH_TOKEN", "PATH"]);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnvScrub {
    passthrough: BTreeSet<String>,
    also_remove: BTreeSet<String>,
}

impl EnvScrub {
    /// Removes the secret-looking names only.
    pub fn new() -> Self {
        Self::default()
    }

    /// Keeps these names even if they look like secrets.
    #[must_use]
    pub fn passthrough<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.passthrough.extend(names.into_iter().map(Into::into));
        self
    }

    /// Removes these names too (unless passed through).
    #[must_use]
    pub fn also_remove<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.also_remove.extend(names.into_iter().map(Into::into));
        self
    }

    /// Whether the variable `name` is withheld from the child.
    pub fn removes(&self, name: &OsStr) -> bool {
        let name = name.to_string_lossy();
        if self.passthrough.contains(name.as_ref()) {
            return false;
        }
        self.also_remove.contains(name.as_ref()) || is_secret_name(&name)
    }

    /// The child's environment: `vars` without the withheld names.
    pub fn apply(
        &self,
        vars: impl IntoIterator<Item = (OsString, OsString)>,
    ) -> BTreeMap<OsString, OsString> {
        vars.into_iter()
            .filter(|(name, _)| !self.removes(name))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_match_after_an_underscore_or_whole_and_ignore_case() {
        for secret in [
            "OPENAI_API_KEY",
            "ANTHROPIC_API_KEY",
            "GITHUB_TOKEN",
            "aws_secret_access_key",
            "AWS_SESSION_TOKEN",
            "STRIPE_SECRET_KEY",
            "DB_PASSWORD",
            "TOKEN",
            "My_Service_Secret",
            "GEMINI_APIKEY",
        ] {
            assert!(is_secret_name(secret), "{secret}");
        }
        for plain in [
            "PATH",
            "HOME",
            "OPENAI_BASE_URL",
            "TOKENIZERS_PARALLELISM",
            "XAPI_KEY_PATH",
            "NOTOKEN",
            "SECRETARY",
            "SSH_AUTH_SOCK",
        ] {
            assert!(!is_secret_name(plain), "{plain}");
        }
    }

    #[test]
    fn passthrough_beats_both_lists() {
        let scrub = EnvScrub::new()
            .passthrough(["CI_TOKEN", "MINE"])
            .also_remove(["MINE", "OTHER"]);
        assert!(!scrub.removes(OsStr::new("CI_TOKEN")));
        assert!(!scrub.removes(OsStr::new("MINE")));
        assert!(scrub.removes(OsStr::new("OTHER")));
        assert!(scrub.removes(OsStr::new("ci_token")));
    }
}
