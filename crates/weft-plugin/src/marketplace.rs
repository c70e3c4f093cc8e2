//! A marketplace: `.claude-plugin/marketplace.json` at the root of a repository or directory,
//! listing plugins and where each one is fetched from.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::error::{PluginError, PluginWarning};
use crate::json::{Fields, PLUGIN_FILE_CAP, object, read_json};
use crate::manifest::{ComponentFields, ManifestKind, Person, PluginManifest, check_name, person};
use crate::paths::relative_path;

/// The marketplace file, relative to the marketplace root.
pub const MARKETPLACE_FILE: &str = ".claude-plugin/marketplace.json";

/// Where a marketplace entry's plugin comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum PluginSource {
    /// A directory inside the marketplace (`"./plugins/fmt"`), normalised without `./`.
    Relative {
        /// The directory, relative to the marketplace root.
        path: String,
    },
    /// A git repository: a GitHub `owner/repo` (as its HTTPS URL) or any git URL.
    Git {
        /// The URL.
        url: String,
        /// A branch or tag to fetch.
        #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
        reference: Option<String>,
        /// A full commit id (wins over `ref`).
        #[serde(skip_serializing_if = "Option::is_none")]
        sha: Option<String>,
    },
    /// A form weft does not fetch (`npm`, `git-subdir`, ...).
    Unsupported {
        /// The form's name.
        kind: String,
    },
}

impl PluginSource {
    /// The revision to fetch: `sha`, else `ref`.
    pub fn revision(&self) -> Option<&str> {
        match self {
            PluginSource::Git { reference, sha, .. } => sha.as_deref().or(reference.as_deref()),
            _ => None,
        }
    }
}

impl std::fmt::Display for PluginSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PluginSource::Relative { path } => write!(f, "./{path}"),
            PluginSource::Git { url, .. } => {
                f.write_str(url)?;
                match self.revision() {
                    Some(rev) => write!(f, " ({rev})"),
                    None => Ok(()),
                }
            }
            PluginSource::Unsupported { kind } => write!(f, "a `{kind}` source"),
        }
    }
}

/// One plugin a marketplace lists.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MarketplaceEntry {
    /// The plugin's name (before `@`).
    pub name: String,
    /// Where it is fetched from.
    pub source: PluginSource,
    /// What it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its version, as the marketplace states it (the plugin's manifest wins).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// `strict` (default true): the plugin's `plugin.json` is authoritative and the entry's
    /// components merge in; false: the entry is the whole definition.
    pub strict: bool,
    /// A category, for listings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// The components the entry lists.
    pub components: ComponentFields,
    /// The entry as a manifest (its `plugin.json` fields), for a `strict: false` entry.
    #[serde(skip)]
    pub manifest: PluginManifest,
}

/// A marketplace file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Marketplace {
    /// Its name: the part after `@` in a plugin id.
    pub name: String,
    /// Who maintains it.
    pub owner: Person,
    /// What it offers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// `metadata.pluginRoot`: the directory relative sources start from (normalised).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plugin_root: Option<String>,
    /// The plugins, in file order.
    pub plugins: Vec<MarketplaceEntry>,
    /// What was wrong with entries that were skipped, and fields weft ignores.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<PluginWarning>,
}

impl Marketplace {
    /// Reads `.claude-plugin/marketplace.json` under `root` (a link must stay inside it).
    pub fn load(root: &Path) -> Result<Self, PluginError> {
        let path = root.join(MARKETPLACE_FILE);
        let value = read_json(&path, Some(root), PLUGIN_FILE_CAP)?;
        Self::from_value(&value, &path)
    }

