//! Whether the project is trusted, and what an untrusted project's `config.json` may set.
//!
//! A project is part of a repository the user may not have written. Its configuration file is
//! read through an allow-list ([`PROJECT_KEYS`]): model choice and the catalog budget apply,
//! every other key (providers, MCP servers, the sandbox, permissions, tools, limits,
//! transcripts, keys weft does not know) is dropped with a warning naming it. Trust is
//! explicit: the caller's flag, or the project listed as trusted in the user's own
//! configuration (`projects.<path>.trust_level`), which is read before the project's file.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

/// Why the project's files are (or are not) trusted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ProjectTrust {
    /// Not trusted: only [`PROJECT_KEYS`] of its configuration apply, its agents stay within
    /// the user's limits, and its skills and agents overriding others are warned about.
    #[default]
    Untrusted,
    /// Trusted for this invocation (`--trust-project`).
    Flag,
    /// Listed with `"trust_level": "trusted"` under `projects` in this configuration file.
    Listed(PathBuf),
}

impl ProjectTrust {
    /// True unless [`Untrusted`](Self::Untrusted).
    pub fn is_trusted(&self) -> bool {
        !matches!(self, Self::Untrusted)
    }

    /// Decides: the flag, else the `projects` table of the user's files (`~/.clawft/config.json`
    /// and `--config`, in that order; the last that names the project decides). A file that
    /// cannot be read trusts nothing (loading the configuration reports it).
    pub fn decide(
        flag: bool,
        project: Option<&Path>,
        home: Option<&Path>,
        user_files: &[&Path],
    ) -> Self {
        if flag {
            return Self::Flag;
        }
        let Some(project) = project else {
            return Self::Untrusted;
        };
        let mut trust = Self::Untrusted;
        for file in user_files {
            let value = match crate::config::read_file(file, false) {
                Ok(Some((_, value))) => value,
                Ok(None) => continue,
                Err(e) => {
                    tracing::debug!(error = %e, "trusted projects not read");
                    continue;
                }
            };
            match listed_level(&value, project, home) {
                Some(TrustLevel::Trusted) => trust = Self::Listed(file.to_path_buf()),
                Some(TrustLevel::Untrusted) => trust = Self::Untrusted,
                None => {}
            }
        }
        trust
    }
}

/// `projects.<path>` in a user's configuration file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProjectSettings {
    /// `trusted`: the project's configuration applies in full and its agents are not
    /// clamped; `untrusted`: as if it were not listed.
    pub trust_level: Option<TrustLevel>,
}

/// How far a listed project is trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TrustLevel {
    /// Trusted.
    Trusted,
    /// Not trusted.
    Untrusted,
}

/// The trust level `value` (a user's config file) gives `project`: its `projects` keys are
/// directories (`~/` is the home directory), compared after resolving links.
fn listed_level(value: &Value, project: &Path, home: Option<&Path>) -> Option<TrustLevel> {
    let projects = value.get("projects")?.as_object()?;
    let project = canonical(project);
    let mut level = None;
    for (key, settings) in projects {
        let dir = match (key.strip_prefix("~/"), home) {
            (Some(rest), Some(home)) => home.join(rest),
            _ => PathBuf::from(key),
        };
        if canonical(&dir) != project {
            continue;
        }
        if let Some(l) = settings
            .get("trust_level")
            .and_then(|l| TrustLevel::deserialize(l).ok())
        {
            level = Some(l);
        }
    }
    level
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// What a value allowed in an untrusted project file must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyType {
    /// A string.
    String,
    /// A number.
    Number,
    /// A whole number that fits in 32 bits.
    U32,
    /// A whole number that fits in 64 bits.
    U64,
    /// `false` only: the key can switch something off, never on (a skill, the built-ins).
    False,
    /// A list of strings.
    StringList,
}

