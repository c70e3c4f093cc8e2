//! The built-in slash commands of DESIGN section 9, one file per group.

mod agents;
mod config;
mod help;
mod memory;
mod session;
mod skills;
mod tools;
mod workspace;

use std::path::Path;
use std::sync::Arc;

use crate::command::SlashCommand;

pub use config::{config_keys, lookup, redact};

/// Every built-in command.
pub fn builtin_commands() -> Vec<Arc<dyn SlashCommand>> {
    vec![
        Arc::new(help::Help),
        Arc::new(skills::Skills),
        Arc::new(skills::SkillCommand),
        Arc::new(agents::Agents),
        Arc::new(agents::AgentCommand),
        Arc::new(agents::Model),
        Arc::new(tools::Tools),
        Arc::new(memory::Memory),
        Arc::new(config::ConfigCommand),
        Arc::new(session::SessionInfo),
        Arc::new(workspace::WorkspaceCommand),
        Arc::new(workspace::Reload),
        Arc::new(session::Clear),
        Arc::new(session::Exit("exit")),
        Arc::new(session::Exit("quit")),
    ]
}

/// Rows as aligned columns (two spaces apart); the last column is not padded.
pub(crate) fn columns(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0; cols];
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if i + 1 < row.len() {
                let pad = widths[i].saturating_sub(cell.chars().count()) + 2;
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// `~/rest` for paths under `home`.
pub(crate) fn tilde(path: &Path, home: Option<&Path>) -> String {
    match home.and_then(|h| path.strip_prefix(h).ok()) {
        Some(rest) if rest.as_os_str().is_empty() => "~".to_owned(),
        Some(rest) => format!("~/{}", rest.display()),
        None => path.display().to_string(),
    }
}

/// The first line of `text`, cut to `max` characters with `…`.
pub(crate) fn first_line(text: &str, max: usize) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    if line.chars().count() <= max {
        line.to_owned()
    } else {
        let mut cut: String = line.chars().take(max.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_align_and_the_last_is_not_padded() {
        let rows = vec![
            vec!["a".to_owned(), "long".to_owned(), "x".to_owned()],
            vec!["bbb".to_owned(), "s".to_owned(), "y".to_owned()],
        ];
        assert_eq!(columns(&rows), "a    long  x\nbbb  s     y\n");
    }

    #[test]
    fn paths_under_home_use_a_tilde() {
        let home = Path::new("/home/u");
        assert_eq!(tilde(Path::new("/home/u/.clawft"), Some(home)), "~/.clawft");
        assert_eq!(tilde(Path::new("/etc"), Some(home)), "/etc");
        assert_eq!(first_line("one two three\nfour", 8), "one two…");
    }
}
