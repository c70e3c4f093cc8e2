//! The skill registry: discovered skills plus skills registered at run time, published as
//! immutable snapshots so readers never see a half-applied change.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};

use weft_parse::name::name_problems;
use weft_permissions::{PatternContext, Policy};
use weft_types::{Diagnostic, Severity, Skill};

use crate::builtin::body_of;
use crate::catalog::{Catalog, CatalogEntry, CatalogFormat, render_catalog};
use crate::discover::{Discovered, RegistryConfig, discover};
use crate::entry::{BrokenSkill, SkillBody, SkillEntry, SkillOrigin};
use crate::error::SkillError;
use crate::freshness::Watched;
use crate::read::skill_file_cap;
use crate::resource::resolve_resource;

/// An immutable view of every skill at one moment, sorted by name.
#[derive(Debug, Default)]
pub struct Snapshot {
    entries: Vec<Arc<SkillEntry>>,
    /// Skills the configuration switched off, sorted by name: in no other list.
    disabled: Vec<Arc<SkillEntry>>,
    diagnostics: Vec<Diagnostic>,
    broken: Vec<BrokenSkill>,
    generation: u64,
}

impl Snapshot {
    /// The skill named `name`: the skill of exactly that name, else the one plugin skill it
    /// names without its plugin (`lint` for `fmt:lint`) when exactly one plugin has it (see
    /// [`resolve`](Self::resolve), which also says why a name finds nothing).
    pub fn get(&self, name: &str) -> Option<&Arc<SkillEntry>> {
        self.resolve(name).ok()
    }

    /// The skill of exactly this name, plugin namespace included.
    pub fn get_exact(&self, name: &str) -> Option<&Arc<SkillEntry>> {
        self.entries
            .binary_search_by(|e| e.skill.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.entries[i])
    }

    /// What `name` finds: the skill of exactly that name (a user or project skill `lint`
    /// wins over every plugin's `lint`, which stays reachable as `plugin:lint`), else the one
    /// plugin skill named `plugin:name`; [`Lookup::Ambiguous`] with the qualified names when
    /// several plugins have it, [`Lookup::Missing`] when none does.
    pub fn resolve(&self, name: &str) -> Result<&Arc<SkillEntry>, Lookup> {
        if let Some(entry) = self.get_exact(name) {
            return Ok(entry);
        }
        let found = self.plugin_skills_named(name);
        match found.as_slice() {
            [] => Err(Lookup::Missing),
            [one] => Ok(one),
            several => Err(Lookup::Ambiguous(
                several.iter().map(|e| e.name().to_owned()).collect(),
            )),
        }
    }

    /// The plugin skills whose name without their plugin's namespace is `bare`, in name
    /// order.
    pub fn plugin_skills_named(&self, bare: &str) -> Vec<&Arc<SkillEntry>> {
        self.entries
            .iter()
            .filter(|e| unqualified(&e.skill) == Some(bare))
            .collect()
    }

    /// Every skill, sorted by name.
    pub fn entries(&self) -> &[Arc<SkillEntry>] {
        &self.entries
    }

    /// The skills the configuration switched off (`skills.disabled`,
    /// `skills.entries.<name>.enabled: false`), sorted by name. They are absent from
    /// [`entries`](Self::entries), [`get`](Self::get) and the catalog.
    pub fn disabled(&self) -> &[Arc<SkillEntry>] {
        &self.disabled
    }

    /// The skills the model may see and invoke (not `disable-model-invocation`).
    pub fn model_invocable(&self) -> impl Iterator<Item = &Arc<SkillEntry>> {
        self.entries.iter().filter(|e| e.skill.model_invocable())
    }

    /// The skills a user may invoke as `/name` (not `user-invocable: false`).
    pub fn user_invocable(&self) -> impl Iterator<Item = &Arc<SkillEntry>> {
        self.entries.iter().filter(|e| e.skill.user_invocable)
    }

    /// Number of skills.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are no skills.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// What discovery reported: broken skills, shadowing, unmet requirements.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Skill files that were found but do not load, in discovery order.
    pub fn broken(&self) -> &[BrokenSkill] {
        &self.broken
    }

    /// The files named `name` (by their `name` key, else their directory) that do not load
    /// and have no loading skill of that name in front of them: why `name` is missing.
    pub fn broken_named(&self, name: &str) -> Vec<&BrokenSkill> {
        if self.get(name).is_some() {
            return Vec::new();
        }
        self.broken.iter().filter(|b| b.name == name).collect()
    }

    /// Increases by one with every published change.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The model-facing catalog at the start of a session: every model-invocable skill but
    /// the conditional ones (`paths:`), fitted to `budget_chars` (see
    /// [`catalog`](crate::catalog)).
    pub fn catalog(&self, format: CatalogFormat, budget_chars: usize) -> Catalog {
        self.catalog_where(format, budget_chars, |e| !e.skill.is_conditional())
    }

