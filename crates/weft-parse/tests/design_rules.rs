//! DESIGN.md table 3.4 ("Validation and limits"), one test per row, plus hostile inputs
//! (10,000-deep nesting, a 10 MB file, CRLF, a byte-order mark, every prefix of a file) that
//! must end as diagnostics, never as a panic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::Path;

use common::{assert_codes, codes, describe, diag, fm, parse};
use weft_parse::{
    ParseOptions, Profile, parse_agent, parse_definition, parse_legacy, parse_skill_md,
};
use weft_types::DescriptionSource;

const ALL: [Profile; 4] = [
    Profile::Load,
    Profile::Validate,
    Profile::Strict,
    Profile::Spec,
];

fn skill_with(keys: &str) -> String {
    fm(&format!("name: s\ndescription: d\n{keys}"))
}

// --- name 1-64 chars, ASCII [a-z0-9-], no leading/trailing/double hyphen ----------------------

#[test]
fn name_rules_warn_when_loading_and_fail_validation() {
    let sixty_five = "a".repeat(65);
    let invalid = [
        "PDF",
        "pdf--x",
        "pdf x",
        "pdf.x",
        "café",
        "pdf-🚀",
        sixty_five.as_str(),
    ];
    for name in invalid {
        let text = fm(&format!("name: \"{name}\"\ndescription: d\n"));

        // Loading: warnings, and the id falls back to the (valid) directory name.
        let loaded = parse(&text, "good-dir", Profile::Load);
        let skill = loaded
            .skill
            .as_ref()
            .unwrap_or_else(|| panic!("{name:?} not loaded:\n{}", describe(&loaded.diagnostics)));
        assert_eq!(skill.name, "good-dir", "{name:?}");
        assert_eq!(skill.declared_name.as_deref(), Some(name));
        let got = codes(&loaded.diagnostics);
        assert!(
            got.contains(&"W101".to_owned()) && got.iter().all(|c| c == "W101" || c == "W103"),
            "{name:?}: {got:?}"
        );

        // Validation: an error.
        let checked = parse(&text, "good-dir", Profile::Validate);
        assert!(checked.skill.is_none(), "{name:?}");
        assert!(
            codes(&checked.diagnostics).contains(&"E101".to_owned()),
            "{name:?}"
        );

        // Directory not a valid name either: excluded when loading.
        let excluded = parse(&text, "Bad_Dir", Profile::Load);
        assert!(excluded.skill.is_none(), "{name:?}");
        assert!(
            codes(&excluded.diagnostics).contains(&"E108".to_owned()),
            "{name:?}"
        );
    }

    let sixty_four = "a".repeat(64);
    for name in ["a", "0", "a1-b2-c3", "x-y", sixty_four.as_str()] {
        for profile in ALL {
            let parsed = parse(
                fm(&format!("name: {name}\ndescription: d\n")),
                name,
                profile,
            );
            assert_codes(&parsed.diagnostics, &[]);
            assert_eq!(parsed.skill.unwrap().name, name);
        }
    }
}

/// `_` and an edge `-`: outside the spec, but Claude Code and Codex load such skills, so weft
/// loads them under the name as written (a warning), validation warns, `--strict` and the
/// spec profile reject them.
#[test]
fn names_claude_code_and_codex_load_load_with_a_warning() {
    for name in ["pdf_x", "-pdf", "pdf-", "my_skill_2"] {
        let text = fm(&format!("name: \"{name}\"\ndescription: d\n"));
        for profile in [Profile::Load, Profile::Validate] {
            let parsed = parse(&text, name, profile);
            assert_codes(&parsed.diagnostics, &["W109"]);
            assert_eq!(parsed.skill.unwrap().name, name, "{profile:?}");
        }
        let strict = parse(&text, name, Profile::Strict);
        assert!(strict.skill.is_none(), "{name:?}");
        assert_codes(&strict.diagnostics, &["E109"]);
        let spec = parse(&text, name, Profile::Spec);
        assert_codes(&spec.diagnostics, &["E101"]);
        // In a directory with a valid name, loading uses the directory's name, as for any
        // name outside the rule.
        let loaded = parse(&text, "good-dir", Profile::Load).skill.unwrap();
        assert_eq!(loaded.name, "good-dir");
        // Without a `name`, a directory called so loads by that name.
        let unnamed = parse(fm("description: d\n"), name, Profile::Load);
        assert_eq!(unnamed.skill.unwrap().name, name);
    }
    // A hard problem next to a tolerated one still keeps the name out.
    let parsed = parse(
        fm("name: My_Skill\ndescription: d\n"),
        "My_Skill",
        Profile::Load,
    );
    assert!(parsed.skill.is_none());
}

