//! Discovery: walk every root, read each skill's header in parallel, and resolve names by
//! precedence (roots in the order given, built-ins last).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use weft_parse::{ParseOptions, ParsedSkill, Profile, Rule};
use weft_permissions::PatternContext;
use weft_types::{Diagnostic, PluginRef, Scope, SkillFormat};

use crate::builtin::builtin_skills;
use crate::cache::{CacheConfig, FreshEntry, HeaderCache, Record, Stamp, remembered_notes};
use crate::commands::{find_commands, read_command};
use crate::entry::{BrokenSkill, ShadowedSkill, SkillEntry, SkillOrigin};
use crate::gating::{GateChecker, HostEnvironment};
use crate::read::{parse_header, read_skill_header, with_walk_diagnostics};
use crate::tool_policy;
use crate::walk::{DirFacts, DirHint, FoundSkill, SkillFile, WalkOptions, Walker};

/// A directory to look for skills in, and the scope its skills get.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillRoot {
    /// The directory (it need not exist).
    pub path: PathBuf,
    /// The scope of every skill found under it.
    pub scope: Scope,
    /// What the directory holds.
    pub kind: RootKind,
    /// Where directory links under this root may lead (see [`SkillRoot::within`]): `None`
    /// follows them anywhere (with the walk's caps), as the user's own roots do.
    pub link_boundary: Option<PathBuf>,
    /// The plugin this root belongs to (see [`SkillRoot::of_plugin`]): its skills and
    /// commands are named `plugin:name`.
    pub plugin: Option<PluginRef>,
}

/// What a root holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum RootKind {
    /// Skill directories (`<name>/SKILL.md`, `<name>/skill.json`).
    #[default]
    Skills,
    /// Claude Code custom commands (`**/*.md`, named after their path): a skill of the same
    /// name wins over a command, whatever the roots' order.
    Commands,
}

impl SkillRoot {
    /// A root of skill directories at `path` for `scope`.
    ///
    /// A project root is hostile by default: its directory links may not leave the root
    /// itself (widen that to the project with [`within`](Self::within), or lift it for a
    /// trusted project with `within(None)`). Other scopes follow links anywhere.
    pub fn new(path: impl Into<PathBuf>, scope: Scope) -> Self {
        let path = path.into();
        Self {
            link_boundary: (scope == Scope::Project).then(|| path.clone()),
            path,
            scope,
            kind: RootKind::Skills,
            plugin: None,
        }
    }

    /// A root of Claude Code commands (`.claude/commands`) at `path` for `scope`. Directory
    /// links below it must stay inside it (its real path) whatever the scope, as links to
    /// command files must; the root itself must lie inside the link boundary. A plugin's
    /// commands root may also be one command file (a manifest's `"commands": ["./x.md"]`).
    pub fn commands(path: impl Into<PathBuf>, scope: Scope) -> Self {
        Self {
            kind: RootKind::Commands,
            ..Self::new(path, scope)
        }
    }

    /// The same root as part of `plugin`: every skill and command found under it is named
    /// `plugin:name` (its frontmatter name, else its directory or file name) and carries the
    /// plugin in its source, for `${CLAUDE_PLUGIN_ROOT}`. Links below it must stay inside
    /// the plugin's root.
    pub fn of_plugin(self, plugin: PluginRef) -> Self {
        Self {
            link_boundary: Some(plugin.root.clone()),
            plugin: Some(plugin),
            ..self
        }
    }

    /// The same root, whose directory links (and the root itself) must lead inside
    /// `boundary`: an untrusted project's roots get the project directory, so
    /// `.claude/skills/x -> /` or `-> ~` is refused with a diagnostic instead of walked.
    /// `None` follows links anywhere.
    pub fn within(self, boundary: Option<PathBuf>) -> Self {
        Self {
            link_boundary: boundary,
            ..self
        }
    }
}

