//! The header cache: unchanged files are served from it (one `stat`, no read), changed files
//! are parsed again, and a cache from another build is ignored.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs::{File, FileTimes};
use std::path::Path;
use std::time::{Duration, SystemTime};

use weft_registry::{CacheConfig, RegistryConfig, SkillRegistry, SkillRoot};
use weft_types::Scope;

fn config(root: &Path, cache: &Path, fingerprint: &str) -> RegistryConfig {
    RegistryConfig {
        builtins: false,
        cache: Some(CacheConfig {
            path: cache.to_path_buf(),
            fingerprint: fingerprint.to_owned(),
        }),
        ..RegistryConfig::with_roots(vec![SkillRoot::new(root, Scope::User)])
    }
}

fn description(config: RegistryConfig, name: &str) -> String {
    SkillRegistry::new(config)
        .get(name)
        .unwrap()
        .skill
        .description
        .clone()
}

/// Rewrites `path` with `text` (same length) and puts its modification time back, so `stat`
/// cannot tell the difference: only a cache hit returns the old content.
fn rewrite_keeping_stamp(path: &Path, text: &str) {
    let modified = std::fs::metadata(path).unwrap().modified().unwrap();
    std::fs::write(path, text).unwrap();
    File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_times(FileTimes::new().set_modified(modified))
        .unwrap();
}

#[test]
fn unchanged_files_come_from_the_cache_and_changed_ones_are_parsed() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("skills");
    let file = root.join("s/SKILL.md");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "---\nname: s\ndescription: first\n---\n").unwrap();
    let cache = tmp.path().join("cache/skills.json");

    assert_eq!(description(config(&root, &cache, "build-1"), "s"), "first");
    assert!(cache.is_file(), "the cache is written");

    // Same length, same mtime, same inode: served from the cache.
    rewrite_keeping_stamp(&file, "---\nname: s\ndescription: other\n---\n");
    assert_eq!(description(config(&root, &cache, "build-1"), "s"), "first");

    // Another build does not trust the entries.
    assert_eq!(description(config(&root, &cache, "build-2"), "s"), "other");

    // A new modification time means a new parse.
    std::fs::write(&file, "---\nname: s\ndescription: third\n---\n").unwrap();
    File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_times(FileTimes::new().set_modified(SystemTime::now() + Duration::from_secs(5)))
        .unwrap();
    assert_eq!(description(config(&root, &cache, "build-2"), "s"), "third");
}

#[test]
fn a_corrupt_cache_is_an_empty_cache() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("skills");
    std::fs::create_dir_all(root.join("s")).unwrap();
    std::fs::write(
        root.join("s/SKILL.md"),
        "---\nname: s\ndescription: d\n---\n",
    )
    .unwrap();
    let cache = tmp.path().join("skills.json");
    std::fs::write(&cache, "{ not json").unwrap();
    assert_eq!(description(config(&root, &cache, "b"), "s"), "d");
    let text = std::fs::read_to_string(&cache).unwrap();
    assert!(text.starts_with("{\"format\":2"), "rewritten: {text}");
}

#[test]
fn cached_diagnostics_are_reported_again() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("skills");
    std::fs::create_dir_all(root.join("Weird")).unwrap();
    std::fs::write(
        root.join("Weird/skill.md"),
        "---\nname: weird\ndescription: d\n---\n",
    )
    .unwrap();
    let cache = tmp.path().join("skills.json");
    let codes = |c: RegistryConfig| -> Vec<String> {
        SkillRegistry::new(c)
            .snapshot()
            .diagnostics()
            .iter()
            .map(|d| d.code.clone())
            .collect()
    };
    let first = codes(config(&root, &cache, "b"));
    assert_eq!(first, ["W012", "W103"]);
    assert_eq!(codes(config(&root, &cache, "b")), first);
}

#[test]
fn a_changed_directory_is_listed_again() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("skills");
    let dir = root.join("s");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), "---\nname: s\ndescription: d\n---\n").unwrap();
    let cache = tmp.path().join("skills.json");
    let codes = || -> Vec<String> {
        SkillRegistry::new(config(&root, &cache, "b"))
            .snapshot()
            .diagnostics()
            .iter()
            .map(|d| d.code.clone())
            .collect()
    };
    assert!(codes().is_empty());
    assert!(codes().is_empty(), "served from the cache, listing skipped");
    // A new entry changes the directory's time: the listing is done again.
    std::fs::write(dir.join("skill.json"), "{}").unwrap();
    assert_eq!(codes(), ["W013"]);
    std::fs::remove_file(dir.join("skill.json")).unwrap();
    std::fs::rename(dir.join("SKILL.md"), dir.join("skill.md")).unwrap();
    assert_eq!(codes(), ["W012"]);
    assert_eq!(
        codes(),
        ["W012"],
        "the note is remembered with the cached listing"
    );
}
