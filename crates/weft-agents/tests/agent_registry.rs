//! Agent discovery on real directories: precedence project > user > built-in with every
//! shadowed copy recorded, every file layout (`<name>.yaml`, Claude Code `<name>.md`,
//! `<name>/AGENT.md`), broken files reported while the rest load, README.md ignored.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use weft_agents::{AgentRegistry, AgentRoot, ShadowedAgent};
use weft_parse::{ParseOptions, Profile};
use weft_types::{AgentDefinition, AgentFormat, Scope, Severity, Source};

const BUILTINS: [&str; 6] = [
    "coder",
    "default",
    "explore",
    "general-purpose",
    "plan",
    "planner",
];

/// A temporary project and home, with the roots the CLI uses (highest precedence first).
struct Dirs {
    _tmp: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
}

impl Dirs {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("project");
        let home = tmp.path().join("home");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        Self {
            _tmp: tmp,
            project,
            home,
        }
    }

    fn roots(&self) -> Vec<AgentRoot> {
        vec![
            AgentRoot::new(self.project.join(".clawft/agents"), Scope::Project),
            AgentRoot::new(self.project.join(".claude/agents"), Scope::Project),
            AgentRoot::new(self.home.join(".clawft/agents"), Scope::User),
            AgentRoot::new(self.home.join(".claude/agents"), Scope::User),
        ]
    }

    fn discover(&self) -> AgentRegistry {
        AgentRegistry::discover(&self.roots(), &ParseOptions::new(Profile::Load))
    }
}

fn write(path: &Path, text: &str) -> PathBuf {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    path.to_path_buf()
}

fn yaml(name: &str, description: &str) -> String {
    format!("name: {name}\ndescription: {description}\nsystem_prompt: You are {name}.\n")
}

fn claude_md(name: &str, description: &str, tools: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: {description}\ntools: {tools}\n---\n\nYou are {name}.\n"
    )
}

#[test]
fn the_six_builtins_are_present() {
    let registry = AgentRegistry::builtins();
    assert_eq!(registry.names().collect::<Vec<_>>(), BUILTINS);
    for entry in registry.list() {
        assert_eq!(
            entry.agent.source.scope,
            Scope::Builtin,
            "{}",
            entry.agent.name
        );
        assert_eq!(entry.agent.source.format, AgentFormat::Builtin);
        assert!(entry.agent.source.path.is_none());
        assert!(entry.shadows.is_empty());
        assert!(
            entry
                .agent
                .system_prompt
                .as_deref()
                .is_some_and(|p| !p.trim().is_empty()),
            "{}",
            entry.agent.name
        );
    }
    assert!(registry.diagnostics().is_empty());
    // Discovery over directories that do not exist gives exactly the built-ins.
    let dirs = Dirs::new();
    let empty = dirs.discover();
    assert_eq!(empty.names().collect::<Vec<_>>(), BUILTINS);
    assert!(empty.diagnostics().is_empty());
}

#[test]
fn every_layout_loads_with_its_scope_and_format() {
    let dirs = Dirs::new();
    let x = write(
        &dirs.project.join(".clawft/agents/x.yaml"),
        &yaml("x", "The x agent"),
    );
    let y = write(
        &dirs.project.join(".claude/agents/y.md"),
        &claude_md("y", "The y agent", "Read, Grep"),
    );
    let z = write(
        &dirs.home.join(".clawft/agents/z/AGENT.md"),
        "---\nname: z\ndescription: The z agent\nmodel: inherit\n---\n\nYou are z.\n",
    );
    let registry = dirs.discover();
    assert!(
        registry.diagnostics().is_empty(),
        "{:?}",
        registry.diagnostics()
    );

    let x_entry = registry.get("x").unwrap();
    assert_eq!(x_entry.agent.source.scope, Scope::Project);
    assert_eq!(x_entry.agent.source.format, AgentFormat::Yaml);
    assert_eq!(x_entry.agent.source.path.as_deref(), Some(x.as_path()));
    assert_eq!(x_entry.agent.description, "The x agent");

    let y_entry = registry.get("y").unwrap();
    assert_eq!(y_entry.agent.source.scope, Scope::Project);
    assert_eq!(y_entry.agent.source.format, AgentFormat::Markdown);
    assert_eq!(y_entry.agent.source.path.as_deref(), Some(y.as_path()));
    assert_eq!(
        y_entry.agent.tools.as_deref(),
        Some(&["Read".to_owned(), "Grep".to_owned()][..])
    );
    assert_eq!(
        y_entry.agent.system_prompt.as_deref().map(str::trim),
        Some("You are y.")
    );

    let z_entry = registry.get("z").unwrap();
    assert_eq!(z_entry.agent.source.scope, Scope::User);
    assert_eq!(z_entry.agent.source.path.as_deref(), Some(z.as_path()));
    assert_eq!(z_entry.agent.model.as_deref(), Some("inherit"));

    let mut expected: Vec<&str> = BUILTINS.to_vec();
    expected.extend(["x", "y", "z"]);
    expected.sort_unstable();
    assert_eq!(registry.names().collect::<Vec<_>>(), expected);
}

