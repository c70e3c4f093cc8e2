//! Property tests for the permission invariants (10,000 cases each): nothing a member forbids is
//! ever allowed, nothing exceeds the ceiling, the gate agrees with the effective set, and the
//! result does not depend on the order of the skills.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use proptest::prelude::*;
use serde_json::{Value, json};
use weft_permissions::{
    CompositionMode, Effect, Origin, PatternContext, Policy, ToolGate, ToolPattern,
    canonical_tool_name, compose,
};
use weft_types::{Scope, Skill, ToolPolicy};

/// Tool names calls use: built-ins, aliases, plain tools, MCP tools in both spellings.
const TOOLS: &[&str] = &[
    "read_file",
    "Read",
    "write_file",
    "MultiEdit",
    "exec_shell",
    "Bash",
    "grep",
    "Task",
    "specKit",
    "write",
    "edit",
    "github__read_file",
    "mcp__github__create_issue",
    "slack__post",
];

/// Exact names only (for the "gate agrees with the effective set" property).
const EXACT: &[&str] = &[
    "read_file",
    "Read",
    "write_file",
    "Write",
    "Edit",
    "MultiEdit",
    "exec_shell",
    "Bash",
    "grep",
    "Task",
    "Agent",
    "specKit",
    "opencode-executor",
    "write",
    "edit",
    "github__read_file",
    "mcp__github__read_file",
    "slack__post",
];

/// Every kind of pattern: exact, alias, globs, MCP forms, scoped `Bash`.
const PATTERNS: &[&str] = &[
    "read_file",
    "Read",
    "Write",
    "write",
    "edit",
    "Edit",
    "Bash",
    "exec_shell",
    "specKit",
    "opencode-executor",
    "*",
    "read_*",
    "*_file",
    "github__*",
    "mcp__github",
    "mcp__github__read_file",
    "mcp__slack__*",
    "mcp__*",
    "*__*",
    "Bash(git:*)",
    "Bash(rm *)",
    "Bash(*)",
    "Task",
];

/// Inputs: none, a plain command, a compound command.
fn inputs() -> [Value; 3] {
    [
        json!({}),
        json!({"command": "git status"}),
        json!({"command": "rm -rf x; git status"}),
    ]
}

type Lists = (Option<Vec<&'static str>>, Vec<&'static str>);

fn lists(pool: &'static [&'static str]) -> impl Strategy<Value = Lists> {
    let pattern = proptest::sample::select(pool);
    (
        proptest::option::of(proptest::collection::vec(pattern.clone(), 0..4)),
        proptest::collection::vec(pattern, 0..3),
    )
}

/// 0 to 4 skills with distinct names.
fn skill_lists(pool: &'static [&'static str]) -> impl Strategy<Value = Vec<Lists>> {
    proptest::collection::vec(lists(pool), 0..5)
}

fn build(lists: &[Lists]) -> Vec<Skill> {
    lists
        .iter()
        .enumerate()
        .map(|(i, (allow, deny))| {
            let mut s = Skill::in_memory(format!("s{i}"), "prop", Scope::Builtin);
            s.tools = ToolPolicy {
                allow: allow
                    .as_ref()
                    .map(|a| a.iter().map(|t| (*t).to_owned()).collect()),
                deny: deny.iter().map(|t| (*t).to_owned()).collect(),
            };
            s
        })
        .collect()
}

/// The canonical keys of pattern texts.
fn keys(texts: &[String]) -> BTreeSet<String> {
    texts
        .iter()
        .map(|t| ToolPattern::parse(t).unwrap().key().to_owned())
        .collect()
}