    /// The catalog of the model-invocable skills `include` accepts. The weft format shows
    /// each description followed by its `when_to_use`; the XML format shows the description
    /// alone (byte for byte what skills-ref's `to-prompt` shows) and each skill's file as an
    /// absolute, resolved path, like the reference implementation.
    pub fn catalog_where(
        &self,
        format: CatalogFormat,
        budget_chars: usize,
        include: impl Fn(&SkillEntry) -> bool,
    ) -> Catalog {
        let invocable: Vec<&Arc<SkillEntry>> =
            self.model_invocable().filter(|e| include(e)).collect();
        Self::catalog_of(&invocable, format, budget_chars)
    }

    /// Every skill in SKILL.md form, in the XML format, listed as skills-ref's `to-prompt`
    /// lists the same directories: whether or not the model may invoke it and whether or not
    /// it is conditional (the reference knows neither field). Commands and legacy
    /// `skill.json` skills, which the reference cannot read, are left out, and so are the
    /// skills the configuration switches off. This is a listing for people and tools
    /// (`weft skills catalog --format xml --no-builtins`), not what the model is offered
    /// ([`catalog`](Self::catalog) is).
    pub fn reference_catalog(&self, budget_chars: usize) -> Catalog {
        let skills: Vec<&Arc<SkillEntry>> = self
            .entries
            .iter()
            .filter(|e| e.skill.source.format == weft_types::SkillFormat::SkillMd)
            .collect();
        Self::catalog_of(&skills, CatalogFormat::Xml, budget_chars)
    }

    /// The catalog of `invocable`, in order.
    fn catalog_of(
        invocable: &[&Arc<SkillEntry>],
        format: CatalogFormat,
        budget_chars: usize,
    ) -> Catalog {
        let descriptions: Vec<std::borrow::Cow<'_, str>> = invocable
            .iter()
            .map(|e| match format {
                CatalogFormat::Weft => e.skill.catalog_description(),
                CatalogFormat::Xml => std::borrow::Cow::Borrowed(e.skill.description.as_str()),
            })
            .collect();
        let locations: Vec<Option<PathBuf>> = invocable
            .iter()
            .map(|e| {
                e.file().map(|p| match format {
                    CatalogFormat::Xml => {
                        std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
                    }
                    CatalogFormat::Weft => p.to_path_buf(),
                })
            })
            .collect();
        let entries: Vec<CatalogEntry<'_>> = invocable
            .iter()
            .zip(&locations)
            .zip(&descriptions)
            .map(|((e, location), description)| CatalogEntry {
                name: &e.skill.name,
                description,
                location: location.as_deref(),
                scope: e.skill.source.scope,
            })
            .collect();
        render_catalog(&entries, format, budget_chars)
    }
}

/// Why a name finds no skill ([`Snapshot::resolve`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// No skill has the name, qualified or not.
    Missing,
    /// Several plugins have a skill of that name: their qualified names, sorted.
    Ambiguous(Vec<String>),
}

impl Lookup {
    /// `` `lint` is ambiguous: fmt:lint, style:lint `` for [`Lookup::Ambiguous`].
    pub fn ambiguity(&self, name: &str) -> Option<String> {
        match self {
            Lookup::Missing => None,
            Lookup::Ambiguous(names) => Some(format!(
                "`{name}` is the name of a skill in several plugins; give the plugin: {}",
                names.join(", ")
            )),
        }
    }
}

/// A plugin skill's name without its plugin's namespace (`lint` for `fmt:lint`); `None` for a
/// skill of no plugin.
pub fn unqualified(skill: &Skill) -> Option<&str> {
    let plugin = skill.source.plugin.as_ref()?;
    skill
        .name
        .strip_prefix(plugin.name.as_str())?
        .strip_prefix(':')
}

/// What writers share; one writer at a time.
#[derive(Debug, Default)]
struct State {
    discovered: Discovered,
    /// Skills registered through the API; they win over discovered ones.
    registered: BTreeMap<String, Arc<SkillEntry>>,
    /// Discovered skills hidden by `unregister` (until registered again).
    hidden: BTreeSet<String>,
    generation: u64,
    /// What the last discovery came from, for [`SkillRegistry::refresh`]; `None` when the
    /// configuration does not track changes.
    watched: Option<Watched>,
}

