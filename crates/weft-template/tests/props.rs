//! Property tests: rendering never panics, is deterministic, and never rescans values.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use weft_template::{placeholders, render, split_args, uses_arguments};
use weft_types::InvocationContext;

/// Templates biased towards the interesting syntax, mixed with arbitrary text.
fn template() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        any::<String>(),
        Just("$".to_owned()),
        Just("$ARGUMENTS".to_owned()),
        Just("$ARGUMENTS[".to_owned()),
        Just("[1]".to_owned()),
        Just("${".to_owned()),
        Just("}".to_owned()),
        Just("${0}".to_owned()),
        Just("$0".to_owned()),
        Just("$1".to_owned()),
        Just("$SESSION_ID".to_owned()),
        Just("${CLAUDE_SKILL_DIR}".to_owned()),
        Just("{baseDir}".to_owned()),
        Just("\\".to_owned()),
        Just("`".to_owned()),
        Just("```".to_owned()),
        Just("~~~".to_owned()),
        Just("\n".to_owned()),
        Just("é".to_owned()),
        "[0-9]{1,25}",
    ];
    prop_oneof![
        any::<String>(),
        prop::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat()),
    ]
}

fn args() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(any::<String>(), 0..5)
}

fn context(args: Vec<String>, session: String, dir: Option<String>) -> InvocationContext {
    let ctx = InvocationContext::new(args, session);
    match dir {
        Some(dir) => ctx.with_skill_dir(dir),
        None => ctx,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn render_never_panics_and_is_deterministic(
        template in template(),
        args in args(),
        session in any::<String>(),
        dir in proptest::option::of(any::<String>()),
    ) {
        let ctx = context(args, session, dir);
        let first = render(&template, &ctx);
        let second = render(&template, &ctx);
        prop_assert_eq!(first, second);
    }

    #[test]
    fn queries_never_panic(template in template()) {
        let names = placeholders(&template);
        let mut deduped = names.clone();
        deduped.dedup();
        prop_assert_eq!(names.len(), deduped.len());
        let _ = uses_arguments(&template);
    }

    #[test]
    fn arbitrary_strings_never_panic(template in any::<String>(), args in args()) {
        let ctx = InvocationContext::new(args, "s");
        let _ = render(&template, &ctx);
        let _ = placeholders(&template);
        let _ = split_args(&template);
    }

    #[test]
    fn single_argument_is_never_rescanned(arg in any::<String>()) {
        let ctx = InvocationContext::new(vec![arg.clone()], "s");
        prop_assert_eq!(render("$0", &ctx), arg.clone());
        prop_assert_eq!(render("${0}", &ctx), arg.clone());
        prop_assert_eq!(render("$ARGUMENTS[0]", &ctx), arg.clone());
        prop_assert_eq!(render("$ARGUMENTS", &ctx), arg);
    }

    #[test]
    fn all_arguments_is_the_plain_join(args in args()) {
        let ctx = InvocationContext::new(args.clone(), "s");
        prop_assert_eq!(render("$ARGUMENTS", &ctx), args.join(" "));
    }

    #[test]
    fn template_without_special_bytes_is_unchanged_or_appended(
        template in "[^$\\\\`{~]*",
        args in args(),
    ) {
        let ctx = InvocationContext::new(args.clone(), "s");
        let expected = if args.is_empty() {
            template.clone()
        } else {
            format!("{template}\n\nARGUMENTS: {}", args.join(" "))
        };
        prop_assert_eq!(render(&template, &ctx), expected);
    }

    #[test]
    fn append_rule_matches_uses_arguments(template in template(), args in args()) {
        let ctx = InvocationContext::new(args.clone(), "s");
        let out = render(&template, &ctx);
        let appended = format!("\n\nARGUMENTS: {}", args.join(" "));
        if !uses_arguments(&template) && !args.is_empty() {
            prop_assert!(out.ends_with(&appended));
        }
    }

    #[test]
    fn split_args_of_joined_simple_words_round_trips(
        words in prop::collection::vec("[A-Za-z0-9#._/-]{1,8}", 0..6),
    ) {
        prop_assert_eq!(split_args(&words.join(" ")), Ok(words));
    }
}