#[test]
fn project_beats_user_beats_builtin_and_shadows_are_recorded() {
    let dirs = Dirs::new();
    let user_x = write(
        &dirs.home.join(".clawft/agents/x.yaml"),
        &yaml("x", "user x"),
    );
    let project_x = write(
        &dirs.project.join(".clawft/agents/x.yaml"),
        &yaml("x", "project x"),
    );
    // A user `explore` over the built-in; a project `coder` over the built-in.
    let user_explore = write(
        &dirs.home.join(".claude/agents/explore.md"),
        &claude_md("explore", "user explore", "Read"),
    );
    let project_coder = write(
        &dirs.project.join(".clawft/agents/coder/AGENT.md"),
        "---\nname: coder\ndescription: project coder\nmodel: openai/gpt-4o\ntools: [read_file, write_file]\n---\n\nYou code for this project.\n",
    );
    let registry = dirs.discover();
    assert!(
        registry.diagnostics().is_empty(),
        "{:?}",
        registry.diagnostics()
    );

    let x = registry.get("x").unwrap();
    assert_eq!(x.agent.description, "project x");
    assert_eq!(
        x.shadows,
        [ShadowedAgent {
            scope: Scope::User,
            path: Some(user_x)
        }]
    );
    assert_eq!(x.agent.source.path.as_deref(), Some(project_x.as_path()));

    let explore = registry.get("explore").unwrap();
    assert_eq!(explore.agent.description, "user explore");
    assert_eq!(
        explore.agent.source.path.as_deref(),
        Some(user_explore.as_path())
    );
    assert_eq!(
        explore.shadows,
        [ShadowedAgent {
            scope: Scope::Builtin,
            path: None
        }]
    );

    let coder = registry.get("coder").unwrap();
    assert_eq!(coder.agent.description, "project coder");
    assert_eq!(coder.agent.source.scope, Scope::Project);
    assert_eq!(
        coder.agent.source.path.as_deref(),
        Some(project_coder.as_path())
    );
    assert_eq!(coder.agent.model.as_deref(), Some("openai/gpt-4o"));
    assert_eq!(
        coder.agent.tools.as_deref(),
        Some(&["read_file".to_owned(), "write_file".to_owned()][..])
    );
    assert_eq!(
        coder.shadows,
        [ShadowedAgent {
            scope: Scope::Builtin,
            path: None
        }]
    );

    // The other built-ins are untouched.
    for name in ["default", "plan", "planner", "general-purpose"] {
        let entry = registry.get(name).unwrap();
        assert_eq!(entry.agent.source.scope, Scope::Builtin, "{name}");
        assert!(entry.shadows.is_empty(), "{name}");
    }
}

#[test]
fn three_levels_record_every_shadow_highest_first() {
    let dirs = Dirs::new();
    let user = write(
        &dirs.home.join(".clawft/agents/plan.yaml"),
        &yaml("plan", "user plan"),
    );
    let project = write(
        &dirs.project.join(".claude/agents/plan.md"),
        &claude_md("plan", "project plan", "Read"),
    );
    let registry = dirs.discover();
    let plan = registry.get("plan").unwrap();
    assert_eq!(plan.agent.description, "project plan");
    assert_eq!(plan.agent.source.path.as_deref(), Some(project.as_path()));
    assert_eq!(
        plan.shadows,
        [
            ShadowedAgent {
                scope: Scope::User,
                path: Some(user)
            },
            ShadowedAgent {
                scope: Scope::Builtin,
                path: None
            },
        ]
    );
}

