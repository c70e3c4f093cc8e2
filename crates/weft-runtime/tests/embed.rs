//! The embedding example (`examples/embed.rs`) runs end to end: skills loaded, a skill set
//! composed, a tool call denied, one recorded turn with real tool calls.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// `target/<profile>/examples/embed`, built by `cargo test` beside this test.
#[allow(clippy::disallowed_methods)] // the example is built beside this test
fn example_exe() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap();
    let example = profile_dir
        .join("examples")
        .join(format!("embed{}", std::env::consts::EXE_SUFFIX));
    assert!(
        example.is_file(),
        "{} is missing: `cargo test` builds it; with a narrower target selection run \
         `cargo build -p weft-runtime --example embed` first",
        example.display()
    );
    example
}

#[test]
fn the_embedding_example_runs_offline() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let output = Command::new(example_exe()).arg(&repo).output().unwrap();
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