fn mode() -> impl Strategy<Value = CompositionMode> {
    prop_oneof![
        Just(CompositionMode::Union),
        Just(CompositionMode::Intersect)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn nothing_a_member_forbids_is_ever_allowed(lists in skill_lists(PATTERNS), mode in mode()) {
        let skills = build(&lists);
        let refs: Vec<&Skill> = skills.iter().collect();
        let composition = compose(&refs, mode).unwrap();
        let gate = composition.gate();
        for skill in &skills {
            for text in &skill.tools.deny {
                let deny = ToolPattern::parse(text).unwrap();
                for tool in TOOLS {
                    for input in &inputs() {
                        if deny.matches(tool, input, Effect::Deny) {
                            prop_assert!(
                                !gate.check(tool, input).is_allowed(),
                                "{tool} {input} passed a deny of {text}"
                            );
                        }
                    }
                }
            }
        }
            let composed = composition.composed();
        let forbidden: BTreeSet<String> = keys(&composed.forbidden_tools);
        for key in keys(&composed.allowed_tools) {
            prop_assert!(!forbidden.contains(&key), "{key} both allowed and forbidden");
        }
    }

    #[test]
    fn the_effective_set_stays_within_the_ceiling(
        lists in skill_lists(PATTERNS),
        ceiling in lists(PATTERNS),
        mode in mode(),
    ) {
        let skills = build(&lists);
        let refs: Vec<&Skill> = skills.iter().collect();
        let composition = compose(&refs, mode).unwrap();
        let (allow, deny) = &ceiling;
        let parent = ToolGate::new([Policy::from_lists(
            allow.as_deref(),
            deny,
            Origin::Parent,
            &PatternContext::new(),
        )
        .unwrap()]);
        let alone = composition.gate();
        let child = composition.gate_within(&parent);
        for tool in TOOLS {
            for input in &inputs() {
                if child.check(tool, input).is_allowed() {
                    prop_assert!(parent.check(tool, input).is_allowed(), "{tool} {input} exceeds the ceiling");
                    prop_assert!(alone.check(tool, input).is_allowed(), "{tool} {input} exceeds the skills");
                }
            }
            if child.tool_visible(tool) {
                prop_assert!(parent.tool_visible(tool));
            }
        }
    }

    #[test]
    fn the_gate_agrees_with_the_effective_set(lists in skill_lists(EXACT), mode in mode()) {
        let skills = build(&lists);
        let refs: Vec<&Skill> = skills.iter().collect();
        let composition = compose(&refs, mode).unwrap();
        let gate = composition.gate();
        let set = |list: &[&str]| -> BTreeSet<String> {
            list.iter().map(|t| canonical_tool_name(t).to_owned()).collect()
        };
        let denied: BTreeSet<String> = lists.iter().flat_map(|(_, d)| set(d)).collect();
        let declared: Vec<BTreeSet<String>> =
            lists.iter().filter_map(|(a, _)| a.as_deref().map(set)).collect();
        let composed = composition.composed();
        let allowed_strings: BTreeSet<String> = set(
            &composed.allowed_tools.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        for tool in EXACT {
            let name = canonical_tool_name(tool).to_owned();
            let granted = if lists.is_empty() {
                false
            } else if declared.is_empty() {
                true
            } else {
                match mode {
                    CompositionMode::Union => declared.iter().any(|d| d.contains(&name)),
                    CompositionMode::Intersect => declared.iter().all(|d| d.contains(&name)),
                }
            };
            let expected = granted && !denied.contains(&name);
            prop_assert_eq!(gate.check(tool, &json!({})).is_allowed(), expected, "{}", tool);
            prop_assert_eq!(gate.tool_visible(tool), expected, "{}", tool);
            if !declared.is_empty() {
                prop_assert_eq!(allowed_strings.contains(&name), expected, "{} in {:?}", tool, composed);
            }
        }
    }

    #[test]
    fn the_result_does_not_depend_on_skill_order(
        (lists, order) in skill_lists(PATTERNS).prop_flat_map(|lists| {
            let n = lists.len();
            (Just(lists), Just((0..n).collect::<Vec<_>>()).prop_shuffle())
        }),
        mode in mode(),
    ) {
        let skills = build(&lists);
        let forward: Vec<&Skill> = skills.iter().collect();
        let shuffled: Vec<&Skill> = order.iter().map(|&i| &skills[i]).collect();
        let a = compose(&forward, mode).unwrap();
        let b = compose(&shuffled, mode).unwrap();
        let (ga, gb) = (a.gate(), b.gate());
        for tool in TOOLS {
            for input in &inputs() {
                prop_assert_eq!(ga.check(tool, input), gb.check(tool, input), "{} {}", tool, input);
            }
        }
        // The lists follow the request order, and of two spellings of one pattern (`Bash(*)`,
        // `exec_shell`) the first is shown: compare them as sets of patterns.
        let (ca, cb) = (a.composed(), b.composed());
        prop_assert_eq!(
            ca.skills.iter().collect::<BTreeSet<_>>(),
            cb.skills.iter().collect::<BTreeSet<_>>()
        );
        prop_assert_eq!(keys(&ca.allowed_tools), keys(&cb.allowed_tools));
        prop_assert_eq!(keys(&ca.forbidden_tools), keys(&cb.forbidden_tools));
        prop_assert_eq!(ca.unrestricted, cb.unrestricted);
    }
}
