//! Gate benchmarks: one check (allowed unscoped tool, denied tool, scoped `Bash`, a compound
//! command under scoped `Bash` patterns) and validate + compose of a 10-skill set. The
//! analyser alone is weft-shell's `analyse/compound_200`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use weft_permissions::{
    CompositionMode, Origin, PatternContext, Policy, ToolGate, compose, validate_and_compose,
};
use weft_types::{ComposabilityKind, ComposabilityRule, Scope, Skill, ToolPolicy};

/// A skill with the given tools and a requirement on `requires`.
fn skill(name: &str, allow: &[&str], deny: &[&str], requires: Option<&str>) -> Skill {
    let mut s = Skill::in_memory(name, format!("The {name} skill"), Scope::Builtin);
    s.tools = ToolPolicy {
        allow: Some(allow.iter().map(|t| (*t).to_owned()).collect()),
        deny: deny.iter().map(|t| (*t).to_owned()).collect(),
    };
    s.contract.execution_protocol = vec![
        format!("{name}-analyse"),
        format!("{name}-act"),
        "tool:read_file".to_owned(),
    ];
    if let Some(other) = requires {
        s.contract.composability_rules.push(ComposabilityRule {
            kind: ComposabilityKind::Requires,
            skill: other.to_owned(),
            reason: Some("pipeline".to_owned()),
        });
    }
    s
}

/// Ten skills of the usual shape: shared built-ins (`Read`, `Grep`, `write`, `edit`) and
/// patterns of their own (a tool, an MCP server glob, a scoped `Bash` rule, a deny).
fn ten_skills() -> Vec<Skill> {
    (0..10)
        .map(|i| {
            let name = format!("skill-{i}");
            let requires = format!("skill-{}", (i + 1) % 10);
            let own_tool = format!("tool-{i}");
            let own_mcp = format!("server{i}__*");
            let own_bash = format!("Bash(script-{i}:*)");
            let own_deny = format!("legacy-{i}");
            skill(
                &name,
                &["Read", "Grep", &own_tool, &own_mcp, &own_bash],
                &["write", "edit", &own_deny],
                Some(&requires),
            )
        })
        .collect()
}

/// A session gate: an agent layer, a two-skill composition, and a parent ceiling.
fn session_gate() -> ToolGate {
    let ctx = PatternContext::new();
    let agent = Policy::from_lists(
        Some(
            &[
                "Read",
                "Grep",
                "Glob",
                "LS",
                "Bash(git:*)",
                "Bash(npm run *)",
                "specKit",
                "opencode-executor",
                "github__*",
            ][..],
        ),
        &["WebFetch"],
        Origin::Agent("coder".into()),
        &ctx,
    )
    .unwrap();
    let a = skill(
        "specification-engine",
        &["specKit", "Read", "Bash(git:*)"],
        &[],
        None,
    );
    let b = skill(
        "opencode-implementer",
        &["opencode-executor", "Read"],
        &["write", "edit"],
        None,
    );
    let composition = compose(&[&a, &b], CompositionMode::Union).unwrap();
    let parent = ToolGate::new([Policy::from_lists(
        Some(&["*", "github__*"][..]),
        &["memory_write"],
        Origin::Parent,
        &ctx,
    )
    .unwrap()]);
    composition.gate_within(&ToolGate::new([agent]).intersect(&parent))
}

fn gate_checks(c: &mut Criterion) {
    let gate = session_gate();
    let empty = json!({});
    let git = json!({"command": "git status --short"});
    assert!(gate.check("read_file", &empty).is_allowed());
    assert!(!gate.check("write", &empty).is_allowed());
    assert!(gate.check("exec_shell", &git).is_allowed());

    c.bench_function("check/allowed_unscoped", |b| {
        b.iter(|| gate.check(black_box("read_file"), black_box(&empty)))
    });
    c.bench_function("check/allowed_alias", |b| {
        b.iter(|| gate.check(black_box("Read"), black_box(&empty)))
    });
    c.bench_function("check/denied", |b| {
        b.iter(|| gate.check(black_box("write"), black_box(&empty)))
    });
    c.bench_function("check/scoped_bash", |b| {
        b.iter(|| gate.check(black_box("exec_shell"), black_box(&git)))
    });
    c.bench_function("tool_visible", |b| {
        b.iter(|| gate.tool_visible(black_box("exec_shell")))
    });
    let compound = json!({ "command": COMPOUND });
    let ctx = PatternContext::new();
    let reader = ToolGate::new([Policy::from_lists(
        Some(
            &[
                "Bash(git log:*)",
                "Bash(git diff:*)",
                "Bash(cargo test:*)",
                "Bash(cd:*)",
            ][..],
        ),
        &["Bash(git push:*)", "Bash(rm:*)"],
        Origin::Skill("reader".into()),
        &ctx,
    )
    .unwrap()]);
    assert!(
        reader.check("exec_shell", &compound).is_allowed(),
        "{}",
        reader.check("exec_shell", &compound)
    );
    c.bench_function("check/scoped_bash_compound_200", |b| {
        b.iter(|| reader.check(black_box("exec_shell"), black_box(&compound)))
    });
}

/// A 200-character compound command of the usual shape: `cd`, pipelines of git and filters,
/// `&&`, `||`, redirections, a command substitution (weft-shell's `analyse/compound_200`).
const COMPOUND: &str = "cd crates/weft && git log --oneline -n 20 | grep -v fixup | head -5; cargo test -p weft-permissions 2>&1 | tail -20 && git diff --stat HEAD~1 -- src/ | sort -r > /dev/null || echo \"failed: $(date)\"";

fn validate_compose(c: &mut Criterion) {
    let skills = ten_skills();
    let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
    let lookup = |n: &str| skills.iter().find(|s| s.name == n);
    let known = ["read_file", "exec_shell", "specKit"];
    let ctx = PatternContext::new();
    let (result, composition) =
        validate_and_compose(&names, lookup, &known, CompositionMode::Union, &ctx);
    assert!(result.valid, "{result:?}");
    assert!(composition.is_some());

    c.bench_function("validate_and_compose/10_skills", |b| {
        b.iter(|| {
            validate_and_compose(
                black_box(&names),
                lookup,
                &known,
                CompositionMode::Union,
                &ctx,
            )
        })
    });
    let refs: Vec<&Skill> = skills.iter().collect();
    c.bench_function("compose/10_skills", |b| {
        b.iter(|| compose(black_box(&refs), CompositionMode::Union))
    });

    // Seed-sized skills: one or two tools each, like seed 003's built-ins.
    let small: Vec<Skill> = (0..10)
        .map(|i| {
            let own = format!("tool-{i}");
            let requires = format!("small-{}", (i + 1) % 10);
            skill(
                &format!("small-{i}"),
                &[&own, "Read"],
                &["write"],
                Some(&requires),
            )
        })
        .collect();
    let small_names: Vec<&str> = small.iter().map(|s| s.name.as_str()).collect();
    let small_lookup = |n: &str| small.iter().find(|s| s.name == n);
    c.bench_function("validate_and_compose/10_small_skills", |b| {
        b.iter(|| {
            validate_and_compose(
                black_box(&small_names),
                small_lookup,
                &known,
                CompositionMode::Union,
                &ctx,
            )
        })
    });
}

criterion_group!(benches, gate_checks, validate_compose);
criterion_main!(benches);
