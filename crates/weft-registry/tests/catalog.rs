//! The skill catalog: exact weft output at every fitting stage, the report, and byte-for-byte
//! parity of the XML renderer with skills-ref 0.1.1's `to-prompt` (outputs recorded in
//! `tests/data/catalog/`, see the `README.md` there).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use weft_parse::{ParseOptions, parse_skill_md};
use weft_registry::catalog::{
    CatalogEntry, CatalogFormat, DEFAULT_BUDGET_CHARS, budget_for, drop_order, render_catalog,
};
use weft_types::Scope;

const HEADER: &str = "## Skills\n\nSkills are instructions for specific tasks. When a task matches a skill's description, call the use_skill tool with the skill's name before starting; its instructions come back as the tool result.\n\n";

/// The header's length plus `n`: budgets are written as what the list may use.
fn h(n: usize) -> usize {
    HEADER.chars().count() + n
}

fn e<'a>(name: &'a str, description: &'a str) -> CatalogEntry<'a> {
    CatalogEntry {
        name,
        description,
        location: None,
        scope: Scope::User,
    }
}

fn es<'a>(name: &'a str, description: &'a str, scope: Scope) -> CatalogEntry<'a> {
    CatalogEntry {
        scope,
        ..e(name, description)
    }
}

fn weft(entries: &[CatalogEntry<'_>], budget: usize) -> weft_registry::catalog::Catalog {
    let catalog = render_catalog(entries, CatalogFormat::Weft, budget);
    assert_eq!(catalog.report.used, catalog.text.chars().count());
    assert!(catalog.report.used <= budget);
    assert_eq!(
        catalog.report.listed + catalog.report.dropped.len(),
        entries.len()
    );
    catalog
}

/// The four skills of the shortening tests: descriptions of 38, 34, 76 and 15 characters.
fn four() -> Vec<CatalogEntry<'static>> {
    vec![
        e(
            "deploy",
            "Deploy the current branch to the staging environment and run the smoke tests",
        ),
        e("lint", "Run the linters"),
        e("commit", "Use when committing changes to git"),
        e("code-review", "Use when reviewing code changes or PRs"),
    ]
}

// ---- budget ------------------------------------------------------------------------------

#[test]
fn budget_from_the_context_window() {
    assert_eq!(budget_for(Some(200_000)), 16_000);
    assert_eq!(budget_for(None), 16_000);
    assert_eq!(budget_for(None), DEFAULT_BUDGET_CHARS);
    assert_eq!(budget_for(Some(1_000_000)), 80_000);
    assert_eq!(budget_for(Some(0)), DEFAULT_BUDGET_CHARS);
    assert_eq!(budget_for(Some(100)), 8);
    assert!(budget_for(Some(u64::MAX)) > 0);
}

// ---- weft format -------------------------------------------------------------------------

#[test]
fn weft_everything_fits() {
    let entries = [
        e("commit", "Use when committing changes to git"),
        e("code-review", "Use when reviewing code changes or PRs"),
    ];
    let catalog = weft(&entries, 16_000);
    assert_eq!(
        catalog.text,
        "## Skills\n\
         \n\
         Skills are instructions for specific tasks. When a task matches a skill's description, call the use_skill tool with the skill's name before starting; its instructions come back as the tool result.\n\
         \n\
         - code-review: Use when reviewing code changes or PRs\n\
         - commit: Use when committing changes to git\n"
    );
    let r = &catalog.report;
    assert_eq!(r.budget, 16_000);
    assert_eq!(r.used, h(54 + 45));
    assert_eq!(r.listed, 2);
    assert!(r.is_complete());
    assert!(r.shortened.is_empty() && r.dropped.is_empty() && !r.names_only);
    assert_eq!(r.description_limit, None);
    assert!(r.summary().is_empty());
    // Exactly the length fits too.
    assert_eq!(weft(&entries, h(99)).text, catalog.text);
}

