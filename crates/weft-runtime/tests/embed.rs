//! The embedding examples run end to end, as the programs `cargo test` builds beside this
//! test (no second cargo run): `examples/embed.rs` (skills loaded, a skill set composed, a
//! tool call denied, one recorded turn with real tool calls) and `examples/custom_model.rs`
//! (a model and a tool of the program's own, the tool really called).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// `target/<profile>/examples/NAME`, built by `cargo test` beside this test.
#[allow(clippy::disallowed_methods)] // the example is built beside this test
fn example_exe(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap();
    let example = profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        example.is_file(),
        "{} is missing: `cargo test` builds it; with a narrower target selection run \
         `cargo build -p weft-runtime --examples` first",
        example.display()
    );
    example
}

#[test]
fn the_embedding_example_runs_offline() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let output = Command::new(example_exe("embed"))
        .arg(&repo)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let (skills, rest) = stdout.split_once('\n').unwrap();
    let count: usize = skills.strip_prefix("skills: ").unwrap().parse().unwrap();
    assert!(count >= 2, "{skills}");
    assert_eq!(
        rest,
        "valid: true\n\
         allowed: read_file, grep, glob, list_directory, edit_file, write_file, exec_shell\n\
         WebFetch: denied\n\
         tool calls: 3\n\
         answer: The fixtures directory holds sample skills, definitions and agents used by \
         the tests. I could not run the shell command: this agent is read-only.\n"
    );
}

#[test]
fn the_custom_model_example_calls_its_own_tool() {
    let output = Command::new(example_exe("custom_model")).output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // "to be or not to be": six words, counted by the tool, reported by the model.
    assert_eq!(stdout, "tool calls: 1\nanswer: 6 words.\n");
}
