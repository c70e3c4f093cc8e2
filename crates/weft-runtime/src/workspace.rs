//! Where things are: the project, the home directory, and the skill roots built from them,
//! resolved from what the caller passes ([`Locations`] and an [`EnvSnapshot`]).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use weft_plugin::PluginSet;
use weft_registry::{CacheConfig, RegistryConfig, SkillRoot};
use weft_types::Scope;

use weft_agents::AgentRoot;

use crate::config::ConfigSources;
use crate::env::EnvSnapshot;
use crate::trust::ProjectTrust;

/// The user's configuration file, under the home directory.
const USER_CONFIG: &str = ".clawft/config.json";

/// What the caller says about where things are; every `None` falls back to the environment
/// snapshot (`HOME`, `CLAWFT_PROJECT`, the current directory).
#[derive(Debug, Clone, Default)]
pub struct Locations {
    /// The project directory (default: `$CLAWFT_PROJECT`, else [`detect_project`]: the git
    /// root, or outside git the nearest ancestor holding `.clawft/`, `.claude/` or `.agents/`;
    /// never the home directory or above).
    pub project: Option<PathBuf>,
    /// The home directory (default: `$HOME`).
    pub home: Option<PathBuf>,
    /// Extra skill directories (plugin scope).
    pub skills_dirs: Vec<PathBuf>,
    /// Trust the project for this invocation (`--trust-project`): apply its whole
    /// configuration, let its agents exceed the user's limits, and do not warn when its skills
    /// or agents override others. Without it, the user's `projects` list decides
    /// ([`ProjectTrust::decide`]).
    pub trust_project: bool,
    /// The build fingerprint for the header cache under the home directory (entries written
    /// by another build are discarded); `None` reads and writes no cache.
    pub cache_fingerprint: Option<String>,
    /// A configuration file merged over the user's and the project's.
    pub config: Option<PathBuf>,
    /// Run no hook (`--no-hooks`).
    pub no_hooks: bool,
}

/// The resolved locations of one invocation, with the environment they were resolved in.
#[derive(Debug, Clone)]
pub struct Workspace {
    /// The project directory, when there is one.
    pub project: Option<PathBuf>,
    /// The home directory, when known.
    pub home: Option<PathBuf>,
    /// Extra skill directories.
    pub extra_skill_dirs: Vec<PathBuf>,
    /// Whether the project is trusted, and why.
    pub trust: ProjectTrust,
    /// The header cache's build fingerprint; `None` = no cache.
    pub cache_fingerprint: Option<String>,
    /// `--config FILE`.
    pub config_file: Option<PathBuf>,
    /// The environment the caller passed (variables and current directory).
    pub env: EnvSnapshot,
    /// Run no hook (`--no-hooks`).
    pub no_hooks: bool,
    /// The plugins, read on first use.
    plugins: Arc<OnceLock<PluginSet>>,
}