#[test]
fn weft_is_sorted_whatever_the_input_order() {
    let mut entries = four();
    let first = weft(&entries, 16_000).text;
    assert!(first.contains("- code-review: Use when reviewing code changes or PRs\n- commit: Use when committing changes to git\n- deploy: Deploy the current branch to the staging environment and run the smoke tests\n- lint: Run the linters\n"));
    entries.reverse();
    assert_eq!(weft(&entries, 16_000).text, first);
    entries.swap(0, 2);
    assert_eq!(weft(&entries, 16_000).text, first);
}

#[test]
fn weft_same_name_sorted_by_location() {
    let (a, b) = (Path::new("/a/x/SKILL.md"), Path::new("/b/x/SKILL.md"));
    let entries = [
        CatalogEntry {
            location: Some(b),
            ..e("x", "second")
        },
        CatalogEntry {
            location: Some(a),
            ..e("x", "first")
        },
    ];
    assert_eq!(
        weft(&entries, 16_000).text,
        format!("{HEADER}- x: first\n- x: second\n")
    );
}

#[test]
fn weft_collapses_whitespace() {
    let entries = [
        e(
            "multi",
            "  First line.\n  Second\tline;\n\n  after a blank line.\n",
        ),
        e("blank", " \n "),
    ];
    let catalog = weft(&entries, 16_000);
    assert_eq!(
        catalog.text,
        format!("{HEADER}- blank\n- multi: First line. Second line; after a blank line.\n")
    );
    assert!(catalog.report.is_complete());
}

#[test]
fn weft_shortens_every_description_evenly() {
    // Full: 54 + 45 + 87 + 24 = 210. Limit 37 would need 170; limit 36 needs 168.
    let entries = four();
    let expected = format!(
        "{HEADER}\
         - code-review: Use when reviewing code changes or …\n\
         - commit: Use when committing changes to git\n\
         - deploy: Deploy the current branch to the st…\n\
         - lint: Run the linters\n"
    );
    for budget in [h(168), h(169)] {
        let catalog = weft(&entries, budget);
        assert_eq!(catalog.text, expected, "budget {budget}");
        let r = &catalog.report;
        assert_eq!(r.used, h(168));
        assert_eq!(r.listed, 4);
        assert_eq!(r.shortened, ["code-review", "deploy"]);
        assert_eq!(r.description_limit, Some(36));
        assert!(!r.names_only);
        assert!(r.dropped.is_empty());
        assert!(!r.is_complete());
        assert_eq!(
            r.summary(),
            [format!(
                "2 skill descriptions shortened to 36 chars (budget {budget} chars): code-review, deploy"
            )]
        );
    }
    // One more character: limit 37, code-review keeps one more character.
    let catalog = weft(&entries, h(170));
    assert!(
        catalog
            .text
            .contains("- code-review: Use when reviewing code changes or P…\n")
    );
    assert!(
        catalog
            .text
            .contains("- deploy: Deploy the current branch to the sta…\n")
    );
    assert_eq!(catalog.report.description_limit, Some(37));
    // One less than everything: limit 75, only deploy is cut.
    let catalog = weft(&entries, h(209));
    assert_eq!(catalog.report.shortened, ["deploy"]);
    assert_eq!(catalog.report.description_limit, Some(75));
    assert!(catalog.text.contains(
        "- deploy: Deploy the current branch to the staging environment and run the smoke tes…\n"
    ));
    assert!(weft(&entries, h(210)).report.is_complete());
}

