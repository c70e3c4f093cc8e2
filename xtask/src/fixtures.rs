//! `cargo xtask fixtures`: a deterministic generator of synthetic skill trees.
//!
//! Every skill is a directory holding one `SKILL.md` (YAML frontmatter between `---` lines,
//! then a markdown body) of roughly 1.5 KB. The frontmatter varies from skill to skill the
//! way real-world skills do: folded and quoted descriptions, tool lists written as a
//! space-separated string, a comma string or a YAML list, optional invocation fields, and
//! `metadata` as a block map, an OpenClaw block or a one-line JSON flow map.
//!
//! Generation is a pure function of `(seed, index)`: skill `i` gets its own PRNG stream,
//! so the same count and seed always give a byte-identical tree, and a tree of `N` skills
//! is a prefix of the tree of `M > N` skills with the same seed.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};

/// Name of the marker file written at the root of every generated tree.
///
/// `--force` deletes an existing output directory only if it holds this file.
pub const MARKER_FILE: &str = ".weft-fixtures";

/// Seed used when `--seed` is not given.
pub const DEFAULT_SEED: u64 = 42;

/// Smallest size, in bytes, of a generated `SKILL.md`.
pub const MIN_FILE_BYTES: usize = 1_200;

/// Largest size, in bytes, of a generated `SKILL.md`.
pub const MAX_FILE_BYTES: usize = 1_900;

/// Lowest per-file size target; padding stops once a file reaches its target.
const TARGET_MIN: usize = 1_300;
/// Highest per-file size target.
const TARGET_MAX: usize = 1_750;
/// Padding never grows a file past this many bytes.
const HARD_CAP: usize = MAX_FILE_BYTES - 20;

// Padding starts from at most ~1.6 KB of frontmatter and body and adds sentences until the
// target is reached, so every file lands in `MIN_FILE_BYTES..=MAX_FILE_BYTES`.
const _: () = assert!(MIN_FILE_BYTES < TARGET_MIN && TARGET_MAX < HARD_CAP);

/// Stream tags that keep the per-skill and layout PRNG streams independent.
const STREAM_SKILL: u64 = 0x736b_696c_6c00_0001;
const STREAM_LAYOUT: u64 = 0x6c61_796f_7574_0002;

// ---------------------------------------------------------------------------------------
// PRNG
// ---------------------------------------------------------------------------------------

/// A tiny deterministic PRNG (splitmix64). Not cryptographic; fast and reproducible.
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

/// The splitmix64 output function: a strong 64-bit bit mixer.
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The independent stream used to generate skill number `index` under `seed`.
    pub fn for_skill(seed: u64, index: usize) -> Self {
        Self::derived(seed, STREAM_SKILL, index)
    }

    /// The independent stream used to place skill number `index` in a `--nested` tree.
    fn for_layout(seed: u64, index: usize) -> Self {
        Self::derived(seed, STREAM_LAYOUT, index)
    }

    fn derived(seed: u64, stream: u64, index: usize) -> Self {
        Self::new(mix64(mix64(seed ^ stream) ^ mix64(index as u64)))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix64(self.state)
    }

    /// A number in `0..n` (`n` must be non-zero).
    pub fn below(&mut self, n: usize) -> usize {
        // Multiply-high maps 64 random bits onto 0..n without a division.
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// `true` with probability `percent / 100`.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// A uniformly chosen element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }

    /// `k` distinct elements of `items` (clamped to its length), in their original order.
    fn subset<'a, T>(&mut self, items: &'a [T], k: usize) -> Vec<&'a T> {
        let mut idx: Vec<usize> = (0..items.len()).collect();
        self.shuffle(&mut idx);
        idx.truncate(k.min(items.len()));
        idx.sort_unstable();
        idx.into_iter().map(|i| &items[i]).collect()
    }
}

// ---------------------------------------------------------------------------------------
// Word lists (none contains a reserved word such as "claude" or "anthropic")
// ---------------------------------------------------------------------------------------

const VERBS: &[&str] = &[
    "review",
    "audit",
    "lint",
    "format",
    "deploy",
    "migrate",
    "profile",
    "summarize",
    "refactor",
    "document",
    "test",
    "scan",
    "triage",
    "bump",
    "release",
    "index",
    "validate",
    "convert",
    "bundle",
    "archive",
    "sync",
    "trace",
    "benchmark",
    "debug",
    "generate",
    "render",
    "check",
    "plan",
    "fetch",
    "publish",
];

