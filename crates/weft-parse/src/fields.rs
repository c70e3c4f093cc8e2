//! Reading typed fields out of a mapping node, with one diagnostic per problem.
//!
//! Every file format (SKILL.md frontmatter, `skill.json`, agent files, definitions) goes
//! through these readers, so a field means the same thing wherever it is written.

use weft_types::{Position, Value};

use crate::node::{Node, NodeKind};
use crate::report::Report;
use crate::rules::Rule;
use crate::tool_list::split_tool_list;

/// One `key: value` entry of a mapping.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field<'n> {
    pub key: &'n str,
    pub key_pos: Option<Position>,
    pub value: &'n Node,
}

impl Field<'_> {
    /// Where the value is (or the key, for empty values).
    pub(crate) fn pos(&self) -> Option<Position> {
        self.value.pos.or(self.key_pos)
    }
}

/// The entries of a mapping, each taken at most once.
pub(crate) struct Fields<'n> {
    entries: Vec<(Field<'n>, bool)>,
}

impl<'n> Fields<'n> {
    /// The entries of `entries`; keys that are not strings are reported and skipped.
    pub(crate) fn new(entries: &'n [(Node, Node)], report: &mut Report<'_>) -> Self {
        let mut out: Vec<(Field<'n>, bool)> = Vec::with_capacity(entries.len());
        for (k, v) in entries {
            let Some(key) = k.as_scalar() else {
                report.emit(Rule::NonStringKey, k.pos, || {
                    format!("mapping key is {}, not a string", k.type_name())
                });
                continue;
            };
            // YAML rejects duplicates while parsing; JSON does not, so check here too.
            if let Some((first, _)) = out.iter().find(|(f, _)| f.key == key) {
                let line = first.key_pos.map(|p| p.line);
                report.emit(Rule::DuplicateKey, k.pos, || match line {
                    Some(line) => format!("duplicate key `{key}` (first given on line {line})"),
                    None => format!("duplicate key `{key}`"),
                });
                continue;
            }
            out.push((
                Field {
                    key,
                    key_pos: k.pos,
                    value: v,
                },
                false,
            ));
        }
        Self { entries: out }
    }

    /// Takes the field spelled as any of `names` (first spelling is canonical). Giving the
    /// same field in two spellings is reported.
    pub(crate) fn take(&mut self, report: &mut Report<'_>, names: &[&str]) -> Option<Field<'n>> {
        let mut found: Option<Field<'n>> = None;
        for (field, taken) in &mut self.entries {
            if *taken || !names.contains(&field.key) {
                continue;
            }
            *taken = true;
            match found {
                None => found = Some(*field),
                Some(first) => {
                    let (a, b) = (first.key, field.key);
                    report.emit(Rule::DuplicateField, field.key_pos, || {
                        format!("`{b}` repeats `{a}` (the same field in another spelling)")
                    });
                }
            }
        }
        found
    }

    /// Every key, in source order.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &'n str> + '_ {
        self.entries.iter().map(|(f, _)| f.key)
    }

    /// The fields nobody took, in source order.
    pub(crate) fn untaken(&self) -> impl Iterator<Item = Field<'n>> + '_ {
        self.entries.iter().filter(|(_, t)| !t).map(|(f, _)| *f)
    }
}

/// A string field: a scalar. Null is `None`; a list or mapping is reported under `rule`.
pub(crate) fn string(report: &mut Report<'_>, field: &Field<'_>, rule: Rule) -> Option<String> {
    match &field.value.kind {
        NodeKind::Scalar(s) => Some(s.clone()),
        NodeKind::Null => None,
        other => {
            let found = match other {
                NodeKind::Seq(_) => "a list",
                _ => "a mapping",
            };
            let key = field.key;
            report.emit(rule, field.pos(), || {
                format!("`{key}` must be a string, found {found}; ignored")
            });
            None
        }
    }
}

/// A list of strings: a YAML list, or a string split at commas and whitespace (names, tools,
/// keywords; globs have [`glob_list`]).
/// Null is an empty list. Items that are not scalars are reported and skipped.
pub(crate) fn string_list(report: &mut Report<'_>, field: &Field<'_>) -> Vec<String> {
    match &field.value.kind {
        NodeKind::Null => Vec::new(),
        NodeKind::Scalar(s) => s
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        NodeKind::Seq(items) => items
            .iter()
            .filter_map(|item| match &item.kind {
                NodeKind::Scalar(s) => Some(s.trim().to_owned()).filter(|s| !s.is_empty()),
                NodeKind::Null => None,
                _ => {
                    let key = field.key;
                    report.emit(Rule::WrongType, item.pos, || {
                        format!(
                            "`{key}` items must be strings, found {}; skipped",
                            item.type_name()
                        )
                    });
                    None
                }
            })
            .collect(),
        NodeKind::Map(_) => {
            let key = field.key;
            report.emit(Rule::WrongType, field.pos(), || {
                format!("`{key}` must be a list or a string, found a mapping; ignored")
            });
            Vec::new()
        }
    }
}

/// A list of globs (`paths:`): a YAML list (each item one glob), or a string split at the
/// commas outside `{}`, as Claude Code does (`"src/**/*.{ts,tsx}, docs/*.md"` is two globs).
/// Whitespace around a glob is dropped; whitespace inside one is part of it.
pub(crate) fn glob_list(report: &mut Report<'_>, field: &Field<'_>) -> Vec<String> {
    match &field.value.kind {
        NodeKind::Scalar(s) => split_globs(s),
        _ => string_list(report, field),
    }
}

/// `text` split at the commas outside braces, each part trimmed, empty parts dropped.
pub(crate) fn split_globs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out.into_iter()
        .map(str::trim)
        .filter(|g| !g.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A list of strings kept whole (execution steps, conditions): a YAML list, or one string as
/// a single item (not split at spaces, unlike [`string_list`]).
pub(crate) fn text_list(report: &mut Report<'_>, field: &Field<'_>) -> Vec<String> {
    match &field.value.kind {
        NodeKind::Scalar(s) if !s.trim().is_empty() => vec![s.trim().to_owned()],
        NodeKind::Scalar(_) | NodeKind::Null => Vec::new(),
        NodeKind::Seq(_) | NodeKind::Map(_) => string_list(report, field),
    }
}

/// Parses a boolean the way Claude Code does: `true/false/yes/no/on/off/1/0`, any case.
pub(crate) fn parse_bool(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Some(true),
        "false" | "no" | "off" | "0" => Some(false),
        _ => None,
    }
}

/// A boolean field; anything else is reported and `None` keeps the default.
pub(crate) fn boolean(report: &mut Report<'_>, field: &Field<'_>) -> Option<bool> {
    let parsed = field.value.as_scalar().and_then(parse_bool);
    if parsed.is_none() {
        let key = field.key;
        let found = describe(field.value);
        report.emit(Rule::InvalidBoolean, field.pos(), || {
            format!("`{key}` must be true or false (or yes/no/on/off/1/0), found {found}; the default is kept")
        });
    }
    parsed
}

/// A tool list (`allowed-tools`, `tools`, ...): a string split outside parentheses, or a YAML
/// list whose items are split the same way. Null and the empty string are an empty list.
/// `Err` when the list cannot be trusted: an unrestricted reading could grant too much, so the
/// caller must not fall back to "no restriction".
pub(crate) fn tool_list(report: &mut Report<'_>, field: &Field<'_>) -> Result<Vec<String>, ()> {
    let key = field.key;
    let mut out = Vec::new();
    let mut push_split = |report: &mut Report<'_>, text: &str, pos| -> Result<(), ()> {
        match split_tool_list(text) {
            Ok(items) => {
                out.extend(items);
                Ok(())
            }
            Err(e) => {
                report.error(
                    Rule::MalformedToolPattern,
                    pos,
                    format!(
                        "`{key}` has unbalanced parentheses near `{}`; the skill's tools cannot be determined",
                        e.near
                    ),
                );
                Err(())
            }
        }
    };
    match &field.value.kind {
        NodeKind::Null => {}
        NodeKind::Scalar(s) => push_split(report, s, field.pos())?,
        NodeKind::Seq(items) => {
            for item in items {
                match &item.kind {
                    NodeKind::Scalar(s) => push_split(report, s, item.pos.or(field.pos()))?,
                    NodeKind::Null => {}
                    _ => {
                        report.error(
                            Rule::InvalidToolList,
                            item.pos.or(field.pos()),
                            format!(
                                "`{key}` items must be tool names, found {}",
                                item.type_name()
                            ),
                        );
                        return Err(());
                    }
                }
            }
        }
        NodeKind::Map(_) => {
            report.error(
                Rule::InvalidToolList,
                field.pos(),
                format!("`{key}` must be a string or a list of tool names, found a mapping"),
            );
            return Err(());
        }
    }
    dedup_in_place(&mut out);
    Ok(out)
}