#[test]
fn weft_names_only() {
    // Limit 32 needs 48 + 43 + 43 + 24 = 158; names only 14 + 9 + 9 + 7 = 39.
    let entries = four();
    let expected = format!("{HEADER}- code-review\n- commit\n- deploy\n- lint\n");
    for budget in [h(39), h(100), h(157)] {
        let catalog = weft(&entries, budget);
        assert_eq!(catalog.text, expected);
        let r = &catalog.report;
        assert!(r.names_only);
        assert_eq!(r.listed, 4);
        assert!(r.shortened.is_empty());
        assert_eq!(r.description_limit, None);
        assert!(r.dropped.is_empty());
        assert_eq!(
            r.summary(),
            [format!(
                "skill catalog lists names only, without descriptions (budget {budget} chars)"
            )]
        );
    }
    let catalog = weft(&entries, h(158));
    assert!(!catalog.report.names_only);
    assert_eq!(catalog.report.description_limit, Some(32));
    assert!(
        catalog
            .text
            .contains("- commit: Use when committing changes to …\n")
    );
}

/// Skills from every scope; names long enough that dropping a few pays for the note.
fn scoped() -> Vec<CatalogEntry<'static>> {
    vec![
        es(
            "project-skill-that-reviews-pull-requests",
            "d",
            Scope::Project,
        ),
        es(
            "builtin-skill-that-writes-release-notes",
            "d",
            Scope::Builtin,
        ),
        es("user-skill-that-formats-commit-messages", "d", Scope::User),
        es("plugin-skill-that-deploys-to-staging", "d", Scope::Plugin),
        es("builtin-skill-that-bumps-the-version", "d", Scope::Builtin),
        es(
            "workspace-skill-that-runs-the-linters",
            "d",
            Scope::Workspace,
        ),
        es(
            "project-skill-that-audits-dependencies",
            "d",
            Scope::Project,
        ),
    ]
}

#[test]
fn drop_order_is_lowest_precedence_first() {
    let entries = scoped();
    let names: Vec<&str> = drop_order(&entries)
        .into_iter()
        .map(|i| entries[i].name)
        .collect();
    assert_eq!(
        names,
        [
            "builtin-skill-that-writes-release-notes",
            "builtin-skill-that-bumps-the-version",
            "plugin-skill-that-deploys-to-staging",
            "workspace-skill-that-runs-the-linters",
            "user-skill-that-formats-commit-messages",
            "project-skill-that-reviews-pull-requests",
            "project-skill-that-audits-dependencies",
        ]
    );
}

#[test]
fn weft_drops_lowest_precedence_first() {
    let entries = scoped();
    // Names-only lines: 43 + 42 + 42 + 39 + 39 + 40 + 41 = 286 characters.
    let lines = |names: &[&str]| -> usize { names.iter().map(|n| n.len() + 3).sum() };
    let all: Vec<&str> = entries.iter().map(|e| e.name).collect();
    assert_eq!(lines(&all), 286);
    let names_only = weft(&entries, h(286));
    assert!(names_only.report.names_only);
    assert!(names_only.report.dropped.is_empty());

    // 285: dropping the two built-ins (81 characters) pays for the 79-character note.
    let note2 = "(2 more skills are not listed to fit the budget; use_skill still accepts them)";
    assert_eq!(note2.len(), 78);
    let catalog = weft(&entries, h(285));
    assert_eq!(
        catalog.text,
        format!(
            "{HEADER}\
             - plugin-skill-that-deploys-to-staging\n\
             - project-skill-that-audits-dependencies\n\
             - project-skill-that-reviews-pull-requests\n\
             - user-skill-that-formats-commit-messages\n\
             - workspace-skill-that-runs-the-linters\n\
             {note2}\n"
        )
    );
    let r = &catalog.report;
    assert_eq!(r.used, h(286 - 81 + 79));
    assert_eq!(r.listed, 5);
    assert!(r.names_only);
    assert_eq!(
        r.dropped,
        [
            "builtin-skill-that-writes-release-notes",
            "builtin-skill-that-bumps-the-version"
        ]
    );
    assert_eq!(
        r.summary(),
        [
            format!(
                "skill catalog lists names only, without descriptions (budget {} chars)",
                h(285)
            ),
            format!(
                "2 skills not listed (budget {} chars): builtin-skill-that-writes-release-notes, builtin-skill-that-bumps-the-version",
                h(285)
            ),
        ]
    );
    // 283 is one short of that: the plugin skill goes too.
    let catalog = weft(&entries, h(283));
    assert_eq!(catalog.report.listed, 4);
    assert_eq!(
        catalog.report.dropped[2],
        "plugin-skill-that-deploys-to-staging"
    );
    assert!(catalog.text.ends_with(
        "- workspace-skill-that-runs-the-linters\n(3 more skills are not listed to fit the budget; use_skill still accepts them)\n"
    ));
}

