//! Property tests: no input panics, and the same input always gives the same output, for the
//! frontmatter splitter, the YAML front end and every file parser.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use proptest::prelude::*;
use weft_parse::frontmatter::split;
use weft_parse::yaml::{YamlLimits, parse as parse_yaml};
use weft_parse::{
    ParseOptions, Profile, parse_agent, parse_definition, parse_legacy, parse_skill_md,
};

/// Text that looks like a skill file: delimiters, keys, YAML punctuation, CRLF, BOMs and
/// arbitrary characters, in any order.
fn skillish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("---\n".to_owned()),
        Just("---\r\n".to_owned()),
        Just("\u{feff}".to_owned()),
        Just("name: ".to_owned()),
        Just("description: ".to_owned()),
        Just("allowed-tools: ".to_owned()),
        Just("metadata:\n  ".to_owned()),
        Just("Bash(git:*)".to_owned()),
        Just("- ".to_owned()),
        Just(": ".to_owned()),
        Just("\n".to_owned()),
        Just("  ".to_owned()),
        Just("\t".to_owned()),
        Just("[".to_owned()),
        Just("]".to_owned()),
        Just("{".to_owned()),
        Just("}".to_owned()),
        Just("&a ".to_owned()),
        Just("*a".to_owned()),
        Just("!!str ".to_owned()),
        Just("|\n".to_owned()),
        Just(">-\n".to_owned()),
        Just("'".to_owned()),
        Just("\"".to_owned()),
        Just("#".to_owned()),
        Just("\u{80}".to_owned()),
        "[a-z-]{1,8}",
        any::<String>(),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

fn options() -> impl Strategy<Value = ParseOptions> {
    prop_oneof![
        Just(ParseOptions::new(Profile::Load)),
        Just(ParseOptions::new(Profile::Validate)),
        Just(ParseOptions::new(Profile::Strict)),
        Just(ParseOptions::new(Profile::Spec)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn splitter_is_total_and_deterministic(text in skillish()) {
        let a = split(&text);
        prop_assert_eq!(a, split(&text));
        if let Ok(parts) = a {
            // The body is always a suffix of the input, the YAML a slice of it.
            prop_assert!(text.ends_with(parts.body));
            if let Some(fm) = parts.frontmatter {
                prop_assert!(text.contains(fm.yaml));
            }
        }
    }

    #[test]
    fn yaml_front_end_is_total_and_deterministic(text in skillish()) {
        let limits = YamlLimits::default();
        prop_assert_eq!(parse_yaml(&text, 2, &limits), parse_yaml(&text, 2, &limits));
    }

    #[test]
    fn skill_md_parser_is_total_and_deterministic(text in skillish(), opts in options()) {
        let path = Path::new("skills/some-skill/SKILL.md");
        let a = parse_skill_md(text.as_bytes(), path, &opts);
        prop_assert_eq!(&a, &parse_skill_md(text.as_bytes(), path, &opts));
        // A usable skill never comes with an error.
        if a.skill.is_some() {
            prop_assert!(!a.diagnostics.iter().any(|d| d.is_error()));
        }
        // Every diagnostic names the file.
        prop_assert!(a.diagnostics.iter().all(|d| d.path.as_deref() == Some(path)));
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let opts = ParseOptions::default();
        let _ = parse_skill_md(&bytes, Path::new("x/SKILL.md"), &opts);
        let _ = parse_legacy(&bytes, Some(&bytes), Path::new("x/skill.json"), &opts);
        let _ = parse_definition(&bytes, Path::new("x.yaml"), &opts);
        let _ = parse_agent(&bytes, Path::new("agents/x.md"), &opts);
        let _ = parse_agent(&bytes, Path::new("agents/x.yaml"), &opts);
        let _ = parse_agent(&bytes, Path::new("agents/x.json"), &opts);
    }

    #[test]
    fn agent_parsers_are_total_and_deterministic(text in skillish()) {
        let opts = ParseOptions::default();
        for path in ["agents/a.md", "agents/a.yaml", "agents/a.json"] {
            let path = Path::new(path);
            prop_assert_eq!(
                parse_agent(text.as_bytes(), path, &opts),
                parse_agent(text.as_bytes(), path, &opts)
            );
        }
    }
}