#[test]
fn within_one_scope_the_earlier_root_wins() {
    let dirs = Dirs::new();
    let clawft = write(
        &dirs.project.join(".clawft/agents/dup.yaml"),
        &yaml("dup", "from .clawft"),
    );
    let claude = write(
        &dirs.project.join(".claude/agents/dup.md"),
        &claude_md("dup", "from .claude", "Read"),
    );
    let home_clawft = write(
        &dirs.home.join(".clawft/agents/mine.yaml"),
        &yaml("mine", "home .clawft"),
    );
    let home_claude = write(
        &dirs.home.join(".claude/agents/mine.md"),
        &claude_md("mine", "home .claude", "Read"),
    );
    let registry = dirs.discover();

    let dup = registry.get("dup").unwrap();
    assert_eq!(dup.agent.description, "from .clawft");
    assert_eq!(dup.agent.source.path.as_deref(), Some(clawft.as_path()));
    assert_eq!(
        dup.shadows,
        [ShadowedAgent {
            scope: Scope::Project,
            path: Some(claude)
        }]
    );

    let mine = registry.get("mine").unwrap();
    assert_eq!(
        mine.agent.source.path.as_deref(),
        Some(home_clawft.as_path())
    );
    assert_eq!(
        mine.shadows,
        [ShadowedAgent {
            scope: Scope::User,
            path: Some(home_claude)
        }]
    );
}

#[test]
fn a_broken_file_is_reported_and_the_others_still_load() {
    let dirs = Dirs::new();
    let broken = write(
        &dirs.project.join(".clawft/agents/broken.json"),
        "{\"name\": \"broken\", \"description\": \"missing brace\"",
    );
    write(
        &dirs.project.join(".clawft/agents/good.yaml"),
        &yaml("good", "A good agent"),
    );
    write(
        &dirs.project.join(".claude/agents/fine.md"),
        &claude_md("fine", "A fine agent", "Read"),
    );
    // A broken project file does not hide the built-in of the same name.
    let broken_coder = write(
        &dirs.project.join(".claude/agents/coder.md"),
        "---\nname: coder\ndescription: [unclosed\n---\n\nbody\n",
    );
    let registry = dirs.discover();

    assert!(registry.get("broken").is_none());
    assert!(registry.get("good").is_some());
    assert!(registry.get("fine").is_some());
    let coder = registry.get("coder").unwrap();
    assert_eq!(coder.agent.source.scope, Scope::Builtin);

    let errors: Vec<_> = registry
        .diagnostics()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(
        errors
            .iter()
            .any(|d| d.path.as_deref() == Some(broken.as_path())),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|d| d.path.as_deref() == Some(broken_coder.as_path())),
        "{errors:?}"
    );
    // Only the two broken files have errors.
    assert!(
        errors
            .iter()
            .all(|d| d.path.as_deref() == Some(broken.as_path())
                || d.path.as_deref() == Some(broken_coder.as_path())),
        "{errors:?}"
    );
}

#[cfg(unix)]
#[test]
fn names_that_are_not_utf8_are_reported_not_skipped_in_silence() {
    use std::os::unix::ffi::OsStrExt as _;
    let dirs = Dirs::new();
    let agents = dirs.project.join(".clawft/agents");
    let file = agents.join(std::ffi::OsStr::from_bytes(b"odd-\xff.md"));
    write(&file, &yaml("odd", "An odd agent"));
    let folder = agents.join(std::ffi::OsStr::from_bytes(b"odd-\xfe"));
    write(
        &folder.join("AGENT.md"),
        &claude_md("folder", "In an odd folder", "Read"),
    );
    // Not an agent file whatever its name: no warning.
    write(
        &agents.join(std::ffi::OsStr::from_bytes(b"notes-\xff.txt")),
        "x",
    );
    let registry = dirs.discover();
    let shown: Vec<(String, String)> = registry
        .diagnostics()
        .iter()
        .map(|d| (d.code.clone(), d.message.clone()))
        .collect();
    let lossy = |p: &Path| p.to_string_lossy().into_owned();
    assert_eq!(
        shown,
        [
            (
                "W185".to_owned(),
                format!(
                    "directory name is not valid UTF-8 ({}); it cannot name an agent and is not entered",
                    lossy(&folder)
                )
            ),
            (
                "W185".to_owned(),
                format!(
                    "file name is not valid UTF-8 ({}); it cannot name an agent and is not read",
                    lossy(&file)
                )
            ),
        ]
    );
}

