//! weft inside another program: load the skills, compose a skill set, check a tool call
//! against it, and run one turn of the agent loop with the replay provider (a recorded
//! model, so this runs offline; the tool calls it makes are real).
//!
//! `cargo run -p weft-runtime --example embed [REPOSITORY]` (default: this repository).

#![allow(clippy::print_stdout)]

use std::path::PathBuf;

use serde_json::json;
use weft_agents::Quiet;
use weft_permissions::{CompositionMode, validate_and_compose_compiled};
use weft_runtime::{EnvSnapshot, Locations, Runtime, SessionSettings, Workspace};

#[allow(clippy::disallowed_methods)] // the example program's own command line
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let repo = std::env::args_os().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."),
        PathBuf::from,
    );

    // 1. Where things are. The host program decides what weft sees: here no home
    //    directory (nothing is written) and the recorded model of fixtures/replay.
    let locations = Locations {
        project: Some(repo.clone()),
        config: Some(repo.join("fixtures/replay/config.json")),
        ..Locations::default()
    };
    let workspace = Workspace::resolve(&locations, EnvSnapshot::default().with_current_dir(&repo));
    let runtime = Runtime::load(&workspace)?;

    // 2. The skills: the project's and the built-in ones.
    let snapshot = runtime.skills.snapshot();
    println!("skills: {}", snapshot.entries().len());

    // 3. A skill set, validated and composed (seed 003's example) with the tool policies
    //    the registry compiled when it found the skills.
    let names = ["specification-engine", "opencode-implementer"];
    let lookup = |name: &str| snapshot.get(name).map(|e| (&e.skill, e.policy()));
    let (validation, composition) =
        validate_and_compose_compiled(&names, lookup, &[], CompositionMode::Union);
    println!("valid: {}", validation.valid);
    let composition = composition.ok_or("the skill set is not valid")?;
    println!(
        "allowed: {}",
        composition.composed().allowed_tools.join(", ")
    );

    // 4. A tool call checked against the composed set: the set grants no web access.
    let decision = composition
        .gate()
        .check("WebFetch", &json!({"url": "https://example.com"}));
    println!(
        "WebFetch: {}",
        if decision.is_allowed() {
            "allowed"
        } else {
            "denied"
        }
    );

    // 5. One turn of the read-only `explore` agent.
    let mut session = runtime.session(&SessionSettings {
        agent: Some("explore".to_owned()),
        ..SessionSettings::default()
    })?;
    let turn = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(session.send("Look around", &mut Quiet))?;
    println!("tool calls: {}", turn.tool_calls);
    println!("answer: {}", turn.text.lines().next().unwrap_or_default());
    Ok(())
}
