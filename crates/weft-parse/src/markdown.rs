//! Reading structure out of markdown bodies: the first paragraph, `## ` sections.

/// The longest description taken from a body paragraph, in characters.
pub const MAX_BODY_DESCRIPTION_CHARS: usize = 200;

/// The first paragraph of `body` that is not a heading, a code fence or an HTML comment,
/// joined into one line and cut at 200 characters.
///
/// ```
/// use weft_parse::markdown::first_paragraph;
///
/// let body = "# Title\n\nExtract text\nfrom PDFs.\n\nMore.";
/// assert_eq!(first_paragraph(body).as_deref(), Some("Extract text from PDFs."));
/// assert_eq!(first_paragraph("# Only a title\n"), None);
/// ```
pub fn first_paragraph(body: &str) -> Option<String> {
    let mut lines = body.lines().map(str::trim).peekable();
    let mut in_fence = false;
    let mut in_comment = false;
    let mut parts: Vec<&str> = Vec::new();
    while let Some(line) = lines.next() {
        if in_fence {
            in_fence = !(line.starts_with("```") || line.starts_with("~~~"));
            continue;
        }
        if in_comment {
            in_comment = !line.contains("-->");
            continue;
        }
        if parts.is_empty() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line.starts_with("```") || line.starts_with("~~~") {
                in_fence = true;
                continue;
            }
            if line.starts_with("<!--") {
                in_comment = !line.contains("-->");
                continue;
            }
            if line.chars().all(|c| matches!(c, '-' | '*' | '_' | '=')) {
                continue;
            }
        } else if line.is_empty() || line.starts_with('#') || line.starts_with("```") {
            break;
        }
        parts.push(line);
        if lines.peek().is_none() {
            break;
        }
    }
    if parts.is_empty() {
        return None;
    }
    let joined = parts.join(" ");
    Some(
        cut_chars(&joined, MAX_BODY_DESCRIPTION_CHARS)
            .trim_end()
            .to_owned(),
    )
}

/// `text` cut to at most `max` characters (at a character boundary).
pub fn cut_chars(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

/// The `## ` sections of a markdown document: `(heading, content)` in order. Text before the
/// first `## ` heading is not a section.
pub fn sections(body: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut in_fence = false;
    for line in body.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
        }
        if !in_fence && let Some(heading) = line.strip_prefix("## ") {
            out.push((heading.trim().to_owned(), String::new()));
            continue;
        }
        if let Some((_, content)) = out.last_mut() {
            content.push_str(line);
            content.push('\n');
        }
    }
    out
}

/// The items of a markdown bullet list (`- x`, `* x`, `+ x`), in order.
pub fn bullet_items(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let t = l.trim_start();
            t.strip_prefix("- ")
                .or_else(|| t.strip_prefix("* "))
                .or_else(|| t.strip_prefix("+ "))
        })
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Normalises line endings to `\n`, drops leading blank lines and trailing whitespace.
pub fn tidy_body(body: &str) -> String {
    let normalized = if body.contains('\r') {
        body.replace("\r\n", "\n")
    } else {
        body.to_owned()
    };
    let mut start = 0;
    for line in normalized.split_inclusive('\n') {
        if line.trim().is_empty() {
            start += line.len();
        } else {
            break;
        }
    }
    normalized[start.min(normalized.len())..]
        .trim_end()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraph_skips_fences_comments_and_rules() {
        let body = "<!-- note -->\n```\ncode\n```\n---\nReal text here.\n";
        assert_eq!(first_paragraph(body).as_deref(), Some("Real text here."));
    }

    #[test]
    fn paragraph_is_cut_at_200_chars() {
        let body = "é".repeat(300);
        assert_eq!(first_paragraph(&body).unwrap().chars().count(), 200);
    }

    #[test]
    fn sections_and_bullets() {
        let doc = "# A\n\n## Model\nhaiku\n\n## Allowed Tools\n- Read\n* Grep (if applicable)\n";
        let s = sections(doc);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].0, "Model");
        assert_eq!(bullet_items(&s[1].1), ["Read", "Grep (if applicable)"]);
    }

    #[test]
    fn tidy_body_trims_and_normalises() {
        assert_eq!(
            tidy_body("\r\n\r\n  Do it.\r\nNow. \r\n\r\n"),
            "  Do it.\nNow."
        );
        assert_eq!(tidy_body("\n\n"), "");
    }
}