/// Everything discovery needs. Built by the caller; nothing is read from the environment.
#[derive(Debug, Clone)]
pub struct RegistryConfig {
    /// Roots, highest precedence first. Within one scope, earlier roots win.
    pub roots: Vec<SkillRoot>,
    /// Include the skills compiled into the binary (lowest precedence).
    pub builtins: bool,
    /// Do not warn when a project skill overrides a skill of another scope (SEC-SKILL-06).
    pub trust_project_skills: bool,
    /// Limits for reading skill files (the profile is always `Load`).
    pub parse: ParseOptions,
    /// The machine OpenClaw requirements are checked against.
    pub host: HostEnvironment,
    /// Walk rules.
    pub walk: WalkOptions,
    /// A persistent header cache; `None` parses every skill on every discovery.
    pub cache: Option<CacheConfig>,
    /// Skills switched off by the configuration (`skills.disabled`, OpenClaw's
    /// `skills.entries.<name>.enabled: false`): discovered, listed as disabled, never
    /// offered (catalog, slash commands, `use_skill`).
    pub disabled: BTreeSet<String>,
    /// Stamp what each discovery read (one `stat` per root, skill directory and skill file,
    /// right after the walk) so [`SkillRegistry::refresh`](crate::SkillRegistry::refresh) can
    /// tell whether anything changed. On by default; a one-shot listing that never refreshes
    /// turns it off and saves that second pass (`refresh` then always walks again).
    pub track_changes: bool,
    /// What skills' tool patterns are compiled with when they are found: the project
    /// directory (`${CLAUDE_PROJECT_DIR}`, and where relative path patterns start). A
    /// session activating a skill uses the policy compiled here, so it must be the session's.
    pub patterns: PatternContext,
}

impl Default for RegistryConfig {
    fn default() -> Self {
        Self {
            roots: Vec::new(),
            builtins: true,
            trust_project_skills: false,
            parse: ParseOptions::new(Profile::Load),
            host: HostEnvironment::default(),
            walk: WalkOptions::DISCOVERY,
            cache: None,
            disabled: BTreeSet::new(),
            track_changes: true,
            patterns: PatternContext::new(),
        }
    }
}

impl RegistryConfig {
    /// A configuration with these roots and defaults for everything else.
    pub fn with_roots(roots: Vec<SkillRoot>) -> Self {
        Self {
            roots,
            ..Self::default()
        }
    }
}

/// The result of one discovery run: the winning entry per name and what was reported.
#[derive(Debug, Default)]
pub(crate) struct Discovered {
    pub entries: BTreeMap<String, Arc<SkillEntry>>,
    /// Winners switched off by the configuration (see [`RegistryConfig::disabled`]).
    pub disabled: BTreeMap<String, Arc<SkillEntry>>,
    pub diagnostics: Vec<Diagnostic>,
    /// Skill files that do not load, in walk order.
    pub broken: Vec<BrokenSkill>,
}

/// A skill read from a root, before precedence is applied. The parse is boxed: it is large
/// and moves a few times on its way into the registry.
struct Candidate {
    found: FoundSkill,
    parsed: Box<ParsedSkill>,
    scope: Scope,
}

/// Runs discovery. `previous` holds the entries of the last good run by file, so a skill whose
/// file broke keeps its last good version.
pub(crate) fn discover(
    config: &RegistryConfig,
    previous: &HashMap<PathBuf, Arc<SkillEntry>>,
) -> Discovered {
    let mut out = Discovered::default();
    let options = ParseOptions {
        profile: Profile::Load,
        ..config.parse
    };
    let candidates = read_roots(config, &options, &mut out.diagnostics);
    let mut gate = GateChecker::new(&config.host);
    // Shared by every entry: the values their policies were compiled with.
    let patterns = Arc::new(config.patterns.clone());
    for candidate in candidates {
        admit(
            &mut out, candidate, previous, &mut gate, config, options, &patterns,
        );
    }
    if config.builtins {
        for entry in builtin_entries(&options, config, |_| true) {
            insert(&mut out, entry, config);
        }
    }
    for entry in out.entries.values() {
        out.diagnostics.extend(entry.diagnostics.iter().cloned());
    }
    for name in &config.disabled {
        if let Some(entry) = out.entries.remove(name) {
            tracing::debug!(skill = %name, "skill disabled by the configuration");
            out.disabled.insert(name.clone(), entry);
        }
    }
    out
}

