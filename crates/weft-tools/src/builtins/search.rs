//! The search tools: `glob` (files by name) and `grep` (lines by regex).

use std::io::{BufRead, BufReader, Read};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use async_trait::async_trait;
use globset::{GlobBuilder, GlobMatcher};
use regex::bytes::{Regex, RegexBuilder};
use serde::Deserialize;
use serde_json::json;
use weft_types::tool_names;

use super::content::{SNIFF_LEN, looks_binary, truncate_chars};
use super::input::{check_path_reach, parse};
use super::walk::walk_files;
use crate::tool::withheld_note;
use crate::{CallContext, FsScope, Tool, ToolError, ToolOutput};

/// The most files `glob` lists.
const GLOB_CAP: usize = 1_000;

/// `grep`'s default and largest number of matching lines.
const GREP_DEFAULT_RESULTS: usize = 200;
const GREP_MAX_RESULTS: usize = 2_000;

/// Matched lines are cut to this many characters.
const LINE_CHARS: usize = 300;

/// Lines longer than this are searched in pieces, so one huge line cannot exhaust memory.
const MAX_LINE_BYTES: u64 = 1024 * 1024;

/// No size cap: grep streams every file line by line (each line capped at
/// [`MAX_LINE_BYTES`]) and stops at its result limit.
const GREP_CAP: weft_fs::Cap = weft_fs::Cap::new(u64::MAX, "files grep searches");

/// Compiles a glob where `*` stays within one path segment and `**` crosses them.
fn compile_glob(pattern: &str, what: &str) -> Result<GlobMatcher, ToolError> {
    let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
    if pattern.is_empty() {
        return Err(ToolError::InvalidInput(format!("{what} is empty")));
    }
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| ToolError::InvalidInput(format!("invalid {what} {pattern:?}: {e}")))
}

/// Resolves where a search starts: a directory, or also a regular file when `allow_file`
/// (never a FIFO or device, which could block the search).
async fn search_root(
    scope: &FsScope,
    path: Option<&str>,
    allow_file: bool,
) -> Result<(PathBuf, bool), ToolError> {
    let root = scope.resolve_read(path.unwrap_or("."))?;
    let meta = tokio::fs::metadata(&root)
        .await
        .map_err(|source| ToolError::Io {
            path: PathBuf::from(scope.display(&root)),
            source,
        })?;
    let acceptable = meta.is_dir() || (allow_file && meta.is_file());
    if !acceptable {
        let what = if allow_file {
            "a file or directory"
        } else {
            "a directory"
        };
        return Err(ToolError::Failed(format!(
            "{} is not {what}",
            scope.display(&root)
        )));
    }
    Ok((root, meta.is_dir()))
}

/// The walk runs on a blocking thread; a panic there surfaces as a failed call.
fn join_error(tool: &str, err: tokio::task::JoinError) -> ToolError {
    ToolError::Failed(format!("{tool} did not finish: {err}"))
}

/// `glob`: files whose path matches a pattern.
pub(crate) struct Glob {
    scope: Arc<FsScope>,
}

impl Glob {
    pub(crate) fn new(scope: Arc<FsScope>) -> Self {
        Self { scope }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GlobInput {
    pattern: String,
    path: Option<String>,
}

#[async_trait]
impl Tool for Glob {
    fn name(&self) -> &str {
        tool_names::GLOB
    }

    fn check_reach(&self, input: &serde_json::Value) -> Result<(), ToolError> {
        check_path_reach(input, "path", |p| self.scope.resolve_read(p))
    }

    fn description(&self) -> &str {
        "Finds files whose path (relative to `path`) matches a glob such as `**/*.rs`; `*` stays within one directory, `**` crosses directories. Skips .git, target and node_modules."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "pattern": {"type": "string", "description": "Glob pattern, e.g. `src/**/*.rs` or `*.toml`."},
                "path": {"type": "string", "description": "Directory to search (default: the workspace root)."}
            },
            "required": ["pattern"],
            "additionalProperties": false
        })
    }

    async fn call(&self, input: serde_json::Value) -> Result<ToolOutput, ToolError> {
        self.call_in(input, &CallContext::default()).await
    }

    async fn call_in(
        &self,
        input: serde_json::Value,
        context: &CallContext,
    ) -> Result<ToolOutput, ToolError> {
        let input: GlobInput = parse(self.name(), input)?;
        let matcher = compile_glob(&input.pattern, "glob pattern")?;
        let (root, _) = search_root(&self.scope, input.path.as_deref(), false).await?;
        let scope = Arc::clone(&self.scope);
        let context = context.clone();
        let (mut found, withheld) = tokio::task::spawn_blocking(move || {
            let mut found = Vec::new();
            // Only files the pattern names count as withheld: the others are not shown either
            // way, so the walk itself filters nothing.
            let mut withheld = 0;
            walk_files(&root, &scope, |file| {
                if matcher.is_match(&file.rel) {
                    if context.admits(&file.seen, &file.real) {
                        found.push(scope.display(&file.seen));
                    } else {
                        withheld += 1;
                    }
                }
                ControlFlow::Continue(())
            });
            (found, withheld)
        })
        .await
        .map_err(|e| join_error(self.name(), e))?;
        let note = withheld_note(withheld);
        if found.is_empty() {
            let mut text = format!("no files match {}", input.pattern);
            push_line(&mut text, &note);
            return Ok(ToolOutput::text(text));
        }
        found.sort();
        let total = found.len();
        found.truncate(GLOB_CAP);
        let mut text = found.join("\n");
        if total > GLOB_CAP {
            text.push_str(&format!(
                "\n[{} more files not shown; narrow the pattern or path]",
                total - GLOB_CAP
            ));
        }
        push_line(&mut text, &note);
        Ok(ToolOutput::text(text))
    }
}

