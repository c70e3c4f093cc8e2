//! `Runtime::dry_run_session`: the session a dry run previews, offline and without a key.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use weft_runtime::session::Quiet;
use weft_runtime::{EnvSnapshot, Locations, NO_PROVIDER, Runtime, SessionSettings, Workspace};

/// A runtime for a project under `root` with only `config` (if any) as its configuration.
fn runtime_in(root: &Path, config: Option<&str>) -> Runtime {
    let home = root.join("home");
    let project = root.join("project");
    std::fs::create_dir_all(home.join(".clawft")).unwrap();
    std::fs::create_dir_all(project.join(".clawft")).unwrap();
    if let Some(config) = config {
        std::fs::write(home.join(".clawft/config.json"), config).unwrap();
    }
    let locations = Locations {
        project: Some(project.clone()),
        home: Some(home),
        ..Locations::default()
    };
    let env = EnvSnapshot::default().with_current_dir(&project);
    Runtime::builder(&Workspace::resolve(&locations, env))
        .build()
        .unwrap()
}

fn settings() -> SessionSettings {
    SessionSettings {
        transcripts: false,
        ..SessionSettings::default()
    }
}

#[tokio::test]
async fn without_a_provider_the_preview_uses_a_placeholder_that_sends_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let runtime = runtime_in(tmp.path(), None);
    let Err(e) = runtime.session(&settings()) else {
        panic!("a session without a provider");
    };
    assert_eq!(e.to_string(), NO_PROVIDER);

    let mut session = runtime.dry_run_session(&settings()).unwrap();
    assert_eq!(session.model().to_string(), "offline/dry-run");
    let request = session.preview("hello");
    assert_eq!(request.model, "dry-run");
    assert_eq!(request.messages.last().unwrap().content, "hello");
    let Err(e) = session.send("hello", &mut Quiet).await else {
        panic!("the placeholder answered");
    };
    assert!(e.to_string().contains("dry run: nothing is sent"), "{e}");
}

#[test]
fn with_a_provider_whose_key_is_missing_the_preview_uses_the_configured_model() {
    let tmp = tempfile::tempdir().unwrap();
    let config = r#"{
        "providers": {"local": {"base_url": "http://127.0.0.1:9/v1", "api_key_env": "NO_SUCH_KEY_VARIABLE"}},
        "model": "local/small"
    }"#;
    let runtime = runtime_in(tmp.path(), Some(config));
    let Err(e) = runtime.session(&settings()) else {
        panic!("a session without its provider's key");
    };
    assert!(e.to_string().starts_with("provider `local`: "), "{e}");
    let mut session = runtime.dry_run_session(&settings()).unwrap();
    assert_eq!(session.model().to_string(), "local/small");
    assert_eq!(session.preview("hi").model, "small");
}
