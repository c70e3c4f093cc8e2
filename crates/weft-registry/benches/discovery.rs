//! Discovery of generated skill trees (`cargo xtask fixtures`' generator): 1,000 and 10,000
//! skills, level 1 only (frontmatter), through the full registry (walk, parallel parse,
//! precedence).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use weft_registry::{RegistryConfig, SkillRegistry, SkillRoot};
use weft_types::Scope;

/// The same generator `cargo xtask fixtures` uses, so the trees are identical.
#[allow(dead_code, missing_docs, unused_imports)]
#[path = "../../../xtask/src/fixtures.rs"]
mod fixtures;

fn tree(count: usize) -> PathBuf {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("bench-skills-{count}"));
    fixtures::run(&fixtures::Options {
        count,
        out: out.clone(),
        seed: 42,
        nested: false,
        force: true,
    })
    .unwrap();
    out
}

fn discovery(c: &mut Criterion) {
    let mut group = c.benchmark_group("discovery");
    group.sample_size(20);
    for count in [1_000, 10_000] {
        let root = tree(count);
        group.bench_function(format!("{count}_skills"), |b| {
            b.iter(|| {
                let registry = SkillRegistry::new(RegistryConfig {
                    builtins: false,
                    ..RegistryConfig::with_roots(vec![SkillRoot::new(&root, Scope::User)])
                });
                assert_eq!(registry.snapshot().len(), count);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, discovery);
criterion_main!(benches);