/// An agent reads its YAML as a skill does: an unquoted `: ` in a value loads with a warning,
/// and tool names weft does not know are named (with the closest ones), never dropped.
#[test]
fn agents_read_yaml_and_tool_names_as_skills_do() {
    let md = "---\nname: reviewer\ndescription: Reviews code: finds bugs\ntools: Raed, Grep, WebSearch\n---\nReview.\n";
    let parsed = parse_agent(
        md.as_bytes(),
        Path::new(".claude/agents/reviewer.md"),
        &ParseOptions::default(),
    );
    let agent = parsed
        .agent
        .as_ref()
        .unwrap_or_else(|| panic!("{}", describe(&parsed.diagnostics)));
    assert_eq!(agent.description, "Reviews code: finds bugs");
    assert_codes(&parsed.diagnostics, &["W025", "W135", "W136"]);
    assert!(
        diag(&parsed.diagnostics, "W135")
            .message
            .ends_with("did you mean `Read`?")
    );
    let skill = parse(
        fm("name: s\ndescription: Reviews code: finds bugs\n"),
        "s",
        Profile::Load,
    );
    assert_codes(&skill.diagnostics, &["W025"]);

    // YAML agent files too.
    let yaml = "name: y\ndescription: Reads: things\ntools: [read_file]\n";
    let parsed = parse_agent(
        yaml.as_bytes(),
        Path::new("agents/y.yaml"),
        &ParseOptions::default(),
    );
    assert_eq!(parsed.agent.unwrap().description, "Reads: things");

    // Nothing left to call: said so.
    let md = "---\nname: a\ndescription: d\ntools: TodoWrite, NotebookEdit\n---\n";
    let parsed = parse_agent(
        md.as_bytes(),
        Path::new("agents/a.md"),
        &ParseOptions::default(),
    );
    assert_codes(&parsed.diagnostics, &["W172", "W136", "W136"]);
}

#[test]
fn invalid_name_diagnostic_points_at_the_value() {
    let parsed = parse(
        "---\ndescription: d\nname: Bad\n---\n",
        "bad",
        Profile::Validate,
    );
    let d = diag(&parsed.diagnostics, "E101");
    assert_eq!((d.line, d.column), (Some(3), Some(7)));
    assert_eq!(d.path.as_deref(), Some(Path::new("bad/SKILL.md")));
}

// --- name contains `anthropic` or `claude` ------------------------------------------------------

#[test]
fn reserved_words_are_a_warning_and_an_error_under_strict() {
    for name in ["claude-helper", "my-anthropic-tools", "xclaudex"] {
        let text = fm(&format!("name: {name}\ndescription: d\n"));
        for profile in [Profile::Load, Profile::Validate] {
            let parsed = parse(&text, name, profile);
            assert_codes(&parsed.diagnostics, &["W102"]);
            assert_eq!(parsed.skill.unwrap().name, name);
        }
        let strict = parse(&text, name, Profile::Strict);
        assert_codes(&strict.diagnostics, &["E102"]);
        assert!(strict.skill.is_none());
    }
}

// --- name differs from directory name ---------------------------------------------------------

#[test]
fn name_differing_from_directory_is_a_warning() {
    let text = fm("name: pdf-processing\ndescription: d\n");
    for profile in [Profile::Load, Profile::Validate, Profile::Strict] {
        let parsed = parse(&text, "pdf", profile);
        assert_codes(&parsed.diagnostics, &["W103"]);
        let skill = parsed.skill.unwrap();
        assert_eq!(skill.name, "pdf-processing", "the name key wins");
    }
}

// --- skill directory name outside [A-Za-z0-9_-]+ ------------------------------------------------

