//! Setting one key of a team's `.claude/settings.json` (`enabledPlugins`,
//! `extraKnownMarketplaces`) without rewriting the rest: the file is edited as text, every
//! other byte kept, so a committed file keeps its order, spacing and other settings.

use std::ops::Range;
use std::path::Path;

use serde_json::{Map, Value};
use weft_plugin::PluginError;

/// Sets `value` under `entry` of the top-level object `key` of the settings file at `path`
/// (`None` removes the entry), creating the file and the key when missing. The result is
/// checked to be the JSON intended before it is written (atomically).
pub fn set_entry(
    path: &Path,
    key: &str,
    entry: &str,
    value: Option<Value>,
) -> Result<(), crate::MarketplaceError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(weft_install::InstallError::io(path, e).into()),
    };
    let edited = edit(&text, key, entry, value, path)?;
    weft_install::write_atomically(path, edited.as_bytes())?;
    Ok(())
}

/// One entry of [`set_entries`]: under the top-level object `key`, `entry` set to the value
/// (`None` removes it).
pub(crate) type SettingsEdit<'a> = (&'a str, &'a str, Option<Value>);

/// Applies every edit to the settings file at `path` and writes it once (atomically), so
/// either all of them are made or none; returns the file's text before, for the caller to
/// write back ([`restore_settings`]) when what the edits belong to fails later. A file that
/// does not exist is left alone when every edit is a removal.
pub(crate) fn set_entries(
    path: &Path,
    edits: &[SettingsEdit<'_>],
) -> Result<Option<String>, crate::MarketplaceError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if edits.iter().all(|(_, _, v)| v.is_none()) {
                return Ok(None);
            }
            String::new()
        }
        Err(e) => return Err(weft_install::InstallError::io(path, e).into()),
    };
    let mut edited = text.clone();
    for (key, entry, value) in edits {
        edited = edit(&edited, key, entry, value.clone(), path)?;
    }
    if edited != text {
        weft_install::write_atomically(path, edited.as_bytes())?;
    }
    Ok(Some(text))
}

/// Writes back what [`set_entries`] returned (best effort: this runs when something else
/// already failed, whose error is the one reported).
pub(crate) fn restore_settings(path: &Path, before: Option<String>) {
    if let Some(text) = before
        && let Err(e) = weft_install::write_atomically(path, text.as_bytes())
    {
        tracing::warn!(path = %path.display(), error = %e, "could not restore the settings file");
    }
}