/// `(slug used in names, display form used in prose)`.
const NOUNS: &[(&str, &str)] = &[
    ("terraform", "Terraform"),
    ("kubernetes", "Kubernetes"),
    ("docker", "Docker"),
    ("postgres", "Postgres"),
    ("python", "Python"),
    ("rust", "Rust"),
    ("react", "React"),
    ("graphql", "GraphQL"),
    ("openapi", "OpenAPI"),
    ("changelog", "changelog"),
    ("readme", "README"),
    ("commits", "commits"),
    ("logs", "logs"),
    ("metrics", "metrics"),
    ("invoices", "invoices"),
    ("spreadsheets", "spreadsheets"),
    ("pdf", "PDF"),
    ("slides", "slides"),
    ("csv", "CSV"),
    ("json", "JSON"),
    ("yaml", "YAML"),
    ("helm", "Helm"),
    ("ansible", "Ansible"),
    ("nginx", "nginx"),
    ("redis", "Redis"),
    ("kafka", "Kafka"),
    ("grpc", "gRPC"),
    ("css", "CSS"),
    ("sql", "SQL"),
    ("markdown", "Markdown"),
    ("images", "images"),
    ("dependencies", "dependencies"),
    ("licenses", "licenses"),
    ("secrets", "secrets"),
    ("migrations", "migrations"),
    ("i18n", "i18n"),
];

const QUALIFIERS: &[&str] = &[
    "stale", "large", "legacy", "flaky", "nightly", "shared", "local", "remote", "monorepo",
    "unused",
];

const CATEGORIES: &[&str] = &[
    "devops", "docs", "data", "frontend", "backend", "security", "release", "infra",
];

const GROUPS: &[&str] = &["core", "extra", "team", "experimental", "ci"];

const LEADS: &[&str] = &[
    "Helps you {verb} {topic} quickly and consistently.",
    "Step-by-step workflow to {verb} {topic} in this repository.",
    "Guidance for agents that need to {verb} {topic} without breaking existing conventions.",
    "Checks and fixes the common problems that come up when you {verb} {topic}.",
    "Automates the tedious parts of having to {verb} {topic} by hand.",
    "A careful, reviewable procedure to {verb} {topic} in small steps.",
];

const SECONDS: &[&str] = &[
    "Produces a short report with findings ranked by severity.",
    "Works offline and never modifies files without confirmation.",
    "Supports both CI pipelines and local runs.",
    "Handles large inputs by processing them in small batches.",
    "Prefers existing project scripts over ad-hoc commands.",
    "Keeps a log of every change so it can be reverted.",
];

const USE_WHEN: &[&str] = &[
    "Use when the user asks to {verb} {topic} or mentions problems with {topic}.",
    "Use when working with {topic}, for example before opening a pull request.",
    "Use when a task involves {topic} and the user wants a careful, reviewable result.",
    "Use when {topic} changes need to be checked before a release.",
    "Use when asked to {verb} {topic} across several files at once.",
];

const KEYWORD_EXTRAS: &[&str] = &[
    "automation",
    "ci",
    "review",
    "cleanup",
    "devops",
    "docs",
    "quality",
    "tooling",
];

/// Tool names in the Claude Code style, for space-separated strings and YAML lists.
const CC_TOOLS: &[&str] = &[
    "Read",
    "Grep",
    "Glob",
    "Edit",
    "Write",
    "WebFetch",
    "Bash(git:*)",
    "Bash(npm:*)",
    "Bash(cargo:*)",
    "Bash(jq:*)",
];

/// Tool names in the snake_case style, for comma strings and YAML lists.
const SNAKE_TOOLS: &[&str] = &[
    "read_file",
    "grep",
    "glob",
    "list_dir",
    "write_file",
    "run_shell",
    "web_fetch",
];

const ARGUMENT_HINTS: &[&str] = &[
    "[file] [format]",
    "[path]",
    "<pr-number>",
    "[branch] [--dry-run]",
    "[environment]",
    "<query> [limit]",
    "[target...]",
];

const MODELS: &[&str] = &["haiku", "sonnet", "opus", "inherit", "openai/gpt-4o-mini"];

const BINS: &[&str] = &["git", "jq", "gh", "docker", "terraform", "kubectl", "rg"];

const ENVS: &[&str] = &[
    "GITHUB_TOKEN",
    "AWS_PROFILE",
    "KUBECONFIG",
    "OPENAI_API_KEY",
];

const EMOJIS: &[&str] = &["🔧", "📦", "🧪", "🚀", "🔍"];

const INTROS: &[&str] = &[
    "It favours small, verifiable edits and explains each one before making it.",
    "The goal is a result a reviewer can check in a few minutes.",
    "Follow the steps in order; skip a step only when it clearly does not apply.",
    "It assumes a clean working tree and stops early if that is not the case.",
];

const STEPS: &[&str] = &[
    "Identify the {topic} files in scope and confirm the target with the user if it is ambiguous.",
    "Read the relevant configuration before changing anything.",
    "Run the project's existing checks and capture their output.",
    "Group the findings by severity and start with the most serious ones.",
    "Apply the smallest change that fixes each problem, one at a time.",
    "Re-run the checks to confirm nothing regressed.",
    "Summarize what changed and list anything that still needs a human decision.",
];

const COMMANDS: &[&str] = &[
    "rg --count 'TODO' .",
    "jq '.items | length' data.json",
    "make check",
    "cargo test --quiet",
    "terraform plan -out=plan.tfplan",
    "npm run lint -- --fix",
    "git log --oneline -n 20",
];