#[test]
fn unsafe_directory_name_is_skipped_with_a_diagnostic() {
    let text = fm("name: ab\ndescription: d\n");
    for profile in [Profile::Load, Profile::Validate, Profile::Strict] {
        let parsed = parse(&text, "a.b", profile);
        assert_codes(&parsed.diagnostics, &["E107", "W103"]);
        assert!(parsed.skill.is_none(), "{profile:?}");
        assert!(diag(&parsed.diagnostics, "E107").message.contains("a.b"));
    }
    for dir in ["a b", "ü", "a;b", "a$b"] {
        let parsed = parse(&text, dir, Profile::Load);
        assert!(parsed.skill.is_none(), "{dir:?}");
        assert!(
            codes(&parsed.diagnostics).contains(&"E107".to_owned()),
            "{dir:?}"
        );
    }
    // Safe, though not a valid skill name: only the mismatch is reported.
    let parsed = parse(
        fm("name: my-skill\ndescription: d\n"),
        "My_Skill",
        Profile::Load,
    );
    assert_codes(&parsed.diagnostics, &["W103"]);
    assert_eq!(parsed.skill.unwrap().name, "my-skill");
}

// --- description missing and no body paragraph --------------------------------------------------

#[test]
fn description_missing_without_body_paragraph_is_an_error() {
    for body in [
        "",
        "# Only a heading\n",
        "```\ncode only\n```\n",
        "<!-- c -->\n---\n",
    ] {
        let text = format!("---\nname: s\n---\n{body}");
        for profile in ALL {
            let parsed = parse(&text, "s", profile);
            assert!(parsed.skill.is_none(), "{body:?} {profile:?}");
            assert!(
                codes(&parsed.diagnostics).contains(&"E110".to_owned()),
                "{body:?} {profile:?}:\n{}",
                describe(&parsed.diagnostics)
            );
        }
    }

    // With a paragraph it is the description, cut at 200 characters.
    let long = "é".repeat(300);
    let parsed = parse(
        format!("---\nname: s\n---\n# T\n\n{long}\n"),
        "s",
        Profile::Load,
    );
    assert_codes(&parsed.diagnostics, &[]);
    let skill = parsed.skill.unwrap();
    assert_eq!(skill.description, "é".repeat(200));
    assert_eq!(skill.description_source, DescriptionSource::FirstParagraph);
}

// --- description > 1024 chars -------------------------------------------------------------------

#[test]
fn long_description_is_a_warning_and_an_error_under_strict() {
    let text = skill_with("").replace(
        "description: d",
        &format!("description: {}", "d".repeat(1025)),
    );
    for profile in [Profile::Load, Profile::Validate] {
        let parsed = parse(&text, "s", profile);
        assert_codes(&parsed.diagnostics, &["W111"]);
        assert_eq!(parsed.skill.unwrap().description.chars().count(), 1025);
    }
    let strict = parse(&text, "s", Profile::Strict);
    assert_codes(&strict.diagnostics, &["E111"]);
    assert!(strict.skill.is_none());

    // Characters, not bytes: 1,024 four-byte characters are fine.
    let emoji = skill_with("").replace(
        "description: d",
        &format!("description: {}", "💡".repeat(1024)),
    );
    assert_codes(&parse(&emoji, "s", Profile::Strict).diagnostics, &[]);
}

// --- compatibility > 500 chars ------------------------------------------------------------------

#[test]
fn long_compatibility_is_a_warning() {
    let ok = skill_with(&format!("compatibility: {}\n", "é".repeat(500)));
    assert_codes(&parse(&ok, "s", Profile::Strict).diagnostics, &[]);

    let long = skill_with(&format!("compatibility: {}\n", "é".repeat(501)));
    for profile in [Profile::Load, Profile::Validate, Profile::Strict] {
        let parsed = parse(&long, "s", profile);
        assert_codes(&parsed.diagnostics, &["W120"]);
        assert_eq!(
            parsed
                .skill
                .unwrap()
                .compatibility
                .map(|c| c.chars().count()),
            Some(501)
        );
    }
}

// --- SKILL.md > 256 KiB -------------------------------------------------------------------------