/// The registry of skills: discovery, precedence, runtime registration, and snapshots.
///
/// Readers call [`snapshot`](Self::snapshot) (or [`get`](Self::get)) and keep a consistent
/// view for as long as they hold it; writers (`register`, `override_version`, `unregister`,
/// `reload`) build a new snapshot and swap it in.
///
/// ```
/// use weft_registry::{RegistryConfig, SkillRegistry};
/// use weft_types::{Scope, Skill};
///
/// let registry = SkillRegistry::new(RegistryConfig::default());
/// assert!(registry.get("specification-engine").is_some()); // built in
///
/// let mut skill = Skill::in_memory("triage", "Triage incoming bug reports", Scope::User);
/// skill.version = Some("1.0.0".into());
/// registry.register(skill.clone(), Some("Label and route the bug.".into())).unwrap();
/// skill.version = Some("1.1.0".into());
/// registry.override_version(skill, None).unwrap();
/// assert_eq!(registry.get("triage").unwrap().skill.version.as_deref(), Some("1.1.0"));
/// ```
#[derive(Debug)]
pub struct SkillRegistry {
    config: RegistryConfig,
    state: Mutex<State>,
    current: RwLock<Arc<Snapshot>>,
}

impl SkillRegistry {
    /// Discovers the skills under `config`'s roots (plus the built-ins) and publishes them.
    pub fn new(config: RegistryConfig) -> Self {
        let discovered = discover(&config, &HashMap::new());
        let watched = config
            .track_changes
            .then(|| Watched::of(&config.roots, &discovered));
        let registry = Self {
            config,
            state: Mutex::new(State {
                discovered,
                watched,
                ..State::default()
            }),
            current: RwLock::new(Arc::new(Snapshot::default())),
        };
        registry.publish(&mut registry.lock());
        registry
    }

    /// The configuration the registry was built with.
    pub fn config(&self) -> &RegistryConfig {
        &self.config
    }

    /// The current snapshot.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        Arc::clone(&self.current.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// The skill named `name` in the current snapshot.
    pub fn get(&self, name: &str) -> Option<Arc<SkillEntry>> {
        self.snapshot().get(name).cloned()
    }

    /// Every skill in the current snapshot, sorted by name.
    pub fn list(&self) -> Vec<Arc<SkillEntry>> {
        self.snapshot().entries().to_vec()
    }

    /// Adds a skill defined in memory. Fails when the name is taken (use
    /// [`override_version`](Self::override_version) to replace) or the skill is invalid.
    /// Without a body, one is written from the skill's description and contract.
    pub fn register(&self, skill: Skill, body: Option<String>) -> Result<(), SkillError> {
        let policy = check_registrable(&skill, &self.config.patterns)?;
        let mut state = self.lock();
        let taken = state.registered.contains_key(&skill.name)
            || (state.discovered.entries.contains_key(&skill.name)
                && !state.hidden.contains(&skill.name));
        if taken {
            return Err(SkillError::AlreadyRegistered { name: skill.name });
        }
        insert_registered(&mut state, skill, body, policy);
        self.publish(&mut state);
        Ok(())
    }

    /// Replaces the skill with this name (registering it when absent). Returns the version it
    /// replaced, if the old one had a version.
    pub fn override_version(
        &self,
        skill: Skill,
        body: Option<String>,
    ) -> Result<Option<String>, SkillError> {
        let policy = check_registrable(&skill, &self.config.patterns)?;
        let mut state = self.lock();
        let previous = state
            .registered
            .get(&skill.name)
            .or_else(|| {
                (!state.hidden.contains(&skill.name))
                    .then(|| state.discovered.entries.get(&skill.name))
                    .flatten()
            })
            .and_then(|e| e.skill.version.clone());
        insert_registered(&mut state, skill, body, policy);
        self.publish(&mut state);
        Ok(previous)
    }

    /// Removes the skill with this name: a registered one is dropped, a discovered one is
    /// hidden until it is registered again. Returns false when there was no such skill.
    pub fn unregister(&self, name: &str) -> bool {
        let mut state = self.lock();
        let registered = state.registered.remove(name).is_some();
        let discovered =
            state.discovered.entries.contains_key(name) && state.hidden.insert(name.to_owned());
        if registered || discovered {
            self.publish(&mut state);
        }
        registered || discovered
    }

    /// Walks the roots again and publishes what changed. A skill whose file broke since the
    /// last run keeps its last good version (with a diagnostic).
    pub fn reload(&self) -> Arc<Snapshot> {
        let mut state = self.lock();
        self.rediscover(&mut state)
    }

