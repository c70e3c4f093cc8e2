//! A plugin's manifest: Claude Code's `.claude-plugin/plugin.json`, or Codex's
//! `.codex-plugin/plugin.json` as far as its format is public. Only `name` is required; the
//! component fields (`skills`, `commands`, `agents`, `hooks`, `mcpServers`) are read by the
//! same code for a manifest and for a marketplace entry, which may carry them too.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{PluginError, PluginWarning};
use crate::json::{Fields, PLUGIN_FILE_CAP, object, read_json};

/// Claude Code's manifest, relative to the plugin root.
pub const CLAUDE_MANIFEST: &str = ".claude-plugin/plugin.json";
/// Codex's manifest, relative to the plugin root.
pub const CODEX_MANIFEST: &str = ".codex-plugin/plugin.json";

/// Which runtime's manifest a plugin has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ManifestKind {
    /// `.claude-plugin/plugin.json`.
    ClaudeCode,
    /// `.codex-plugin/plugin.json`.
    Codex,
    /// No manifest: the name is the directory's, the components are the default folders.
    None,
}

/// Someone named in a manifest (`author`, a marketplace's `owner`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Person {
    /// The name.
    pub name: String,
    /// An e-mail address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// A web address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// A `hooks` or `mcpServers` value: a path (relative to the plugin root) or the
/// configuration written inline.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ComponentSpec {
    /// `"./config/hooks.json"`.
    Path(String),
    /// `{"hooks": {...}}` or `{"server": {...}}`.
    Inline(Value),
}

/// The component fields a manifest or a marketplace entry may carry; `None` when absent.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ComponentFields {
    /// Skill directories, added to `skills/`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skills: Option<Vec<String>>,
    /// Command files or directories, replacing `commands/`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commands: Option<Vec<String>>,
    /// Agent files or directories, replacing `agents/`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agents: Option<Vec<String>>,
    /// Hook files or inline hook configurations, merged with `hooks/hooks.json`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hooks: Vec<ComponentSpec>,
    /// MCP server files or inline server maps, merged with `.mcp.json`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mcp_servers: Vec<ComponentSpec>,
}

impl ComponentFields {
    /// True when no component field is set.
    pub fn is_empty(&self) -> bool {
        self.skills.is_none()
            && self.commands.is_none()
            && self.agents.is_none()
            && self.hooks.is_empty()
            && self.mcp_servers.is_empty()
    }

    /// Reads the component fields of `map`.
    pub(crate) fn read(fields: &Fields<'_>) -> Result<Self, PluginError> {
        Ok(ComponentFields {
            skills: fields.strings("skills")?,
            commands: fields.strings("commands")?,
            agents: fields.strings("agents")?,
            hooks: specs(fields, "hooks")?,
            mcp_servers: specs(fields, "mcpServers")?,
        })
    }

    /// `self`, with `other`'s components merged in (a strict marketplace entry's): paths
    /// added, hooks and servers appended.
    pub(crate) fn merged_with(mut self, other: &ComponentFields) -> Self {
        fn add(into: &mut Option<Vec<String>>, more: Option<&Vec<String>>) {
            if let Some(more) = more {
                into.get_or_insert_with(Vec::new)
                    .extend(more.iter().cloned());
            }
        }
        add(&mut self.skills, other.skills.as_ref());
        add(&mut self.commands, other.commands.as_ref());
        add(&mut self.agents, other.agents.as_ref());
        self.hooks.extend(other.hooks.iter().cloned());
        self.mcp_servers.extend(other.mcp_servers.iter().cloned());
        self
    }
}

/// `hooks` / `mcpServers`: a path, an inline object, or an array of either.
fn specs(fields: &Fields<'_>, key: &str) -> Result<Vec<ComponentSpec>, PluginError> {
    let one = |v: &Value| match v {
        Value::String(s) => Some(ComponentSpec::Path(s.clone())),
        Value::Object(_) => Some(ComponentSpec::Inline(v.clone())),
        _ => None,
    };
    match fields.map.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(one)
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| fields.wrong(key, "a path, an object, or an array of them")),
        Some(v) => one(v)
            .map(|s| vec![s])
            .ok_or_else(|| fields.wrong(key, "a path, an object, or an array of them")),
    }
}

/// Manifest fields Claude Code or Codex define that weft does not act on: each is named in a
/// warning when a plugin uses it.
pub const UNSUPPORTED_FIELDS: [(&str, &str); 13] = [
    ("outputStyles", "output styles are not used by weft"),
    ("lspServers", "LSP servers are not started by weft"),
    (
        "userConfig",
        "weft asks for no plugin settings; `${user_config.*}` stays as written",
    ),
    ("channels", "channels are not supported"),
    (
        "dependencies",
        "dependencies are not installed with the plugin; install them yourself",
    ),
    ("workflows", "workflows are not supported"),
    ("monitors", "monitors are not supported"),
    ("themes", "themes are not supported"),
    ("experimental", "experimental components are not supported"),
    ("apps", "Codex apps (connectors) are not supported"),
    ("interface", "Codex's install-surface metadata is not shown"),
    ("settings", "plugin settings are not applied"),
    (
        "defaultEnabled",
        "weft enables a plugin when it is installed",
    ),
];