#[test]
fn weft_everything_dropped_leaves_header_and_count() {
    let entries = scoped();
    let note = "(7 skills are not listed to fit the budget; use_skill still accepts them)";
    let catalog = weft(&entries, h(note.len() + 1));
    assert_eq!(catalog.text, format!("{HEADER}{note}\n"));
    assert_eq!(catalog.report.listed, 0);
    assert_eq!(catalog.report.dropped.len(), 7);
    assert!(!catalog.report.names_only);
    // One less: nothing at all.
    let catalog = weft(&entries, h(note.len()));
    assert_eq!(catalog.text, "");
    assert_eq!(catalog.report.used, 0);
    assert_eq!(catalog.report.dropped.len(), 7);
}

#[test]
fn weft_zero_entries_render_nothing() {
    for budget in [0, 16_000] {
        let catalog = weft(&[], budget);
        assert_eq!(catalog.text, "");
        let r = &catalog.report;
        assert_eq!((r.budget, r.used, r.listed), (budget, 0, 0));
        assert!(r.is_complete());
        assert!(r.summary().is_empty());
    }
}

#[test]
fn weft_budget_zero_drops_everything() {
    let entries = four();
    let catalog = weft(&entries, 0);
    assert_eq!(catalog.text, "");
    let r = &catalog.report;
    assert_eq!((r.used, r.listed), (0, 0));
    assert_eq!(r.dropped, ["lint", "deploy", "commit", "code-review"]);
    assert!(!r.is_complete());
    assert_eq!(
        r.summary(),
        ["4 skills not listed (budget 0 chars): lint, deploy, commit, code-review"]
    );
}

#[test]
fn weft_cuts_unicode_at_char_boundaries() {
    // 46 characters, many of them several bytes long.
    let unicode = "Café ☕ naïve résumé 日本語のテキスト 🚀🚀🚀 emoji ünïcödé";
    assert_eq!(unicode.chars().count(), 46);
    let x60 = "x".repeat(60);
    let entries = [e("unicode", unicode), e("ascii", &x60)];
    // Lines of `12 + L` and `10 + L` characters: full 128; limit 35: 92.
    let catalog = weft(&entries, h(92));
    assert_eq!(
        catalog.text,
        format!(
            "{HEADER}- ascii: {}…\n- unicode: Café ☕ naïve résumé 日本語のテキスト 🚀🚀🚀 e…\n",
            "x".repeat(34)
        )
    );
    assert_eq!(catalog.report.description_limit, Some(35));
    // Every limit from 32 to 45 cuts cleanly and keeps exactly limit - 1 characters.
    for limit in 32..46 {
        let budget = h(22 + 2 * limit);
        let catalog = weft(&entries, budget);
        assert_eq!(catalog.report.description_limit, Some(limit));
        let line = catalog
            .text
            .lines()
            .find(|l| l.starts_with("- unicode: "))
            .unwrap();
        let description = line.strip_prefix("- unicode: ").unwrap();
        assert_eq!(description.chars().count(), limit);
        assert!(description.ends_with('…'));
        let kept: String = unicode.chars().take(limit - 1).collect();
        assert_eq!(description.strip_suffix('…').unwrap(), kept);
    }
}

