//! A plugin ready to be written: its files, what its components are once resolved (in a
//! staging directory, as they will be installed), what the scan found, and what it will be
//! able to run once enabled. Nothing is written to the store until it is applied.

use std::path::{Path, PathBuf};

use serde::Serialize;
use weft_install::{InstallTarget, file_entries, tree_hash};
use weft_plugin::{
    Components, HookCommand, MarketplaceEntry, PluginManifest, PluginWarning, RecordedSource,
    plugin_id,
};
use weft_scan::{Package, PackageFile, Rule, ScanOptions, ScanReport, scan};
use weft_types::PluginRef;

use crate::error::MarketplaceError;

/// A dynamic-context line (`` !`command` ``) in a skill or command: it runs when the skill
/// or command is loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DynamicCommand {
    /// The file, relative to the plugin root.
    pub path: String,
    /// 1-based line.
    pub line: u32,
    /// The command.
    pub command: String,
}

/// What a plugin will be able to run once enabled.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RunsCode {
    /// Its hook handlers (`${CLAUDE_PLUGIN_ROOT}` as written).
    pub hooks: Vec<HookCommand>,
    /// Its MCP servers: the name and what each starts or connects to (in JSON, objects
    /// with `name` and `runs`).
    #[serde(serialize_with = "named_servers")]
    pub mcp_servers: Vec<(String, String)>,
    /// Dynamic-context lines in its skills and commands.
    pub dynamic_context: Vec<DynamicCommand>,
}

fn named_servers<S: serde::Serializer>(
    servers: &[(String, String)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Server<'a> {
        name: &'a str,
        runs: &'a str,
    }
    serializer.collect_seq(servers.iter().map(|(name, runs)| Server { name, runs }))
}

impl RunsCode {
    /// True when nothing runs.
    pub fn is_empty(&self) -> bool {
        self.hooks.is_empty() && self.mcp_servers.is_empty() && self.dynamic_context.is_empty()
    }
}

/// A plugin fetched, resolved and scanned, not yet written.
#[derive(Debug)]
pub struct PluginPlan {
    /// `name@marketplace`.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its marketplace.
    pub marketplace: String,
    /// Its version (the manifest's, else the marketplace entry's).
    pub version: Option<String>,
    /// What it does.
    pub description: Option<String>,
    /// Where its files come from.
    pub source: RecordedSource,
    /// The commit they were taken at (git).
    pub commit: Option<String>,
    /// Its files.
    pub package: Package,
    /// Their tree hash.
    pub tree_sha256: String,
    /// What the scan found in everything it brings.
    pub scan: ScanReport,
    /// What it will be able to run.
    pub runs: RunsCode,
    /// Its skills, commands and agents by name (without the `plugin:` prefix).
    pub skills: Vec<String>,
    /// Its commands.
    pub commands: Vec<String>,
    /// Its agents.
    pub agents: Vec<String>,
    /// What weft ignores in it, and why.
    pub warnings: Vec<PluginWarning>,
    /// A marketplace copy fetched along the way (an update of a relative-source plugin),
    /// written with the plugin.
    pub(crate) marketplace_refresh: Option<(Package, weft_plugin::MarketplaceRecord)>,
    pub(crate) _staged: Staged,
}

impl PluginPlan {
    /// True when the scan refuses it unless forced.
    pub fn blocks_install(&self) -> bool {
        self.scan.blocks_install()
    }
}

/// A staging directory removed when dropped.
#[derive(Debug)]
pub(crate) struct Staged(PathBuf);

impl Drop for Staged {
    fn drop(&mut self) {
        if let Err(e) = std::fs::remove_dir_all(&self.0)
            && e.kind() != std::io::ErrorKind::NotFound
        {
            tracing::warn!(dir = %self.0.display(), error = %e, "could not remove a staged plugin");
        }
    }
}