#[test]
fn file_over_256_kib_is_an_error_and_not_parsed() {
    const LIMIT: usize = 256 * 1024;
    let head = "---\nname: s\ndescription: d\n---\n";
    let mut text = head.as_bytes().to_vec();
    text.resize(LIMIT, b'x');

    // Exactly at the limit: read (the body is then truncated to 32 KiB).
    let at_limit = parse(&text, "s", Profile::Load);
    assert_codes(&at_limit.diagnostics, &["W011"]);
    assert!(at_limit.skill.is_some());

    // One byte more: not read at all, so a bad byte past the start is never even seen.
    text.push(0xFF);
    for profile in ALL {
        let parsed = parse(&text, "s", profile);
        assert_codes(&parsed.diagnostics, &["E004"]);
        assert!(parsed.skill.is_none());
        assert!(parsed.body.is_none());
        assert_eq!(parsed.name.as_deref(), Some("s"));
    }
}

// --- body > max_skill_prompt_bytes (32 KiB) -----------------------------------------------------

#[test]
fn long_body_is_truncated_at_a_char_boundary_with_a_warning() {
    const MAX: usize = 32 * 1024;
    // "a" then four-byte characters: byte 32,768 falls inside a character.
    let body = format!("a{}", "💡".repeat(10_000));
    assert!(!body.is_char_boundary(MAX));
    let text = format!("---\nname: s\ndescription: d\n---\n{body}\n");
    for profile in [Profile::Load, Profile::Validate, Profile::Strict] {
        let parsed = parse(&text, "s", profile);
        assert_codes(&parsed.diagnostics, &["W011"]);
        assert!(parsed.skill.is_some());
        let kept = parsed.body.unwrap();
        assert_eq!(
            kept.len(),
            1 + 4 * 8191,
            "the last whole character before 32 KiB"
        );
        assert!(kept.len() <= MAX);
        assert!(body.starts_with(&kept));
        assert!(kept.ends_with('💡'));
    }

    // Two-byte characters with the limit on a boundary: exactly 32 KiB kept.
    let body = "é".repeat(20_000);
    let parsed = parse(
        format!("---\nname: s\ndescription: d\n---\n{body}"),
        "s",
        Profile::Load,
    );
    assert_codes(&parsed.diagnostics, &["W011"]);
    assert_eq!(parsed.body.unwrap().len(), MAX);

    // At the limit: untouched, no warning.
    let body = "b".repeat(MAX);
    let parsed = parse(
        format!("---\nname: s\ndescription: d\n---\n{body}"),
        "s",
        Profile::Validate,
    );
    assert_codes(&parsed.diagnostics, &[]);
    assert_eq!(parsed.body.unwrap().len(), MAX);
}

// --- metadata > 8 KiB serialized or nesting > 10 ------------------------------------------------

#[test]
fn metadata_over_8_kib_or_nested_over_10_levels_is_an_error() {
    // `{"k":"<n>"}` is n + 8 bytes of JSON.
    let sized = |n: usize| skill_with(&format!("metadata:\n  k: {}\n", "x".repeat(n)));
    for profile in [Profile::Load, Profile::Validate, Profile::Strict] {
        let fits = parse(sized(8 * 1024 - 8), "s", profile);
        assert_codes(&fits.diagnostics, &[]);
        assert!(fits.skill.unwrap().metadata.is_some());

        let too_big = parse(sized(8 * 1024 - 7), "s", profile);
        assert_codes(&too_big.diagnostics, &["E125"]);
        assert!(too_big.skill.is_none());
        // Reported at the `metadata:` key.
        assert_eq!(diag(&too_big.diagnostics, "E125").line, Some(4));
    }

    // `metadata` itself is level 1: {a: {a: ... x}} with `levels` maps.
    let nested = |levels: usize| {
        skill_with(&format!(
            "metadata: {}x{}\n",
            "{a: ".repeat(levels),
            "}".repeat(levels)
        ))
    };
    for profile in [Profile::Load, Profile::Validate, Profile::Strict] {
        let ten = parse(nested(10), "s", profile);
        assert_codes(&ten.diagnostics, &[]);
        assert_eq!(ten.skill.unwrap().metadata.unwrap().depth(), 10);

        let eleven = parse(nested(11), "s", profile);
        assert_codes(&eleven.diagnostics, &["E125"]);
        assert!(eleven.skill.is_none());
    }
}

// --- YAML nesting > 64, alias expansion beyond a small bound, duplicate keys ----------------------