#[test]
fn descriptions_are_capped_at_1024_chars() {
    let long = "é".repeat(1500);
    let exact = "a".repeat(1024);
    let entries = [e("long", &long), e("exact", &exact)];
    let catalog = weft(&entries, 16_000);
    assert_eq!(
        catalog.text,
        format!("{HEADER}- exact: {exact}\n- long: {}…\n", "é".repeat(1023))
    );
    let r = &catalog.report;
    assert_eq!(r.shortened, ["long"]);
    assert_eq!(r.description_limit, Some(1024));
    assert!(!r.is_complete());
    assert_eq!(
        r.summary(),
        ["1 skill description shortened to 1024 chars (budget 16000 chars): long"]
    );
}

#[test]
fn summary_spells_out_at_most_20_names() {
    let names: Vec<String> = (0..25).map(|i| format!("s{i:02}")).collect();
    let entries: Vec<CatalogEntry<'_>> = names.iter().map(|n| e(n, "d")).collect();
    let catalog = weft(&entries, 0);
    let summary = catalog.report.summary();
    assert_eq!(summary.len(), 1);
    assert_eq!(
        summary[0],
        format!(
            "25 skills not listed (budget 0 chars): {} and 5 more",
            (0..20)
                .rev()
                .map(|i| format!("s{:02}", i + 5))
                .collect::<Vec<_>>()
                .join(", ")
        )
    );
}

/// Every budget from 0 to past the full length: never over budget, listing and description
/// length never shrink as the budget grows, and the length is what was counted.
#[test]
fn every_budget_is_respected_in_both_formats() {
    let loc = PathBuf::from("/skills/a&b/SKILL.md");
    let mut entries = four();
    entries.push(CatalogEntry {
        location: Some(&loc),
        scope: Scope::Builtin,
        ..e(
            "escapes",
            "It's a \"quoted\" <b>& tag, café ☕, and then some more words\nover lines",
        )
    });
    entries.push(es(
        "z-unicode",
        "日本語のテキスト 🚀 and more text to cut here",
        Scope::Plugin,
    ));
    for format in [CatalogFormat::Weft, CatalogFormat::Xml] {
        let full = render_catalog(&entries, format, usize::MAX);
        assert!(full.report.is_complete());
        let mut last = (0, 0);
        for budget in 0..=full.report.used + 2 {
            let c = render_catalog(&entries, format, budget);
            let r = &c.report;
            assert!(r.used <= budget, "{format:?} {budget}");
            assert_eq!(r.used, c.text.chars().count());
            assert_eq!(r.listed + r.dropped.len(), entries.len());
            let detail = if r.names_only || r.listed == 0 {
                0
            } else {
                r.description_limit.unwrap_or(usize::MAX)
            };
            assert!(
                (r.listed, detail) >= last,
                "{format:?} {budget}: {last:?} then {:?}",
                (r.listed, detail)
            );
            last = (r.listed, detail);
        }
        assert_eq!(
            render_catalog(&entries, format, full.report.used).text,
            full.text
        );
    }
}

// ---- XML format: fitting -----------------------------------------------------------------