/// Removes repeated strings, keeping the first occurrence.
pub(crate) fn dedup_in_place(items: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    items.retain(|s| seen.insert(s.clone()));
}

/// A short description of a node for messages.
pub(crate) fn describe(node: &Node) -> String {
    match &node.kind {
        NodeKind::Scalar(s) => format!("`{}`", crate::name::shorten(s)),
        _ => node.type_name().to_owned(),
    }
}

/// A field's value as an open-ended [`Value`].
pub(crate) fn value(field: &Field<'_>) -> Value {
    field.value.to_value()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_split_at_commas_outside_braces_only() {
        assert_eq!(split_globs("src/**/*.{ts,tsx}"), ["src/**/*.{ts,tsx}"]);
        assert_eq!(
            split_globs(" src/**/*.{ts,tsx} , docs/*.md,,"),
            ["src/**/*.{ts,tsx}", "docs/*.md"]
        );
        assert_eq!(split_globs("a/{b,{c,d}}/*.rs,e"), ["a/{b,{c,d}}/*.rs", "e"]);
        // Whitespace inside a glob is part of it, as in Claude Code.
        assert_eq!(split_globs("my docs/*.md"), ["my docs/*.md"]);
        // An unbalanced brace keeps the rest as one glob (which then does not compile).
        assert_eq!(split_globs("a/{b,c"), ["a/{b,c"]);
        assert_eq!(split_globs("a}/x,b"), ["a}/x", "b"]);
        assert!(split_globs("  ").is_empty());
    }
}
