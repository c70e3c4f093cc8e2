//! The architecture invariants of docs/ARCHITECTURE.md, executed: every workspace crate has a
//! layer in the document's `layers` table, depends only on crates of strictly lower layers,
//! uses every dependency it declares (a normal dependency in its library code, not only in its
//! unit tests or comments), `weft-types` has no required dependency at all, and every file
//! under a crate's `tests/` is part of a test binary (one per crate, `tests/all.rs`).
//!
//! The crates and their dependencies come from `cargo metadata --no-deps` (no network).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// Where a crate sits: `Some(n)` for layer `Ln`, `None` for crates outside the layers (xtask).
type Layer = Option<u32>;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The ```` ```layers ```` block of docs/ARCHITECTURE.md: `L<n> <crate>` or `- <crate>` per
/// line.
fn layer_table() -> BTreeMap<String, Layer> {
    let doc = std::fs::read_to_string(root().join("docs/ARCHITECTURE.md")).unwrap();
    let block = doc
        .split("```layers\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("docs/ARCHITECTURE.md has no ```layers block");
    let mut table = BTreeMap::new();
    for (i, line) in block.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (layer, name) = line
            .split_once(char::is_whitespace)
            .unwrap_or_else(|| panic!("layers line {}: expected `L<n> <crate>`: {line}", i + 1));
        let layer = match layer {
            "-" => None,
            l => Some(
                l.strip_prefix('L')
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| panic!("layers line {}: bad layer `{l}`", i + 1)),
            ),
        };
        let previous = table.insert(name.trim().to_owned(), layer);
        assert!(previous.is_none(), "layers: `{name}` is listed twice");
    }
    table
}

/// `cargo metadata --no-deps` for the workspace.
fn metadata() -> Value {
    let output = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// A workspace crate as the checks see it.
struct Package {
    name: String,
    dir: PathBuf,
    /// (dependency, kind: `normal`, `build` or `dev`, optional).
    deps: Vec<(String, String, bool)>,
    /// The root files of its integration-test binaries.
    test_roots: Vec<PathBuf>,
}

fn packages() -> Vec<Package> {
    let meta = metadata();
    meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| Package {
            name: p["name"].as_str().unwrap().to_owned(),
            dir: Path::new(p["manifest_path"].as_str().unwrap())
                .parent()
                .unwrap()
                .to_path_buf(),
            deps: p["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| {
                    let name = d["rename"].as_str().or(d["name"].as_str()).unwrap();
                    let kind = d["kind"].as_str().unwrap_or("normal");
                    let optional = d["optional"].as_bool().unwrap_or(false);
                    (name.to_owned(), kind.to_owned(), optional)
                })
                .collect(),
            test_roots: p["targets"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| t["kind"].as_array().unwrap().iter().any(|k| k == "test"))
                .map(|t| PathBuf::from(t["src_path"].as_str().unwrap()))
                .collect(),
        })
        .collect()
}

/// The test binaries that are not a crate's `all`, and why each runs in a process of its own.
const OWN_PROCESS_TESTS: [(&str, &str); 2] = [
    (
        "weft-cli/tests/limits_cli.rs",
        "bounds memory with RUSAGE_CHILDREN",
    ),
    (
        "weft-cli/tests/hostile.rs",
        "bounds memory with RUSAGE_CHILDREN",
    ),
];

/// Each crate's integration tests link as one binary, `tests/all.rs`, whose modules are the
/// files under `tests/` (or a crate's single test file; the exceptions: [`OWN_PROCESS_TESTS`]). With `autotests = false`, a
/// new test file that no binary declares would never run: this finds it.
#[test]
fn every_test_file_is_in_a_test_binary() {
    for package in packages() {
        let tests = package.dir.join("tests");
        let Ok(entries) = std::fs::read_dir(&tests) else {
            continue;
        };
        let crates = package.dir.parent().unwrap_or(&package.dir);
        let relative = |path: &Path| {
            path.strip_prefix(crates)
                .map_or_else(|_| path.display().to_string(), |p| p.display().to_string())
        };
        let mut declared = String::new();
        for root_file in &package.test_roots {
            let name = relative(root_file);
            // A crate with a single test file needs no `all.rs`.
            let all = root_file.file_name().is_some_and(|n| n == "all.rs");
            assert!(
                all || package.test_roots.len() == 1
                    || OWN_PROCESS_TESTS.iter().any(|(file, _)| *file == name),
                "{name} is a test binary of its own: make it a module of tests/all.rs, or list it \
                 with the reason in OWN_PROCESS_TESTS"
            );
            declared.push_str(&std::fs::read_to_string(root_file).unwrap());
        }
        for entry in entries {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            // A top-level file, or a directory with a main.rs, is a test of its own.
            let (module, spelled) = if path.is_dir() && path.join("main.rs").is_file() {
                (
                    name.clone(),
                    format!("#[path = \"{name}/main.rs\"]\nmod {name};"),
                )
            } else if let Some(stem) = name.strip_suffix(".rs") {
                (stem.to_owned(), format!("mod {stem};"))
            } else {
                continue;
            };
            let is_root = package.test_roots.contains(&path);
            assert!(
                is_root || module == "all" || declared.contains(&spelled),
                "{} is not part of any test binary: declare it in {}/tests/all.rs as `{spelled}`",
                relative(&path),
                package.name
            );
        }
    }
}

