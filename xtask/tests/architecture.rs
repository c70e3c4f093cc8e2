//! The architecture invariants of docs/ARCHITECTURE.md, executed: every workspace crate has a
//! layer in the document's `layers` table, depends only on crates of strictly lower layers,
//! uses every dependency it declares, and `weft-types` has no required dependency at all.
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
        })
        .collect()
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
        let (lib_text, test_text) = (read(&lib_sources), read(&test_sources));
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
fn mentions_needs_a_path_root() {
    assert!(mentions("use serde_json::json;", "serde_json"));
    assert!(mentions("#[tokio::test]", "tokio"));
    assert!(!mentions("use my_serde_json::x;", "serde_json"));
    assert!(!mentions("// serde_json is nice", "serde_json"));
    assert!(mentions("extern crate foo;", "foo"));
}
