//! Rendering behaviour through the public API.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use weft_template::{SplitError, placeholders, render, split_args, uses_arguments};
use weft_types::InvocationContext;

/// Renders `template` with `args` and `session_id` and no skill directory.
fn render_template(template: &str, args: &[&str], session_id: &str) -> String {
    let args = args.iter().map(|a| (*a).to_owned()).collect();
    render(template, &InvocationContext::new(args, session_id))
}

// --- seed tests -------------------------------------------------------------------------------

#[test]
fn substitutes_all_arguments() {
    assert_eq!(
        render_template(
            "Research $ARGUMENTS thoroughly.",
            &["quantum computing"],
            "s"
        ),
        "Research quantum computing thoroughly."
    );
}

#[test]
fn substitutes_braced_positions() {
    assert_eq!(
        render_template(
            "Migrate ${0} from ${1} to ${2}.",
            &["SearchBar", "React", "Vue"],
            "s"
        ),
        "Migrate SearchBar from React to Vue."
    );
}

#[test]
fn substitutes_indexed_arguments() {
    assert_eq!(
        render_template(
            "Convert $ARGUMENTS[0] to $ARGUMENTS[1].",
            &["Celsius", "Fahrenheit"],
            "s"
        ),
        "Convert Celsius to Fahrenheit."
    );
}

#[test]
fn substitutes_session_id() {
    assert_eq!(
        render_template("Log to ${SESSION_ID}.log", &[], "abc-123"),
        "Log to abc-123.log"
    );
}

#[test]
fn substitutes_claude_session_id() {
    assert_eq!(
        render_template("Session: ${CLAUDE_SESSION_ID}", &[], "xyz-789"),
        "Session: xyz-789"
    );
}

#[test]
fn appends_arguments_without_placeholder() {
    let out = render_template(
        "Just instructions with no placeholders.",
        &["extra args"],
        "s",
    );
    assert!(out.contains("ARGUMENTS: extra args"));
    assert_eq!(
        out,
        "Just instructions with no placeholders.\n\nARGUMENTS: extra args"
    );
}

#[test]
fn appends_nothing_without_arguments() {
    assert_eq!(render_template("No args here.", &[], "s"), "No args here.");
}

// --- single pass ----------------------------------------------------------------------------

#[test]
fn argument_values_are_not_rescanned() {
    assert_eq!(
        render_template("[$0] [$1]", &["$ARGUMENTS[1]", "two"], "s"),
        "[$ARGUMENTS[1]] [two]"
    );
    assert_eq!(
        render_template("$ARGUMENTS", &["$1", "${0}", "$SESSION_ID"], "s"),
        "$1 ${0} $SESSION_ID"
    );
    assert_eq!(render_template("${0}", &["{baseDir}"], "s"), "{baseDir}");
}

#[test]
fn session_id_is_not_rescanned() {
    assert_eq!(
        render_template("$SESSION_ID", &["x"], "$0"),
        "$0\n\nARGUMENTS: x"
    );
}

// --- bare $N ----------------------------------------------------------------------------------

#[test]
fn bare_index_out_of_range_stays() {
    assert_eq!(
        render_template("Costs $100 or $1", &["a", "b"], "s"),
        "Costs $100 or b"
    );
    // A dollar amount is not a placeholder: the arguments are still appended.
    assert_eq!(
        render_template("Pay $5.00", &["a"], "s"),
        "Pay $5.00\n\nARGUMENTS: a"
    );
}

#[test]
fn bare_index_inside_inline_code_stays() {
    assert_eq!(
        render_template("Run `echo $1` with $1.", &["a", "b"], "s"),
        "Run `echo $1` with b."
    );
    assert_eq!(
        render_template("``a ` $1`` $0", &["a", "b"], "s"),
        "``a ` $1`` a"
    );
}

#[test]
fn bare_index_inside_fence_stays() {
    let template = "Use $0:\n\n```bash\nfor f in \"$@\"; do echo \"$1\"; done\n```\n\nthen $1.";
    assert_eq!(
        render_template(template, &["zsh", "stop"], "s"),
        "Use zsh:\n\n```bash\nfor f in \"$@\"; do echo \"$1\"; done\n```\n\nthen stop."
    );
    let tilde = "~~~\n$0\n~~~\n$0";
    assert_eq!(render_template(tilde, &["x"], "s"), "~~~\n$0\n~~~\nx");
}