/// What [`plan`] needs to know about where a plugin comes from.
pub(crate) struct PlanInput<'a> {
    pub name: &'a str,
    pub marketplace: &'a str,
    pub entry: Option<&'a MarketplaceEntry>,
    pub package: Package,
    pub source: RecordedSource,
    pub commit: Option<String>,
}

/// Stages `input.package`, resolves its components there, scans it and lists what it runs.
pub(crate) fn plan(
    install: &InstallTarget,
    input: PlanInput<'_>,
) -> Result<PluginPlan, MarketplaceError> {
    let staging = install.prepare_staging()?;
    let dir_name = format!(
        "plan-{}-{}-{}",
        input.name,
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default()
    );
    // The plugin's root is named after it, as when installed: a plugin without a manifest
    // takes its name from its directory.
    let outer = staging.join(&dir_name);
    let staged = Staged(outer.clone());
    let root = install.put_tree_in(&outer, input.name, &input.package, false)?;
    let id = plugin_id(input.name, input.marketplace);
    // What is said about its files names them inside the plugin (`fmt/hooks/hooks.json`),
    // not in the staging directory.
    let shown = Path::new(input.name);
    let manifest = match PluginManifest::load(&root) {
        Ok(m) if m.name == input.name => m,
        Ok(m) => {
            return Err(MarketplaceError::NameMismatch {
                expected: input.name.to_owned(),
                found: m.name,
            });
        }
        // A strict-false entry may be the plugin's only definition.
        Err(e) if input.entry.is_some_and(|e| !e.strict) && e.is_missing() => {
            PluginManifest::implicit(input.name)
        }
        Err(e) => return Err(e.rebased(&root, shown).into()),
    };
    let reference = PluginRef {
        name: input.name.to_owned(),
        id: id.clone(),
        root: root.clone(),
        data: None,
    };
    let components = Components::resolve(&reference, &manifest, input.entry)
        .map_err(|e| e.rebased(&root, shown))?;
    let runs = runs_code(&root, &components, &input.package);
    let scan = scan_plugin(&input.package);
    let tree_sha256 = tree_hash(&file_entries(&input.package));
    // The manifest's ignored fields are among the components' warnings already.
    let warnings = components
        .warnings
        .iter()
        .cloned()
        .map(|w| w.rebased(&root, shown))
        .collect();
    Ok(PluginPlan {
        id,
        name: input.name.to_owned(),
        marketplace: input.marketplace.to_owned(),
        version: manifest
            .version
            .clone()
            .or_else(|| input.entry.and_then(|e| e.version.clone())),
        description: manifest
            .description
            .clone()
            .or_else(|| input.entry.and_then(|e| e.description.clone())),
        source: input.source,
        commit: input.commit,
        skills: names(&components.skill_dirs, Kind::Skill),
        commands: names(&components.command_paths, Kind::Command),
        agents: names(&components.agent_paths, Kind::Markdown),
        package: input.package,
        tree_sha256,
        scan,
        runs,
        warnings,
        marketplace_refresh: None,
        _staged: staged,
    })
}

/// Scans every file the plugin brings (skills, commands, agent prompts, hook files and
/// scripts, MCP configurations), then each skill and command file on its own for its
/// dynamic-context lines (the scanner looks for those in a package's skill file).
fn scan_plugin(package: &Package) -> ScanReport {
    let options = ScanOptions::default();
    let mut report = scan(package, None, &options);
    for file in package.files() {
        if !file.path.ends_with(".md") {
            continue;
        }
        let Some(bytes) = file.bytes() else {
            continue;
        };
        let alone = Package::new(vec![PackageFile::regular("SKILL.md", bytes.to_vec())]);
        for mut finding in scan(&alone, None, &options).findings {
            if finding.rule == Rule::DynamicContext {
                finding.path.clone_from(&file.path);
                report.findings.push(finding);
            }
        }
    }
    report.sort();
    report
}