impl KeyType {
    fn accepts(self, value: &Value) -> bool {
        match self {
            Self::String => value.is_string(),
            Self::Number => value.is_number(),
            Self::U32 => value.as_u64().is_some_and(|n| u32::try_from(n).is_ok()),
            Self::U64 => value.is_u64(),
            Self::False => value == &Value::Bool(false),
            Self::StringList => value
                .as_array()
                .is_some_and(|items| items.iter().all(Value::is_string)),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::String => "a string",
            Self::Number => "a number",
            Self::U32 | Self::U64 => "a whole number",
            Self::False => "`false` (a project can switch it off, not on)",
            Self::StringList => "a list of strings",
        }
    }
}

/// The keys an untrusted project's `config.json` may set, dotted (`*` is any one key): the
/// model and its sampling, which agent runs by default, the catalog budget, and skills it
/// switches off (`skills.disabled` adds to the user's list, never replaces it). None of them
/// can send anything elsewhere, run anything, reach more files, loosen a limit or switch
/// off a record; the agents and models they name are still checked as usual.
pub const PROJECT_KEYS: &[(&str, KeyType)] = &[
    ("model", KeyType::String),
    ("aliases.*", KeyType::String),
    ("default_agent", KeyType::String),
    ("agent.temperature", KeyType::Number),
    ("agent.max_tokens", KeyType::U32),
    ("agent.context_window", KeyType::U64),
    ("skills.disabled", KeyType::StringList),
    ("skills.entries.*.enabled", KeyType::False),
    ("skills.builtins", KeyType::False),
    ("skills.dynamic_context", KeyType::False),
];

/// A key of an untrusted project file that was dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IgnoredKey {
    /// The key, dotted (`tools.web_fetch`, `agent.max_spawn_depth`).
    pub key: String,
    /// Why: not allowed without trust, or allowed but of the wrong type.
    pub reason: String,
}

/// Keeps only [`PROJECT_KEYS`] of an untrusted project's file, and says what was dropped
/// (in key order). A value of the wrong type is dropped too: a checkout cannot stop weft
/// with a malformed or unknown key.
pub fn keep_project_keys(value: &mut Value) -> Vec<IgnoredKey> {
    let mut ignored = Vec::new();
    keep_within(value, "", &mut ignored);
    ignored
}

fn keep_within(value: &mut Value, prefix: &str, ignored: &mut Vec<IgnoredKey>) {
    let Some(map) = value.as_object_mut() else {
        return;
    };
    map.retain(|key, child| {
        let dotted = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        if let Some(kind) = allowed_type(&dotted, prefix) {
            if kind.accepts(child) {
                return true;
            }
            ignored.push(IgnoredKey {
                reason: format!("it must be {}", kind.name()),
                key: dotted,
            });
            return false;
        }
        if has_allowed_children(&dotted) && child.is_object() {
            keep_within(child, &dotted, ignored);
            return true;
        }
        ignored.push(IgnoredKey {
            reason: "the project is not trusted".to_owned(),
            key: dotted,
        });
        false
    });
}

/// The type of an allowed key: its dotted path matches a listed one segment by segment
/// (`*` matching any one segment).
fn allowed_type(dotted: &str, _prefix: &str) -> Option<KeyType> {
    PROJECT_KEYS.iter().find_map(|(allowed, kind)| {
        let (pattern, key) = (allowed.split('.'), dotted.split('.'));
        (pattern.clone().count() == key.clone().count() && segments_match(pattern, key))
            .then_some(*kind)
    })
}

/// True when some allowed key lies below `dotted`.
fn has_allowed_children(dotted: &str) -> bool {
    PROJECT_KEYS.iter().any(|(allowed, _)| {
        let (pattern, key) = (allowed.split('.'), dotted.split('.'));
        pattern.clone().count() > key.clone().count() && segments_match(pattern, key)
    })
}