/// Walks every root (one [`Walker`], so a directory is read once however many roots reach
/// it) and reads each skill's header while the walk goes on, on both cores: from the header
/// cache when the file is unchanged. The cache loads on a thread of its own while the first
/// root is listed (that listing needs no hint); whatever needs it first waits for it. Writes
/// the cache back when anything changed.
fn read_roots(
    config: &RegistryConfig,
    options: &ParseOptions,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Candidate> {
    let loaded: OnceLock<HeaderCache> = OnceLock::new();
    std::thread::scope(|scope| {
        if let Some(cache_config) = &config.cache {
            let load = || {
                let started = std::time::Instant::now();
                // A cache that cannot be read is an empty one, and so is one whose reading
                // panicked: the walk waiting for it must not wait forever.
                let cache = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    HeaderCache::load(cache_config, &options.limits)
                }))
                .unwrap_or_default();
                tracing::debug!(elapsed = ?started.elapsed(), "header cache loaded");
                let _ = loaded.set(cache);
            };
            let spawned = std::thread::Builder::new()
                .name("weft-cache-load".into())
                .spawn_scoped(scope, load);
            if let Err(e) = spawned {
                tracing::debug!(error = %e, "no thread for the header cache; loading it first");
                let _ = loaded.set(HeaderCache::load(cache_config, &options.limits));
            }
        }
        let cache = config.cache.as_ref().map(|_| &loaded);
        walk_roots(config, options, cache, diagnostics)
    })
}

/// [`read_roots`] once the cache is on its way: `cache` is filled (or being filled) when the
/// configuration has one.
fn walk_roots(
    config: &RegistryConfig,
    options: &ParseOptions,
    cache: Option<&OnceLock<HeaderCache>>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Candidate> {
    let started = std::time::Instant::now();
    let ready = || cache.map(OnceLock::wait);
    let mut records: Vec<Record> = Vec::new();
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut walker = Walker::new(config.walk);
    for root in &config.roots {
        let root_options = options.with_scope(root.scope);
        if root.kind == RootKind::Commands && root.plugin.is_some() && root.path.is_file() {
            // One command file a plugin's manifest names.
            if let Some((found, parsed)) = read_command_file(root, &root_options) {
                candidates.push(Candidate {
                    found,
                    parsed: Box::new(parsed),
                    scope: root.scope,
                });
            }
            continue;
        }
        if !root.path.is_dir() {
            tracing::debug!(root = %root.path.display(), "skill root does not exist; skipped");
            continue;
        }
        if root.kind == RootKind::Commands {
            let (files, problems) =
                find_commands(&mut walker, &root.path, root.link_boundary.as_deref());
            diagnostics.extend(problems);
            for (name, path) in files {
                let (found, mut parsed) = read_command(&root.path, &name, &path, &root_options);
                if let Some(plugin) = &root.plugin {
                    qualify(&mut parsed, plugin);
                }
                candidates.push(Candidate {
                    found,
                    parsed: Box::new(parsed),
                    scope: root.scope,
                });
            }
            continue;
        }
        let scope = root.scope;
        let hint =
            cache.map(|c| move |dir: &Path, mtime: i128| c.wait().dir_hint(dir, mtime, scope));
        let hint_ref: Option<DirHint<'_>> = hint.as_ref().map(|h| h as DirHint<'_>);
        let (found, problems) = walker.walk_with_hints(
            &root.path,
            root.link_boundary.as_deref(),
            hint_ref,
            |found, facts| header_with_cache(found, &root_options, ready(), facts),
        );
        diagnostics.extend(problems);
        for (found, (mut parsed, record)) in found {
            records.extend(record);
            if let Some(plugin) = &root.plugin {
                qualify(&mut parsed, plugin);
            }
            candidates.push(Candidate {
                found,
                parsed,
                scope,
            });
        }
    }
    tracing::debug!(elapsed = ?started.elapsed(), skills = candidates.len(), "roots walked and read");
    if let (Some(cache), Some(config)) = (ready(), &config.cache)
        && cache.differs(&records)
        && let Err(e) = cache.save(&config.path, &records)
    {
        tracing::debug!(path = %config.path.display(), error = %e, "could not write the skill cache");
    }
    candidates
}