/// Hooks, MCP servers and dynamic-context lines, with the staging root shown as
/// `${CLAUDE_PLUGIN_ROOT}`.
fn runs_code(root: &Path, components: &Components, package: &Package) -> RunsCode {
    let shown = root.display().to_string();
    let unstage = |text: &str| text.replace(&shown, "${CLAUDE_PLUGIN_ROOT}");
    let hooks = components
        .hooks
        .as_ref()
        .map(|h| {
            h.commands()
                .into_iter()
                .map(|mut c| {
                    c.run = unstage(&c.run);
                    c
                })
                .collect()
        })
        .unwrap_or_default();
    let mcp_servers = components
        .mcp_servers
        .iter()
        .map(|s| (s.name.clone(), unstage(&s.describe())))
        .collect();
    let in_text_components = |path: &str| {
        components
            .skill_dirs
            .iter()
            .chain(&components.command_paths)
            .any(|dir| root.join(path).starts_with(dir))
    };
    let mut dynamic_context = Vec::new();
    for file in package.files() {
        if !file.path.ends_with(".md") || !in_text_components(&file.path) {
            continue;
        }
        let Some(bytes) = file.bytes() else {
            continue;
        };
        let text = String::from_utf8_lossy(bytes);
        for (start, _, command) in weft_scan::dynamic_commands(&text) {
            let line = text[..start].matches('\n').count() + 1;
            dynamic_context.push(DynamicCommand {
                path: file.path.clone(),
                line: u32::try_from(line).unwrap_or(u32::MAX),
                command: command.to_owned(),
            });
        }
    }
    RunsCode {
        hooks,
        mcp_servers,
        dynamic_context,
    }
}

enum Kind {
    /// Directories holding `<name>/SKILL.md`, or a skill directory itself.
    Skill,
    /// Directories of `<name>.md`, or one such file.
    Markdown,
    /// As `Markdown`, and each subfolder a namespace (`git/commit.md` is `git:commit`), as
    /// commands are named when they load.
    Command,
}

/// How many folder levels below a commands directory are named (as the loader reads).
const COMMAND_DEPTH: usize = 4;

/// The names of the skills, commands or agents under `paths`.
fn names(paths: &[PathBuf], kind: Kind) -> Vec<String> {
    let mut out = Vec::new();
    for path in paths {
        match kind {
            Kind::Skill if path.join("SKILL.md").is_file() => {
                out.extend(file_name(path));
            }
            Kind::Skill => {
                for entry in read_dir(path) {
                    if entry.join("SKILL.md").is_file() {
                        out.extend(file_name(&entry));
                    }
                }
            }
            Kind::Markdown | Kind::Command if path.is_file() => out.extend(stem(path)),
            Kind::Command => command_names(path, "", COMMAND_DEPTH, &mut out),
            Kind::Markdown => {
                for entry in read_dir(path) {
                    if entry.extension().is_some_and(|e| e == "md") && entry.is_file() {
                        out.extend(stem(&entry));
                    }
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The commands under `dir`, each named `prefix` + its path's folders and stem joined by `:`;
/// `depth` more folder levels are entered (links are not followed).
fn command_names(dir: &Path, prefix: &str, depth: usize, out: &mut Vec<String>) {
    for entry in read_dir(dir) {
        let Ok(kind) = std::fs::symlink_metadata(&entry).map(|m| m.file_type()) else {
            continue;
        };
        let hidden = entry
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden {
            continue;
        }
        if kind.is_dir() && depth > 0 {
            if let Some(name) = file_name(&entry) {
                command_names(&entry, &format!("{prefix}{name}:"), depth - 1, out);
            }
        } else if entry.extension().is_some_and(|e| e == "md") && entry.is_file() {
            out.extend(stem(&entry).map(|stem| format!("{prefix}{stem}")));
        }
    }
}

fn read_dir(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default()
}

fn file_name(path: &Path) -> Option<String> {
    path.file_name().map(|n| n.to_string_lossy().into_owned())
}

fn stem(path: &Path) -> Option<String> {
    path.file_stem().map(|n| n.to_string_lossy().into_owned())
}
