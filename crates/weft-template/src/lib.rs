//! Single-pass rendering of skill bodies.
//!
//! A skill body is a Markdown template. When the skill is invoked, [`render`] fills its
//! placeholders from an [`InvocationContext`](weft_types::InvocationContext):
//!
//! * `$ARGUMENTS` — all arguments joined by single spaces;
//! * `$ARGUMENTS[N]`, `${N}` — argument `N` (0-based), left as written when out of range;
//! * `$N` — argument `N` too, but only outside Markdown code (inline spans and fenced blocks)
//!   and only when in range, so `$100` and `` `echo $1` `` survive;
//! * `$SESSION_ID`, `${SESSION_ID}`, `${CLAUDE_SESSION_ID}` — the session id;
//! * `${CLAUDE_SKILL_DIR}`, `{baseDir}` — the skill's directory, left as written without one;
//! * `$name` — for each name of the skill's `arguments:` list (hyphens allowed:
//!   `$file-name`), the argument at its position, under the same code-aware rule as a bare
//!   `$N`; left as written when that argument is missing;
//! * `${CLAUDE_EFFORT}` — the effort level in force, left as written without one;
//! * `${CLAUDE_PROJECT_DIR}` — the project directory, left as written without one;
//! * `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}` — the directories of the plugin the
//!   skill came from, left as written (and reported unfilled) for a skill of no plugin;
//! * `\$` — a literal dollar.
//!
//! [`fill_directories`] fills only the directory variables, for text that is not a skill
//! body (a plugin's hook commands and MCP server configurations, an agent's prompt).
//!
//! Dynamic-context blocks (`` !`command` ``, ```` ```! ````) are found by [`dynamic_blocks`];
//! [`render_report`] says where each landed in the rendered text, so the caller can run them.
//!
//! The template is scanned once and substituted text is never rescanned. A template that uses
//! no argument placeholder gets the arguments appended as `ARGUMENTS: …`. Raw argument strings
//! are split with [`split_args`].
//!
//! ```
//! use weft_template::{placeholders, render, split_args, uses_arguments};
//! use weft_types::InvocationContext;
//!
//! let body = "Deploy $0 and $1; keep $2.\n\n```sh\nexport TARGET=\"$1\"\n```\nLog: ${SESSION_ID}.log";
//! let args = split_args(r#"api "web ui""#)?;
//! let ctx = InvocationContext::new(args, "abc-123");
//!
//! assert_eq!(
//!     render(body, &ctx),
//!     "Deploy api and web ui; keep $2.\n\n```sh\nexport TARGET=\"$1\"\n```\nLog: abc-123.log",
//! );
//! assert_eq!(placeholders(body), ["0", "1", "2", "SESSION_ID"]);
//! assert!(uses_arguments(body));
//!
//! // No argument placeholder: the arguments are appended.
//! assert_eq!(render("Summarise.", &ctx), "Summarise.\n\nARGUMENTS: api web ui");
//! # Ok::<(), weft_template::SplitError>(())
//! ```
//!
//! # Code map
//!
//! `render(template, &InvocationContext)`: one pass over the template (substituted text is never
//! rescanned), markdown-code aware for bare `$N` and named `$name` arguments, the `ARGUMENTS:`
//! append rule (the one pass is `scan/`: the tokenizer in `mod.rs`, the placeholder forms in
//! `placeholder.rs`, fences and code spans in `markdown.rs`, the word-at-a-time skip over plain
//! text in `special_bytes.rs`); `render_report` also lists the placeholders left unfilled and where
//! each dynamic-context block landed in the rendered text; `dynamic.rs`: `dynamic_blocks`, the one
//! parser of dynamic context (`` !`cmd` ``, ```` ```! ````), built on the scanner's record of the
//! code spans and fences it passed (weft-scan reports what it finds, the session runs it);
//! `split_args` with shell-word rules. Depends on `weft-types` and `shell-words` only. Pure
//! functions.

mod args;
mod dynamic;
mod render;
mod scan;

pub use args::{SplitError, split_args};
pub use dynamic::{DynamicBlock, DynamicKind, dynamic_blocks};
pub use render::{
    Rendered, RenderedCommand, fill_directories, placeholders, render, render_report,
    uses_arguments,
};
