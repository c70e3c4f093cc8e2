//! Telling the model about skills that changed after its catalog was written. The catalog in
//! the system prompt stays as it was for the life of the agent view (prompt caching needs a
//! stable prefix, see `prompt.rs`), so a skill installed, edited or removed meanwhile is
//! announced once, at the start of the next user message, and a conditional skill (`paths:`)
//! in the result of the file tool that revealed it.

use std::collections::BTreeMap;

use super::Session;

/// The longest description an announcement quotes, in characters.
const DESCRIPTION_CHARS: usize = 240;

impl Session {
    /// `text` preceded by what changed in the skills the model can use since it was last
    /// told (the catalog, then earlier announcements); `text` itself when nothing did or the
    /// system prompt has no catalog.
    pub(super) fn with_skill_news(&mut self, text: String) -> String {
        if !self.prompt_cache.lists_catalog() {
            return text;
        }
        let now = self.listed_skills();
        let news = changes(&self.skills_known, &now);
        if news.is_empty() {
            return text;
        }
        tracing::info!(
            changes = news.len(),
            "skills changed since the catalog was written"
        );
        self.skills_known = now;
        let mut out = String::from(
            "[Skills changed since the skill catalog in the system prompt was written; use_skill works with the list as it is now:\n",
        );
        for line in news {
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str("]\n\n");
        out.push_str(&text);
        out
    }

    /// The note a file tool's result gets for the conditional skills its path revealed
    /// (`names`, just revealed): they are known to the model from now on.
    pub(super) fn revealed_note(&mut self, names: &[String]) -> String {
        let mut note = String::new();
        // Without a catalog yet, the next system prompt lists them.
        if !self.prompt_cache.lists_catalog() {
            return note;
        }
        for name in names {
            let Some(entry) = self.skills.get(name) else {
                continue;
            };
            let description = entry.skill.description.clone();
            note.push_str(&format!(
                "\n\n[skill `{name}` applies to this file: {}; use_skill loads it]",
                one_line(&description)
            ));
            self.skills_known.insert(name.clone(), description);
        }
        note
    }
}

/// One line per skill added, changed (its description) or removed, by name.
fn changes(before: &BTreeMap<String, String>, now: &BTreeMap<String, String>) -> Vec<String> {
    let mut lines = Vec::new();
    for (name, description) in now {
        match before.get(name) {
            None => lines.push(format!("- new: `{name}`: {}", one_line(description))),
            Some(old) if old != description => {
                lines.push(format!("- changed: `{name}`: {}", one_line(description)));
            }
            Some(_) => {}
        }
    }
    for name in before.keys().filter(|n| !now.contains_key(*n)) {
        lines.push(format!("- removed: `{name}`"));
    }
    lines
}

/// A description on one line, at most [`DESCRIPTION_CHARS`] characters.
fn one_line(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= DESCRIPTION_CHARS {
        return flat;
    }
    let mut cut: String = flat.chars().take(DESCRIPTION_CHARS - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn additions_changes_and_removals_each_get_a_line() {
        let map = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs
                .iter()
                .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
                .collect()
        };
        let before = map(&[("a", "A"), ("b", "B"), ("gone", "G")]);
        let now = map(&[("a", "A"), ("b", "B2\nmore"), ("new", "N")]);
        assert_eq!(
            changes(&before, &now),
            [
                "- changed: `b`: B2 more",
                "- new: `new`: N",
                "- removed: `gone`"
            ]
        );
        assert!(changes(&now, &now).is_empty());
        assert_eq!(
            one_line(&"x".repeat(300)).chars().count(),
            DESCRIPTION_CHARS
        );
    }
}
