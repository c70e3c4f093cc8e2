//! The header cache: unchanged files are served from it (two `stat`s, no read), changed
//! files are parsed again (even a same-size rewrite that puts the modification time back),
//! files changed just before they were cached are not trusted, and a cache from another build
//! is ignored.
//!
//! A run served entirely from the cache does not rewrite the cache file; any file parsed again
//! makes it write a new one (a new inode): that is how these tests see hits and misses.

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs::{File, FileTimes};
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

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

/// The skill's description, and whether the run wrote a new cache file.
fn list(root: &Path, cache: &Path, fingerprint: &str, name: &str) -> (String, bool) {
    let before = std::fs::metadata(cache).map(|m| m.ino()).ok();
    let description = SkillRegistry::new(config(root, cache, fingerprint))
        .get(name)
        .unwrap()
        .skill
        .description
        .clone();
    let after = std::fs::metadata(cache).map(|m| m.ino()).ok();
    (description, before != after)
}

/// Rewrites `path` with `text` (same length) and puts its modification time back: only the
/// change time tells.
fn rewrite_keeping_mtime(path: &Path, text: &str) {
    let modified = std::fs::metadata(path).unwrap().modified().unwrap();
    std::fs::write(path, text).unwrap();
    File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_times(FileTimes::new().set_modified(modified))
        .unwrap();
}

/// Long enough for a file to be older than the cache's racy window.
/// A temporary `skills/s/SKILL.md` (description `d`) and where its cache goes.
fn one_skill() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("skills");
    std::fs::create_dir_all(root.join("s")).unwrap();
    std::fs::write(
        root.join("s/SKILL.md"),
        "---\nname: s\ndescription: d\n---\n",
    )
    .unwrap();
    let cache = tmp.path().join("skills.cache");
    (tmp, root, cache)
}

const AGE: Duration = Duration::from_millis(1_100);

#[test]
fn unchanged_files_are_served_and_rewritten_ones_parsed_again() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("skills");
    let file = root.join("s/SKILL.md");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "---\nname: s\ndescription: first\n---\n").unwrap();
    let cache = tmp.path().join("cache/skills.cache");
    std::thread::sleep(AGE);

    assert_eq!(list(&root, &cache, "b1", "s"), ("first".to_owned(), true));
    assert!(cache.is_file(), "the cache is written");
    assert_eq!(
        list(&root, &cache, "b1", "s"),
        ("first".to_owned(), false),
        "served from the cache: nothing to rewrite"
    );

    // Same length, same mtime, same inode: the change time still moves.
    rewrite_keeping_mtime(&file, "---\nname: s\ndescription: other\n---\n");
    assert_eq!(list(&root, &cache, "b1", "s"), ("other".to_owned(), true));

    // Another build does not trust the entries.
    assert!(list(&root, &cache, "b2", "s").1);
}

#[test]
fn a_file_changed_just_before_it_was_cached_is_parsed_again() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("skills");
    let file = root.join("s/SKILL.md");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "---\nname: s\ndescription: new\n---\n").unwrap();
    let cache = tmp.path().join("skills.bin");
    assert!(list(&root, &cache, "b", "s").1);
    // Within the racy window: a rewrite now could keep every time stamp, so no trust yet.
    assert!(list(&root, &cache, "b", "s").1);
    std::thread::sleep(AGE);
    assert!(
        list(&root, &cache, "b", "s").1,
        "recorded again, now trusted"
    );
    assert!(!list(&root, &cache, "b", "s").1);
}

#[test]
fn a_corrupt_cache_is_an_empty_cache() {
    let (_tmp, root, cache) = one_skill();
    std::fs::write(&cache, "{ not json").unwrap();
    assert_eq!(list(&root, &cache, "b", "s").0, "d");
    let bytes = std::fs::read(&cache).unwrap();
    assert!(bytes.starts_with(b"weft-skill-cache\n"), "rewritten");
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
    let cache = tmp.path().join("skills.cache");
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
    let cache = tmp.path().join("skills.cache");
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

#[test]
fn health_reports_missing_valid_rebuilt_and_unreadable_caches() {
    use weft_registry::CacheHealth;
    let (_tmp, root, cache) = one_skill();
    let registry = config(&root, &cache, "b");
    let limits = registry.parse.limits;
    let health = |fingerprint: &str| {
        CacheConfig {
            path: cache.clone(),
            fingerprint: fingerprint.to_owned(),
        }
        .health(&limits)
    };
    assert_eq!(health("b"), CacheHealth::Missing);
    list(&root, &cache, "b", "s");
    let bytes = std::fs::metadata(&cache).unwrap().len();
    assert_eq!(health("b"), CacheHealth::Valid { entries: 1, bytes });
    assert_eq!(health("other build"), CacheHealth::Rebuilt { bytes });
    std::fs::remove_file(&cache).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", &cache).unwrap();
    assert!(
        matches!(health("b"), CacheHealth::Unreadable(ref why) if why.contains("skills.cache")),
        "{:?}",
        health("b")
    );
}
