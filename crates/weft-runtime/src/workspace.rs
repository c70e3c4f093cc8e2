//! Where things are: the project, the home directory, and the skill roots built from them.
//! This is the only place that reads the environment for locations.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use weft_registry::{CacheConfig, HostEnvironment, RegistryConfig, SkillRoot};
use weft_types::Scope;

use weft_agents::AgentRoot;

use crate::cli::LocationArgs;
use crate::config::ConfigSources;

/// The resolved locations of one invocation.
#[derive(Debug, Clone)]
pub struct Workspace {
    /// The project directory, when there is one.
    pub project: Option<PathBuf>,
    /// The home directory, when known.
    pub home: Option<PathBuf>,
    /// Extra skill directories.
    pub extra_skill_dirs: Vec<PathBuf>,
    /// Silence project-override warnings.
    pub trust_project_skills: bool,
    /// Use the header cache under the home directory.
    pub use_cache: bool,
    /// `--config FILE`.
    pub config_file: Option<PathBuf>,
}

impl Workspace {
    /// Resolves the locations from the flags, then the environment, then the current
    /// directory.
    pub fn from_args(args: &LocationArgs) -> Self {
        let home = args
            .home
            .clone()
            .or_else(|| std::env::var_os("HOME").map(PathBuf::from))
            .filter(|h| !h.as_os_str().is_empty());
        let project = args
            .project
            .clone()
            .or_else(|| std::env::var_os("CLAWFT_PROJECT").map(PathBuf::from))
            .filter(|p| !p.as_os_str().is_empty())
            .or_else(|| {
                let cwd = std::env::current_dir().ok()?;
                detect_project(&cwd, home.as_deref())
            });
        Self {
            project,
            home,
            extra_skill_dirs: args.skills_dirs.clone(),
            trust_project_skills: args.trust_project_skills,
            use_cache: !args.no_cache,
            config_file: args.config.clone(),
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
        roots
    }

    /// The configuration files: user, project, `--config`.
    pub fn config_sources(&self) -> ConfigSources {
        ConfigSources {
            user: self.home.as_ref().map(|h| h.join(".clawft/config.json")),
            project: self.project.as_ref().map(|p| p.join(".clawft/config.json")),
            explicit: self.config_file.clone(),
            trust_project: self.trust_project_skills,
        }
    }

    /// `~/.clawft/workspace`: transcripts, memory, workspace skills.
    pub fn clawft_workspace(&self) -> Option<PathBuf> {
        self.home.as_ref().map(|h| h.join(".clawft/workspace"))
    }

    /// Where `create_skill` writes: `~/.clawft/skills`.
    pub fn user_skills_dir(&self) -> Option<PathBuf> {
        self.home.as_ref().map(|h| h.join(".clawft/skills"))
    }

    /// Skill roots, highest precedence first (DESIGN 4).
    pub fn skill_roots(&self) -> Vec<SkillRoot> {
        let mut roots = Vec::new();
        if let Some(p) = &self.project {
            for dir in [".clawft/skills", ".claude/skills", ".agents/skills"] {
                roots.push(SkillRoot::new(p.join(dir), Scope::Project));
            }
        }
        if let Some(h) = &self.home {
            for dir in [".clawft/skills", ".claude/skills", ".agents/skills"] {
                roots.push(SkillRoot::new(h.join(dir), Scope::User));
            }
            roots.push(SkillRoot::new(
                h.join(".clawft/workspace/skills"),
                Scope::Workspace,
            ));
        }
        for dir in &self.extra_skill_dirs {
            roots.push(SkillRoot::new(dir, Scope::Plugin));
        }
        roots
    }

    /// The registry configuration for these locations and this machine.
    pub fn registry_config(&self) -> RegistryConfig {
        RegistryConfig {
            trust_project_skills: self.trust_project_skills,
            host: host_environment(),
            cache: self.cache_config(),
            ..RegistryConfig::with_roots(self.skill_roots())
        }
    }

    /// The header cache: `~/.clawft/cache/skills.json`, tied to this executable (a rebuilt or
    /// upgraded weft never trusts entries written by another build).
    fn cache_config(&self) -> Option<CacheConfig> {
        if !self.use_cache {
            return None;
        }
        let home = self.home.as_ref()?;
        let exe = std::env::current_exe().ok()?;
        let meta = std::fs::metadata(&exe).ok()?;
        let modified = meta
            .modified()
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?
            .as_nanos();
        Some(CacheConfig {
            path: home.join(".clawft/cache/skills.json"),
            fingerprint: format!("{}:{}:{modified}", env!("CARGO_PKG_VERSION"), meta.len()),
        })
    }
}

/// The nearest ancestor of `cwd` (itself included) that holds `.clawft/` or `.claude/`,
/// never the home directory or above it.
pub fn detect_project(cwd: &Path, home: Option<&Path>) -> Option<PathBuf> {
    for dir in cwd.ancestors() {
        if home.is_some_and(|h| h == dir) {
            return None;
        }
        if dir.join(".clawft").is_dir() || dir.join(".claude").is_dir() {
            return Some(dir.to_path_buf());
        }
    }
    None
}

/// This machine as OpenClaw gating sees it: PATH, set variables, OS.
pub fn host_environment() -> HostEnvironment {
    let path_dirs = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    let env_vars: BTreeSet<String> = std::env::vars_os()
        .filter(|(_, v)| !v.is_empty())
        .filter_map(|(k, _)| k.into_string().ok())
        .collect();
    HostEnvironment {
        path_dirs,
        env_vars,
        os: HostEnvironment::openclaw_os(std::env::consts::OS),
    }
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
        assert_eq!(detect_project(&repo, Some(&home)), Some(repo));
    }
}
