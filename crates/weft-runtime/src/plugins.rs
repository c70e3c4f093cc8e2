//! The workspace's plugins as discovery roots: each plugin in use contributes its skill
//! directories and command paths (named `plugin:name`) and its agent paths, in the plugin
//! scope, links kept inside the plugin.

use weft_agents::AgentRoot;
use weft_plugin::{PluginSet, PluginSources};
use weft_registry::SkillRoot;
use weft_types::Scope;

use crate::workspace::Workspace;

/// Where the workspace's plugins are looked for: weft's stores (`~/.clawft`, the project's
/// `.clawft`) and Claude Code's (`~/.claude`), the project's trust deciding whether its
/// plugins are used.
pub(crate) fn plugin_sources(workspace: &Workspace) -> PluginSources {
    PluginSources {
        user_clawft: workspace.home.as_ref().map(|h| h.join(".clawft")),
        project: workspace.project.clone(),
        project_trusted: workspace.trust.is_trusted(),
        claude_dir: workspace.home.as_ref().map(|h| h.join(".claude")),
    }
}

/// The skill roots of the plugins in use, after every other root.
pub(crate) fn plugin_skill_roots(plugins: &PluginSet) -> Vec<SkillRoot> {
    let mut roots = Vec::new();
    for plugin in plugins.active() {
        let reference = plugin.plugin_ref();
        for dir in &plugin.components.skill_dirs {
            roots.push(SkillRoot::new(dir, Scope::Plugin).of_plugin(reference.clone()));
        }
        for path in &plugin.components.command_paths {
            roots.push(SkillRoot::commands(path, Scope::Plugin).of_plugin(reference.clone()));
        }
    }
    roots
}

/// The agent roots of the plugins in use.
pub(crate) fn plugin_agent_roots(plugins: &PluginSet) -> Vec<AgentRoot> {
    plugins
        .active()
        .flat_map(|plugin| {
            let reference = plugin.plugin_ref();
            plugin
                .components
                .agent_paths
                .iter()
                .map(move |path| AgentRoot::new(path, Scope::Plugin).of_plugin(reference.clone()))
        })
        .collect()
}
