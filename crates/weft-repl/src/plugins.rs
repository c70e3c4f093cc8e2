//! The plugins listing, shared by `weft plugin list` and `/plugin` so the two cannot drift:
//! one row per installed plugin (id, version, scope, whether it is in use, description) and
//! one per plugin the project declares but does not have.

use weft_plugin::{Inactive, InstalledPlugin, PluginSet};
use weft_term::{fit_table, one_line};

/// The table's header.
pub const PLUGINS_HEADER: [&str; 5] = ["PLUGIN", "VERSION", "SCOPE", "STATUS", "DESCRIPTION"];

/// `enabled`, `disabled`, `not used: the project is not trusted`, `broken: why`.
pub fn plugin_status(plugin: &InstalledPlugin) -> String {
    match &plugin.inactive {
        None => "enabled".to_owned(),
        Some(Inactive::Disabled) => "disabled".to_owned(),
        Some(Inactive::Untrusted) => "not used: the project is not trusted".to_owned(),
        Some(Inactive::Broken(why)) => format!("broken: {}", one_line(why)),
    }
}

/// The listing fitted to `width` (`None`: every cell whole), or a line saying how to get a
/// plugin when there is none.
pub fn plugins_listing(set: &PluginSet, width: Option<usize>) -> String {
    if set.plugins.is_empty() && set.declared.is_empty() {
        return "No plugins installed; add a marketplace (`weft plugin marketplace add SOURCE`) and install one (`weft plugin install NAME@MARKETPLACE`).\n".to_owned();
    }
    let mut rows: Vec<Vec<String>> = set
        .plugins
        .iter()
        .map(|p| {
            vec![
                p.id.clone(),
                p.version.clone().unwrap_or_default(),
                p.scope.label(),
                plugin_status(p),
                one_line(p.description()),
            ]
        })
        .collect();
    for d in &set.declared {
        rows.push(vec![
            d.id.clone(),
            String::new(),
            "project".to_owned(),
            "declared, not installed (`weft plugin install --scope project`)".to_owned(),
            String::new(),
        ]);
    }
    fit_table(&PLUGINS_HEADER, &rows, width)
}