impl Workspace {
    /// Resolves the locations: explicit values first, then the environment snapshot, then
    /// project detection from its current directory.
    pub fn resolve(locations: &Locations, env: EnvSnapshot) -> Self {
        let home = locations
            .home
            .clone()
            .or_else(|| env.var_os("HOME").map(PathBuf::from))
            .filter(|h| !h.as_os_str().is_empty());
        // A project named on the command line or in the environment may be relative (`.`,
        // `..`): it is taken from the current directory and made canonical, as a detected one
        // is, so every path compared with it (sandbox policies, permission rules, "inside the
        // project") is absolute and free of links.
        let project = locations
            .project
            .clone()
            .or_else(|| env.var_os("CLAWFT_PROJECT").map(PathBuf::from))
            .filter(|p| !p.as_os_str().is_empty())
            .map(|p| absolute_dir(&p, env.current_dir()))
            .or_else(|| detect_project(env.current_dir()?, home.as_deref()));
        // The user's own files decide before the project's file is read.
        let user_config = home.as_ref().map(|h| h.join(USER_CONFIG));
        let user_files: Vec<&Path> = [user_config.as_deref(), locations.config.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        let trust = ProjectTrust::decide(
            locations.trust_project,
            project.as_deref(),
            home.as_deref(),
            &user_files,
        );
        Self {
            project,
            home,
            extra_skill_dirs: locations.skills_dirs.clone(),
            trust,
            cache_fingerprint: locations.cache_fingerprint.clone(),
            config_file: locations.config.clone(),
            env,
            no_hooks: locations.no_hooks,
            plugins: Arc::default(),
        }
    }

    /// Every plugin installed for this user and project (weft's and Claude Code's), read once
    /// per workspace: their skills, commands and agents are discovery roots while they are
    /// in use, and [`PluginSet::hooks`] / [`PluginSet::mcp_servers`] are what they bring to
    /// run.
    pub fn plugins(&self) -> &PluginSet {
        self.plugins
            .get_or_init(|| PluginSet::load(&crate::plugins::plugin_sources(self)))
    }

    /// Where this workspace's plugins are looked for (weft's stores, Claude Code's
    /// directory, the project's trust).
    pub fn plugin_sources(&self) -> weft_plugin::PluginSources {
        crate::plugins::plugin_sources(self)
    }

    /// The directory tools work in: the project, else the current directory; absolute and
    /// canonical (symbolic links resolved) wherever the directory exists.
    pub fn base_dir(&self) -> Result<PathBuf, crate::RuntimeError> {
        match &self.project {
            Some(p) => Ok(p.clone()),
            None => self
                .env
                .current_dir()
                .map(|dir| absolute_dir(dir, None))
                .ok_or(crate::RuntimeError::NoCurrentDirectory),
        }
    }

    /// Agent roots, highest precedence first (FR-3F-011, plus Claude Code's directories).
    pub fn agent_roots(&self) -> Vec<AgentRoot> {
        let mut roots = Vec::new();
        if let Some(p) = &self.project {
            for dir in [".clawft/agents", ".claude/agents"] {
                roots.push(AgentRoot::new(p.join(dir), Scope::Project));
            }
        }
        if let Some(h) = &self.home {
            for dir in [".clawft/agents", ".claude/agents"] {
                roots.push(AgentRoot::new(h.join(dir), Scope::User));
            }
        }
        roots.extend(crate::plugins::plugin_agent_roots(self.plugins()));
        roots
    }

    /// The configuration files: user, project, `--config`.
    pub fn config_sources(&self) -> ConfigSources {
        ConfigSources {
            user: self.home.as_ref().map(|h| h.join(USER_CONFIG)),
            project: self.project.as_ref().map(|p| p.join(".clawft/config.json")),
            explicit: self.config_file.clone(),
            trust_project: self.trust.is_trusted(),
            claude: self.claude_sources(),
        }
    }

    /// Claude Code's settings files: `~/.claude/settings.json`,
    /// `<project>/.claude/settings.json` and `<project>/.claude/settings.local.json`.
    pub fn claude_sources(&self) -> crate::claude::ClaudeSources {
        let project_file = |name: &str| self.project.as_ref().map(|p| p.join(".claude").join(name));
        crate::claude::ClaudeSources {
            user: self.home.as_ref().map(|h| h.join(".claude/settings.json")),
            project: project_file("settings.json"),
            local: project_file("settings.local.json"),
            home: self.home.clone(),
            project_dir: self.project.clone(),
        }
    }

    /// The project's `.mcp.json` (Claude Code's project MCP servers).
    pub fn mcp_json(&self) -> Option<PathBuf> {
        self.project.as_ref().map(|p| p.join(".mcp.json"))
    }

    /// Where the `.mcp.json` servers a person approved are kept (under the home directory).
    pub fn mcp_approvals_file(&self) -> Option<PathBuf> {
        self.home
            .as_ref()
            .map(|h| h.join(crate::claude::APPROVALS_FILE))
    }

    /// The configuration files in merge order: user, project, `--config`.
    pub fn config_files(&self) -> Vec<PathBuf> {
        let sources = self.config_sources();
        [sources.user, sources.project, sources.explicit]
            .into_iter()
            .flatten()
            .collect()
    }

    /// `~/.clawft/workspace/history`: the interactive session's line history.
    pub fn history_file(&self) -> Option<PathBuf> {
        self.clawft_workspace().map(|w| w.join("history"))
    }

    /// `~/.clawft/workspace/sessions`: the transcripts.
    pub fn sessions_dir(&self) -> Option<PathBuf> {
        self.clawft_workspace().map(|w| w.join("sessions"))
    }

    /// `~/.clawft/workspace`: transcripts, memory, workspace skills.
    pub fn clawft_workspace(&self) -> Option<PathBuf> {
        self.home.as_ref().map(|h| h.join(".clawft/workspace"))
    }

    /// Where `create_skill` writes: `~/.clawft/skills`.
    pub fn user_skills_dir(&self) -> Option<PathBuf> {
        self.home.as_ref().map(|h| h.join(".clawft/skills"))
    }

    /// Skill roots, highest precedence first (DESIGN 4): the project's skill directories in
    /// every directory from the current one up to the project root (the nearest wins a name
    /// clash), its `.claude/commands`, then the user's, the workspace's, the extra ones and
    /// those of the plugins in use. An untrusted project's roots follow directory links only
    /// inside the project.
    pub fn skill_roots(&self) -> Vec<SkillRoot> {
        let mut roots = Vec::new();
        if let Some(p) = &self.project {
            let boundary = self.link_boundary();
            for base in self.project_levels(p) {
                for dir in SKILL_DIRS {
                    roots.push(
                        SkillRoot::new(base.join(dir), Scope::Project).within(boundary.clone()),
                    );
                }
            }
            roots.push(
                SkillRoot::commands(p.join(".claude/commands"), Scope::Project).within(boundary),
            );
        }
        if let Some(h) = &self.home {
            for dir in SKILL_DIRS {
                let root = match dir {
                    // Codex's user skills live in `$CODEX_HOME/skills` (`~/.codex` by default).
                    CODEX_SKILLS => self
                        .env
                        .var_os("CODEX_HOME")
                        .map_or_else(|| h.join(dir), |c| PathBuf::from(c).join("skills")),
                    _ => h.join(dir),
                };
                roots.push(SkillRoot::new(root, Scope::User));
            }
            roots.push(SkillRoot::commands(h.join(".claude/commands"), Scope::User));
            roots.push(SkillRoot::new(
                h.join(".clawft/workspace/skills"),
                Scope::Workspace,
            ));
        }
        for dir in &self.extra_skill_dirs {
            roots.push(SkillRoot::new(dir, Scope::Plugin));
        }
        roots.extend(crate::plugins::plugin_skill_roots(self.plugins()));
        roots
    }

    /// Where an untrusted project's directory links may lead: the project (so
    /// `.claude/skills/x -> /` or `-> ~` is refused, not walked); `None` when there is no
    /// project or it is trusted.
    pub fn link_boundary(&self) -> Option<PathBuf> {
        self.project.clone().filter(|_| !self.trust.is_trusted())
    }

    /// The directories from the current one up to `project` (nearest first) when the
    /// current directory is inside it; else `project` alone.
    fn project_levels(&self, project: &Path) -> Vec<PathBuf> {
        let Some(cwd) = self.env.current_dir().filter(|c| c.starts_with(project)) else {
            return vec![project.to_path_buf()];
        };
        cwd.ancestors()
            .take_while(|d| d.starts_with(project))
            .map(Path::to_path_buf)
            .collect()
    }

    /// The registry configuration for these locations and this machine.
    pub fn registry_config(&self) -> RegistryConfig {
        RegistryConfig {
            trust_project_skills: self.trust.is_trusted(),
            host: self.env.host(),
            cache: self.cache_config(),
            // Skills' tool patterns compile against the project, as a session's patterns do:
            // the policy compiled at discovery is the one a session activates.
            patterns: self
                .base_dir()
                .map(|base| crate::permissions::project_pattern_context(&base))
                .unwrap_or_default(),
            ..RegistryConfig::with_roots(self.skill_roots())
        }
    }

    /// [`registry_config`](Self::registry_config) with the `skills` settings of the
    /// configuration these locations load (disabled skills, built-ins): what every command
    /// that reads skills uses.
    pub fn configured_registry(&self) -> Result<RegistryConfig, crate::ConfigError> {
        let config = crate::config::Config::load(&self.config_sources())?;
        let mut registry = self.registry_config();
        config.file.skills.apply_to(&mut registry);
        Ok(registry)
    }

    /// The header cache: `~/.clawft/cache/skills.cache`, tied to the caller's build (a rebuilt
    /// or upgraded weft never trusts entries written by another build).
    fn cache_config(&self) -> Option<CacheConfig> {
        let fingerprint = self.cache_fingerprint.clone()?;
        let home = self.home.as_ref()?;
        Some(CacheConfig {
            path: home.join(".clawft/cache/skills.cache"),
            fingerprint,
        })
    }
}

/// `dir` made absolute (a relative one starts at `cwd`) and canonical when it exists; a
/// directory that does not exist keeps its absolute spelling with `.` and `..` applied (the
/// caller reports it when it uses it).
fn absolute_dir(dir: &Path, cwd: Option<&Path>) -> PathBuf {
    let joined = match cwd {
        Some(cwd) if dir.is_relative() => cwd.join(dir),
        _ => dir.to_path_buf(),
    };
    std::fs::canonicalize(&joined).unwrap_or_else(|_| lexical(&joined))
}

/// `.` and `..` applied without touching the file system (`..` at the root stays there).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Codex's skill directory (in a project; in the home directory unless `CODEX_HOME` moves it).
const CODEX_SKILLS: &str = ".codex/skills";

/// The skill directories of a project or home directory, highest precedence first.
const SKILL_DIRS: [&str; 4] = [
    ".clawft/skills",
    ".claude/skills",
    ".agents/skills",
    CODEX_SKILLS,
];

/// The directories whose presence marks a project outside git.
const PROJECT_MARKERS: [&str; 4] = [".clawft", ".claude", ".agents", ".codex"];

/// The project of `cwd`: inside a git repository, its root (the nearest ancestor, itself
/// included, with a `.git` directory or file: a worktree or submodule has a file), never
/// anything above it; outside git, the nearest ancestor holding `.clawft/`, `.claude/`,
/// `.agents/` or `.codex/`. Never the home directory or above it.
///
/// Both directories are compared canonical (symbolic links resolved): with `HOME=/tmp/link`
/// pointing at `/tmp/real`, a `cwd` of `/tmp/real/proj` still stops at the home directory.
/// The project returned is canonical.
pub fn detect_project(cwd: &Path, home: Option<&Path>) -> Option<PathBuf> {
    let cwd = absolute_dir(cwd, None);
    let home = home.map(|h| absolute_dir(h, None));
    let mut nearest_marker = None;
    for dir in cwd.ancestors() {
        if home.as_deref().is_some_and(|h| h == dir) {
            break;
        }
        if std::fs::symlink_metadata(dir.join(".git")).is_ok() {
            return Some(dir.to_path_buf());
        }
        if nearest_marker.is_none() && PROJECT_MARKERS.iter().any(|m| dir.join(m).is_dir()) {
            nearest_marker = Some(dir.to_path_buf());
        }
    }
    nearest_marker
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_detection_stops_at_home() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let repo = home.join("code/repo");
        let deep = repo.join("src/module");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        assert_eq!(detect_project(&deep, Some(&home)), None);
        std::fs::create_dir_all(repo.join(".clawft")).unwrap();
        assert_eq!(detect_project(&deep, Some(&home)), Some(repo.clone()));
        assert_eq!(detect_project(&repo, Some(&home)), Some(repo.clone()));
    }

