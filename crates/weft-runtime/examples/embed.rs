//! weft inside another program, with `weft-runtime` as its only weft dependency: load the
//! skills, compose a skill set, check a tool call against it, and run one turn of the agent
//! loop with the replay provider (a recorded model, so this runs offline; the tool calls it
//! makes are real).
//!
//! `cargo run -p weft-runtime --example embed [REPOSITORY]` (default: this repository).

#![allow(clippy::print_stdout)]

use std::path::PathBuf;

use weft_runtime::policy::{CompositionMode, validate_and_compose_compiled};
use weft_runtime::session::Quiet;
use weft_runtime::{EnvSnapshot, Locations, Runtime, SessionSettings, Workspace, serde_json};

#[allow(clippy::disallowed_methods)] // the example program's own command line
#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let repo = std::env::args_os().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."),
        PathBuf::from,
    );
    // 1. Where things are: the host program decides what weft sees. Here no home directory
    //    (nothing is written) and the recorded model of fixtures/replay.
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

    // 3. A skill set validated and composed with the policies the registry compiled.
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
    let call = serde_json::json!({"url": "https://example.com"});
    let allowed = composition.gate().check("WebFetch", &call).is_allowed();
    println!("WebFetch: {}", if allowed { "allowed" } else { "denied" });

    // 5. One turn of the read-only `explore` agent.
    let settings = SessionSettings {
        agent: Some("explore".to_owned()),
        ..Default::default()
    };
    let mut session = runtime.session(&settings)?;
    let turn = session.send("Look around", &mut Quiet).await?;
    println!("tool calls: {}", turn.tool_calls);
    println!("answer: {}", turn.text.lines().next().unwrap_or_default());
    Ok(())
}
