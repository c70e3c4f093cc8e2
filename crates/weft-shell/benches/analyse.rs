//! Analyser benchmark: a ~200-character compound command of the usual shape (the same command
//! `check/scoped_bash_compound_200` of weft-permissions sends through a gate).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use weft_shell::{ShellContext, analyse_command};

/// A 200-character compound command: `cd`, pipelines of git and filters, `&&`, `||`,
/// redirections, a command substitution.
const COMPOUND: &str = "cd crates/weft && git log --oneline -n 20 | grep -v fixup | head -5; cargo test -p weft-permissions 2>&1 | tail -20 && git diff --stat HEAD~1 -- src/ | sort -r > /dev/null || echo \"failed: $(date)\"";

fn shell_analysis(c: &mut Criterion) {
    assert!((190..=210).contains(&COMPOUND.len()), "{}", COMPOUND.len());
    let ctx = ShellContext::new().with_project_root("/work/proj");
    let analysis = analyse_command(COMPOUND, &ctx);
    assert_eq!(analysis.commands().len(), 10, "{analysis:?}");
    assert!(
        analysis.is_fully_analysed() && analysis.risks().is_empty(),
        "{analysis:?}"
    );
    c.bench_function("analyse/compound_200", |b| {
        b.iter(|| analyse_command(black_box(COMPOUND), &ctx))
    });
}

criterion_group!(benches, shell_analysis);
criterion_main!(benches);