/// `grep`: lines matching a regex.
pub(crate) struct Grep {
    scope: Arc<FsScope>,
}

impl Grep {
    pub(crate) fn new(scope: Arc<FsScope>) -> Self {
        Self { scope }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GrepInput {
    pattern: String,
    path: Option<String>,
    glob: Option<String>,
    #[serde(default)]
    case_insensitive: bool,
    max_results: Option<usize>,
}

#[async_trait]
impl Tool for Grep {
    fn name(&self) -> &str {
        tool_names::GREP
    }

    fn check_reach(&self, input: &serde_json::Value) -> Result<(), ToolError> {
        check_path_reach(input, "path", |p| self.scope.resolve_read(p))
    }

    fn description(&self) -> &str {
        "Searches file contents for a regular expression (Rust regex syntax) and returns matching lines as `path:line:text`. Skips binary files, .git, target and node_modules."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "pattern": {"type": "string", "description": "Regular expression (Rust regex syntax)."},
                "path": {"type": "string", "description": "File or directory to search (default: the workspace root)."},
                "glob": {"type": "string", "description": "Only search files whose name or relative path matches this glob, e.g. `*.rs`."},
                "case_insensitive": {"type": "boolean", "description": "Ignore case (default false)."},
                "max_results": {"type": "integer", "minimum": 1, "maximum": GREP_MAX_RESULTS, "description": "Most matching lines to return (default 200)."}
            },
            "required": ["pattern"],
            "additionalProperties": false
        })
    }

    async fn call(&self, input: serde_json::Value) -> Result<ToolOutput, ToolError> {
        self.call_in(input, &CallContext::default()).await
    }

    async fn call_in(
        &self,
        input: serde_json::Value,
        context: &CallContext,
    ) -> Result<ToolOutput, ToolError> {
        let input: GrepInput = parse(self.name(), input)?;
        if input.pattern.is_empty() {
            return Err(ToolError::InvalidInput("pattern is empty".to_owned()));
        }
        let regex = RegexBuilder::new(&input.pattern)
            .case_insensitive(input.case_insensitive)
            .build()
            .map_err(|e| ToolError::InvalidInput(format!("invalid regex: {e}")))?;
        let filter = input
            .glob
            .as_deref()
            .map(|g| compile_glob(g, "glob filter"))
            .transpose()?;
        let max = match input.max_results {
            Some(0) => {
                return Err(ToolError::InvalidInput(
                    "max_results must be at least 1".to_owned(),
                ));
            }
            Some(n) => n.min(GREP_MAX_RESULTS),
            None => GREP_DEFAULT_RESULTS,
        };
        let spelled = self.scope.spelled(input.path.as_deref().unwrap_or("."))?;
        let (root, is_dir) = search_root(&self.scope, input.path.as_deref(), true).await?;
        let scope = Arc::clone(&self.scope);
        let search = Search {
            regex,
            // One extra match tells whether the list was cut.
            limit: max + 1,
            hits: Vec::new(),
            withheld: 0,
        };
        let context = context.clone();
        let run = move || {
            let start = Start {
                root: &root,
                spelled: &spelled,
                is_dir,
            };
            search.run(&scope, &start, &context, filter)
        };
        let (hits, withheld) = tokio::task::spawn_blocking(run)
            .await
            .map_err(|e| join_error(self.name(), e))?;
        let note = withheld_note(withheld);
        if hits.is_empty() {
            let mut text = "no matches".to_owned();
            push_line(&mut text, &note);
            return Ok(ToolOutput::text(text));
        }
        let cut = hits.len() > max;
        let mut text = hits[..hits.len().min(max)].join("\n");
        if cut {
            text.push_str(&format!(
                "\n[stopped after {max} matches; narrow the search or raise max_results (up to {GREP_MAX_RESULTS})]"
            ));
        }
        push_line(&mut text, &note);
        Ok(ToolOutput::text(text))
    }
}