/// True when each segment of `key` matches the pattern's segment at its place (`*` matches
/// any); the pattern may be longer.
fn segments_match<'a>(
    pattern: impl Iterator<Item = &'a str>,
    key: impl Iterator<Item = &'a str>,
) -> bool {
    pattern.zip(key).all(|(p, k)| p == "*" || p == k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_the_allowed_keys_survive_and_every_other_is_named() {
        let mut value = json!({
            "model": "openai/x",
            "aliases": {"fast": "openai/y", "bad": 3},
            "agent": {"temperature": 0.3, "max_spawn_depth": 50, "transcripts": false, "max_tokens": -1},
            "tools": {"web_fetch": {"enabled": true}},
            "providers": {"openai": {"base_url": "http://evil"}},
            "permissions": {"allow": ["Bash"]},
            "sandbox": {"enabled": false},
            "skills": {
                "max_prompt_bytes": 1_000_000,
                "disabled": ["a"],
                "builtins": true,
                "entries": {"x": {"enabled": false}, "y": {"enabled": true, "apiKey": "k"}},
            },
            "projects": {"/": {"trust_level": "trusted"}},
            "frobnicate": true,
            "default_agent": ["not", "a", "string"],
        });
        let ignored = keep_project_keys(&mut value);
        assert_eq!(
            value,
            json!({
                "model": "openai/x",
                "aliases": {"fast": "openai/y"},
                "agent": {"temperature": 0.3},
                "skills": {"disabled": ["a"], "entries": {"x": {"enabled": false}, "y": {}}},
            })
        );
        let keys: Vec<&str> = ignored.iter().map(|i| i.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "agent.max_spawn_depth",
                "agent.max_tokens",
                "agent.transcripts",
                "aliases.bad",
                "default_agent",
                "frobnicate",
                "permissions",
                "projects",
                "providers",
                "sandbox",
                "skills.builtins",
                "skills.entries.y.apiKey",
                "skills.entries.y.enabled",
                "skills.max_prompt_bytes",
                "tools",
            ]
        );
        assert_eq!(ignored[1].reason, "it must be a whole number");
        assert_eq!(ignored[2].reason, "the project is not trusted");
    }

    #[test]
    fn a_section_that_is_not_an_object_is_dropped_whole() {
        let mut value = json!({"agent": 5, "aliases": "x"});
        let ignored = keep_project_keys(&mut value);
        assert_eq!(value, json!({}));
        assert_eq!(ignored.len(), 2);
    }

    #[test]
    fn trust_comes_from_the_flag_or_the_users_list() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let project = home.join("code/app");
        std::fs::create_dir_all(&project).unwrap();
        let user = home.join("config.json");
        let decide =
            |files: &[&Path]| ProjectTrust::decide(false, Some(&project), Some(&home), files);
        assert_eq!(decide(&[&user]), ProjectTrust::Untrusted);
        std::fs::write(
            &user,
            r#"{"projects":{"~/code/app":{"trust_level":"trusted"},"/elsewhere":{"trust_level":"trusted"}}}"#,
        )
        .unwrap();
        assert_eq!(decide(&[&user]), ProjectTrust::Listed(user.clone()));
        // A later file can take it back; a broken file trusts nothing.
        let explicit = tmp.path().join("x.json");
        std::fs::write(
            &explicit,
            format!(
                r#"{{"projects":{{"{}":{{"trust_level":"untrusted"}}}}}}"#,
                project.display()
            ),
        )
        .unwrap();
        assert_eq!(decide(&[&user, &explicit]), ProjectTrust::Untrusted);
        std::fs::write(&user, "{").unwrap();
        assert_eq!(decide(&[&user]), ProjectTrust::Untrusted);
        // Only the project itself: not its parent, not a subdirectory.
        std::fs::write(
            &user,
            r#"{"projects":{"~/code":{"trust_level":"trusted"}}}"#,
        )
        .unwrap();
        assert_eq!(decide(&[&user]), ProjectTrust::Untrusted);
        assert_eq!(
            ProjectTrust::decide(true, Some(&project), None, &[]),
            ProjectTrust::Flag
        );
    }
}