/// Fields read without comment (metadata).
const KNOWN_FIELDS: [&str; 16] = [
    "$schema",
    "name",
    "version",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    "displayName",
    "metadata",
    "skills",
    "commands",
    "agents",
    "hooks",
    "mcpServers",
];

/// A plugin's manifest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PluginManifest {
    /// Which file it came from.
    pub kind: ManifestKind,
    /// The plugin's name: its id before `@` and the namespace of its skills.
    pub name: String,
    /// Semantic version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// What the plugin does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Who wrote it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<Person>,
    /// Documentation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub homepage: Option<String>,
    /// Source repository.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
    /// Licence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// Keywords.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<String>,
    /// Component paths and inline configurations.
    pub components: ComponentFields,
    /// Fields weft does not act on, each with why (see [`UNSUPPORTED_FIELDS`]); other
    /// unknown keys are listed with "unknown field".
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unsupported: Vec<(String, String)>,
}

impl PluginManifest {
    /// The manifest of a plugin without one: named after its directory.
    pub fn implicit(name: impl Into<String>) -> Self {
        PluginManifest {
            kind: ManifestKind::None,
            name: name.into(),
            version: None,
            description: None,
            author: None,
            homepage: None,
            repository: None,
            license: None,
            keywords: Vec::new(),
            components: ComponentFields::default(),
            unsupported: Vec::new(),
        }
    }

    /// Reads the manifest of the plugin at `root`: `.claude-plugin/plugin.json`, else
    /// `.codex-plugin/plugin.json`, else none (named after `root`'s directory, which must
    /// then be a valid plugin name). A file that exists and is wrong is an error.
    pub fn load(root: &Path) -> Result<Self, PluginError> {
        for (rel, kind) in [
            (CLAUDE_MANIFEST, ManifestKind::ClaudeCode),
            (CODEX_MANIFEST, ManifestKind::Codex),
        ] {
            let path = root.join(rel);
            if std::fs::symlink_metadata(&path).is_err() {
                continue;
            }
            let value = read_json(&path, Some(root), PLUGIN_FILE_CAP)?;
            return Self::from_value(&value, &path, kind);
        }
        let name = root
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_owned();
        check_name(&name).map_err(|reason| {
            PluginError::invalid(
                root,
                format!("has no {CLAUDE_MANIFEST}, and its directory name cannot name a plugin: {reason}"),
            )
        })?;
        Ok(Self::implicit(name))
    }

    /// Reads a manifest from its parsed JSON (`path` for messages).
    pub fn from_value(value: &Value, path: &Path, kind: ManifestKind) -> Result<Self, PluginError> {
        let map = object(value, path, "a plugin manifest")?;
        Self::from_map(&Fields::new(map, path), kind)
    }

    pub(crate) fn from_map(fields: &Fields<'_>, kind: ManifestKind) -> Result<Self, PluginError> {
        let name = fields.required("name")?;
        check_name(&name).map_err(|reason| {
            PluginError::invalid(fields.path, format!("`{}name` {reason}", fields.prefix))
        })?;
        let keywords = fields.strings("keywords")?.unwrap_or_default();
        Ok(PluginManifest {
            kind,
            name,
            version: fields.string("version")?,
            description: fields.string("description")?,
            author: person(fields, "author")?,
            homepage: fields.string("homepage")?,
            repository: repository(fields)?,
            license: fields.string("license")?,
            keywords,
            components: ComponentFields::read(fields)?,
            unsupported: unsupported(fields.map, &[]),
        })
    }

    /// Warnings for the fields weft does not act on.
    pub fn warnings(&self, path: &Path) -> Vec<PluginWarning> {
        self.unsupported
            .iter()
            .map(|(key, why)| PluginWarning::at(path, format!("`{key}`: {why}")))
            .collect()
    }

    /// The file this manifest was read from under `root` (`None` without one).
    pub fn file(&self, root: &Path) -> Option<PathBuf> {
        match self.kind {
            ManifestKind::ClaudeCode => Some(root.join(CLAUDE_MANIFEST)),
            ManifestKind::Codex => Some(root.join(CODEX_MANIFEST)),
            ManifestKind::None => None,
        }
    }
}