const PADDING: &[&str] = &[
    "Prefer the project's own tooling over global installs when both are available.",
    "If a command fails, report the exact error message instead of guessing at the cause.",
    "Large {topic} inputs should be processed in batches to keep the context small.",
    "Never commit on the user's behalf unless they explicitly ask for it.",
    "Keep the original formatting of files you touch; do not reflow unrelated lines.",
    "When the repository has a CONTRIBUTING guide, its rules take precedence over this skill.",
    "Ask before deleting anything, even files that look generated.",
    "A dry run is cheap: use it first whenever the tool offers one.",
    "Link to the relevant documentation rather than pasting long excerpts into the reply.",
    "Results for {topic} can differ between CI and local runs, so say which one you used.",
    "Treat warnings as signals worth mentioning, not as noise to suppress.",
    "If the task is larger than expected, stop and propose a plan before continuing.",
    "Secrets and tokens must never be printed, logged or written to disk.",
    "Use relative paths in the final summary so it reads well in a pull request.",
    "When two approaches are equally good, pick the one with the smaller diff.",
    "Mention any assumption you made about the environment or the toolchain version.",
    "Time-consuming commands should run once; reuse their output instead of re-running them.",
    "The checklist is a guide, not a contract: use judgement when {topic} is unusual.",
    "Keep commit-sized units of work so each change can be reviewed on its own.",
    "If network access is unavailable, fall back to cached data and say so.",
    "Do not upgrade dependencies as a side effect of this task.",
    "Output that will be pasted into a ticket should be plain markdown without HTML.",
    "Report numbers with their units, and round them only in the final summary.",
    "When you {verb} {topic}, prefer changes that are easy to revert.",
    "Files under vendor or third-party directories are out of scope.",
    "If tests are flaky, run them twice before concluding that a change broke them.",
    "A short table is often clearer than a long list when comparing several options.",
    "Leave generated files alone and regenerate them with the documented command instead.",
    "Be explicit about what was not checked, so the reader knows the limits of the result.",
    "Prefer stable, documented flags over undocumented shortcuts in scripts.",
    "Use the same terminology as the repository's existing documentation.",
    "Warnings about {topic} that predate this change can be listed separately at the end.",
    "If the user's request conflicts with these notes, follow the user and mention the conflict.",
    "Keep the final answer short; details belong in the files or the pull request description.",
];

/// Placeholder style a skill body uses for its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ArgStyle {
    /// No placeholder.
    None,
    /// `$ARGUMENTS`.
    Arguments,
    /// `${0}`.
    Positional,
    /// `{baseDir}`.
    BaseDir,
}

// ---------------------------------------------------------------------------------------
// Generation (pure)
// ---------------------------------------------------------------------------------------

/// Generates skill number `index` from `rng`, returning `(name, SKILL.md contents)`.
///
/// The name has the form `verb-noun-NNNN` or `verb-qualifier-noun-NNNN`; the zero-padded
/// index suffix makes names unique within a tree. The contents are valid YAML frontmatter
/// followed by a markdown body, between [`MIN_FILE_BYTES`] and [`MAX_FILE_BYTES`] long.
pub fn generate_skill(index: usize, rng: &mut Rng) -> (String, String) {
    let verb = *rng.pick(VERBS);
    let (noun_slug, noun) = *rng.pick(NOUNS);
    let qualifier = rng.chance(30).then(|| *rng.pick(QUALIFIERS));

    let (name, topic, title) = match qualifier {
        Some(q) => (
            format!("{verb}-{q}-{noun_slug}-{index:04}"),
            format!("{q} {noun}"),
            format!(
                "{} {} {}",
                capitalize(verb),
                capitalize(q),
                capitalize(noun)
            ),
        ),
        None => (
            format!("{verb}-{noun_slug}-{index:04}"),
            noun.to_owned(),
            format!("{} {}", capitalize(verb), capitalize(noun)),
        ),
    };

    let mut out = String::with_capacity(2 * 1024);
    write_frontmatter(&mut out, &name, verb, noun_slug, &topic, rng);
    let target = TARGET_MIN + rng.below(TARGET_MAX - TARGET_MIN + 1);
    write_body(&mut out, &title, verb, &topic, target, rng);
    (name, out)
}

/// Replaces `{verb}` and `{topic}` in a template (other braces, like `{baseDir}`, stay).
fn fill(template: &str, verb: &str, topic: &str) -> String {
    template.replace("{verb}", verb).replace("{topic}", topic)
}

/// Upper-cases the first character.
fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A YAML double-quoted scalar.
fn double_quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Whether `s` can be written as a plain (unquoted) YAML scalar without changing meaning.
fn plain_is_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    !"-?:,[]{}#&*!|>'\"%@`".contains(first)
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with(':')
        && s.trim() == s
        && s.chars().all(|c| c.is_ascii_graphic() || c == ' ')
}

/// Pushes `line` and a newline.
fn line(out: &mut String, line: &str) {
    out.push_str(line);
    out.push('\n');
}