    /// Reads a marketplace from the bytes of its file (`path` names it in errors): a
    /// fetched copy not yet written anywhere.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Self, PluginError> {
        let value = crate::json::parse_json(bytes, path)?;
        Self::from_value(&value, path)
    }

    /// Reads a marketplace from its parsed JSON. An entry that cannot be used (no name, a
    /// source leaving the marketplace) is skipped with a warning; the others stay.
    pub fn from_value(value: &Value, path: &Path) -> Result<Self, PluginError> {
        let map = object(value, path, "a marketplace file")?;
        let fields = Fields::new(map, path);
        let name = fields.required("name")?;
        check_name(&name)
            .map_err(|reason| PluginError::invalid(path, format!("`name` {reason}")))?;
        let owner = person(&fields, "owner")?
            .ok_or_else(|| PluginError::invalid(path, "`owner` is required"))?;
        let plugin_root = match map.get("metadata").and_then(|m| m.get("pluginRoot")) {
            None | Some(Value::Null) => None,
            Some(Value::String(dir)) => Some(relative_path(dir).map_err(|reason| {
                PluginError::invalid(path, format!("`metadata.pluginRoot` {reason}"))
            })?),
            Some(_) => return Err(fields.wrong("metadata.pluginRoot", "a path")),
        };
        let items = match map.get("plugins") {
            Some(Value::Array(items)) => items,
            Some(_) => return Err(fields.wrong("plugins", "an array")),
            None => return Err(PluginError::invalid(path, "`plugins` is required")),
        };
        let mut plugins: Vec<MarketplaceEntry> = Vec::new();
        let mut warnings = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match entry(item, i, path) {
                Ok(e) if plugins.iter().any(|p| p.name == e.name) => {
                    warnings.push(PluginWarning::at(
                        path,
                        format!(
                            "`plugins[{i}]`: a second plugin named `{}` is ignored",
                            e.name
                        ),
                    ))
                }
                Ok(e) => plugins.push(e),
                Err(e) => warnings.push(PluginWarning::at(
                    path,
                    format!("skipped: {}", reason_of(&e)),
                )),
            }
        }
        Ok(Marketplace {
            name,
            owner,
            description: fields.string("description")?.or_else(|| {
                map.get("metadata")
                    .and_then(|m| m.get("description"))
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            }),
            version: fields.string("version")?,
            plugin_root,
            plugins,
            warnings,
        })
    }

    /// The entry named `name`.
    pub fn plugin(&self, name: &str) -> Option<&MarketplaceEntry> {
        self.plugins.iter().find(|p| p.name == name)
    }

    /// The directory of a relative source, relative to the marketplace root (with
    /// `metadata.pluginRoot` applied).
    pub fn relative_dir(&self, source: &str) -> String {
        match &self.plugin_root {
            Some(base) if !base.is_empty() => {
                if source.is_empty() {
                    base.clone()
                } else {
                    format!("{base}/{source}")
                }
            }
            _ => source.to_owned(),
        }
    }
}

/// An error's reason without the file (the warning names it).
fn reason_of(e: &PluginError) -> String {
    match e {
        PluginError::Invalid { reason, .. } => reason.clone(),
        other => other.to_string(),
    }
}

fn entry(item: &Value, i: usize, path: &Path) -> Result<MarketplaceEntry, PluginError> {
    let map = item
        .as_object()
        .ok_or_else(|| PluginError::invalid(path, format!("`plugins[{i}]` must be an object")))?;
    let fields = Fields::new(map, path).with_prefix(format!("plugins[{i}]."));
    let manifest = PluginManifest::from_map(&fields, ManifestKind::None)?;
    let source = match map.get("source") {
        None | Some(Value::Null) => {
            return Err(PluginError::invalid(
                path,
                format!("`plugins[{i}].source` is required"),
            ));
        }
        Some(v) => source(v, &fields)?,
    };
    Ok(MarketplaceEntry {
        name: manifest.name.clone(),
        source,
        description: manifest.description.clone(),
        version: manifest.version.clone(),
        strict: fields.boolean("strict")?.unwrap_or(true),
        category: fields.string("category")?,
        components: manifest.components.clone(),
        manifest,
    })
}

/// A plugin source: `"./dir"`, a git URL, `owner/repo`, or `{source: "github" | "url" |
/// "git", ...}`.
fn source(value: &Value, fields: &Fields<'_>) -> Result<PluginSource, PluginError> {
    let bad = |reason: String| {
        PluginError::invalid(fields.path, format!("`{}source` {reason}", fields.prefix))
    };
    match value {
        Value::String(text) => source_text(text).map_err(bad),
        Value::Object(map) => {
            let inner =
                Fields::new(map, fields.path).with_prefix(format!("{}source.", fields.prefix));
            let kind = inner.required("source")?;
            let reference = inner.string("ref")?;
            let sha = inner.string("sha")?;
            if let Some(sha) = &sha
                && !(sha.len() == 40 && sha.bytes().all(|b| b.is_ascii_hexdigit()))
            {
                return Err(bad(format!(
                    "has `sha` {sha:?}, which is not a full 40-character commit id"
                )));
            }
            match kind.as_str() {
                "github" => {
                    let repo = inner.required("repo")?;
                    if !is_github_repo(&repo) {
                        return Err(bad(format!(
                            "names {repo:?}, which is not a GitHub owner/repo"
                        )));
                    }
                    Ok(PluginSource::Git {
                        url: github_url(&repo),
                        reference,
                        sha,
                    })
                }
                "url" | "git" => Ok(PluginSource::Git {
                    url: inner.required("url")?,
                    reference,
                    sha,
                }),
                "directory" | "local" | "path" => Ok(PluginSource::Relative {
                    path: relative_path(&inner.required("path")?).map_err(bad)?,
                }),
                other => Ok(PluginSource::Unsupported {
                    kind: other.to_owned(),
                }),
            }
        }
        _ => Err(bad(
            "must be a path, a git URL, owner/repo or an object".to_owned()
        )),
    }
}