/// `text` with `key.entry` set (or removed).
pub(crate) fn edit(
    text: &str,
    key: &str,
    entry: &str,
    value: Option<Value>,
    path: &Path,
) -> Result<String, PluginError> {
    let mut parsed: Value = if text.trim().is_empty() {
        Value::Object(Map::new())
    } else {
        serde_json::from_str(text).map_err(|e| PluginError::Json {
            path: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?
    };
    let Value::Object(top) = &mut parsed else {
        return Err(PluginError::invalid(
            path,
            "a settings file must be a JSON object",
        ));
    };
    let mut inner = match top.get(key) {
        Some(Value::Object(map)) => map.clone(),
        Some(_) => {
            return Err(PluginError::invalid(
                path,
                format!("`{key}` is not an object; not changed"),
            ));
        }
        None => Map::new(),
    };
    match value {
        Some(v) => {
            inner.insert(entry.to_owned(), v);
        }
        None => {
            inner.remove(entry);
        }
    }
    top.insert(key.to_owned(), Value::Object(inner.clone()));
    let out = if text.trim().is_empty() {
        let mut fresh = serde_json::to_string_pretty(&parsed).unwrap_or_default();
        fresh.push('\n');
        fresh
    } else {
        let span = top_level_spans(text).map_err(|why| PluginError::invalid(path, why))?;
        let rendered = indent(
            &serde_json::to_string_pretty(&Value::Object(inner)).unwrap_or_default(),
            &span.indent,
        );
        match span.members.iter().find(|(name, _)| name == key) {
            Some((_, range)) => format!("{}{rendered}{}", &text[..range.start], &text[range.end..]),
            None => {
                let member = format!("\"{}\": {rendered}", key);
                let close = span.close;
                let before = text[..close].trim_end();
                let sep = if span.members.is_empty() { "" } else { "," };
                format!("{before}{sep}\n{}{member}\n{}", span.indent, &text[close..])
            }
        }
    };
    // The edit must mean exactly the intended document.
    let check: Value = serde_json::from_str(&out).map_err(|e| {
        PluginError::invalid(
            path,
            format!("could not edit the settings file safely: {e}"),
        )
    })?;
    if check != parsed {
        return Err(PluginError::invalid(
            path,
            "could not edit the settings file safely; not changed",
        ));
    }
    Ok(out)
}

/// Every line but the first of `json` indented by `indent`.
fn indent(json: &str, indent: &str) -> String {
    json.lines()
        .enumerate()
        .map(|(i, line)| {
            if i == 0 {
                line.to_owned()
            } else {
                format!("{indent}{line}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level object of a JSON text: each member's name and the byte range of its value,
/// where its closing brace is, and the indentation of its first member.
struct Spans {
    members: Vec<(String, Range<usize>)>,
    close: usize,
    indent: String,
}

fn top_level_spans(text: &str) -> Result<Spans, String> {
    let bytes = text.as_bytes();
    let mut i = skip_ws(bytes, 0);
    if bytes.get(i) != Some(&b'{') {
        return Err("the settings file is not a JSON object".to_owned());
    }
    i += 1;
    let mut members = Vec::new();
    let mut indent = "  ".to_owned();
    loop {
        let start = skip_ws(bytes, i);
        match bytes.get(start) {
            Some(b'}') => {
                return Ok(Spans {
                    members,
                    close: start,
                    indent,
                });
            }
            Some(b',') => {
                i = start + 1;
                continue;
            }
            Some(b'"') => {}
            _ => return Err("the settings file could not be read as JSON".to_owned()),
        }
        if members.is_empty() {
            let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
            let lead = &text[line_start..start];
            if lead.chars().all(char::is_whitespace) && !lead.is_empty() {
                lead.clone_into(&mut indent);
            }
        }
        let name_end = string_end(bytes, start)?;
        let name: String =
            serde_json::from_str(&text[start..name_end]).map_err(|e| e.to_string())?;
        let colon = skip_ws(bytes, name_end);
        if bytes.get(colon) != Some(&b':') {
            return Err("the settings file could not be read as JSON".to_owned());
        }
        let value_start = skip_ws(bytes, colon + 1);
        let value_end = value_end(bytes, value_start)?;
        members.push((name, value_start..value_end));
        i = value_end;
    }
}

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// The end (exclusive) of the string starting at `start` (a `"`).
fn string_end(bytes: &[u8], start: usize) -> Result<usize, String> {
    let mut i = start + 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 2,
            b'"' => return Ok(i + 1),
            _ => i += 1,
        }
    }
    Err("an unterminated string in the settings file".to_owned())
}

/// The end (exclusive) of the value starting at `start`.
fn value_end(bytes: &[u8], start: usize) -> Result<usize, String> {
    match bytes.get(start) {
        Some(b'"') => string_end(bytes, start),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut i = start;
            while let Some(&b) = bytes.get(i) {
                match b {
                    b'"' => {
                        i = string_end(bytes, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Ok(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            Err("an unterminated object in the settings file".to_owned())
        }
        Some(_) => {
            let mut i = start;
            while bytes
                .get(i)
                .is_some_and(|b| !matches!(b, b',' | b'}' | b']') && !b.is_ascii_whitespace())
            {
                i += 1;
            }
            Ok(i)
        }
        None => Err("the settings file ends early".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn set(text: &str, key: &str, entry: &str, value: Option<Value>) -> String {
        edit(text, key, entry, value, Path::new("settings.json")).unwrap()
    }

    #[test]
    fn other_keys_keep_their_bytes() {
        let text = "{\n    \"permissions\": {\"deny\": [\"Bash(rm:*)\"]},\n    \"zeta\": \"{not a brace}\",\n    \"enabledPlugins\": {\"old@m\": false}\n}\n";
        let out = set(text, "enabledPlugins", "fmt@acme", Some(json!(true)));
        assert_eq!(
            out,
            "{\n    \"permissions\": {\"deny\": [\"Bash(rm:*)\"]},\n    \"zeta\": \"{not a brace}\",\n    \"enabledPlugins\": {\n      \"fmt@acme\": true,\n      \"old@m\": false\n    }\n}\n"
        );
        // A new key goes at the end, with the file's indentation.
        let out = set(
            &out,
            "extraKnownMarketplaces",
            "acme",
            Some(json!({"source": {"source": "git", "url": "u"}})),
        );
        assert!(
            out.starts_with("{\n    \"permissions\": {\"deny\": [\"Bash(rm:*)\"]},\n"),
            "{out}"
        );
        assert!(out.ends_with("    \"extraKnownMarketplaces\": {\n      \"acme\": {\n        \"source\": {\n          \"source\": \"git\",\n          \"url\": \"u\"\n        }\n      }\n    }\n}\n"), "{out}");
        // Removing an entry.
        let out = set(&out, "enabledPlugins", "old@m", None);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["enabledPlugins"], json!({"fmt@acme": true}));
    }

    #[test]
    fn empty_or_missing_files_and_bad_ones() {
        assert_eq!(
            set("", "enabledPlugins", "a@b", Some(json!(true))),
            "{\n  \"enabledPlugins\": {\n    \"a@b\": true\n  }\n}\n"
        );
        assert_eq!(
            set("{}", "k", "e", Some(json!(1))),
            "{\n  \"k\": {\n    \"e\": 1\n  }\n}"
        );
        for bad in ["[]", "{\"enabledPlugins\": []}", "{ nope"] {
            assert!(
                edit(
                    bad,
                    "enabledPlugins",
                    "a@b",
                    Some(json!(true)),
                    Path::new("s")
                )
                .is_err(),
                "{bad}"
            );
        }
    }
}
