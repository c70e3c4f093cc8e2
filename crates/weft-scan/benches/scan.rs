//! Scanning the real-world corpus (`../shared/corpus`, 2,451 SKILL.md files, 31 MB): the
//! files are read and parsed once, outside the measurement; the measured work is `scan` over
//! every package, on one thread.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use weft_parse::{ParseOptions, Profile, parse_skill_md};
use weft_scan::{Package, PackageFile, ScanOptions, SkillFacts, scan};

fn skill_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            skill_files(&path, out);
        } else if entry
            .file_name()
            .to_string_lossy()
            .eq_ignore_ascii_case("SKILL.md")
        {
            out.push(path);
        }
    }
}

fn corpus_packages() -> Vec<(Package, Option<SkillFacts>)> {
    // The full corpus when `../shared` is beside the checkout, else the committed sample.
    let root = weft_testkit::Corpus::largest().dir;
    let mut files = Vec::new();
    skill_files(&root, &mut files);
    files
        .iter()
        .map(|path| {
            let bytes = std::fs::read(path).unwrap();
            let parsed = parse_skill_md(&bytes, path, &ParseOptions::new(Profile::Load));
            let facts = parsed.skill.as_ref().map(SkillFacts::of);
            (
                Package::new(vec![PackageFile::regular("SKILL.md", bytes)]),
                facts,
            )
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let packages = corpus_packages();
    let options = ScanOptions {
        known_names: vec![
            "specification-engine".to_owned(),
            "opencode-implementer".to_owned(),
        ],
        ..ScanOptions::default()
    };
    let mut group = c.benchmark_group("scan");
    group.sample_size(10);
    group.bench_function("corpus_2451_skills", |b| {
        b.iter(|| {
            packages
                .iter()
                .map(|(p, f)| scan(p, f.as_ref(), &options).findings.len())
                .sum::<usize>()
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