/// Writes the frontmatter, including both `---` delimiters, keys in canonical order.
fn write_frontmatter(
    out: &mut String,
    name: &str,
    verb: &str,
    noun_slug: &str,
    topic: &str,
    rng: &mut Rng,
) {
    line(out, "---");
    line(out, &format!("name: {name}"));
    write_description(out, verb, noun_slug, topic, rng);
    write_allowed_tools(out, rng);

    if rng.chance(50) {
        let hint = *rng.pick(ARGUMENT_HINTS);
        let quoted = if rng.chance(70) {
            double_quoted(hint)
        } else {
            format!("'{hint}'")
        };
        line(out, &format!("argument-hint: {quoted}"));
    }

    let context = rng.below(100);
    if context < 15 {
        line(out, "context: fork");
        if rng.chance(60) {
            line(out, "agent: explore");
        } else if rng.chance(25) {
            line(out, "agent: general-purpose");
        }
    } else if context < 35 {
        line(out, "context: inline");
    }

    if rng.chance(20) {
        line(out, &format!("model: {}", rng.pick(MODELS)));
    }
    if rng.chance(10) {
        line(out, "disable-model-invocation: true");
    }
    if rng.chance(5) {
        line(out, "user-invocable: false");
    }
    write_metadata(out, rng);
    line(out, "---");
}

/// Writes `description` as a plain, double-quoted or `>-` folded scalar.
fn write_description(out: &mut String, verb: &str, noun_slug: &str, topic: &str, rng: &mut Rng) {
    let mut sentences = Vec::new();
    let leads = match rng.below(4) {
        0 => 0,
        3 => 2,
        _ => 1,
    };
    if leads >= 1 {
        sentences.push(fill(rng.pick::<&str>(LEADS), verb, topic));
    }
    if leads == 2 {
        sentences.push((*rng.pick(SECONDS)).to_owned());
    }
    sentences.push(fill(rng.pick::<&str>(USE_WHEN), verb, topic));
    if rng.chance(30) {
        let extra = rng.pick(KEYWORD_EXTRAS);
        sentences.push(format!("Keywords: {noun_slug}, {verb}, {extra}."));
    }
    let text = sentences.join(" ");

    let style = rng.below(10);
    if style < 3 {
        // Folded block scalar over two lines, split at the space nearest the middle.
        let mid = text.len() / 2;
        let split = text
            .match_indices(' ')
            .map(|(i, _)| i)
            .min_by_key(|&i| i.abs_diff(mid));
        match split {
            Some(i) => {
                line(out, "description: >-");
                line(out, &format!("  {}", &text[..i]));
                line(out, &format!("  {}", &text[i + 1..]));
            }
            None => line(out, &format!("description: {}", double_quoted(&text))),
        }
    } else if style < 8 && plain_is_safe(&text) {
        line(out, &format!("description: {text}"));
    } else {
        line(out, &format!("description: {}", double_quoted(&text)));
    }
}

/// Writes `allowed-tools` in one of three shapes, or omits it (~20%).
fn write_allowed_tools(out: &mut String, rng: &mut Rng) {
    let shape = rng.below(100);
    if shape < 20 {
        return;
    }
    let k = 2 + rng.below(3);
    if shape < 50 {
        let tools: Vec<&str> = rng.subset(CC_TOOLS, k).into_iter().copied().collect();
        line(out, &format!("allowed-tools: {}", tools.join(" ")));
    } else if shape < 75 {
        let tools: Vec<&str> = rng.subset(SNAKE_TOOLS, k).into_iter().copied().collect();
        line(out, &format!("allowed-tools: {}", tools.join(", ")));
    } else {
        let pool = if rng.chance(50) {
            CC_TOOLS
        } else {
            SNAKE_TOOLS
        };
        line(out, "allowed-tools:");
        for tool in rng.subset(pool, k) {
            line(out, &format!("  - {tool}"));
        }
    }
}

/// Writes `metadata` (~60%): a JSON flow map, an author block or an OpenClaw block.
fn write_metadata(out: &mut String, rng: &mut Rng) {
    let shape = rng.below(100);
    if shape < 10 {
        let emoji = rng.pick(EMOJIS);
        let k = 1 + rng.below(2);
        let bins: Vec<String> = rng
            .subset(BINS, k)
            .into_iter()
            .map(|b| format!("\"{b}\""))
            .collect();
        line(
            out,
            &format!(
                "metadata: {{\"openclaw\":{{\"emoji\":\"{emoji}\",\"requires\":{{\"bins\":[{}]}}}}}}",
                bins.join(",")
            ),
        );
    } else if shape < 35 {
        line(out, "metadata:");
        line(out, "  author: weft-fixtures");
        line(out, &format!("  version: \"1.{}\"", rng.below(10)));
        if rng.chance(30) {
            line(out, "  license: MIT");
        }
    } else if shape < 60 {
        line(out, "metadata:");
        line(out, "  openclaw:");
        if rng.chance(30) {
            line(out, &format!("    emoji: \"{}\"", rng.pick(EMOJIS)));
        }
        line(out, "    requires:");
        let k = 1 + rng.below(2);
        let bins: Vec<&str> = rng.subset(BINS, k).into_iter().copied().collect();
        line(out, &format!("      bins: [{}]", bins.join(", ")));
        if rng.chance(50) {
            line(out, &format!("      env: [{}]", rng.pick(ENVS)));
        }
    }
}