/// Names a plugin's skill or command `plugin:name` and records the plugin in its source.
fn qualify(parsed: &mut ParsedSkill, plugin: &PluginRef) {
    if let Some(skill) = &mut parsed.skill {
        skill.name = plugin.qualify(&skill.name);
        skill.source.plugin = Some(plugin.clone());
    }
    if let Some(name) = &mut parsed.name {
        *name = plugin.qualify(name);
    }
}

/// A plugin's commands root that is one file: the command named after the file (`x.md` is
/// `plugin:x`), read like any command (a link must stay inside the plugin).
fn read_command_file(
    root: &SkillRoot,
    options: &ParseOptions,
) -> Option<(FoundSkill, ParsedSkill)> {
    let plugin = root.plugin.as_ref()?;
    let stem = root.path.file_stem()?.to_str()?;
    if !weft_parse::name::is_safe_dir_name(stem) {
        tracing::warn!(file = %root.path.display(), "plugin command file name is not a safe name; skipped");
        return None;
    }
    let (found, mut parsed) = read_command(&plugin.root, stem, &root.path, options);
    qualify(&mut parsed, plugin);
    Some((found, parsed))
}

/// Turns a candidate into a registry entry (with its readiness), or, when its file no longer
/// loads, keeps the last good version of that file.
fn admit(
    out: &mut Discovered,
    candidate: Candidate,
    previous: &HashMap<PathBuf, Arc<SkillEntry>>,
    gate: &mut GateChecker<'_>,
    config: &RegistryConfig,
    options: ParseOptions,
    patterns: &Arc<PatternContext>,
) {
    let Candidate {
        found,
        parsed,
        scope,
    } = candidate;
    let ParsedSkill {
        skill,
        diagnostics,
        name,
        ..
    } = *parsed;
    let Some(skill) = skill else {
        let path = found.file.path();
        out.broken.push(BrokenSkill {
            name: name.unwrap_or_else(|| dir_name(&found.dir)),
            scope,
            path: path.to_path_buf(),
            errors: diagnostics
                .iter()
                .filter(|d| d.is_error())
                .cloned()
                .collect(),
        });
        out.diagnostics.extend(diagnostics);
        if let Some(last) = previous.get(path) {
            if let Some(d) = Rule::KeptLastGood.diagnostic(
                Profile::Load,
                format!(
                    "`{}` no longer loads; its last good version stays in use until the file is fixed",
                    last.skill.name
                ),
            ) {
                out.diagnostics.push(d.with_path(path));
            }
            insert(out, Arc::clone(last), config);
        }
        return;
    };
    let policy = match tool_policy::compile(
        &skill,
        Some(found.file.path()),
        &config.patterns,
        Profile::Load,
    ) {
        Ok(policy) => (policy, Arc::clone(patterns)),
        Err(error) => {
            // A tool list that does not compile never means "no restriction": the skill does
            // not load, as when the list could not be split.
            let path = found.file.path().to_path_buf();
            out.broken.push(BrokenSkill {
                name: skill.name.clone(),
                scope,
                path: path.clone(),
                errors: error.iter().cloned().collect(),
            });
            out.diagnostics.extend(diagnostics);
            out.diagnostics.extend(error);
            if let Some(last) = previous.get(&path) {
                insert(out, Arc::clone(last), config);
            }
            return;
        }
    };
    let mut entry = SkillEntry::new(
        skill,
        SkillOrigin::File(found.file),
        options,
        diagnostics,
        policy,
    );
    entry.readiness = gate.check(&entry.skill);
    if !entry.readiness.is_ready()
        && let Some(d) = Rule::UnmetRequirement.diagnostic(
            Profile::Load,
            format!(
                "`{}` {}; it still loads",
                entry.skill.name,
                entry.readiness.problems().join("; ")
            ),
        )
        && let Some(path) = entry.file()
    {
        let d = d.with_path(path);
        entry.diagnostics.push(d);
    }
    insert(out, Arc::new(entry), config);
}