#[test]
fn xml_shortens_names_only_and_drops() {
    let loc = PathBuf::from("/s/esc/SKILL.md");
    let builtin = PathBuf::from("/usr/share/weft/builtin-skills/other/SKILL.md");
    let entries = [
        CatalogEntry {
            location: Some(&loc),
            ..e(
                "esc",
                "A <b> & \"c\" description that is long enough to be cut somewhere",
            )
        },
        CatalogEntry {
            location: Some(&builtin),
            ..es("other", "Short one", Scope::Builtin)
        },
    ];
    let full = render_catalog(&entries, CatalogFormat::Xml, 10_000);
    assert_eq!(
        full.text,
        "<available_skills>\n<skill>\n<name>\nesc\n</name>\n<description>\nA &lt;b&gt; &amp; &quot;c&quot; description that is long enough to be cut somewhere\n</description>\n<location>\n/s/esc/SKILL.md\n</location>\n</skill>\n<skill>\n<name>\nother\n</name>\n<description>\nShort one\n</description>\n<location>\n/usr/share/weft/builtin-skills/other/SKILL.md\n</location>\n</skill>\n</available_skills>"
    );
    let len = full.report.used;
    // The description has 63 characters, 83 escaped. One less than everything: limit 62.
    let cut = render_catalog(&entries, CatalogFormat::Xml, len - 1);
    assert_eq!(cut.report.description_limit, Some(62));
    assert_eq!(cut.report.shortened, ["esc"]);
    assert!(cut.text.contains("be cut somewhe…\n"));
    // Limit 32 keeps 31 characters, 51 escaped, and `…`: 31 less than in full.
    let catalog = render_catalog(&entries, CatalogFormat::Xml, len - 31);
    assert_eq!(catalog.report.description_limit, Some(32));
    assert_eq!(catalog.report.used, len - 31);
    assert!(catalog.text.contains(
        "<description>\nA &lt;b&gt; &amp; &quot;c&quot; description that is…\n</description>\n"
    ));
    // Names only: empty description elements.
    let names_only = render_catalog(&entries, CatalogFormat::Xml, len - 32);
    assert!(names_only.report.names_only);
    assert_eq!(
        names_only.text,
        "<available_skills>\n<skill>\n<name>\nesc\n</name>\n<description>\n</description>\n<location>\n/s/esc/SKILL.md\n</location>\n</skill>\n<skill>\n<name>\nother\n</name>\n<description>\n</description>\n<location>\n/usr/share/weft/builtin-skills/other/SKILL.md\n</location>\n</skill>\n</available_skills>"
    );
    assert_eq!(names_only.report.used, len - 94);
    // Dropping: `other` (built-in) goes first; its entry is longer than the note naming it.
    let with_note = "<available_skills>\n<skill>\n<name>\nesc\n</name>\n<description>\n</description>\n<location>\n/s/esc/SKILL.md\n</location>\n</skill>\n</available_skills>\n(1 more skill is not listed to fit the budget; use_skill still accepts it: other)";
    let dropped = render_catalog(&entries, CatalogFormat::Xml, with_note.chars().count());
    assert_eq!(dropped.text, with_note);
    assert_eq!(dropped.report.dropped, ["other"]);
    assert_eq!(dropped.report.listed, 1);
    // Budget 0: nothing.
    let none = render_catalog(&entries, CatalogFormat::Xml, 0);
    assert_eq!(none.text, "");
    assert_eq!(none.report.dropped, ["other", "esc"]);
}

// ---- XML format: parity with skills-ref 0.1.1 --------------------------------------------

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/catalog")
}

/// The skills directory, resolved like skills-ref's `Path.resolve()`.
fn skills_dir() -> PathBuf {
    std::fs::canonicalize(data().join("skills")).unwrap()
}

/// A recorded `to-prompt` output with `{DATA}` replaced by the skills directory.
fn expected(file: &str) -> String {
    let text = std::fs::read_to_string(data().join(file)).unwrap();
    text.replace("{DATA}", skills_dir().to_str().unwrap())
}

/// Name, description and resolved location of each skill directory, read with `weft-parse`.
fn read_skills(dirs: &[&str]) -> Vec<(String, String, PathBuf)> {
    dirs.iter()
        .map(|dir| {
            let path = skills_dir().join(dir).join("SKILL.md");
            let bytes = std::fs::read(&path).unwrap();
            let parsed = parse_skill_md(&bytes, &path, &ParseOptions::default());
            let skill = parsed.skill.unwrap_or_else(|| {
                panic!("{dir}: {:?}", parsed.diagnostics);
            });
            (skill.name, skill.description, path)
        })
        .collect()
}

