//! Rendering benchmarks: a typical skill body, the append rule, and argument splitting.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use weft_template::{render, split_args};
use weft_types::InvocationContext;

/// A realistic skill body (~1.5 KB) with `$ARGUMENTS`, `${0}`, bare `$1` and a code fence.
const TYPICAL: &str = r#"# Component migration

You are migrating the component ${0} from $1 to $2. The full request was: $ARGUMENTS.

## Before you start

1. Read `{baseDir}/reference/checklist.md` and follow every item in order.
2. Find every file that imports ${0}; keep a list, you will need it for the report.
3. Check the test suite for snapshot tests that render ${0} and note their paths.
4. Do not change public props unless the target framework forces it; if it does,
   write the mapping down in the migration notes (old prop → new prop, with a reason).

## Steps

Run the helper script with the component name. The script prints the files it touched,
one per line, and exits non-zero when a file could not be parsed:

```bash
#!/usr/bin/env bash
set -euo pipefail
component="$1"
for f in $(rg -l "$component" src/); do
  echo "migrating $f"
  node "${CLAUDE_SKILL_DIR}/scripts/migrate.js" --from "$2" --to "$3" "$f"
done
```

After the script finishes:

- Re-run the type checker and fix every error in files listed by the script.
- Replace lifecycle hooks with their equivalents in the target framework; `useEffect`
  cleanup functions become `onUnmounted` callbacks, and so on.
- Keep styling untouched: class names and CSS modules must survive byte for byte.
- Budget: the migration should not add more than $100 worth of CI minutes; skip the
  full browser matrix and run only the smoke suite.

## Report

Write a short report to `migrations/${SESSION_ID}.md` with the list of files, the prop
mapping, the test results and anything that needs a human decision. Mention ${0} in the
title and link the checklist you followed.
"#;

/// A body with no placeholders: the arguments are appended.
const PLAIN: &str = "# Code review\n\nReview the staged changes for correctness, readability and test coverage. \
Point out risky changes first, then style issues. Suggest concrete fixes as diffs and keep the \
review under one page. Do not rewrite code that is not part of the change.\n";

fn benches(c: &mut Criterion) {
    let ctx = InvocationContext::new(
        vec!["SearchBar".into(), "React".into(), "Vue".into()],
        "3f9c2a7e-session",
    )
    .with_skill_dir("/home/dev/.claude/skills/migrate-component");
    assert!((1_400..1_900).contains(&TYPICAL.len()), "{}", TYPICAL.len());

    c.bench_function("render/typical", |b| {
        b.iter(|| render(black_box(TYPICAL), black_box(&ctx)));
    });
    c.bench_function("render/no_placeholders", |b| {
        b.iter(|| render(black_box(PLAIN), black_box(&ctx)));
    });
    c.bench_function("split_args", |b| {
        b.iter(|| split_args(black_box(r#"SearchBar "React 18" 'Vue 3' --dry-run #412"#)));
    });
}

criterion_group!(render_benches, benches);
criterion_main!(render_benches);