/// Appends `line` on a line of its own, unless it is empty.
fn push_line(text: &mut String, line: &str) {
    if !line.is_empty() {
        text.push('\n');
        text.push_str(line);
    }
}

/// Where a grep starts: its real path, the path as spelled (both absolute), and whether it is
/// a directory.
struct Start<'a> {
    root: &'a Path,
    spelled: &'a Path,
    is_dir: bool,
}

/// One grep run: the regex, the lines found so far and the files withheld.
struct Search {
    regex: Regex,
    limit: usize,
    hits: Vec<String>,
    withheld: usize,
}

impl Search {
    /// The lines found and how many files `context` withheld.
    fn run(
        mut self,
        scope: &FsScope,
        start: &Start<'_>,
        context: &CallContext,
        filter: Option<GlobMatcher>,
    ) -> (Vec<String>, usize) {
        let root = start.root;
        if !start.is_dir {
            // A file named outright is searched whatever the glob filter says, if the
            // permission rules admit it.
            if context.admits(start.spelled, root) {
                let _ = self.search_file(root, &scope.display(root));
            } else {
                self.withheld += 1;
            }
            return (self.hits, self.withheld);
        }
        walk_files(root, scope, |file| {
            let name = file.rel.rsplit('/').next().unwrap_or(&file.rel);
            let wanted = filter
                .as_ref()
                .is_none_or(|f| f.is_match(name) || f.is_match(&file.rel));
            if !wanted {
                return ControlFlow::Continue(());
            }
            // Judged on the path the walk reached it by and on its real path: a link in
            // `src` to `../.env` is the `.env` the rules may refuse.
            if !context.admits(&file.seen, &file.real) {
                self.withheld += 1;
                return ControlFlow::Continue(());
            }
            self.search_file(&file.real, &scope.display(&file.seen))
        });
        (self.hits, self.withheld)
    }

    /// Adds the file's matching lines; `Break` once the limit is reached. Unreadable and
    /// binary files are skipped.
    fn search_file(&mut self, path: &Path, shown: &str) -> ControlFlow<()> {
        match self.try_search_file(path, shown) {
            Ok(flow) => flow,
            Err(err) => {
                tracing::debug!(file = %path.display(), %err, "grep skipped an unreadable file");
                ControlFlow::Continue(())
            }
        }
    }

    fn try_search_file(&mut self, path: &Path, shown: &str) -> std::io::Result<ControlFlow<()>> {
        // Non-blocking and type-checked: a FIFO swapped in after the walk saw a file is
        // refused, not waited on.
        let opened = weft_fs::RegularFile::open(path, GREP_CAP)?;
        let mut file = BufReader::with_capacity(64 * 1024, opened.into_file());
        let mut head = Vec::with_capacity(SNIFF_LEN);
        (&mut file).take(SNIFF_LEN as u64).read_to_end(&mut head)?;
        if looks_binary(&head) {
            return Ok(ControlFlow::Continue(()));
        }
        let mut reader = std::io::Cursor::new(head).chain(file);
        let mut line = Vec::new();
        let mut line_no = 0u64;
        let mut at_line_start = true;
        loop {
            line.clear();
            let n = (&mut reader)
                .take(MAX_LINE_BYTES)
                .read_until(b'\n', &mut line)?;
            if n == 0 {
                return Ok(ControlFlow::Continue(()));
            }
            // A piece of an over-long line keeps the number of the line it belongs to.
            if at_line_start {
                line_no += 1;
            }
            at_line_start = line.ends_with(b"\n");
            if !self.regex.is_match(&line) {
                continue;
            }
            let text = String::from_utf8_lossy(&line);
            let text = truncate_chars(text.trim_end_matches(['\n', '\r']), LINE_CHARS);
            self.hits.push(format!("{shown}:{line_no}:{text}"));
            if self.hits.len() >= self.limit {
                return Ok(ControlFlow::Break(()));
            }
        }
    }
}
