//! Catalog benchmarks over 10,000 synthetic skills: the pure fitting step at the budget that
//! forces dropping (every stage is tried) and at one that lands in the description-limit
//! search, and the whole `render_catalog` (sort, measure, fit, render) in both formats.
//! DESIGN 11: catalog fit for 10,000 skills < 5 ms.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use weft_registry::catalog::{
    CatalogEntry, CatalogFormat, DEFAULT_BUDGET_CHARS, DescriptionCost, EntryCost, drop_order, fit,
    render_catalog,
};
use weft_types::Scope;

const N: usize = 10_000;

const WORDS: &[&str] = &[
    "review", "code", "changes", "deploy", "the", "branch", "to", "staging", "when", "asked",
    "about", "PDFs", "forms", "tables", "use", "this", "skill", "for", "git", "commits", "release",
    "notes", "<tags>", "&", "café", "résumé",
];

/// Deterministic skills: names `skill-00042-word`, descriptions of 60 to 420 characters.
fn skills() -> Vec<(String, String, PathBuf, Scope)> {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..N)
        .map(|i| {
            let name = format!("skill-{i:05}-{}", WORDS[(next() % 10) as usize]);
            let target = 60 + (next() % 360) as usize;
            let mut description = String::from("Use when");
            while description.len() < target {
                description.push(' ');
                description.push_str(WORDS[(next() as usize) % WORDS.len()]);
            }
            let location = PathBuf::from(format!("/home/user/.agents/skills/{name}/SKILL.md"));
            let scope = Scope::ALL[(next() % 5) as usize];
            (name, description, location, scope)
        })
        .collect()
}

fn catalog(c: &mut Criterion) {
    let skills = skills();
    let entries: Vec<CatalogEntry<'_>> = skills
        .iter()
        .map(|(name, description, location, scope)| CatalogEntry {
            name,
            description,
            location: Some(location),
            scope: *scope,
        })
        .collect();
    let costs: Vec<EntryCost> = entries
        .iter()
        .map(|e| {
            let name = e.name.chars().count();
            EntryCost {
                names_only: name + 3,
                with_description: name + 5,
                description: DescriptionCost::measure(
                    e.description.split_whitespace().flat_map(str::chars),
                    |_| 0,
                ),
                note_name: name,
            }
        })
        .collect();
    let order = drop_order(&entries);
    // Between limit 32 and full: the binary search decides.
    let shorten_budget = 200
        + costs
            .iter()
            .map(|c| c.with_description + 100)
            .sum::<usize>();

    let mut group = c.benchmark_group("catalog");
    group.bench_function("fit_10000", |b| {
        b.iter(|| {
            fit(
                black_box(&costs),
                200,
                || &order,
                black_box(DEFAULT_BUDGET_CHARS),
            )
        });
    });
    group.bench_function("fit_10000_shorten", |b| {
        b.iter(|| fit(black_box(&costs), 200, || &order, black_box(shorten_budget)));
    });
    group.bench_function("render_10000_weft", |b| {
        b.iter(|| {
            render_catalog(
                black_box(&entries),
                CatalogFormat::Weft,
                DEFAULT_BUDGET_CHARS,
            )
        });
    });
    group.bench_function("render_10000_xml", |b| {
        b.iter(|| {
            render_catalog(
                black_box(&entries),
                CatalogFormat::Xml,
                DEFAULT_BUDGET_CHARS,
            )
        });
    });
    group.finish();
}

criterion_group!(benches, catalog);
criterion_main!(benches);