/// A source written as text.
fn source_text(text: &str) -> Result<PluginSource, String> {
    let lower = text.to_ascii_lowercase();
    let is_url = ["https://", "http://", "ssh://", "git://", "file://"]
        .iter()
        .any(|p| lower.starts_with(p))
        || (text.contains('@') && text.contains(':') && !text.starts_with('.'));
    if is_url {
        return Ok(PluginSource::Git {
            url: text.to_owned(),
            reference: None,
            sha: None,
        });
    }
    if !text.starts_with('.') && is_github_repo(text) && text.matches('/').count() == 1 {
        return Ok(PluginSource::Git {
            url: github_url(text),
            reference: None,
            sha: None,
        });
    }
    Ok(PluginSource::Relative {
        path: relative_path(text)?,
    })
}

/// `owner/repo`.
fn is_github_repo(text: &str) -> bool {
    let ok = |part: &str| {
        !part.is_empty()
            && !part.starts_with('.')
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    matches!(text.split_once('/'), Some((owner, repo)) if ok(owner) && ok(repo))
}

fn github_url(repo: &str) -> String {
    format!("https://github.com/{}.git", repo.trim_end_matches(".git"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<Marketplace, PluginError> {
        let value: Value = serde_json::from_str(json).unwrap();
        Marketplace::from_value(&value, Path::new("/m/.claude-plugin/marketplace.json"))
    }

    #[test]
    fn reads_entries_and_every_source_form() {
        let m = parse(
            r#"{"name": "acme", "owner": {"name": "Acme"}, "metadata": {"pluginRoot": "./plugins"},
                "plugins": [
                  {"name": "fmt", "source": "./fmt", "version": "1.0.0", "category": "style"},
                  {"name": "deploy", "source": {"source": "github", "repo": "acme/deploy", "ref": "v2"}},
                  {"name": "pinned", "source": {"source": "url", "url": "https://git.example.com/p.git",
                     "sha": "0123456789abcdef0123456789abcdef01234567"}},
                  {"name": "short", "source": "acme/short"},
                  {"name": "ssh", "source": "git@example.com:acme/ssh.git"},
                  {"name": "npm-one", "source": {"source": "npm", "package": "x"}},
                  {"name": "loose", "source": "./loose", "strict": false, "skills": ["./skills/a"]},
                  {"name": "escape", "source": "../outside"},
                  {"source": "./nameless"},
                  {"name": "fmt", "source": "./again"}
                ]}"#,
        )
        .unwrap();
        let names: Vec<&str> = m.plugins.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "fmt", "deploy", "pinned", "short", "ssh", "npm-one", "loose"
            ]
        );
        assert_eq!(m.relative_dir("fmt"), "plugins/fmt");
        assert_eq!(
            m.plugins[0].source,
            PluginSource::Relative { path: "fmt".into() }
        );
        assert_eq!(
            m.plugins[1].source.to_string(),
            "https://github.com/acme/deploy.git (v2)"
        );
        assert_eq!(
            m.plugins[2].source.revision(),
            Some("0123456789abcdef0123456789abcdef01234567")
        );
        assert_eq!(
            m.plugins[3].source.to_string(),
            "https://github.com/acme/short.git"
        );
        assert!(matches!(
            m.plugins[5].source,
            PluginSource::Unsupported { .. }
        ));
        assert!(!m.plugins[6].strict);
        assert_eq!(
            m.plugins[6].components.skills,
            Some(vec!["./skills/a".into()])
        );
        let warnings: Vec<String> = m.warnings.iter().map(ToString::to_string).collect();
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(
            warnings[0].contains("`..` leaves the plugin"),
            "{warnings:?}"
        );
        assert!(
            warnings[1].contains("`plugins[8].name` is required"),
            "{warnings:?}"
        );
        assert!(
            warnings[2].contains("a second plugin named `fmt`"),
            "{warnings:?}"
        );
    }

    #[test]
    fn a_marketplace_needs_a_name_an_owner_and_plugins() {
        for (json, message) in [
            (
                r#"{"owner": {"name": "x"}, "plugins": []}"#,
                "`name` is required",
            ),
            (r#"{"name": "a", "plugins": []}"#, "`owner` is required"),
            (
                r#"{"name": "a", "owner": {"name": "x"}}"#,
                "`plugins` is required",
            ),
            (
                r#"{"name": "a b", "owner": {"name": "x"}, "plugins": []}"#,
                "not kebab-case",
            ),
            (
                r#"{"name": "a", "owner": {"name": "x"}, "plugins": [], "metadata": {"pluginRoot": "/etc"}}"#,
                "absolute",
            ),
        ] {
            let err = parse(json).unwrap_err().to_string();
            assert!(err.contains(message), "{json}: {err}");
        }
    }
}
