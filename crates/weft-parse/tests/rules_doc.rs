//! `docs/DIAGNOSTICS.md` is generated from the rule catalog, so the two cannot drift.
//! After changing a rule, regenerate it with:
//!
//! ```text
//! WEFT_UPDATE_DOCS=1 cargo test -p weft-parse --test all rules_doc
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;
use std::path::PathBuf;

use weft_parse::{Level, Profile, Rule};

fn level(rule: Rule, profile: Profile) -> &'static str {
    match rule.level(profile) {
        Level::Off => "–",
        Level::Warn => "warning",
        Level::Error => "error",
    }
}

fn render() -> String {
    let mut out = String::from(
        "# Diagnostics\n\n\
         Every problem weft reports about a skill or agent file has a code: the rule number with\n\
         `E` (error) or `W` (warning) in front, depending on how seriously the active profile takes\n\
         the rule. `load` is what the agent does when it loads skills (errors exclude the file,\n\
         warnings never do); `validate` is `weft skills validate`; `strict` adds `--strict`;\n\
         `spec` is `--profile spec` (the open Agent Skills spec with the reference validator's\n\
         wording). `–` means the rule is not reported under that profile.\n\n\
         This file is generated from `crates/weft-parse/src/rules.rs` by\n\
         `WEFT_UPDATE_DOCS=1 cargo test -p weft-parse --test all rules_doc`.\n\n\
         | rule | summary | load | validate | strict | spec |\n\
         |---|---|---|---|---|---|\n",
    );
    for &rule in Rule::ALL {
        let _ = writeln!(
            out,
            "| {:03} | {} | {} | {} | {} | {} |",
            rule.number(),
            rule.summary().replace('|', "\\|"),
            level(rule, Profile::Load),
            level(rule, Profile::Validate),
            level(rule, Profile::Strict),
            level(rule, Profile::Spec),
        );
    }
    out
}

#[test]
// WEFT_UPDATE_DOCS=1 regenerates the document instead of comparing it.
#[allow(clippy::disallowed_methods)]
fn diagnostics_doc_matches_the_catalog() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/DIAGNOSTICS.md");
    let expected = render();
    if std::env::var_os("WEFT_UPDATE_DOCS").is_some() {
        std::fs::write(&path, &expected).unwrap();
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/DIAGNOSTICS.md is out of date; run `WEFT_UPDATE_DOCS=1 cargo test -p weft-parse --test all rules_doc`"
    );
}