/// The CLI's output: `to_prompt` plus the newline `click.echo` adds.
fn to_prompt(dirs: &[&str]) -> String {
    let skills = read_skills(dirs);
    let entries: Vec<CatalogEntry<'_>> = skills
        .iter()
        .map(|(name, description, path)| CatalogEntry {
            name,
            description,
            location: Some(path),
            scope: Scope::Project,
        })
        .collect();
    let catalog = render_catalog(&entries, CatalogFormat::Xml, usize::MAX);
    assert!(catalog.report.is_complete());
    catalog.text + "\n"
}

#[test]
fn xml_parity_all_skills() {
    assert_eq!(
        to_prompt(&[
            "escaping",
            "code-review",
            "multi-line",
            "cafe-notes",
            "commit"
        ]),
        expected("all.xml")
    );
}

#[test]
fn xml_parity_keeps_input_order() {
    assert_eq!(
        to_prompt(&[
            "commit",
            "cafe-notes",
            "multi-line",
            "code-review",
            "escaping"
        ]),
        expected("reordered.xml")
    );
}

#[test]
fn xml_parity_single_skill() {
    assert_eq!(to_prompt(&["code-review"]), expected("single.xml"));
}

#[test]
fn xml_parity_no_skills() {
    assert_eq!(to_prompt(&[]), expected("empty.xml"));
    assert_eq!(
        render_catalog(&[], CatalogFormat::Xml, 16_000).text,
        "<available_skills>\n</available_skills>"
    );
}

/// CONFORMANCE H03: the location is escaped, unlike skills-ref (whose output for `a&b` is
/// not well-formed XML); everything else is the same. `weft-parse` refuses the directory name
/// (E107), so the entry is written out here as skills-ref reads it.
#[test]
fn xml_escapes_the_location_unlike_skills_ref() {
    let recorded = expected("ampersand-location.xml");
    assert!(recorded.contains("/a&b/SKILL.md\n"));
    let path = skills_dir().join("a&b/SKILL.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let description = "Lives in a directory whose name contains an ampersand";
    assert!(text.contains(&format!("description: {description}\n")));
    let entries = [CatalogEntry {
        name: "a-and-b",
        description,
        location: Some(&path),
        scope: Scope::Project,
    }];
    let catalog = render_catalog(&entries, CatalogFormat::Xml, usize::MAX);
    assert_eq!(
        catalog.text + "\n",
        recorded.replace("/a&b/SKILL.md", "/a&amp;b/SKILL.md")
    );
}

/// `tests/data/catalog/listing`, resolved.
fn listing_dir() -> PathBuf {
    std::fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/catalog/listing"))
        .unwrap()
}

/// A registry of one root, without the built-in skills.
fn registry_of(root: &Path) -> weft_registry::SkillRegistry {
    let mut config =
        weft_registry::RegistryConfig::with_roots(vec![weft_registry::SkillRoot::new(
            root,
            Scope::Plugin,
        )]);
    config.builtins = false;
    weft_registry::SkillRegistry::new(config)
}

#[test]
fn reference_catalog_lists_every_skill_as_to_prompt_does() {
    let dir = listing_dir();
    let expected = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/catalog/listing.xml"),
    )
    .unwrap()
    .replace("{LISTING}", dir.to_str().unwrap());
    let snapshot = registry_of(&dir).snapshot();
    let listing = snapshot.reference_catalog(usize::MAX);
    assert_eq!(listing.text + "\n", expected);
    assert!(listing.report.shortened.is_empty() && listing.report.dropped.is_empty());
    // The model's catalog leaves out what it may not invoke and what waits for a file.
    let offered = snapshot.catalog(CatalogFormat::Xml, usize::MAX).text;
    assert!(!offered.contains("<name>\nuser-only\n</name>"));
    assert!(!offered.contains("<name>\nconditional\n</name>"));
    assert_eq!(offered.matches("<skill>").count(), 30);
}