    /// [`reload`](Self::reload), but only when a skill file or directory may have changed
    /// since the last walk: one `stat` per root, skill directory and skill file (and the
    /// directories between), so a session can call it at the start of every turn and see
    /// skills installed, changed or removed meanwhile. Returns the new snapshot, or `None`
    /// when nothing changed (the snapshot and its generation stay). Without
    /// [`RegistryConfig::track_changes`] nothing was stamped, so it always walks again.
    pub fn refresh(&self) -> Option<Arc<Snapshot>> {
        let mut state = self.lock();
        if state.watched.as_ref().is_some_and(|w| !w.changed()) {
            return None;
        }
        tracing::debug!("skill files changed; reloading");
        Some(self.rediscover(&mut state))
    }

    /// Walks the roots again (entries whose files did not change are kept) and publishes.
    fn rediscover(&self, state: &mut State) -> Arc<Snapshot> {
        let previous: HashMap<PathBuf, Arc<SkillEntry>> = state
            .discovered
            .entries
            .values()
            .filter_map(|e| e.file().map(|p| (p.to_path_buf(), Arc::clone(e))))
            .collect();
        state.discovered = discover(&self.config, &previous);
        state.watched = self
            .config
            .track_changes
            .then(|| Watched::of(&self.config.roots, &state.discovered));
        self.publish(state)
    }

    /// Level 2: the body of `name`, loaded on first use and cached.
    pub fn body(&self, name: &str) -> Result<Arc<SkillBody>, SkillError> {
        self.entry(name)?.body()
    }

    /// Level 3: the path of a file inside the skill's directory, checked against traversal.
    pub fn resource_path(&self, name: &str, path: &str) -> Result<PathBuf, SkillError> {
        let entry = self.entry(name)?;
        let dir = entry.dir().ok_or_else(|| SkillError::NoSkillDirectory {
            skill: name.to_owned(),
        })?;
        resolve_resource(name, dir, path)
    }

    /// Level 3: the bytes of a file inside the skill's directory (at most the file-size
    /// limit).
    pub fn resource(&self, name: &str, path: &str) -> Result<Vec<u8>, SkillError> {
        let resolved = self.resource_path(name, path)?;
        let cap = skill_file_cap(&self.config.parse).for_kind("skill resources");
        weft_fs::read_regular(&resolved, cap).map_err(|e| SkillError::Io {
            path: resolved,
            source: e.into(),
        })
    }

    fn entry(&self, name: &str) -> Result<Arc<SkillEntry>, SkillError> {
        self.get(name).ok_or_else(|| SkillError::SkillNotFound {
            name: name.to_owned(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Builds the snapshot for `state` and swaps it in.
    fn publish(&self, state: &mut State) -> Arc<Snapshot> {
        state.generation += 1;
        let mut merged: BTreeMap<&str, &Arc<SkillEntry>> = state
            .discovered
            .entries
            .iter()
            .filter(|(name, _)| !state.hidden.contains(name.as_str()))
            .map(|(name, e)| (name.as_str(), e))
            .collect();
        for (name, entry) in &state.registered {
            merged.insert(name.as_str(), entry);
        }
        let snapshot = Arc::new(Snapshot {
            entries: merged.into_values().cloned().collect(),
            disabled: state.discovered.disabled.values().cloned().collect(),
            diagnostics: state.discovered.diagnostics.clone(),
            broken: state.discovered.broken.clone(),
            generation: state.generation,
        });
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = Arc::clone(&snapshot);
        snapshot
    }
}

fn insert_registered(
    state: &mut State,
    skill: Skill,
    body: Option<String>,
    policy: (Policy, Arc<PatternContext>),
) {
    let name = skill.name.clone();
    let body = body.unwrap_or_else(|| body_of(&skill));
    state.hidden.remove(&name);
    state.registered.insert(
        name,
        Arc::new(SkillEntry::with_body(
            skill,
            SkillOrigin::Registered,
            body,
            policy,
        )),
    );
}

/// A registered skill needs a valid name, a description and tool patterns that compile, like
/// a file would; its compiled policy.
fn check_registrable(
    skill: &Skill,
    patterns: &PatternContext,
) -> Result<(Policy, Arc<PatternContext>), SkillError> {
    let mut diagnostics: Vec<Diagnostic> = name_problems(&skill.name)
        .into_iter()
        .map(|m| Diagnostic::new(Severity::Error, weft_parse::Rule::InvalidName.number(), m))
        .collect();
    if skill.description.trim().is_empty() {
        diagnostics.push(Diagnostic::new(
            Severity::Error,
            weft_parse::Rule::MissingDescription.number(),
            "a skill needs a description",
        ));
    }
    let policy = crate::tool_policy::compile(skill, None, patterns, weft_parse::Profile::Load)
        .map_err(|d| diagnostics.extend(d));
    match policy {
        Ok(policy) if diagnostics.is_empty() => Ok((policy, Arc::new(patterns.clone()))),
        _ => Err(SkillError::InvalidSkill {
            name: skill.name.clone(),
            diagnostics,
        }),
    }
}
