//! Parsing benchmarks: one typical SKILL.md, the frontmatter splitter alone, and validating
//! the largest real-world corpus present (`../shared/corpus`, else the committed sample; read
//! into memory first).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stderr)]

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use weft_parse::frontmatter::split;
use weft_parse::{ParseOptions, Profile, parse_skill_md};

/// A typical skill: ~300 bytes of frontmatter, a short body.
const TYPICAL: &str = "---
name: code-review
description: Review code changes for bugs, security issues and test coverage. Use when reviewing a diff, a branch or a pull request.
argument-hint: \"[pr-number or branch]\"
allowed-tools: Read Grep Glob Bash(git diff:*)
context: fork
agent: explore
metadata:
  author: weft
  version: \"1.2\"
---

# Review

Review $ARGUMENTS:

1. Get the diff
2. Analyze for bugs, security issues, performance
3. Summarize findings with file/line references
";

fn corpus_files() -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.eq_ignore_ascii_case("skill.md"))
                && let Ok(bytes) = std::fs::read(&path)
            {
                out.push((path, bytes));
            }
        }
    }
    let mut out = Vec::new();
    walk(&weft_testkit::Corpus::largest().dir, &mut out);
    out
}

fn parse_one(c: &mut Criterion) {
    let path = Path::new("skills/code-review/SKILL.md");
    let load = ParseOptions::new(Profile::Load);
    let validate = ParseOptions::new(Profile::Validate);
    let mut group = c.benchmark_group("parse");
    group.throughput(Throughput::Bytes(TYPICAL.len() as u64));
    group.bench_function("typical_skill_md/load", |b| {
        b.iter(|| parse_skill_md(black_box(TYPICAL.as_bytes()), path, &load))
    });
    group.bench_function("typical_skill_md/validate", |b| {
        b.iter(|| parse_skill_md(black_box(TYPICAL.as_bytes()), path, &validate))
    });
    group.bench_function("split_frontmatter", |b| {
        b.iter(|| split(black_box(TYPICAL)))
    });
    group.finish();
}

fn validate_corpus(c: &mut Criterion) {
    let files = corpus_files();
    let options = ParseOptions::new(Profile::Validate);
    let bytes: u64 = files.iter().map(|(_, b)| b.len() as u64).sum();
    let mut group = c.benchmark_group("corpus");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes));
    group.bench_function(format!("validate_{}_files_one_thread", files.len()), |b| {
        b.iter(|| {
            files
                .iter()
                .filter(|(path, bytes)| parse_skill_md(bytes, path, &options).is_valid())
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, parse_one, validate_corpus);
criterion_main!(benches);