#[test]
fn readme_and_other_files_are_ignored() {
    let dirs = Dirs::new();
    let agents = dirs.project.join(".claude/agents");
    write(
        &agents.join("README.md"),
        "# Agents\n\nThis folder holds our agents. Not an agent: no frontmatter.\n",
    );
    write(
        &agents.join("readme.md"),
        "lower-case readme, still not an agent\n",
    );
    write(&agents.join("notes.txt"), "not an agent\n");
    write(
        &agents.join(".hidden.md"),
        "---\nname: hidden\ndescription: x\n---\n",
    );
    write(
        &agents.join("real.md"),
        &claude_md("real", "A real agent", "Read"),
    );
    // A directory without an agent file in it is not an agent either.
    std::fs::create_dir_all(agents.join("empty")).unwrap();
    write(&agents.join("empty/notes.md"), "nothing\n");

    let registry = dirs.discover();
    assert!(
        registry.diagnostics().is_empty(),
        "{:?}",
        registry.diagnostics()
    );
    let mut expected: Vec<&str> = BUILTINS.to_vec();
    expected.push("real");
    expected.sort_unstable();
    assert_eq!(registry.names().collect::<Vec<_>>(), expected);
}

#[test]
fn the_repository_fixtures_load() {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/agents");
    let registry = AgentRegistry::discover(
        &[AgentRoot::new(&fixtures, Scope::Project)],
        &ParseOptions::new(Profile::Load),
    );
    // broken.json is reported; the others load; coder/AGENT.md overrides the built-in.
    assert!(registry.get("broken").is_none());
    assert!(
        registry
            .diagnostics()
            .iter()
            .any(|d| d.is_error()
                && d.path.as_deref() == Some(fixtures.join("broken.json").as_path())),
        "{:?}",
        registry.diagnostics()
    );
    for name in ["researcher", "code-reviewer", "coder"] {
        let entry = registry.get(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(entry.agent.source.scope, Scope::Project, "{name}");
    }
    assert_eq!(
        registry.get("coder").unwrap().shadows,
        [ShadowedAgent {
            scope: Scope::Builtin,
            path: None
        }]
    );
}

#[test]
fn register_replaces_and_records_the_replaced_one() {
    let mut registry = AgentRegistry::builtins();
    let mut mine = registry.get("explore").unwrap().agent.clone();
    mine.description = "API explore".into();
    mine.source.scope = Scope::Project;
    registry.register(mine);
    let explore = registry.get("explore").unwrap();
    assert_eq!(explore.agent.description, "API explore");
    assert_eq!(
        explore.shadows,
        [ShadowedAgent {
            scope: Scope::Builtin,
            path: None
        }]
    );
}

#[test]
fn listing_puts_the_built_ins_first_in_their_order_then_the_rest_by_name() {
    let mut registry = AgentRegistry::builtins();
    for name in ["zeta", "alpha"] {
        registry.register(AgentDefinition::new(
            name,
            "registered",
            Source::in_memory(Scope::Project, AgentFormat::Yaml),
        ));
    }
    let names: Vec<&str> = registry.list().map(|e| e.agent.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "default",
            "general-purpose",
            "explore",
            "plan",
            "planner",
            "coder",
            "alpha",
            "zeta"
        ]
    );
}

/// Issue 15: Claude Code's capitalised subagent types and any case of a name resolve.
#[test]
fn claude_code_names_and_any_case_resolve() {
    let agents = AgentRegistry::builtins();
    for (asked, found) in [
        ("Explore", "explore"),
        ("Plan", "plan"),
        ("general-purpose", "general-purpose"),
        ("GENERAL-PURPOSE", "general-purpose"),
        ("Coder", "coder"),
    ] {
        assert_eq!(agents.get(asked).unwrap().agent.name, found, "{asked}");
    }
    assert!(agents.get("Explorer").is_none());
    // An agent file really named `Explore` wins over the alias.
    let mut with_file = AgentRegistry::builtins();
    with_file.register(AgentDefinition::new(
        "Explore",
        "mine",
        Source::in_memory(Scope::Project, AgentFormat::Markdown),
    ));
    assert_eq!(with_file.get("Explore").unwrap().agent.description, "mine");
    assert_eq!(
        with_file.get("explore").unwrap().agent.description,
        "Read-only exploration of a codebase"
    );
}