/// Writes the markdown body, padding the `## Notes` section until `out` reaches `target`.
fn write_body(
    out: &mut String,
    title: &str,
    verb: &str,
    topic: &str,
    target: usize,
    rng: &mut Rng,
) {
    let style = match rng.below(10) {
        0..=1 => ArgStyle::Arguments,
        2 => ArgStyle::Positional,
        3 => ArgStyle::BaseDir,
        _ => ArgStyle::None,
    };

    line(out, "");
    line(out, &format!("# {title}"));
    line(out, "");
    line(
        out,
        &format!(
            "This skill explains how to {verb} {topic} the way this project expects. {}",
            rng.pick(INTROS)
        ),
    );
    line(out, "");
    line(out, "## Steps");
    line(out, "");

    let mut steps: Vec<String> = Vec::new();
    match style {
        ArgStyle::Arguments => steps.push(format!(
            "Treat `$ARGUMENTS` as the list of {topic} targets; if it is empty, use the current directory."
        )),
        ArgStyle::Positional => {
            steps.push("Use `${0}` as the primary input path and stop if it does not exist.".into());
        }
        ArgStyle::BaseDir => steps.push(
            "Load the checklist from `{baseDir}/reference/checklist.md` before starting.".into(),
        ),
        ArgStyle::None => {}
    }
    let k = 3 + rng.below(3);
    steps.extend(
        rng.subset(STEPS, k)
            .into_iter()
            .map(|s| fill(s, verb, topic)),
    );
    for (i, step) in steps.iter().enumerate() {
        line(out, &format!("{}. {step}", i + 1));
    }

    if rng.chance(50) {
        let command = match style {
            ArgStyle::Arguments => "git diff --stat -- $ARGUMENTS".to_owned(),
            ArgStyle::Positional => "python3 scripts/check.py \"${0}\"".to_owned(),
            ArgStyle::BaseDir => "bash {baseDir}/scripts/run.sh --verbose".to_owned(),
            ArgStyle::None => (*rng.pick(COMMANDS)).to_owned(),
        };
        line(out, "");
        line(out, if rng.chance(50) { "```bash" } else { "```sh" });
        line(out, &command);
        line(out, "```");
    }

    line(out, "");
    line(out, "## Notes");
    line(out, "");

    let bullets = rng.chance(60);
    let mut order: Vec<usize> = (0..PADDING.len()).collect();
    rng.shuffle(&mut order);
    let mut wrote_any = false;
    for i in order {
        if wrote_any && out.len() >= target {
            break;
        }
        let sentence = fill(PADDING[i], verb, topic);
        let piece = if bullets {
            format!("- {sentence}\n")
        } else if wrote_any {
            format!(" {sentence}")
        } else {
            sentence
        };
        // Paragraph style still owes its closing newline.
        let owed = usize::from(!bullets);
        if out.len() + piece.len() + owed > HARD_CAP {
            continue;
        }
        out.push_str(&piece);
        wrote_any = true;
    }
    if !bullets {
        out.push('\n');
    }
}

// ---------------------------------------------------------------------------------------
// Writing a tree
// ---------------------------------------------------------------------------------------

/// Options of `cargo xtask fixtures`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Number of skills to write.
    pub count: usize,
    /// Output directory.
    pub out: PathBuf,
    /// PRNG seed.
    pub seed: u64,
    /// Also place some skills two or three levels deep under category directories.
    pub nested: bool,
    /// Replace `out` if it is a tree this command generated earlier.
    pub force: bool,
}

/// What [`run`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    /// Number of `SKILL.md` files written.
    pub skills: usize,
    /// Their total size in bytes (the marker file is not counted).
    pub bytes: u64,
}

/// Writes the tree described by `opts` and returns what was written.
///
/// Fails if `opts.out` exists and is not empty, unless `opts.force` is set and the
/// directory holds the [`MARKER_FILE`] of a previous run, in which case it is deleted first.
pub fn run(opts: &Options) -> Result<Summary> {
    prepare_out_dir(&opts.out, opts.force)?;
    let marker = opts.out.join(MARKER_FILE);
    fs::write(&marker, marker_contents(opts))
        .with_context(|| format!("writing {}", marker.display()))?;

    let mut bytes = 0u64;
    for index in 0..opts.count {
        let mut rng = Rng::for_skill(opts.seed, index);
        let (name, contents) = generate_skill(index, &mut rng);
        let dir = skill_dir(opts, index, &name);
        fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let file = dir.join("SKILL.md");
        fs::write(&file, &contents).with_context(|| format!("writing {}", file.display()))?;
        bytes += contents.len() as u64;
    }
    Ok(Summary {
        skills: opts.count,
        bytes,
    })
}