#[test]
fn yaml_nesting_beyond_64_is_a_limit_error() {
    let deep = |n: usize| skill_with(&format!("x: {}{}\n", "[".repeat(n), "]".repeat(n)));
    // Well inside the limit: an unknown key, kept.
    let ok = parse(deep(50), "s", Profile::Load);
    assert_codes(&ok.diagnostics, &[]);
    assert!(ok.skill.unwrap().extra.iter().any(|(k, _)| k == "x"));

    for profile in ALL {
        let parsed = parse(deep(100), "s", profile);
        assert_codes(&parsed.diagnostics, &["E021"]);
        assert!(parsed.skill.is_none());
    }
}

#[test]
fn alias_bomb_is_a_limit_error() {
    let mut keys = String::from("a: &a [x,x,x,x,x,x,x,x,x]\n");
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for w in names.windows(2) {
        let refs = vec![format!("*{}", w[0]); 9].join(",");
        keys.push_str(&format!("{}: &{} [{}]\n", w[1], w[1], refs));
    }
    let text = skill_with(&keys);
    for profile in ALL {
        let parsed = parse(&text, "s", profile);
        assert_codes(&parsed.diagnostics, &["E021"]);
        assert!(parsed.skill.is_none());
    }
    // A few aliases are fine (B04).
    let parsed = parse(fm("name: &n s\ndescription: *n\n"), "s", Profile::Strict);
    assert_codes(&parsed.diagnostics, &[]);
}

#[test]
fn duplicate_keys_are_errors() {
    for (keys, line) in [
        ("name: s\ndescription: d\nname: t\n", 4),
        ("name: s\ndescription: d\nmetadata:\n  a: 1\n  a: 2\n", 6),
    ] {
        for profile in ALL {
            let parsed = parse(fm(keys), "s", profile);
            assert_codes(&parsed.diagnostics, &["E022"]);
            assert!(parsed.skill.is_none());
            assert_eq!(
                diag(&parsed.diagnostics, "E022").line,
                Some(line),
                "{keys:?}"
            );
        }
    }
    // The same field in two spellings is a duplicate too.
    let parsed = parse(
        skill_with("allowed-tools: Read\nallowed_tools: Write\n"),
        "s",
        Profile::Load,
    );
    assert_codes(&parsed.diagnostics, &["E024"]);
    assert!(parsed.skill.is_none());
}

// --- invalid UTF-8, control characters ----------------------------------------------------------

#[test]
fn invalid_utf8_is_an_error_with_a_byte_offset() {
    // In the frontmatter: "---\n" + "name: s\n" + "description: caf" = byte 28, line 3.
    let fm_bytes = b"---\nname: s\ndescription: caf\xe9\n---\n";
    // In the body: 4 + 8 + 15 + 4 + "ok " = byte 34, line 5.
    let body_bytes = b"---\nname: s\ndescription: d\n---\nok \xff\xfe\n";
    for (bytes, offset, line) in [(&fm_bytes[..], 28, 3), (&body_bytes[..], 34, 5)] {
        for profile in ALL {
            let parsed = parse(bytes, "s", profile);
            assert_codes(&parsed.diagnostics, &["E001"]);
            assert!(parsed.skill.is_none());
            let d = diag(&parsed.diagnostics, "E001");
            assert_eq!(d.byte_offset, Some(offset));
            assert_eq!(d.line, Some(line));
        }
    }
    // A truncated multi-byte character at the very end.
    let parsed = parse(
        b"---\nname: s\ndescription: d\n---\n\xe2\x82",
        "s",
        Profile::Load,
    );
    assert_eq!(diag(&parsed.diagnostics, "E001").byte_offset, Some(31));
}