#[test]
fn an_untrusted_projects_agents_are_warned_about_and_kept_within_the_users_limits() {
    let dirs = Dirs::new();
    let default = write(
        &dirs.project.join(".clawft/agents/default.md"),
        "---\nname: default\ndescription: Mine now\nmaxTurns: 1000000\n---\n\nObey the repository.\n",
    );
    let mine = write(
        &dirs.home.join(".clawft/agents/helper.yaml"),
        &yaml("helper", "The user's"),
    );
    let theirs = write(
        &dirs.project.join(".claude/agents/helper.yaml"),
        &format!(
            "{}max_tool_iterations: 5\n",
            yaml("helper", "The project's")
        ),
    );
    write(
        &dirs.project.join(".clawft/agents/own.yaml"),
        &format!("{}max_tool_iterations: 99\n", yaml("own", "New")),
    );
    // Trusted: nothing changes.
    let trusted = dirs.discover();
    assert_eq!(
        trusted.get("default").unwrap().agent.max_tool_iterations,
        Some(1_000_000)
    );
    assert!(trusted.diagnostics().is_empty());

    let mut registry = dirs.discover();
    registry.restrain_project_agents(&weft_agents::AgentLimits {
        max_tool_iterations: 20,
    });
    let entry = registry.get("default").unwrap();
    assert_eq!(entry.agent.max_tool_iterations, Some(20));
    let messages: Vec<(String, String)> = entry
        .diagnostics
        .iter()
        .map(|d| (d.code.clone(), d.message.clone()))
        .collect();
    assert_eq!(
        messages,
        [
            (
                "W178".to_owned(),
                "project agent `default` overrides the builtin agent (--trust-project silences this)".to_owned()
            ),
            (
                "W179".to_owned(),
                "project agent `default` asks for max_tool_iterations 1000000; lowered to your limit of 20 (--trust-project lifts it)".to_owned()
            ),
        ]
    );
    assert_eq!(
        entry.diagnostics[0].path.as_deref(),
        Some(default.as_path())
    );
    // Over the user's agent: named with its file; within the limit: untouched.
    let helper = registry.get("helper").unwrap();
    assert_eq!(helper.agent.max_tool_iterations, Some(5));
    assert_eq!(
        helper.diagnostics[0].message,
        format!(
            "project agent `helper` overrides the user agent at {} (--trust-project silences this)",
            mine.display()
        )
    );
    assert_eq!(
        helper.diagnostics[0].path.as_deref(),
        Some(theirs.as_path())
    );
    // A new name overrides nothing; its limit is still the user's.
    let own = registry.get("own").unwrap();
    assert_eq!(own.agent.max_tool_iterations, Some(20));
    assert_eq!(own.diagnostics.len(), 1);
    assert_eq!(registry.diagnostics().len(), 4);
    // The user's own agents are never touched.
    assert!(registry.get("explore").unwrap().diagnostics.is_empty());
}

#[test]
fn plugin_agents_are_namespaced_and_their_prompts_know_the_plugin_root() {
    let tmp = tempfile::tempdir().unwrap();
    let fmt = tmp.path().join("fmt");
    let write = |rel: &str, text: &str| {
        let path = fmt.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "agents/reviewer.md",
        "---\ndescription: Reviews code\ncapabilities: [review]\n---\nRun ${CLAUDE_PLUGIN_ROOT}/bin/check $1.\n",
    );
    write(
        "extra/solo.md",
        "---\nname: solo\ndescription: One file\n---\nAlone.\n",
    );
    let plugin = weft_types::PluginRef {
        name: "fmt".into(),
        id: "fmt@acme".into(),
        root: fmt.clone(),
        data: None,
    };
    let roots = [
        AgentRoot::new(fmt.join("agents"), Scope::Plugin).of_plugin(plugin.clone()),
        AgentRoot::new(fmt.join("extra/solo.md"), Scope::Plugin).of_plugin(plugin),
    ];
    let registry = AgentRegistry::discover(&roots, &ParseOptions::new(Profile::Load));
    let reviewer = &registry.get("fmt:reviewer").unwrap().agent;
    assert_eq!(
        reviewer.system_prompt.as_deref().map(str::trim),
        Some(format!("Run {}/bin/check $1.", fmt.display()).as_str())
    );
    assert_eq!(reviewer.source.plugin.as_ref().unwrap().id, "fmt@acme");
    // The bare name finds the one plugin agent of that name; a built-in keeps its own.
    assert_eq!(registry.get("reviewer").unwrap().agent.name, "fmt:reviewer");
    assert_eq!(registry.get("solo").unwrap().agent.name, "fmt:solo");
    assert_eq!(
        registry.get("explore").unwrap().agent.source.scope,
        Scope::Builtin
    );
}