    #[test]
    fn a_linked_home_is_compared_by_its_real_path() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().canonicalize().unwrap().join("hreal");
        let link = tmp.path().join("hlink");
        std::fs::create_dir_all(real.join("proj/src")).unwrap();
        std::fs::create_dir_all(real.join(".claude/skills")).unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        // The home directory (reached through its link) is never the project.
        assert_eq!(detect_project(&real.join("proj/src"), Some(&link)), None);
        // The project is found by its real path, however the current directory is spelled.
        std::fs::create_dir_all(real.join("proj/.git")).unwrap();
        assert_eq!(
            detect_project(&link.join("proj/src"), Some(&link)),
            Some(real.join("proj"))
        );
    }

    #[test]
    fn a_relative_project_is_made_absolute_and_canonical() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("app/src")).unwrap();
        std::os::unix::fs::symlink(root.join("app"), root.join("app-link")).unwrap();
        let env = EnvSnapshot::from_vars([("HOME", "/nonexistent")])
            .with_current_dir(root.join("app/src"));
        for (given, expected) in [
            (".", root.join("app/src")),
            ("..", root.join("app")),
            ("../../app-link", root.join("app")),
            ("../missing/./x", root.join("app/missing/x")),
        ] {
            let locations = Locations {
                project: Some(PathBuf::from(given)),
                ..Locations::default()
            };
            let ws = Workspace::resolve(&locations, env.clone());
            assert_eq!(ws.project.as_deref(), Some(expected.as_path()), "{given}");
            assert_eq!(ws.base_dir().unwrap(), expected, "{given}");
        }
        let from_env =
            Workspace::resolve(&Locations::default(), env.with_var("CLAWFT_PROJECT", ".."));
        assert_eq!(from_env.project, Some(root.join("app")));
    }

    #[test]
    fn inside_git_the_project_is_the_git_root_and_nothing_above_it() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let outer = tmp.path().join("outer");
        let repo = outer.join("repo");
        let web = repo.join("packages/web");
        std::fs::create_dir_all(outer.join(".claude/skills")).unwrap();
        std::fs::create_dir_all(web.join(".claude/skills")).unwrap();
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        // The nearer `.claude` of a monorepo package does not make it the project.
        assert_eq!(detect_project(&web, Some(&home)), Some(repo.clone()));
        // A worktree's `.git` is a file; a repository with only `.agents/skills` is found.
        let worktree = tmp.path().join("wt");
        std::fs::create_dir_all(worktree.join(".agents/skills")).unwrap();
        std::fs::write(worktree.join(".git"), "gitdir: /elsewhere\n").unwrap();
        assert_eq!(
            detect_project(&worktree, Some(&home)),
            Some(worktree.clone())
        );
        // Outside git, `.agents` marks a project too.
        let plain = tmp.path().join("plain");
        std::fs::create_dir_all(plain.join(".agents")).unwrap();
        std::fs::create_dir_all(plain.join("src")).unwrap();
        assert_eq!(
            detect_project(&plain.join("src"), Some(&home)),
            Some(plain.clone())
        );
        // Skill roots: every level from the current directory up to the git root, nearest
        // first, never the outer `.claude`.
        let env = EnvSnapshot::from_vars([("HOME", home.as_os_str())]).with_current_dir(&web);
        let ws = Workspace::resolve(&Locations::default(), env);
        let roots: Vec<PathBuf> = ws
            .skill_roots()
            .into_iter()
            .filter(|r| r.scope == Scope::Project)
            .map(|r| r.path)
            .collect();
        assert_eq!(roots[1], web.join(".claude/skills"));
        assert!(roots.contains(&repo.join("packages/.claude/skills")));
        assert!(roots.contains(&repo.join(".agents/skills")));
        assert_eq!(roots.last(), Some(&repo.join(".claude/commands")));
        assert!(
            !roots
                .iter()
                .any(|r| r.starts_with(&outer) && !r.starts_with(&repo))
        );
    }

    #[test]
    fn locations_fall_back_to_the_environment_then_detection() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let repo = tmp.path().join("repo");
        std::fs::create_dir_all(repo.join(".claude")).unwrap();
        std::fs::create_dir_all(repo.join("src")).unwrap();
        let env =
            EnvSnapshot::from_vars([("HOME", home.as_os_str())]).with_current_dir(repo.join("src"));
        let ws = Workspace::resolve(&Locations::default(), env.clone());
        assert_eq!(ws.home.as_deref(), Some(home.as_path()));
        assert_eq!(ws.project.as_deref(), Some(repo.as_path()));
        assert_eq!(
            ws.history_file(),
            Some(home.join(".clawft/workspace/history"))
        );
        let explicit = Locations {
            project: Some(tmp.path().join("elsewhere")),
            ..Locations::default()
        };
        let ws = Workspace::resolve(&explicit, env.with_var("CLAWFT_PROJECT", "/ignored"));
        assert_eq!(ws.project, explicit.project);
        assert!(ws.registry_config().cache.is_none());
    }
}
