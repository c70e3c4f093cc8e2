//! `cargo xtask compat-layouts`: skill trees laid out as Claude Code, Codex and OpenClaw users
//! have them, to point weft at (issue 15). Each [`Layout`] is a directory of its own under
//! the output: a Claude Code project with every skill field weft honours or reports and a
//! `.claude/commands` folder, a git-only Codex repository (with `.codex/skills`), a monorepo, a
//! repository inside a directory that has skills of its own, an OpenClaw workspace with its
//! config, and a user's home directory (`~/.claude/skills`, `~/.claude/commands`,
//! `~/.codex/skills`).
//!
//! The CLI's conformance tests (`crates/weft-cli/tests/compat.rs`) include this file
//! (`#[path]`) and run one test per row of docs/COMPATIBILITY.md against these trees, so the
//! trees documented here are exactly the ones tested.

use std::fs;
use std::path::Path;

use anyhow::{Context as _, Result, bail};

/// Marker written at the root of a generated tree: `--force` only replaces such a tree.
pub const MARKER_FILE: &str = ".weft-compat-layouts";

/// One layout.
pub struct Layout {
    /// The directory under the output, also its id.
    pub dir: &'static str,
    /// Whose layout it is.
    pub runtime: &'static str,
    /// What it holds.
    pub what: &'static str,
    /// Every file as (path under `dir`, content); a path ending in `/` is an empty directory.
    pub files: &'static [(&'static str, &'static str)],
}

/// A fork skill written for Claude Code: capitalised agent type, an Anthropic alias, effort,
/// named arguments.
const REVIEW: &str = "---
name: review
description: Review a file for a focus area
when_to_use: Use when the user asks for a review of one file.
context: fork
agent: Explore
model: haiku
effort: high
arguments: [file, focus]
argument-hint: <file> <focus>
allowed-tools: Read Grep Glob
---

Review $file with a focus on $focus (effort ${CLAUDE_EFFORT}).
";

/// An inline skill with a model alias, an effort and an argument that may stay unfilled.
const EXPLAIN: &str = "---
name: explain
description: Explain a topic of this codebase
model: sonnet
effort: low
arguments: [topic, depth]
---

Explain $topic at depth $depth, thinking at ${CLAUDE_EFFORT} effort. `$topic` in code stays.
";

/// A skill that keeps the session's model.
const SUMMARIZE: &str = "---
name: summarize
description: Summarize the conversation so far
model: inherit
---

Summarize.
";

/// A conditional skill (`paths:`).
const RUST_STYLE: &str = "---
name: rust-style
description: Rust style rules for this project
paths: \"src/**/*.rs\"
---

Use rustfmt defaults.
";

/// Placeholders: the project directory, a hyphenated argument name, an argument that may be
/// missing, and a plugin directory weft never has.
const LOCATE: &str = "---
name: locate
description: Open a file of the project at a line
arguments: [file-name, line]
---

Open ${CLAUDE_PROJECT_DIR}/$file-name at line $line (plugin data: ${CLAUDE_PLUGIN_DATA}).
";

/// `disallowed-tools`: the shell and file writes are removed while the skill is active.
const LOOK_ONLY: &str = "---
name: look-only
description: Look around without changing anything
disallowed-tools: Bash, Write
---

Look around.
";

/// A skill only the user runs, with Claude Code's indexed, session and directory placeholders.
const SHIP: &str = "---
name: ship
description: Ship a release
disable-model-invocation: true
argument-hint: <version> [channel]
---

Ship $ARGUMENTS[0] on ${1} (session ${CLAUDE_SESSION_ID}), with ${CLAUDE_SKILL_DIR}/checklist.md.
";

/// Background knowledge only the model loads.
const STYLE_GUIDE: &str = "---
name: style-guide
description: The project's writing style
user-invocable: false
---

Write plainly.
";

/// A conditional skill whose scalar `paths:` has a brace group (one glob) and a second glob.
const WEB_STYLE: &str = "---
name: web-style
description: TypeScript style rules for the web client
paths: \"web/**/*.{ts,tsx}, docs/*.md\"
---

Use the project's ESLint rules.
";

/// Fields weft recognises but does not implement, plus a typo and unknown tools.
const HOOKED: &str = "---
name: hooked
description: A skill with hooks and a shell
hooks:
  PreToolUse: []
shell: bash
background: true
allowed-tools: Read Bassh(git:*) Frobnicate WebSearch mcp__github__create_issue
agent: Explorer
descripton: typo
---

Body.
";

/// Dynamic context: an inline command that writes in the project, one that writes outside it
/// (the sandbox stops it in `auto`), and a fenced block.
const CONTEXT: &str = "---
name: context
description: Gather the working tree's context before answering
---