#[test]
fn other_placeholders_work_inside_code() {
    let template = "```\n$ARGUMENTS | ${1} | $ARGUMENTS[0] | $SESSION_ID | $1\n```\n`${0}`";
    assert_eq!(
        render_template(template, &["a", "b"], "sid"),
        "```\na b | b | a | sid | $1\n```\n`a`"
    );
}

#[test]
fn unclosed_code_is_safe() {
    // An unclosed span is literal backticks, so $0 outside counts.
    assert_eq!(render_template("`$0", &["a"], "s"), "`a");
    // An unclosed fence runs to the end.
    assert_eq!(render_template("$0\n```\n$0", &["a"], "s"), "a\n```\n$0");
}

// --- escapes ----------------------------------------------------------------------------------

#[test]
fn backslash_escapes_dollar() {
    assert_eq!(render_template(r"\$1 and $1", &["a", "b"], "s"), "$1 and b");
    assert_eq!(
        render_template(r"\$ARGUMENTS vs $ARGUMENTS", &["a"], "s"),
        "$ARGUMENTS vs a"
    );
    assert_eq!(
        render_template(r"\${0} \$SESSION_ID", &["a"], "s"),
        "${0} $SESSION_ID\n\nARGUMENTS: a"
    );
    assert_eq!(render_template(r"Only \$5", &[], "s"), "Only $5");
}

#[test]
fn double_backslash_keeps_both_and_expands() {
    assert_eq!(render_template(r"\\$1", &["a", "b"], "s"), r"\\b");
    // Three backslashes: one pair is kept, the last one escapes the dollar.
    assert_eq!(render_template(r"\\\$1 $0", &["a", "b"], "s"), r"\\$1 a");
}