/// Level 1 of a found skill, from the cache when its file is unchanged. Also returns the
/// record to keep in the cache (`None` when there is no cache or the file cannot be stat'ed).
fn header_with_cache(
    found: &FoundSkill,
    options: &ParseOptions,
    cache: Option<&HeaderCache>,
    facts: &DirFacts<'_>,
) -> (Box<ParsedSkill>, Option<Record>) {
    let (Some(cache), SkillFile::Markdown(path)) = (cache, &found.file) else {
        return (Box::new(read_skill_header(found, options)), None);
    };
    let scope = options.scope;
    let dir_mtime = facts.mtime;
    if let Ok(stamp) = facts.stamp_of(path).map(Stamp::from)
        && let Some((index, parsed)) = cache.lookup(path, scope, stamp)
    {
        let record = Record::Hit {
            index,
            dir_mtime_ns: dir_mtime,
            notes: remembered_notes(found),
        };
        let parsed = with_walk_diagnostics(found, options.profile, parsed);
        return (Box::new(parsed), Some(record));
    }
    // The stamp recorded is the one of the handle that was read.
    let (parsed, stamp) = parse_header(found, options);
    let record = stamp
        .and_then(|s| FreshEntry::new(found, scope, s.into(), dir_mtime, &parsed))
        .map(|e| Record::Fresh(Box::new(e)));
    let parsed = with_walk_diagnostics(found, options.profile, parsed);
    (Box::new(parsed), record)
}

/// Finds one skill without reading the others: only skill directories named `name` are
/// parsed (plus the built-ins). Returns `None` when no directory has that name (the skill may
/// still exist under another directory name; the caller then falls back to a full
/// discovery). Copies under other directory names are not seen, so the shadow list may be
/// shorter than a full discovery's.
pub fn discover_one(
    config: &RegistryConfig,
    name: &str,
) -> Option<(Arc<SkillEntry>, Vec<Diagnostic>)> {
    let mut out = Discovered::default();
    let options = ParseOptions {
        profile: Profile::Load,
        ..config.parse
    };
    let mut gate = GateChecker::new(&config.host);
    let patterns = Arc::new(config.patterns.clone());
    let mut any = false;
    let mut walker = Walker::new(config.walk);
    for root in &config.roots {
        // A plugin's skills are named `plugin:name`, never after their directory alone.
        if !root.path.is_dir() || root.kind == RootKind::Commands || root.plugin.is_some() {
            continue;
        }
        let walked = walker.walk_within(&root.path, root.link_boundary.as_deref());
        for found in walked.skills {
            if found.dir.file_name().and_then(|n| n.to_str()) != Some(name) {
                continue;
            }
            any = true;
            let parsed = read_skill_header(&found, &options.with_scope(root.scope));
            out.diagnostics.extend(parsed.diagnostics.iter().cloned());
            if let Some(skill) = parsed.skill.filter(|s| s.name == name) {
                let compiled = tool_policy::compile(
                    &skill,
                    Some(found.file.path()),
                    &config.patterns,
                    Profile::Load,
                );
                let policy = match compiled {
                    Ok(policy) => (policy, Arc::clone(&patterns)),
                    Err(error) => {
                        out.diagnostics.extend(error);
                        continue;
                    }
                };
                let mut entry = SkillEntry::new(
                    skill,
                    SkillOrigin::File(found.file),
                    options,
                    parsed.diagnostics,
                    policy,
                );
                entry.readiness = gate.check(&entry.skill);
                insert(&mut out, Arc::new(entry), config);
            }
        }
    }
    if !any {
        return None;
    }
    if config.builtins {
        for entry in builtin_entries(&options, config, |s| s.name == name) {
            insert(&mut out, entry, config);
        }
    }
    let entry = out.entries.remove(name)?;
    Some((entry, out.diagnostics))
}