Wrote: !`touch dynamic-ran && echo yes`
Escaped: !`touch ../escaped`

```!
echo fenced
```

Answer with that context.
";

/// The skill that shadows the `deploy` command.
const DEPLOY_SKILL: &str = "---
name: deploy
description: Deploy with the release checklist (skill)
---

Follow the release checklist.
";

/// Every layout, in the order they are laid out.
pub const LAYOUTS: &[Layout] = &[
    Layout {
        dir: "claude-code",
        runtime: "Claude Code",
        what: "a git project with .claude/skills (fork, model, effort, arguments, paths, hooks, dynamic context), .claude/commands (namespaced, one shadowed by a skill) and an agent on `haiku`",
        files: &[
            (".git/", ""),
            (".claude/skills/review/SKILL.md", REVIEW),
            (".claude/skills/explain/SKILL.md", EXPLAIN),
            (".claude/skills/summarize/SKILL.md", SUMMARIZE),
            (".claude/skills/rust-style/SKILL.md", RUST_STYLE),
            (".claude/skills/web-style/SKILL.md", WEB_STYLE),
            (".claude/skills/locate/SKILL.md", LOCATE),
            (".claude/skills/look-only/SKILL.md", LOOK_ONLY),
            (".claude/skills/ship/SKILL.md", SHIP),
            (".claude/skills/style-guide/SKILL.md", STYLE_GUIDE),
            (".claude/skills/hooked/SKILL.md", HOOKED),
            (".claude/skills/deploy/SKILL.md", DEPLOY_SKILL),
            (".claude/skills/context/SKILL.md", CONTEXT),
            (
                ".claude/commands/deploy.md",
                "Deploy the current branch (command).\n",
            ),
            (
                ".claude/commands/frontend/test.md",
                "---\ndescription: Run the frontend tests\nargument-hint: [pattern]\nallowed-tools: Bash(npm test:*)\n---\n\nRun `npm test -- $ARGUMENTS` in web/.\n",
            ),
            (
                ".claude/commands/changelog.md",
                "Write the changelog entry for $ARGUMENTS.\n",
            ),
            (
                ".claude/agents/keeper.md",
                "---\nname: keeper\ndescription: An agent with Claude Code fields weft does not implement\nhooks:\n  Stop: []\nmcpServers: [github]\nmemory: project\nisolation: worktree\ninitialPrompt: Start by reading the README.\neffort: high\n---\n\nKeep things.\n",
            ),
            (
                ".claude/agents/scout.md",
                "---\nname: scout\ndescription: Quick read-only look around\nmodel: haiku\ntools: Read, Grep, Glob\n---\n\nLook around and report.\n",
            ),
            ("src/lib.rs", "pub fn answer() -> u32 { 42 }\n"),
        ],
    },
    Layout {
        dir: "codex-git-only",
        runtime: "Codex",
        what: "a repository with only a .git file (a worktree), .agents/skills and .codex/skills, used from a subdirectory",
        files: &[
            (".git", "gitdir: /nonexistent/worktrees/codex\n"),
            (
                ".agents/skills/fmt/SKILL.md",
                "---\nname: fmt\ndescription: Format the code before a commit\nmetadata:\n  short-description: Format code\n---\n\nRun the formatter.\n",
            ),
            (
                ".codex/skills/release-notes/SKILL.md",
                "---\nname: release-notes\ndescription: Draft release notes from the log\n---\n\nDraft them.\n",
            ),
            ("src/main.rs", "fn main() {}\n"),
        ],
    },
    Layout {
        dir: "monorepo",
        runtime: "Claude Code / Codex",
        what: "a git monorepo: skills at the root (.claude, .agents) and in packages/web/.claude, where the nearer `lint` wins",
        files: &[
            (".git/", ""),
            (
                ".claude/skills/lint/SKILL.md",
                "---\nname: lint\ndescription: Lint the whole repository (root)\n---\n\nLint.\n",
            ),
            (
                ".agents/skills/release/SKILL.md",
                "---\nname: release\ndescription: Cut a release of the monorepo\n---\n\nRelease.\n",
            ),
            (
                "packages/web/.claude/skills/lint/SKILL.md",
                "---\nname: lint\ndescription: Lint the web package (nearest)\n---\n\nLint web.\n",
            ),
            (
                "packages/web/.claude/skills/web-only/SKILL.md",
                "---\nname: web-only\ndescription: Build the web package\n---\n\nBuild.\n",
            ),
            ("packages/web/src/", ""),
        ],
    },
    Layout {
        dir: "nested-repo",
        runtime: "Claude Code / Codex",
        what: "a repository inside a directory with .claude/skills of its own: discovery stops at the git root",
        files: &[
            (
                ".claude/skills/outer/SKILL.md",
                "---\nname: outer\ndescription: Outside the repository\n---\n\nOuter.\n",
            ),
            ("repo/.git/", ""),
            (
                "repo/.claude/skills/inner/SKILL.md",
                "---\nname: inner\ndescription: Inside the repository\n---\n\nInner.\n",
            ),
        ],
    },
    Layout {
        dir: "openclaw",
        runtime: "OpenClaw",
        what: "an OpenClaw workspace: skills in its `skills` folder (gated, direct-dispatch fields) and `.agents/skills`, AGENTS.md, and a config disabling skills (weft reads the `skills` folder when given with --skills-dir)",
        files: &[
            ("AGENTS.md", "# Workspace\n\nBe brief.\n"),
            (
                "skills/weather/SKILL.md",
                "---\nname: weather\ndescription: Current weather for a city\nhomepage: https://example.invalid/weather\nmetadata: {\"openclaw\": {\"emoji\": \"⛅\", \"primaryEnv\": \"WEATHER_API_KEY\", \"skillKey\": \"weather\", \"install\": [{\"kind\": \"brew\", \"formula\": \"curl\"}], \"requires\": {\"bins\": [\"weft-compat-missing-bin\"], \"config\": [\"browser.enabled\"]}}}\ncommand-dispatch: tool\ncommand-tool: exec\n---\n\nFetch the weather with {baseDir}/fetch.sh.\n",
            ),
            (
                "skills/notes/SKILL.md",
                "---\nname: notes\ndescription: Keep notes in the workspace\n---\n\nTake notes.\n",
            ),
            (
                ".agents/skills/journal/SKILL.md",
                "---\nname: journal\ndescription: Write a journal entry\n---\n\nJournal.\n",
            ),
            (
                ".clawft/config.json",
                "{\"skills\": {\"entries\": {\"notes\": {\"enabled\": false}}, \"disabled\": [\"journal\"]}}\n",
            ),
        ],
    },
    Layout {
        dir: "home",
        runtime: "Claude Code / Codex",
        what: "a user's home directory: personal skills and commands in ~/.claude, a personal copy of the Claude Code project's `explain`, and Codex's ~/.codex/skills",
        files: &[
            (
                ".claude/skills/personal-notes/SKILL.md",
                "---\nname: personal-notes\ndescription: Keep my own notes\n---\n\nNotes.\n",
            ),
            (
                ".claude/skills/explain/SKILL.md",
                "---\nname: explain\ndescription: My personal way of explaining (personal copy)\n---\n\nExplain my way.\n",
            ),
            (
                ".claude/commands/standup.md",
                "---\ndescription: Write my standup notes\n---\n\nSummarise yesterday.\n",
            ),
            (
                ".codex/skills/codex-personal/SKILL.md",
                "---\nname: codex-personal\ndescription: A personal Codex skill\n---\n\nCodex.\n",
            ),
        ],
    },
];

