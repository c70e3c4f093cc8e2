//! Values as the program sees them, after YAML or JSON escapes are resolved and `!!binary`
//! is decoded, must not hold characters that drive a terminal: `description: "\e]52;c;..."`
//! passes every check on the raw bytes and then writes the reader's clipboard when listed.

use weft_types::{Position, is_terminal_control};

use crate::decode::describe_char;
use crate::node::{Node, NodeKind};
use crate::report::Report;
use crate::rules::Rule;

/// Reports each top-level entry whose key or value (at any depth) holds a terminal control
/// character once decoded ([`is_terminal_control`]), naming the dotted path of the first one.
pub(crate) fn check_decoded_controls(entries: &[(Node, Node)], report: &mut Report<'_>) {
    if !report.enabled(Rule::ControlInValue) {
        return;
    }
    for (key, value) in entries {
        let name = key.as_scalar().unwrap_or("?");
        let found = first_control(key, "a key".to_owned())
            .or_else(|| first_control(value, format!("`{}`", shown(name))));
        if let Some((place, c, pos)) = found {
            report.emit(Rule::ControlInValue, pos.or(key.pos), || {
                format!(
                    "{place} holds the control character {} once decoded (an escape or \
                     `!!binary`); it could drive the terminal it is shown on",
                    describe_char(c)
                )
            });
        }
    }
}

/// The first control character under `node`: where (`path`, extended with `.key` and
/// `[index]`), which, and the position of the scalar holding it.
fn first_control(node: &Node, path: String) -> Option<(String, char, Option<Position>)> {
    match &node.kind {
        NodeKind::Null => None,
        NodeKind::Scalar(text) => text
            .chars()
            .find(|&c| is_terminal_control(c))
            .map(|c| (path, c, node.pos)),
        NodeKind::Seq(items) => items.iter().enumerate().find_map(|(i, item)| {
            first_control(item, format!("{}[{i}]", path.trim_end_matches('`')) + "`")
        }),
        NodeKind::Map(entries) => entries.iter().find_map(|(k, v)| {
            let inner = format!(
                "{}.{}`",
                path.trim_end_matches('`'),
                shown(k.as_scalar().unwrap_or("?"))
            );
            first_control(k, inner.clone()).or_else(|| first_control(v, inner))
        }),
    }
}

/// A key as it may appear in a message: its control characters written as `U+XXXX`.
fn shown(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    for c in key.chars() {
        if is_terminal_control(c) {
            out.push_str(&describe_char(c));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Profile;
    use std::path::Path;

    fn scalar(text: &str) -> Node {
        Node::new(NodeKind::Scalar(text.to_owned()))
    }

    fn check(entries: &[(Node, Node)]) -> Vec<String> {
        let path = Path::new("SKILL.md");
        let mut report = Report::new(path, Profile::Validate);
        check_decoded_controls(entries, &mut report);
        report.finish().into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn controls_are_found_at_any_depth_and_named_by_path() {
        let entries = vec![
            (scalar("name"), scalar("fine")),
            (scalar("description"), scalar("a\u{1b}[31mred")),
            (
                scalar("metadata"),
                Node::new(NodeKind::Map(vec![(
                    scalar("tags"),
                    Node::new(NodeKind::Seq(vec![scalar("ok"), scalar("x\u{202e}y")])),
                )])),
            ),
            (scalar("bad\u{9b}key"), scalar("v")),
            (scalar("multi"), scalar("line one\n\tline two")),
        ];
        assert_eq!(
            check(&entries),
            [
                "`description` holds the control character U+001B once decoded (an escape or `!!binary`); it could drive the terminal it is shown on",
                "`metadata.tags[1]` holds the control character U+202E once decoded (an escape or `!!binary`); it could drive the terminal it is shown on",
                "a key holds the control character U+009B once decoded (an escape or `!!binary`); it could drive the terminal it is shown on",
            ]
        );
    }
}