/// The built-in skills `keep` accepts, as entries with their compiled policies. A built-in
/// whose patterns do not compile is a bug in this crate (a test checks they all do): it is
/// logged and left out rather than panicking.
fn builtin_entries(
    options: &ParseOptions,
    config: &RegistryConfig,
    keep: impl Fn(&weft_types::Skill) -> bool,
) -> Vec<Arc<SkillEntry>> {
    let patterns = Arc::new(config.patterns.clone());
    builtin_skills(options)
        .into_iter()
        .filter(|(skill, _)| keep(skill))
        .filter_map(|(skill, body)| {
            match tool_policy::compile(&skill, None, &config.patterns, Profile::Load) {
                Ok(policy) => Some(Arc::new(SkillEntry::with_body(
                    skill,
                    SkillOrigin::Builtin,
                    body,
                    (policy, Arc::clone(&patterns)),
                ))),
                Err(error) => {
                    tracing::error!(skill = %skill.name, ?error, "built-in skill's tools do not compile");
                    None
                }
            }
        })
        .collect()
}

/// True for what an untrusted project's skills are warned about (`W181`: a project skill
/// overriding a user, workspace, plugin or built-in one): it changes what runs, so callers
/// show it whenever skills are listed or used, not only with `-v`.
pub fn is_trust_warning(d: &Diagnostic) -> bool {
    d.rule() == Some(Rule::ProjectOverride.number())
}

/// Adds `entry` unless a higher-precedence skill already has its name; either way the loser
/// is recorded as shadowed by the winner.
fn insert(out: &mut Discovered, entry: Arc<SkillEntry>, config: &RegistryConfig) {
    let name = entry.skill.name.clone();
    let Some(winner) = out.entries.get_mut(&name) else {
        out.entries.insert(name, entry);
        return;
    };
    let is_command = |e: &SkillEntry| e.skill.source.format == SkillFormat::Command;
    if is_command(winner) != is_command(&entry) {
        // A skill wins over a command of the same name, whatever the roots' order.
        let (skill, command) = if is_command(winner) {
            (entry, Arc::clone(winner))
        } else {
            (Arc::clone(winner), entry)
        };
        if let Some(d) = Rule::CommandShadowed.diagnostic(
            Profile::Load,
            format!(
                "the skill `{name}` ({}) shadows the command at {}",
                display(skill.file()),
                display(command.file())
            ),
        ) {
            out.diagnostics.push(match command.file() {
                Some(p) => d.with_path(p),
                None => d,
            });
        }
        let mut shadows = skill.shadows.clone();
        shadows.push(ShadowedSkill {
            scope: command.skill.source.scope,
            format: command.skill.source.format,
            description: command.skill.description.clone(),
            path: command.file().map(PathBuf::from),
        });
        *winner = Arc::new(skill.with_shadows(shadows));
        return;
    }
    let (w_scope, l_scope) = (winner.skill.source.scope, entry.skill.source.scope);
    let loser_path = entry.file().map(PathBuf::from);
    let winner_path = winner.file().map(PathBuf::from);
    let diagnostic = if w_scope == l_scope {
        Rule::DuplicateInScope.diagnostic(
            Profile::Load,
            format!(
                "two {w_scope} skills are named `{name}`; {} is used, {} is ignored",
                display(winner_path.as_deref()),
                display(loser_path.as_deref())
            ),
        )
    } else if w_scope == Scope::Project && !config.trust_project_skills {
        let place = loser_path
            .as_deref()
            .map(|p| format!(" at {}", p.display()))
            .unwrap_or_default();
        Rule::ProjectOverride.diagnostic(
            Profile::Load,
            format!(
                "project skill `{name}` overrides the {l_scope} skill{place} (--trust-project silences this)"
            ),
        )
    } else {
        None
    };
    if let Some(d) = diagnostic {
        let d = match &winner_path {
            Some(p) => d.with_path(p),
            None => d,
        };
        out.diagnostics.push(d);
    }
    // Entries are shared with older snapshots; record the shadow on a copy.
    let mut shadows = winner.shadows.clone();
    shadows.push(ShadowedSkill {
        scope: l_scope,
        format: entry.skill.source.format,
        description: entry.skill.description.clone(),
        path: loser_path,
    });
    *winner = Arc::new(winner.with_shadows(shadows));
}

fn display(path: Option<&std::path::Path>) -> String {
    path.map_or_else(|| "(built in)".to_owned(), |p| p.display().to_string())
}

/// The last component of a skill directory, for a broken skill that declares no name.
fn dir_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