#[test]
fn control_characters_in_the_frontmatter_are_errors_with_a_position() {
    for ch in ['\u{1}', '\u{7f}', '\u{9b}', '\0'] {
        // "description: café" is 17 characters: the control character is column 18.
        let col = 18;
        let text = format!("---\nname: s\ndescription: café{ch}x\n---\n");
        for profile in ALL {
            let parsed = parse(&text, "s", profile);
            assert_codes(&parsed.diagnostics, &["E002"]);
            assert!(parsed.skill.is_none());
            let d = diag(&parsed.diagnostics, "E002");
            assert_eq!((d.line, d.column), (Some(3), Some(col)), "{ch:?}");
        }
    }
    // Tab and NEL are allowed in the raw text; tab is also fine in the value, but NEL is a C1
    // control there (rule 27 checks values as decoded).
    let parsed = parse(
        "---\nname: s\ndescription: \"a\tb\"\n---\n",
        "s",
        Profile::Validate,
    );
    assert_codes(&parsed.diagnostics, &[]);
    let parsed = parse(
        "---\nname: s\ndescription: \"a\tb\u{85}c\"\n---\n",
        "s",
        Profile::Validate,
    );
    assert_codes(&parsed.diagnostics, &["E027"]);
    // Escapes and `!!binary` decode to what the raw check cannot see: refused once decoded,
    // in every profile but spec (a warning there), for skills and agents alike.
    for value in [
        "\"a\\x1b[31mRED\\x1b]0;pwned\\x07\"",
        "\"\\e]52;c;Y3VybCBldmlsCg==\\a\"",
        "\"x\\u202Ey\"",
        "!!binary G1szMW1SRUQ=",
    ] {
        let text = format!("---\nname: s\ndescription: {value}\n---\n");
        for profile in [Profile::Load, Profile::Validate, Profile::Strict] {
            let parsed = parse(&text, "s", profile);
            assert_codes(&parsed.diagnostics, &["E027"]);
            assert!(parsed.skill.is_none(), "{value}");
            let d = diag(&parsed.diagnostics, "E027");
            // The value's position: after the tag for `!!binary`.
            let col = if value.starts_with("!!") { 23 } else { 14 };
            assert_eq!((d.line, d.column), (Some(3), Some(col)), "{value}");
        }
        assert_codes(&parse(&text, "s", Profile::Spec).diagnostics, &["W027"]);
    }
    let agent = weft_parse::parse_agent(
        b"---\nname: a\ndescription: \"\\e[2J\"\n---\nPrompt.\n",
        std::path::Path::new("a.md"),
        &weft_parse::ParseOptions::new(Profile::Load),
    );
    assert_codes(&agent.diagnostics, &["E027"]);
    // In the body a control character is only worth a warning (CONFORMANCE A22).
    let parsed = parse(
        "---\nname: s\ndescription: d\n---\nline\n\u{7}bell\n",
        "s",
        Profile::Validate,
    );
    assert_codes(&parsed.diagnostics, &["W003"]);
    let d = diag(&parsed.diagnostics, "W003");
    assert_eq!((d.line, d.column), (Some(6), Some(1)));
}

// --- hostile input: diagnostics, never a panic ------------------------------------------------

#[test]
fn ten_thousand_deep_nesting_is_a_diagnostic() {
    for opener in ["[", "{a: ", "- "] {
        let deep = opener.repeat(10_000);
        let text = skill_with(&format!("metadata: {deep}\n"));
        for profile in ALL {
            let parsed = parse(&text, "s", profile);
            assert!(parsed.skill.is_none(), "{opener:?}");
            let got = codes(&parsed.diagnostics);
            assert!(
                got == ["E021"] || got == ["E020"],
                "{opener:?} {profile:?}: {got:?}"
            );
        }
        // Agent files share the YAML front end.
        let agent = format!("---\nname: a\ndescription: d\ntools: {deep}\n---\n");
        let parsed = parse_agent(
            agent.as_bytes(),
            Path::new(".claude/agents/a.md"),
            &ParseOptions::default(),
        );
        assert!(parsed.agent.is_none());
    }
    // The flow forms are clearly over the limit.
    let parsed = parse(
        skill_with(&format!("x: {}\n", "[".repeat(10_000))),
        "s",
        Profile::Load,
    );
    assert_codes(&parsed.diagnostics, &["E021"]);
}

#[test]
fn ten_megabyte_file_is_rejected_up_front() {
    let mut text = b"---\nname: s\ndescription: d\n---\n".to_vec();
    text.resize(10 * 1024 * 1024, b'#');
    let started = std::time::Instant::now();
    for profile in ALL {
        let parsed = parse(&text, "s", profile);
        assert_codes(&parsed.diagnostics, &["E004"]);
        assert!(parsed.skill.is_none());
    }
    let agent = parse_agent(&text, Path::new("agents/a.md"), &ParseOptions::default());
    assert_codes(&agent.diagnostics, &["E004"]);
    let legacy = parse_legacy(
        &text,
        None,
        Path::new("s/skill.json"),
        &ParseOptions::default(),
    );
    assert_codes(&legacy.diagnostics, &["E004"]);
    let def = parse_definition(&text, Path::new("d.yaml"), &ParseOptions::default());
    assert_codes(&def.diagnostics, &["E004"]);
    assert!(
        started.elapsed().as_secs() < 2,
        "the size check must not read the file"
    );
}

