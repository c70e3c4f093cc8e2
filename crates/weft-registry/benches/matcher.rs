//! Trigger-matching benchmarks: ranking a request against 10,000 skills (synthetic, and the
//! real-world corpus `../shared/corpus` repeated to about 10,000), and building the index.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stderr)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use weft_parse::ParseOptions;
use weft_registry::matcher::TriggerMatcher;
use weft_registry::{WalkOptions, read_skill, walk};
use weft_types::{Scope, Skill};

/// Requests of the kind the REPL sees.
const QUERIES: &[&str] = &[
    "please review my pull request diff",
    "extract the text of this pdf and fill the form",
    "deploy the api service to production",
    "what's the weather in Paris",
];

/// 10,000 skills over a 5,000-word vocabulary drawn with a skewed distribution, so that
/// common words have long postings (a few thousand skills) as in real descriptions.
fn synthetic(count: usize) -> Vec<Skill> {
    const SYLLABLES: &[&str] = &[
        "re", "view", "de", "ploy", "pdf", "ex", "tract", "text", "git", "com", "mit", "test",
        "data", "base", "api", "ser", "vice", "pro", "duc", "tion", "form", "file", "code", "lint",
        "doc", "build", "run", "cloud", "cost", "note",
    ];
    let word = |i: usize| {
        let n = SYLLABLES.len();
        format!(
            "{}{}{}",
            SYLLABLES[i % n],
            SYLLABLES[(i / n) % n],
            if i >= n * n { "s" } else { "" }
        )
    };
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut pick = move || word((5000.0 * next().powi(3)) as usize);
    (0..count)
        .map(|i| {
            let name = format!("{}-{}-{i}", pick(), pick());
            let words: Vec<String> = (0..30).map(|_| pick()).collect();
            let mut skill = Skill::in_memory(name, words.join(" "), Scope::User);
            skill.keywords = (0..2).map(|_| pick()).collect();
            skill
        })
        .collect()
}

/// The largest corpus present, repeated (with distinct names) up to `count` skills.
fn corpus(count: usize) -> Vec<Skill> {
    let dir = weft_testkit::Corpus::largest().dir;
    let options = ParseOptions::default();
    let base: Vec<Skill> = walk(&dir, WalkOptions::VALIDATE)
        .skills
        .iter()
        .filter_map(|s| read_skill(s, &options).skill)
        .collect();
    if base.is_empty() {
        return base;
    }
    (0..count)
        .map(|i| {
            let mut skill = base[i % base.len()].clone();
            skill.name = format!("{}-{}", skill.name, i / base.len());
            skill
        })
        .collect()
}

fn rank(c: &mut Criterion) {
    let mut group = c.benchmark_group("matcher");
    let synthetic = synthetic(10_000);
    let m = TriggerMatcher::new(&synthetic);
    group.bench_function("rank_10000_synthetic", |b| {
        b.iter(|| {
            for q in QUERIES {
                black_box(m.rank(black_box(q)));
            }
        })
    });
    let common = "reviewview dedoc codecode apiapi";
    let hits = m.rank(common).len();
    group.bench_function(format!("rank_10000_synthetic_common_{hits}_hits"), |b| {
        b.iter(|| black_box(m.rank(black_box(common))))
    });
    group.bench_function("best_10000_synthetic", |b| {
        b.iter(|| {
            for q in QUERIES {
                black_box(m.best(black_box(q)));
            }
        })
    });

    let real = corpus(10_000);
    let m = TriggerMatcher::new(&real);
    group.bench_function("rank_10000_corpus", |b| {
        b.iter(|| {
            for q in QUERIES {
                black_box(m.rank(black_box(q)));
            }
        })
    });
    group.bench_function("best_10000_corpus", |b| {
        b.iter(|| {
            for q in QUERIES {
                black_box(m.best(black_box(q)));
            }
        })
    });

    group.sample_size(10);
    group.bench_function("build_10000_synthetic", |b| {
        b.iter(|| TriggerMatcher::new(black_box(&synthetic)))
    });
    group.finish();
}

criterion_group!(benches, rank);
criterion_main!(benches);