/// Lays every layout out under `out` (created; replaced with `force` when it is an earlier
/// tree). Returns the number of layouts.
pub fn generate(out: &Path, force: bool) -> Result<usize> {
    prepare(out, force)?;
    write(
        &out.join(MARKER_FILE),
        "generated by cargo xtask compat-layouts\n",
    )?;
    for layout in LAYOUTS {
        let root = out.join(layout.dir);
        for (path, text) in layout.files {
            if let Some(dir) = path.strip_suffix('/') {
                fs::create_dir_all(root.join(dir))
                    .with_context(|| format!("creating {}/{dir}", layout.dir))?;
            } else {
                write(&root.join(path), text)?;
            }
        }
    }
    write(&out.join("README.md"), &readme())?;
    Ok(LAYOUTS.len())
}

/// The README of a generated tree: one line per layout.
pub fn readme() -> String {
    let mut text = String::from(
        "# Compatibility layouts\n\nGenerated by `cargo xtask compat-layouts`: skill trees as \
         Claude Code, Codex and OpenClaw users have them (docs/COMPATIBILITY.md).\n\n",
    );
    for layout in LAYOUTS {
        text.push_str(&format!(
            "- `{}/` ({}): {}\n",
            layout.dir, layout.runtime, layout.what
        ));
    }
    text
}

/// Creates `out`, or empties it when it is an earlier tree and `force` is given.
fn prepare(out: &Path, force: bool) -> Result<()> {
    match fs::symlink_metadata(out) {
        Err(_) => {}
        Ok(_) if !force => bail!(
            "{} exists (use --force to replace a tree written earlier)",
            out.display()
        ),
        Ok(_) if !out.join(MARKER_FILE).is_file() => bail!(
            "{} exists and is not a tree written by this command; not replacing it",
            out.display()
        ),
        Ok(_) => fs::remove_dir_all(out).with_context(|| format!("removing {}", out.display()))?,
    }
    fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))
}

fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}