fn show(layer: Layer) -> String {
    layer.map_or_else(|| "outside the layers".to_owned(), |n| format!("L{n}"))
}

#[test]
fn every_crate_depends_only_on_lower_layers() {
    let table = layer_table();
    let packages = packages();
    let mut failures = Vec::new();
    for p in &packages {
        if !table.contains_key(&p.name) {
            failures.push(format!(
                "{}: not in the layers table of docs/ARCHITECTURE.md",
                p.name
            ));
        }
    }
    for name in table.keys() {
        if !packages.iter().any(|p| &p.name == name) {
            failures.push(format!(
                "{name}: in the layers table but not a workspace crate"
            ));
        }
    }
    for p in &packages {
        let Some(&layer) = table.get(&p.name) else {
            continue;
        };
        for (dep, kind, _) in &p.deps {
            let Some(&dep_layer) = table.get(dep) else {
                continue; // not a workspace crate
            };
            if kind == "dev" {
                continue; // tests may use any crate
            }
            let allowed = match (layer, dep_layer) {
                (_, None) => false, // nothing depends on a crate outside the layers
                (None, Some(_)) => true,
                (Some(own), Some(theirs)) => theirs < own,
            };
            if !allowed {
                failures.push(format!(
                    "{} ({}) depends on {dep} ({}): a crate may depend only on crates of a lower layer",
                    p.name,
                    show(layer),
                    show(dep_layer)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}\n", failures.join("\n"));
}

#[test]
fn weft_types_has_no_required_dependency() {
    let types = packages()
        .into_iter()
        .find(|p| p.name == "weft-types")
        .unwrap();
    let required: Vec<&String> = types
        .deps
        .iter()
        .filter(|(_, kind, optional)| kind != "dev" && !optional)
        .map(|(name, _, _)| name)
        .collect();
    assert!(
        required.is_empty(),
        "weft-types must have no dependencies (serde only behind its feature): {required:?}"
    );
}

/// Every `.rs` file under `dir` (none when it does not exist).
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text of `file` and of the modules it includes from elsewhere with `#[path = "..."]`
/// (tests sharing another crate's test support).
fn with_path_modules(file: &Path) -> String {
    let mut text = std::fs::read_to_string(file).unwrap_or_default();
    let included: Vec<PathBuf> = text
        .lines()
        .filter_map(|line| line.trim().strip_prefix("#[path = \""))
        .filter_map(|rest| rest.split('"').next())
        .map(|rel| file.parent().unwrap_or(Path::new(".")).join(rel))
        .collect();
    for path in included {
        text.push('\n');
        text.push_str(&std::fs::read_to_string(path).unwrap_or_default());
    }
    text
}

/// `source` as the compiler sees it outside tests: comments (doc comments too, and their
/// examples) and the contents of string and character literals blanked, and every item under
/// `#[cfg(test)]` (or `#[cfg(all(test, ...))]`) left out. A dependency named only there is
/// not used by the library.
fn code_outside_tests(source: &str) -> String {
    strip_test_items(&strip_comments_and_literals(source))
}

/// `source` with comments removed and string and character literals emptied (`""`, `''`),
/// so neither can hide or fake a path or a brace.
fn strip_comments_and_literals(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            // Block comments nest.
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if let Some(end) = raw_string_end(&chars, i) {
            out.push_str("\"\"");
            i = end;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{1F600}'), or a lifetime ('a), kept.
            let close = if next == Some('\\') {
                (i + 3..chars.len().min(i + 12)).find(|&j| chars[j] == '\'')
            } else {
                (chars.get(i + 2) == Some(&'\'')).then_some(i + 2)
            };
            match close {
                Some(end) => {
                    out.push_str("''");
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Where the raw string starting at `i` (`r"..."`, `r#"..."#`, `br"..."`) ends, just past it.
fn raw_string_end(chars: &[char], i: usize) -> Option<usize> {
    let starts_word = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
    let mut j = i;
    if chars.get(j) == Some(&'b') {
        j += 1;
    }
    if !starts_word || chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = chars[j..].iter().take_while(|c| **c == '#').count();
    j += hashes;
    if chars.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < chars.len() {
        if chars[j] == '"'
            && chars[j + 1..]
                .iter()
                .take(hashes)
                .filter(|c| **c == '#')
                .count()
                == hashes
        {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(chars.len())
}

/// `code` (already without comments and literals) without the items under a test-only
/// `#[cfg(...)]`: the attribute, the attributes after it, and the item up to its `;` or its
/// closing brace.
fn strip_test_items(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = test_cfg(rest) {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        rest = &item[item_end(item)..];
    }
    out.push_str(rest);
    out
}

/// Where the next `#[cfg(test)]` or `#[cfg(all(test, ...))]` starts.
fn test_cfg(code: &str) -> Option<usize> {
    ["#[cfg(test)]", "#[cfg(all(test"]
        .iter()
        .filter_map(|pattern| code.find(pattern))
        .min()
}

/// The length of the item `item` starts with (its attributes included): up to the first `;`
/// outside brackets, or the brace that closes its first `{`.
fn item_end(item: &str) -> usize {
    let mut depth = 0i32;
    let mut in_attribute = false;
    for (i, c) in item.char_indices() {
        match c {
            '#' if depth == 0 => in_attribute = true,
            '[' | '(' => depth += 1,
            ']' | ')' => {
                depth -= 1;
                if depth == 0 {
                    in_attribute = false;
                }
            }
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 && !in_attribute {
                    return i + 1;
                }
            }
            ';' if depth == 0 => return i + 1,
            _ => {}
        }
    }
    item.len()
}

/// True when `text` names the crate `lib` as a path root (`lib::`, `extern crate lib`).
fn mentions(text: &str, lib: &str) -> bool {
    let bytes = text.as_bytes();
    text.match_indices(lib).any(|(at, _)| {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        let starts_word = before.is_none_or(|b| !(b.is_ascii_alphanumeric() || b == b'_'));
        let after = &text[at + lib.len()..];
        starts_word && (after.starts_with("::") || text[..at].ends_with("extern crate "))
    })
}

#[test]
fn every_declared_dependency_is_used() {
    let mut failures = Vec::new();
    for p in packages() {
        let mut lib_sources = Vec::new();
        rust_files(&p.dir.join("src"), &mut lib_sources);
        let build = p.dir.join("build.rs");
        if build.is_file() {
            lib_sources.push(build);
        }
        let mut test_sources = lib_sources.clone();
        for dir in ["tests", "benches", "examples"] {
            rust_files(&p.dir.join(dir), &mut test_sources);
        }
        let read = |files: &[PathBuf]| -> String {
            files
                .iter()
                .map(|f| with_path_modules(f))
                .collect::<Vec<_>>()
                .join("\n")
        };
        // A normal dependency must be used by the library itself, not by its unit tests or
        // in a comment; a dev-dependency anywhere in the crate's code counts.
        let lib_text = code_outside_tests(&read(&lib_sources));
        let test_text = strip_comments_and_literals(&read(&test_sources));
        let normal: Vec<&String> = p
            .deps
            .iter()
            .filter(|(_, kind, _)| kind != "dev")
            .map(|(name, _, _)| name)
            .collect();
        for (dep, kind, _) in &p.deps {
            let lib = dep.replace('-', "_");
            let (text, place) = if kind == "dev" {
                if normal.contains(&dep) {
                    continue; // repeated to add features for tests
                }
                (&test_text, "src/, tests/, benches/ or examples/")
            } else {
                (&lib_text, "src/")
            };
            if !mentions(text, &lib) {
                failures.push(format!(
                    "{}: {kind} dependency `{dep}` is declared but `{lib}::` appears nowhere in {place}",
                    p.name
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}\n", failures.join("\n"));
}

#[test]
fn unit_tests_comments_and_strings_do_not_count_as_uses() {
    let source = r##"
//! Uses `serde_json::json!` in an example:
//! ```
//! let v = serde_json::json!(1);
//! ```
use tokio::sync::Notify;
/* block comment: rayon::join */
const MESSAGE: &str = "see regex::Regex";
const RAW: &str = r#"glob::Pattern "and" more"#;
fn f<'a>(x: &'a str) -> char { let _ = ('{', '\'', '\u{7b}'); 'x' }
#[cfg(test)]
mod tests {
    use tempfile::TempDir;
    fn nested() { if true { let _ = insta::Settings::new(); } }
}
#[cfg(all(test, unix))]
use libc::getpid;
pub fn after() { thiserror::Error; }
"##;
    let code = code_outside_tests(source);
    for unused in [
        "serde_json",
        "rayon",
        "regex",
        "glob",
        "tempfile",
        "insta",
        "libc",
    ] {
        assert!(!mentions(&code, unused), "{unused} counted in:\n{code}");
    }
    for used in ["tokio", "thiserror"] {
        assert!(mentions(&code, used), "{used} missed in:\n{code}");
    }
}

#[test]
fn mentions_needs_a_path_root() {
    assert!(mentions("use serde_json::json;", "serde_json"));
    assert!(mentions("#[tokio::test]", "tokio"));
    assert!(!mentions("use my_serde_json::x;", "serde_json"));
    assert!(!mentions("// serde_json is nice", "serde_json"));
    assert!(mentions("extern crate foo;", "foo"));
}