/// The keys of `map` weft does not act on, with why (`also_known` are more keys that are
/// fine where this map is, such as a marketplace entry's `source`).
pub(crate) fn unsupported(map: &Map<String, Value>, also_known: &[&str]) -> Vec<(String, String)> {
    map.keys()
        .filter(|k| !KNOWN_FIELDS.contains(&k.as_str()) && !also_known.contains(&k.as_str()))
        .map(|k| {
            let why = UNSUPPORTED_FIELDS
                .iter()
                .find(|(f, _)| f == k)
                .map_or("unknown field; ignored", |(_, why)| why);
            (k.clone(), why.to_owned())
        })
        .collect()
}

/// `author` / `owner`: `{name, email?, url?}` (a plain string is taken as the name).
pub(crate) fn person(fields: &Fields<'_>, key: &str) -> Result<Option<Person>, PluginError> {
    match fields.map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(name)) => Ok(Some(Person {
            name: name.clone(),
            email: None,
            url: None,
        })),
        Some(Value::Object(map)) => {
            let inner =
                Fields::new(map, fields.path).with_prefix(format!("{}{key}.", fields.prefix));
            Ok(Some(Person {
                name: inner.required("name")?,
                email: inner.string("email")?,
                url: inner.string("url")?,
            }))
        }
        Some(_) => Err(fields.wrong(key, "an object with a `name`")),
    }
}

/// `repository`: a URL, or npm's `{type, url}`.
fn repository(fields: &Fields<'_>) -> Result<Option<String>, PluginError> {
    match fields.map.get("repository") {
        Some(Value::Object(map)) => Ok(map.get("url").and_then(Value::as_str).map(str::to_owned)),
        _ => fields.string("repository"),
    }
}

/// A plugin or marketplace name: kebab-case (`[a-z0-9]` runs joined by single hyphens, at most
/// 64 characters). It names directories and namespaces, so nothing else is accepted.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("is empty".to_owned());
    }
    if name.len() > 64 {
        return Err("is longer than 64 characters".to_owned());
    }
    let kebab = name.split('-').all(|part| {
        !part.is_empty()
            && part
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    });
    if kebab {
        Ok(())
    } else {
        // Debug formatting shows control characters escaped.
        Err(format!(
            "{name:?} is not kebab-case (lowercase letters and digits, joined by single hyphens)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<PluginManifest, PluginError> {
        let value: Value = serde_json::from_str(json).unwrap();
        PluginManifest::from_value(
            &value,
            Path::new("/p/.claude-plugin/plugin.json"),
            ManifestKind::ClaudeCode,
        )
    }

    #[test]
    fn reads_every_documented_field() {
        let m = parse(
            r#"{"name": "fmt", "version": "1.2.0", "description": "Formats",
                "author": {"name": "Acme", "email": "a@example.com"},
                "repository": {"type": "git", "url": "https://example.com/fmt"},
                "keywords": ["style"], "skills": "./extra-skills", "commands": ["./cmd/one.md"],
                "agents": "./custom-agents/", "hooks": "./config/hooks.json",
                "mcpServers": {"db": {"command": "db-mcp"}}, "lspServers": "./.lsp.json",
                "futureThing": 1}"#,
        )
        .unwrap();
        assert_eq!(m.name, "fmt");
        assert_eq!(
            m.author.as_ref().unwrap().email.as_deref(),
            Some("a@example.com")
        );
        assert_eq!(m.repository.as_deref(), Some("https://example.com/fmt"));
        assert_eq!(m.components.skills, Some(vec!["./extra-skills".to_owned()]));
        assert_eq!(
            m.components.hooks,
            [ComponentSpec::Path("./config/hooks.json".into())]
        );
        assert!(matches!(
            m.components.mcp_servers[0],
            ComponentSpec::Inline(_)
        ));
        let keys: Vec<&str> = m.unsupported.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["futureThing", "lspServers"]);
    }

    #[test]
    fn bad_manifests_say_which_field() {
        for (json, message) in [
            (r#"{}"#, "`name` is required"),
            (r#"{"name": "Has Spaces"}"#, "is not kebab-case"),
            (r#"{"name": "../up"}"#, "is not kebab-case"),
            (
                r#"{"name": "ok", "skills": 3}"#,
                "`skills` must be a string or an array of strings",
            ),
            (
                r#"{"name": "ok", "hooks": true}"#,
                "`hooks` must be a path, an object",
            ),
            (
                r#"{"name": "ok", "author": {"email": "x"}}"#,
                "`author.name` is required",
            ),
            (r#"[]"#, "a plugin manifest must be a JSON object"),
        ] {
            let err = parse(json).unwrap_err().to_string();
            assert!(err.contains(message), "{json}: {err}");
            assert!(err.starts_with("/p/.claude-plugin/plugin.json: "), "{err}");
        }
    }

    #[test]
    fn names_are_kebab_case() {
        for ok in ["a", "fmt", "code-review", "x2", "2x"] {
            assert!(check_name(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "-a",
            "a-",
            "a--b",
            "A",
            "a_b",
            "a.b",
            "a/b",
            "..",
            &"a".repeat(65),
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }
}