/// Contents of the marker file; deliberately free of paths and timestamps so that two
/// runs with the same options produce identical trees.
fn marker_contents(opts: &Options) -> String {
    format!(
        "# Generated by `cargo xtask fixtures`; `--force` may delete this directory.\n\
         count = {}\nseed = {}\nnested = {}\n",
        opts.count, opts.seed, opts.nested
    )
}

/// Directory of skill `index`: `out/<name>`, or with `--nested` sometimes
/// `out/category-x/<name>` or `out/category-x/<group>/<name>`.
fn skill_dir(opts: &Options, index: usize, name: &str) -> PathBuf {
    if opts.nested {
        let mut rng = Rng::for_layout(opts.seed, index);
        if rng.chance(10) {
            let category = opts.out.join(format!("category-{}", rng.pick(CATEGORIES)));
            return if rng.chance(50) {
                category.join(name)
            } else {
                category.join(rng.pick(GROUPS)).join(name)
            };
        }
    }
    opts.out.join(name)
}

/// Makes sure `out` is an empty directory, deleting a previous tree only under `--force`.
fn prepare_out_dir(out: &Path, force: bool) -> Result<()> {
    match fs::symlink_metadata(out) {
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("inspecting {}", out.display())),
        Ok(meta) => {
            if !meta.is_dir() {
                bail!(
                    "{} exists and is not a directory (symbolic links are not followed)",
                    out.display()
                );
            }
            let mut entries =
                fs::read_dir(out).with_context(|| format!("reading {}", out.display()))?;
            if entries.next().is_some() {
                if !force {
                    bail!(
                        "{} exists and is not empty; pass --force to replace a tree \
                         generated by this command",
                        out.display()
                    );
                }
                let marker = out.join(MARKER_FILE);
                let has_marker = fs::symlink_metadata(&marker).is_ok_and(|m| m.is_file());
                if !has_marker {
                    bail!(
                        "refusing to delete {}: it has no {MARKER_FILE} marker, so it was not \
                         created by `cargo xtask fixtures`",
                        out.display()
                    );
                }
                fs::remove_dir_all(out).with_context(|| format!("deleting {}", out.display()))?;
            }
        }
    }
    fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, HashSet};

    /// Canonical order of the top-level frontmatter keys.
    const KEY_ORDER: &[&str] = &[
        "name",
        "description",
        "allowed-tools",
        "argument-hint",
        "context",
        "agent",
        "model",
        "disable-model-invocation",
        "user-invocable",
        "metadata",
    ];

    fn skill(seed: u64, index: usize) -> (String, String) {
        generate_skill(index, &mut Rng::for_skill(seed, index))
    }

    fn valid_name(name: &str) -> bool {
        !name.is_empty()
            && name.len() <= 64
            && name.split('-').all(|part| {
                !part.is_empty()
                    && part
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            })
            && !name.contains("claude")
            && !name.contains("anthropic")
    }

    /// Splits a file into its frontmatter lines, checking the `---` delimiters.
    fn frontmatter(contents: &str) -> Vec<&str> {
        assert!(contents.starts_with("---\n"), "no opening ---:\n{contents}");
        let lines: Vec<&str> = contents.split('\n').collect();
        let delimiters: Vec<usize> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| **l == "---")
            .map(|(i, _)| i)
            .collect();
        assert_eq!(
            delimiters.len(),
            2,
            "expected exactly two --- lines:\n{contents}"
        );
        assert_eq!(delimiters[0], 0);
        lines[1..delimiters[1]].to_vec()
    }

    /// The description text, unquoting or unfolding as needed (line-based, not a parser).
    fn description(fm: &[&str]) -> String {
        let pos = fm
            .iter()
            .position(|l| l.starts_with("description:"))
            .unwrap();
        let value = fm[pos]["description:".len()..].trim();
        if value == ">-" {
            fm[pos + 1..]
                .iter()
                .take_while(|l| l.starts_with("  "))
                .map(|l| l.trim())
                .collect::<Vec<_>>()
                .join(" ")
        } else if let Some(inner) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
            inner.replace("\\\"", "\"").replace("\\\\", "\\")
        } else {
            value.to_owned()
        }
    }

    fn top_level_keys<'a>(fm: &[&'a str]) -> Vec<&'a str> {
        fm.iter()
            .filter(|l| !l.starts_with(' '))
            .map(|l| l.split(':').next().unwrap())
            .collect()
    }

    #[test]
    fn generation_is_deterministic() {
        for index in 0..200 {
            assert_eq!(skill(42, index), skill(42, index));
            assert_eq!(skill(7, index), skill(7, index));
        }
        // Different seeds give different trees.
        let a: Vec<_> = (0..50).map(|i| skill(1, i)).collect();
        let b: Vec<_> = (0..50).map(|i| skill(2, i)).collect();
        assert_ne!(a, b);
    }

    #[test]
    fn sizes_are_in_range() {
        for index in 0..500 {
            let (name, contents) = skill(DEFAULT_SEED, index);
            let len = contents.len();
            assert!(
                (MIN_FILE_BYTES..=MAX_FILE_BYTES).contains(&len),
                "{name} is {len} bytes:\n{contents}"
            );
        }
        // Wider sweep over other seeds to catch rare worst cases.
        for seed in 0..5 {
            for index in 0..2_000 {
                let len = skill(seed, index).1.len();
                assert!(
                    (MIN_FILE_BYTES..=MAX_FILE_BYTES).contains(&len),
                    "{seed}/{index}: {len}"
                );
            }
        }
    }

    #[test]
    fn names_are_valid_and_unique() {
        let mut seen = HashSet::new();
        for index in 0..10_000 {
            let (name, _) = skill(DEFAULT_SEED, index);
            assert!(valid_name(&name), "invalid name {name:?}");
            assert!(seen.insert(name.clone()), "duplicate name {name:?}");
        }
    }

    #[test]
    fn word_lists_avoid_reserved_words() {
        let words = VERBS
            .iter()
            .chain(NOUNS.iter().map(|(slug, _)| slug))
            .chain(QUALIFIERS)
            .chain(CATEGORIES)
            .chain(GROUPS);
        for word in words {
            assert!(valid_name(word), "{word:?}");
        }
    }

    #[test]
    fn frontmatter_shape() {
        for index in 0..2_000 {
            let (name, contents) = skill(DEFAULT_SEED, index);
            let fm = frontmatter(&contents);
            assert!(fm.contains(&format!("name: {name}").as_str()), "{contents}");
            assert!(
                fm.iter().any(|l| l.starts_with("description:")),
                "{contents}"
            );
            assert!(
                fm.iter().all(|l| !l.contains('\t')),
                "tab in frontmatter:\n{contents}"
            );

            // Keys appear once each, in canonical order.
            let keys = top_level_keys(&fm);
            let ranks: Vec<usize> = keys
                .iter()
                .map(|k| {
                    KEY_ORDER
                        .iter()
                        .position(|o| o == k)
                        .unwrap_or_else(|| panic!("unknown key {k:?}"))
                })
                .collect();
            assert!(
                ranks.windows(2).all(|w| w[0] < w[1]),
                "keys out of order: {keys:?}"
            );

            let desc = description(&fm);
            assert!(desc.chars().count() <= 1024);
            assert!(desc.contains("Use when "), "{desc}");
            let tail = desc.split(" Keywords: ").next().unwrap();
            assert!(
                tail.starts_with("Use when ") || tail.contains(". Use when "),
                "{desc}"
            );
            assert!(tail.ends_with('.'), "{desc}");
            // An unquoted `: ` would change the meaning of a plain scalar.
            let raw = fm.iter().find(|l| l.starts_with("description:")).unwrap();
            if desc.contains(": ") {
                assert!(raw.ends_with(">-") || raw.contains(": \""), "{raw}");
            }

            // The body has a title and the expected sections.
            let body = contents.split("\n---\n").nth(1).unwrap();
            assert!(body.starts_with("\n# "), "{body}");
            assert!(body.contains("\n## Steps\n\n1. "));
            assert!(body.contains("\n## Notes\n\n"));
            assert!(body.ends_with('\n') && !body.ends_with("\n\n"));
        }
    }

    #[test]
    fn fields_vary_across_skills() {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        let n = 2_000;
        for index in 0..n {
            let (_, contents) = skill(DEFAULT_SEED, index);
            let probes = [
                ("folded", "description: >-\n"),
                ("quoted-desc", "description: \""),
                ("keywords", "Keywords: "),
                ("tools-list", "allowed-tools:\n  - "),
                ("tools", "allowed-tools:"),
                ("hint", "argument-hint: "),
                ("fork", "context: fork\n"),
                ("explore", "agent: explore\n"),
                ("model", "\nmodel: "),
                ("disable", "disable-model-invocation: true\n"),
                ("no-user", "user-invocable: false\n"),
                ("metadata", "\nmetadata:"),
                ("json-meta", "metadata: {\"openclaw\""),
                ("openclaw-block", "  openclaw:\n"),
                ("arguments", "$ARGUMENTS"),
                ("positional", "${0}"),
                ("basedir", "{baseDir}"),
                ("code", "\n```"),
            ];
            for (key, needle) in probes {
                if contents.contains(needle) {
                    *counts.entry(key).or_default() += 1;
                }
            }
        }
        let pct = |key: &str| counts.get(key).copied().unwrap_or(0) * 100 / n;
        for key in [
            "folded",
            "quoted-desc",
            "keywords",
            "tools-list",
            "explore",
            "disable",
            "no-user",
            "json-meta",
            "openclaw-block",
            "arguments",
            "positional",
            "basedir",
            "code",
        ] {
            assert!(pct(key) >= 1, "{key} never generated: {counts:?}");
        }
        assert!((75..=85).contains(&pct("tools")), "{counts:?}");
        assert!((45..=55).contains(&pct("hint")), "{counts:?}");
        assert!((12..=18).contains(&pct("fork")), "{counts:?}");
        assert!((16..=24).contains(&pct("model")), "{counts:?}");
        assert!((55..=65).contains(&pct("metadata")), "{counts:?}");
    }

    #[test]
    fn rng_basics() {
        let mut rng = Rng::new(0);
        let first: Vec<u64> = (0..4).map(|_| rng.next_u64()).collect();
        let mut again = Rng::new(0);
        assert_eq!(first, (0..4).map(|_| again.next_u64()).collect::<Vec<_>>());
        for n in [1, 2, 3, 10, 1000] {
            assert!((0..10_000).all(|_| rng.below(n) < n));
        }
        let mut v: Vec<u32> = (0..100).collect();
        rng.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }

    // --- file system -------------------------------------------------------------------

    #[allow(clippy::disallowed_methods)] // a scratch directory of the test's own
    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("weft-xtask-{}-{tag}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    /// Every file under `root`, as (relative path, contents), sorted.
    fn snapshot(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
        let mut files = Vec::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    let rel = path.strip_prefix(root).unwrap().to_path_buf();
                    files.push((rel, fs::read(&path).unwrap()));
                }
            }
        }
        files.sort();
        files
    }

    fn opts(out: &Path, count: usize) -> Options {
        Options {
            count,
            out: out.to_path_buf(),
            seed: DEFAULT_SEED,
            nested: false,
            force: false,
        }
    }

    #[test]
    fn trees_are_byte_identical() {
        let a = scratch("identical-a");
        let b = scratch("identical-b");
        let sa = run(&opts(&a, 60)).unwrap();
        let sb = run(&opts(&b, 60)).unwrap();
        assert_eq!(sa, sb);
        assert_eq!(sa.skills, 60);
        let (ta, tb) = (snapshot(&a), snapshot(&b));
        assert_eq!(ta, tb);
        assert_eq!(ta.len(), 61); // 60 skills + marker
        let total: u64 = ta
            .iter()
            .filter(|(p, _)| p.ends_with("SKILL.md"))
            .map(|(_, c)| c.len() as u64)
            .sum();
        assert_eq!(total, sa.bytes);
        // Flat layout: DIR/<name>/SKILL.md with the directory named after the skill.
        for (path, contents) in &ta {
            if path.ends_with("SKILL.md") {
                let dir = path.parent().unwrap();
                assert_eq!(dir.components().count(), 1);
                let name = dir.to_str().unwrap();
                assert!(String::from_utf8_lossy(contents).contains(&format!("\nname: {name}\n")));
            }
        }
        // A smaller tree is a prefix of a larger one.
        let c = scratch("identical-c");
        run(&opts(&c, 10)).unwrap();
        let small = snapshot(&c);
        assert!(
            small
                .iter()
                .filter(|(p, _)| p.ends_with("SKILL.md"))
                .all(|f| ta.contains(f))
        );
        for dir in [a, b, c] {
            fs::remove_dir_all(dir).unwrap();
        }
    }

    #[test]
    fn nested_layout_puts_some_skills_deeper() {
        let out = scratch("nested");
        let mut o = opts(&out, 200);
        o.nested = true;
        run(&o).unwrap();
        let files = snapshot(&out);
        let depths: Vec<usize> = files
            .iter()
            .filter(|(p, _)| p.ends_with("SKILL.md"))
            .map(|(p, _)| p.components().count() - 1)
            .collect();
        assert_eq!(depths.len(), 200);
        assert!(depths.iter().all(|d| (1..=3).contains(d)));
        assert!(depths.contains(&2) && depths.contains(&3), "{depths:?}");
        let deep = depths.iter().filter(|d| **d > 1).count();
        assert!(deep < 50, "{deep} nested skills is more than a few");
        fs::remove_dir_all(out).unwrap();
    }

    #[test]
    fn refuses_to_clobber() {
        // A non-empty directory without --force is refused.
        let out = scratch("clobber");
        run(&opts(&out, 3)).unwrap();
        let err = run(&opts(&out, 3)).unwrap_err();
        assert!(err.to_string().contains("--force"), "{err}");

        // --force replaces a tree this tool created, removing stale skills.
        let stale = out.join("stale-skill");
        fs::create_dir(&stale).unwrap();
        let mut forced = opts(&out, 3);
        forced.force = true;
        run(&forced).unwrap();
        assert!(!stale.exists());
        assert_eq!(snapshot(&out).len(), 4);

        // --force never deletes a directory without the marker.
        fs::remove_file(out.join(MARKER_FILE)).unwrap();
        let err = run(&forced).unwrap_err();
        assert!(err.to_string().contains("refusing"), "{err}");
        assert_eq!(snapshot(&out).len(), 3);

        // An existing empty directory is fine without --force.
        fs::remove_dir_all(&out).unwrap();
        fs::create_dir(&out).unwrap();
        run(&opts(&out, 2)).unwrap();
        fs::remove_dir_all(out).unwrap();
    }
}
