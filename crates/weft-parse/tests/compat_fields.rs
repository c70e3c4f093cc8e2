//! Issue 15: the Claude Code / Codex / OpenClaw fields weft applies (`effort`, `arguments`,
//! `paths`), the ones it recognises without implementing (named warnings, errors under
//! `--strict`), and typos in keys and tool names (did-you-mean warnings).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use weft_parse::{ParseOptions, ParsedSkill, Profile, parse_skill_md};

fn parse(frontmatter: &str, profile: Profile) -> ParsedSkill {
    let text = format!("---\nname: s\ndescription: d\n{frontmatter}---\nBody\n");
    parse_skill_md(
        text.as_bytes(),
        Path::new("s/SKILL.md"),
        &ParseOptions::new(profile),
    )
}

fn codes(parsed: &ParsedSkill) -> Vec<String> {
    parsed.diagnostics.iter().map(|d| d.code.clone()).collect()
}

#[test]
fn effort_arguments_and_paths_are_read() {
    let parsed = parse(
        "effort: High\narguments: [issue, branch]\npaths: \"src/**/*.rs, docs/*.md\"\n",
        Profile::Validate,
    );
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let skill = parsed.skill.unwrap();
    assert_eq!(skill.effort.as_deref(), Some("high"));
    assert_eq!(skill.arguments, ["issue", "branch"]);
    assert_eq!(skill.paths, ["src/**/*.rs", "docs/*.md"]);
    assert!(skill.is_conditional());
}

#[test]
fn an_unknown_effort_is_reported_and_dropped() {
    let parsed = parse("effort: extreme\n", Profile::Validate);
    assert_eq!(codes(&parsed), ["W144"]);
    assert!(parsed.skill.unwrap().effort.is_none());
    assert_eq!(
        codes(&parse("effort: extreme\n", Profile::Strict)),
        ["E144"]
    );
}

#[test]
fn unsupported_fields_are_named_and_strict_makes_them_errors() {
    let fm = "shell: bash\ncommand-dispatch: tool\ncommand-tool: x\n";
    let parsed = parse(fm, Profile::Validate);
    assert_eq!(codes(&parsed), ["W119", "W119", "W119"]);
    let first = &parsed.diagnostics[0];
    assert_eq!(first.line, Some(4));
    assert!(
        first
            .message
            .contains("`shell` is recognised but not supported"),
        "{}",
        first.message
    );
    assert!(parsed.diagnostics[1].message.contains("`command-dispatch`"));
    // Loading warns too (never silent) and keeps the skill; --strict refuses it.
    assert_eq!(codes(&parse(fm, Profile::Load)), ["W119", "W119", "W119"]);
    let strict = parse(fm, Profile::Strict);
    assert_eq!(codes(&strict), ["E119", "E119", "E119"]);
    assert!(!strict.is_valid());
}

#[test]
fn skill_hooks_are_read_and_malformed_ones_are_named_with_their_line() {
    let fm = "hooks:\n  PostToolUse:\n    - matcher: \"Edit|Write\"\n      hooks:\n        - type: command\n          command: ./fmt.sh\n          timeout: 20\n";
    let parsed = parse(fm, Profile::Validate);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let skill = parsed.skill.unwrap();
    assert_eq!(skill.hooks.len(), 1);
    assert_eq!(skill.hooks[0].event, weft_types::HookEvent::PostToolUse);
    assert_eq!(skill.hooks[0].matcher.as_deref(), Some("Edit|Write"));
    assert_eq!(skill.hooks[0].handlers[0].command, "./fmt.sh");
    assert_eq!(skill.hooks[0].handlers[0].timeout_secs, Some(20));
    let bad = "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n  Stop: oops\n";
    let parsed = parse(bad, Profile::Validate);
    assert_eq!(codes(&parsed), ["E146", "E146"]);
    assert_eq!(parsed.diagnostics[0].line, Some(8));
    assert_eq!(
        parsed.diagnostics[1].message,
        "`hooks.Stop` must be a list of matcher groups, found `oops`; skipped"
    );
    // Loading keeps the skill and warns.
    assert_eq!(codes(&parse(bad, Profile::Load)), ["W146", "W146"]);
}

#[test]
fn a_misspelled_key_gets_a_did_you_mean() {
    let text = "---\nname: s\ndescripton: d\n---\nThe body paragraph.\n";
    let parsed = parse_skill_md(
        text.as_bytes(),
        Path::new("s/SKILL.md"),
        &ParseOptions::new(Profile::Validate),
    );
    let w = parsed
        .diagnostics
        .iter()
        .find(|d| d.code == "W118")
        .expect("W118");
    assert_eq!(
        w.message,
        "unknown key `descripton`; did you mean `description`? (kept, without effect)"
    );
    assert_eq!((w.line, w.column), (Some(3), Some(1)));
    let far = parse("flavour: x\n", Profile::Validate);
    assert_eq!(codes(&far), ["W118"]);
    assert!(far.diagnostics[0].message.contains("under `metadata`"));
    // Loading never reports unknown keys; the spec profile has its own rule (E127).
    assert!(parse("flavour: x\n", Profile::Load).diagnostics.is_empty());
}

#[test]
fn unknown_tool_names_are_flagged_with_suggestions() {
    let parsed = parse(
        "allowed-tools: Read Frobnicate Bassh(git:*) WebSearch mcp__github__create_issue github__*\nforbidden-tools: [wirte_file]\n",
        Profile::Validate,
    );
    let messages: Vec<&str> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.code == "W135")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(messages.len(), 3, "{messages:#?}");
    assert!(messages[0].contains("`Frobnicate`"), "{}", messages[0]);
    assert!(
        messages[1].ends_with("did you mean `Bash`?"),
        "{}",
        messages[1]
    );
    assert!(
        messages[2].contains("did you mean `write_file`?"),
        "{}",
        messages[2]
    );
    // Claude Code's tools weft lacks are named as unsupported, not unknown.
    let unsupported: Vec<&str> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.code == "W136")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(unsupported.len(), 1, "{unsupported:#?}");
    assert!(
        unsupported[0].contains("`WebSearch`, a tool of Claude Code"),
        "{}",
        unsupported[0]
    );
    // Loading says so too: a name the gate never matches is never dropped in silence.
    let codes: Vec<String> = parse("allowed-tools: Raed TodoWrite\n", Profile::Load)
        .diagnostics
        .into_iter()
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect();
    assert_eq!(codes.len(), 2, "{codes:#?}");
    assert!(
        codes[0].starts_with("W135") && codes[0].ends_with("did you mean `Read`?"),
        "{codes:#?}"
    );
    assert!(codes[1].starts_with("W136"), "{codes:#?}");
}