#[test]
fn lone_backslash_untouched() {
    assert_eq!(
        render_template(r"C:\path\n $0 \", &["a"], "s"),
        r"C:\path\n a \"
    );
}

// --- out of range -------------------------------------------------------------------------------

#[test]
fn out_of_range_braced_and_indexed_stay() {
    assert_eq!(
        render_template("${5} $ARGUMENTS[5] ${1}", &["a", "b"], "s"),
        "${5} $ARGUMENTS[5] b"
    );
    assert_eq!(
        render_template("${999999999999999999999}", &["a"], "s"),
        "${999999999999999999999}"
    );
}

// --- skill dir ----------------------------------------------------------------------------------

#[test]
fn skill_dir_placeholders() {
    let template = "Read {baseDir}/ref.md and ${CLAUDE_SKILL_DIR}/scripts";
    let with = InvocationContext::new(vec![], "s").with_skill_dir("/home/u/.claude/skills/pdf");
    assert_eq!(
        render(template, &with),
        "Read /home/u/.claude/skills/pdf/ref.md and /home/u/.claude/skills/pdf/scripts"
    );
    let without = InvocationContext::new(vec![], "s");
    assert_eq!(render(template, &without), template);
}

#[test]
fn session_id_bare() {
    assert_eq!(render_template("id=$SESSION_ID.", &[], "abc"), "id=abc.");
    assert_eq!(render_template("$SESSION_IDX", &[], "abc"), "$SESSION_IDX");
    assert_eq!(
        render_template("$ARGUMENTSX", &["a"], "s"),
        "$ARGUMENTSX\n\nARGUMENTS: a"
    );
}

// --- malformed ----------------------------------------------------------------------------------

#[test]
fn malformed_input_is_literal() {
    for template in [
        "$",
        "a $",
        "${",
        "${}",
        "${x}",
        "$$",
        "${1",
        "{baseDir",
        "$ARGUMENTS[",
        "é$",
    ] {
        let out = render_template(template, &[], "s");
        if template == "$ARGUMENTS[" {
            assert_eq!(out, "[");
        } else {
            assert_eq!(out, template);
        }
    }
}

#[test]
fn multibyte_text_around_placeholders() {
    assert_eq!(render_template("é$0ü", &["ß"], "s"), "éßü");
    assert_eq!(render_template("→${1}←", &["a", "日本"], "s"), "→日本←");
    assert_eq!(render_template("«$ARGUMENTS»", &["ö", "€"], "s"), "«ö €»");
    assert_eq!(render_template("`é$0`ü$0", &["x"], "s"), "`é$0`üx");
}

// --- split_args ---------------------------------------------------------------------------------

#[test]
fn split_args_respects_quotes() {
    assert_eq!(
        split_args(r#"a "b c" 'd e'"#),
        Ok(vec!["a".to_owned(), "b c".to_owned(), "d e".to_owned()])
    );
}

#[test]
fn split_args_unclosed_quote_errors() {
    let err = split_args(r#"a "b c"#);
    assert_eq!(err, Err(SplitError::UnclosedQuote));
    assert!(err.is_err_and(|e| !e.to_string().is_empty()));
}

#[test]
fn f09_split_then_render() {
    let args = split_args(r#"a "b c""#).unwrap_or_default();
    let ctx = InvocationContext::new(args, "s");
    assert_eq!(
        render("Deploy $0 and $1; keep $2", &ctx),
        "Deploy a and b c; keep $2"
    );
}

// --- placeholders / uses_arguments -------------------------------------------------------------

#[test]
fn placeholders_examples() {
    assert_eq!(
        placeholders("Research $ARGUMENTS[0] about ${1}"),
        ["ARGUMENTS[0]", "1"]
    );
    assert_eq!(placeholders("$ARGUMENTS"), ["ARGUMENTS"]);
    assert_eq!(placeholders("${CLAUDE_SKILL_DIR}"), ["CLAUDE_SKILL_DIR"]);
    assert_eq!(placeholders("{baseDir}"), ["baseDir"]);
    assert_eq!(placeholders("$SESSION_ID"), ["SESSION_ID"]);
    assert_eq!(placeholders("$0"), ["0"]);
    assert!(placeholders("`$0`").is_empty());
    assert!(placeholders("```\n$0\n```").is_empty());
    assert_eq!(
        placeholders("$1 ${1} $ARGUMENTS $ARGUMENTS $0"),
        ["1", "ARGUMENTS", "0"]
    );
    assert_eq!(
        placeholders("${CLAUDE_SESSION_ID} ${SESSION_ID}"),
        ["CLAUDE_SESSION_ID", "SESSION_ID"]
    );
    assert!(placeholders(r"\$0 $ ${} plain").is_empty());
}

#[test]
fn uses_arguments_examples() {
    assert!(uses_arguments("$ARGUMENTS"));
    assert!(uses_arguments("x $ARGUMENTS[0]"));
    assert!(uses_arguments("x ${0}"));
    assert!(uses_arguments("`${0}`"));
    assert!(uses_arguments("x $0"));
    assert!(uses_arguments("```\n$ARGUMENTS\n```"));
    assert!(!uses_arguments("`$0`"));
    assert!(!uses_arguments("```\n$0\n```"));
    assert!(!uses_arguments("$SESSION_ID ${CLAUDE_SKILL_DIR} {baseDir}"));
    assert!(!uses_arguments(r"\$ARGUMENTS"));
    assert!(!uses_arguments("Just instructions with no placeholders."));
}

/// Issue 15: `arguments:` names as `$name`, under the bare-`$N` rules, and what stays unfilled.
#[test]
fn named_arguments_follow_the_code_aware_rules() {
    let ctx = InvocationContext::new(vec!["42".into(), "main".into()], "s").with_names(vec![
        "issue".into(),
        "branch".into(),
        "extra".into(),
    ]);
    let out = weft_template::render_report(
        "Fix $issue on $branch; $issues is text; `git checkout $branch` stays;\n```sh\necho $issue\n```\n$extra ${2} $9",
        &ctx,
    );
    assert_eq!(
        out.text,
        "Fix 42 on main; $issues is text; `git checkout $branch` stays;\n```sh\necho $issue\n```\n$extra ${2} $9"
    );
    // A missing named argument and an explicit index are unfilled; a bare `$9` is text.
    assert_eq!(out.unfilled, ["$extra", "${2}"]);
    // Names count as using the arguments: nothing is appended.
    assert!(!out.text.contains("ARGUMENTS:"));
    let effort = InvocationContext::new(vec![], "s").with_effort(Some("high".into()));
    assert_eq!(
        render("Think at ${CLAUDE_EFFORT}.", &effort),
        "Think at high."
    );
    let none = weft_template::render_report(
        "${CLAUDE_EFFORT} {baseDir}",
        &InvocationContext::new(vec![], "s"),
    );
    assert_eq!(none.unfilled, ["${CLAUDE_EFFORT}", "{baseDir}"]);
}
