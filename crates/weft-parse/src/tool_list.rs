//! Splitting tool lists: `Read, Grep Bash(git add *)` is three patterns, never split inside
//! parentheses.

/// A tool list with unbalanced parentheses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnbalancedParens {
    /// The text around the problem.
    pub near: String,
}

/// Splits a tool list at commas and whitespace outside parentheses.
///
/// ```
/// use weft_parse::tool_list::split_tool_list;
///
/// let tools = split_tool_list("Bash(git add *) Bash(git commit *), Read").unwrap();
/// assert_eq!(tools, ["Bash(git add *)", "Bash(git commit *)", "Read"]);
/// assert!(split_tool_list("Bash(git").is_err());
/// ```
pub fn split_tool_list(text: &str) -> Result<Vec<String>, UnbalancedParens> {
    let mut out = Vec::new();
    let mut depth: usize = 0;
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        match c {
            '(' => {
                depth += 1;
                start.get_or_insert(i);
            }
            ')' => {
                if depth == 0 {
                    return Err(UnbalancedParens {
                        near: near(text, i),
                    });
                }
                depth -= 1;
            }
            c if depth == 0 && (c == ',' || c.is_whitespace()) => {
                if let Some(s) = start.take() {
                    out.push(text[s..i].to_owned());
                }
            }
            _ => {
                start.get_or_insert(i);
            }
        }
    }
    if depth > 0 {
        return Err(UnbalancedParens {
            near: near(text, text.len()),
        });
    }
    if let Some(s) = start {
        out.push(text[s..].to_owned());
    }
    Ok(out)
}

fn near(text: &str, index: usize) -> String {
    let start = text[..index]
        .char_indices()
        .rev()
        .nth(20)
        .map_or(0, |(i, _)| i);
    text[start..].chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_outside_parens_only() {
        assert_eq!(
            split_tool_list("Read,Grep, Bash(git:*)  Bash(git log:*)").unwrap(),
            ["Read", "Grep", "Bash(git:*)", "Bash(git log:*)"]
        );
        assert_eq!(
            split_tool_list("Bash(a, b) mcp__github__*").unwrap(),
            ["Bash(a, b)", "mcp__github__*"]
        );
        assert!(split_tool_list("").unwrap().is_empty());
        assert!(split_tool_list(" , ").unwrap().is_empty());
    }

    #[test]
    fn nested_parens_are_one_token() {
        assert_eq!(
            split_tool_list("Bash(echo (a b)) Read").unwrap(),
            ["Bash(echo (a b))", "Read"]
        );
    }

    #[test]
    fn unbalanced_parens_are_errors() {
        assert!(split_tool_list("Read)").is_err());
        assert!(split_tool_list("Bash((x)").is_err());
    }
}