#[test]
fn crlf_file_parses_like_lf() {
    let lf = "---\nname: s\ndescription: >\n  Folded\n  text.\nallowed-tools:\n  - Read\n  - Bash(git:*)\nmetadata:\n  a: b\n---\n\n# Title\n\nLine one\nline two\n";
    let crlf = lf.replace('\n', "\r\n");
    for profile in ALL {
        let a = parse(lf, "s", profile);
        let b = parse(&crlf, "s", profile);
        assert_eq!(codes(&a.diagnostics), codes(&b.diagnostics), "{profile:?}");
        assert_eq!(a.skill, b.skill, "{profile:?}");
        assert_eq!(a.body, b.body);
    }
    let parsed = parse(&crlf, "s", Profile::Validate);
    assert_codes(&parsed.diagnostics, &[]);
    let skill = parsed.skill.unwrap();
    assert_eq!(skill.description, "Folded text.");
    assert!(!skill.description.contains('\r'));
    assert_eq!(
        skill.tools.allow.unwrap(),
        ["Read".to_owned(), "Bash(git:*)".to_owned()]
    );
    assert_eq!(
        parsed.body.as_deref(),
        Some("# Title\n\nLine one\nline two")
    );
}

#[test]
fn byte_order_mark_is_stripped() {
    let plain = "---\nname: s\ndescription: d\n---\nBody\n";
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(plain.as_bytes());
    for profile in ALL {
        let a = parse(plain, "s", profile);
        let b = parse(&bom, "s", profile);
        assert_eq!(a.skill, b.skill, "{profile:?}");
        assert_eq!(a.body, b.body);
    }
    assert_codes(&parse(&bom, "s", Profile::Load).diagnostics, &[]);
    let validated = parse(&bom, "s", Profile::Validate);
    assert_codes(&validated.diagnostics, &["W005"]);
    // A BOM in front of a file without frontmatter is stripped as well.
    let mut bare = b"\xEF\xBB\xBF".to_vec();
    bare.extend_from_slice(b"Just text.\n");
    let parsed = parse(&bare, "s", Profile::Load);
    assert_eq!(parsed.body.as_deref(), Some("Just text."));
    assert_eq!(parsed.skill.unwrap().description, "Just text.");
}

#[test]
fn no_prefix_or_mutation_of_a_skill_file_panics() {
    let full = "\u{feff}---\r\nname: pdf-tools\ndescription: |\n  Extract text, café 💡.\nallowed-tools: Read, Bash(git log:*)\nmetadata:\n  openclaw: {requires: {bins: [uv]}}\n  v: &v 1.10\n  w: *v\ncontext: fork\n---\n# T\n\nBody $ARGUMENTS é\n---\n";
    let bytes = full.as_bytes();
    for end in 0..=bytes.len() {
        for profile in [Profile::Load, Profile::Spec] {
            let parsed = parse_skill_md(
                &bytes[..end],
                Path::new("pdf-tools/SKILL.md"),
                &ParseOptions::new(profile),
            );
            // Every error leaves no skill behind.
            if parsed.diagnostics.iter().any(|d| d.is_error()) {
                assert!(parsed.skill.is_none(), "prefix {end}");
            }
        }
        let _ = parse_agent(
            &bytes[..end],
            Path::new(".claude/agents/x.md"),
            &ParseOptions::default(),
        );
    }
    // Flip each byte to a few hostile values.
    let mut seed: u32 = 0x2545_f491;
    for i in 0..bytes.len() {
        let mut mutated = bytes.to_vec();
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        mutated[i] = [b'\n', b':', b'[', b'{', b'&', b'*', b'\0', 0xC3][(seed % 8) as usize];
        let parsed = parse_skill_md(
            &mutated,
            Path::new("pdf-tools/SKILL.md"),
            &ParseOptions::new(Profile::Validate),
        );
        if parsed.diagnostics.iter().any(|d| d.is_error()) {
            assert!(parsed.skill.is_none(), "mutation at {i}");
        }
    }
}
