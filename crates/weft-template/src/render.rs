//! Filling placeholders: the single rendering pass and the template queries built on the scanner.

use std::fmt::Write as _;

use std::ops::Range;

use weft_types::InvocationContext;

use crate::dynamic::{DynamicKind, dynamic_blocks};
use crate::scan::{Kind, Placeholder, Scanner, Token};

/// What the append rule adds before the joined arguments.
const APPEND_PREFIX: &str = "\n\nARGUMENTS: ";

/// Renders `template` with `ctx` in a single pass.
///
/// Substituted text is never rescanned: an argument that itself contains `$ARGUMENTS` or `$1`
/// ends up in the output literally.
///
/// | Template | Becomes |
/// |---|---|
/// | `$ARGUMENTS` | all arguments joined by single spaces |
/// | `$ARGUMENTS[N]`, `${N}` | argument `N` (0-based); unchanged when out of range |
/// | `$N` | argument `N`, only outside Markdown code and when in range; unchanged otherwise |
/// | `$SESSION_ID`, `${SESSION_ID}`, `${CLAUDE_SESSION_ID}` | the session id |
/// | `${CLAUDE_SKILL_DIR}`, `{baseDir}` | the skill directory; unchanged when there is none |
/// | `\$` | a literal `$` (`\\` before `$` is kept and escapes nothing) |
///
/// When the template uses no `$ARGUMENTS`-family placeholder (see
/// [`uses_arguments`](crate::uses_arguments); a bare `$N` counts only when argument `N`
/// exists) and there are arguments, they are appended as
/// `"\n\nARGUMENTS: "` followed by the arguments joined by single spaces.
///
/// ```
/// use weft_template::render;
/// use weft_types::InvocationContext;
///
/// let ctx = InvocationContext::new(vec!["SearchBar".into(), "React".into()], "s-1");
/// assert_eq!(render("Migrate ${0} from $1 (`$1` stays).", &ctx), "Migrate SearchBar from React (`$1` stays).");
/// assert_eq!(render("Plain.", &ctx), "Plain.\n\nARGUMENTS: SearchBar React");
/// ```
#[must_use]
pub fn render(template: &str, ctx: &InvocationContext) -> String {
    render_report(template, ctx).text
}

/// A rendered template and what it left unfilled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The text, as [`render`] returns it.
    pub text: String,
    /// The placeholders written back as they were because nothing filled them, in order of
    /// first appearance, without duplicates: `${3}` or `$ARGUMENTS[3]` past the last argument,
    /// a named `$issue` without its argument, `${CLAUDE_SKILL_DIR}` or
    /// `${CLAUDE_PROJECT_DIR}` without a directory, `${CLAUDE_EFFORT}` without an effort, and
    /// `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` outside a plugin. A bare `$N` past the last argument is text (a
    /// price), not a placeholder, and is not listed.
    pub unfilled: Vec<String>,
    /// The dynamic-context blocks of the template ([`dynamic_blocks`](crate::dynamic_blocks)),
    /// located in [`text`](Self::text): placeholders inside a command are filled like
    /// everywhere else, and text an argument brought in is never one of them.
    pub commands: Vec<RenderedCommand>,
}

/// A dynamic-context block in a rendered text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedCommand {
    /// Inline or fenced.
    pub kind: DynamicKind,
    /// The whole block in the rendered text: what the command's output replaces.
    pub range: Range<usize>,
    /// The command, placeholders filled, trimmed.
    pub command: String,
}

impl Rendered {
    /// The text with each dynamic-context block replaced by `replace(index, command)`.
    #[must_use]
    pub fn replace_commands(
        &self,
        mut replace: impl FnMut(usize, &RenderedCommand) -> String,
    ) -> String {
        let mut out = String::with_capacity(self.text.len());
        let mut at = 0;
        for (i, command) in self.commands.iter().enumerate() {
            out.push_str(self.text.get(at..command.range.start).unwrap_or_default());
            out.push_str(&replace(i, command));
            at = command.range.end;
        }
        out.push_str(self.text.get(at..).unwrap_or_default());
        out
    }
}

/// Template positions of the dynamic-context blocks (each block's start, command start,
/// command end and end, in order) mapped to positions in the output as it is written.
struct Marks {
    at: Vec<usize>,
    mapped: Vec<usize>,
    next: usize,
}

impl Marks {
    fn new(at: Vec<usize>) -> Self {
        Self {
            mapped: vec![0; at.len()],
            at,
            next: 0,
        }
    }

    /// Maps the marks before `start` (skipped template bytes, such as an escape's backslash)
    /// to `out_len`.
    fn before(&mut self, start: usize, out_len: usize) {
        while self.at.get(self.next).is_some_and(|&m| m < start) {
            self.mapped[self.next] = out_len;
            self.next += 1;
        }
    }

    /// Maps the marks within `start..=end`, a token written at `out_start` whose output ends
    /// at `out_end`: text maps byte for byte, a placeholder to its start or its end.
    fn within(&mut self, start: usize, end: usize, out_start: usize, out_end: usize, text: bool) {
        while let Some(&m) = self.at.get(self.next).filter(|&&m| m <= end) {
            self.mapped[self.next] = if text {
                out_start + (m - start)
            } else if m == start {
                out_start
            } else {
                out_end
            };
            self.next += 1;
        }
    }
}

/// Where `slice`, a slice of `src`, starts in it.
fn offset_in(src: &str, slice: &str) -> usize {
    slice.as_ptr().addr().saturating_sub(src.as_ptr().addr())
}

/// [`render`], also saying which placeholders stayed unfilled (for `--dry-run` and the
/// transcript).
///
/// ```
/// use weft_template::render_report;
/// use weft_types::InvocationContext;
///
/// let ctx = InvocationContext::new(vec!["42".into()], "s").with_names(vec!["issue".into(), "branch".into()]);
/// let out = render_report("Fix #$issue on $branch (`$issue` stays), effort ${CLAUDE_EFFORT}.", &ctx);
/// assert_eq!(out.text, "Fix #42 on $branch (`$issue` stays), effort ${CLAUDE_EFFORT}.");
/// assert_eq!(out.unfilled, ["$branch", "${CLAUDE_EFFORT}"]);
/// ```
#[must_use]
pub fn render_report(template: &str, ctx: &InvocationContext) -> Rendered {
    let joined_len = joined_len(&ctx.args);
    // Room for the template, a few values and some growth: one allocation in the usual case.
    let dir_len = ctx.skill_dir.as_ref().map_or(0, |d| d.as_os_str().len());
    let mut out = String::with_capacity(
        template.len()
            + template.len() / 4
            + joined_len
            + ctx.session_id.len()
            + dir_len
            + APPEND_PREFIX.len(),
    );
    let mut uses_args = false;
    let mut unfilled: Vec<String> = Vec::new();
    let blocks = dynamic_blocks(template);
    let mut marks = Marks::new(
        blocks
            .iter()
            .flat_map(|b| {
                [
                    b.range.start,
                    b.command_range.start,
                    b.command_range.end,
                    b.range.end,
                ]
            })
            .collect(),
    );
    for token in Scanner::with_names(template, &ctx.names) {
        let (raw, text) = match token {
            Token::Text(text) => (text, true),
            Token::Placeholder(p) => (p.raw, false),
        };
        let start = offset_in(template, raw);
        marks.before(start, out.len());
        let out_start = out.len();
        match token {
            Token::Text(text) => out.push_str(text),
            Token::Placeholder(p) => {
                // A bare `$N` with no such argument is text (a price, say), not a use of the
                // arguments, so it does not stop them from being appended.
                let unfilled_bare = matches!(p.kind, Kind::Index(i)
                    if p.raw.as_bytes().get(1).is_some_and(u8::is_ascii_digit)
                        && i.and_then(|i| ctx.args.get(i)).is_none());
                uses_args |= p.kind.is_argument() && !unfilled_bare;
                if !fill(&mut out, p, ctx) && !unfilled_bare && !unfilled.iter().any(|u| u == p.raw)
                {
                    unfilled.push(p.raw.to_owned());
                }
            }
        }
        marks.within(start, start + raw.len(), out_start, out.len(), text);
    }
    marks.before(usize::MAX, out.len());
    let commands = blocks
        .iter()
        .zip(marks.mapped.chunks_exact(4))
        .map(|(block, m)| RenderedCommand {
            kind: block.kind,
            range: m[0]..m[3],
            command: out.get(m[1]..m[2]).unwrap_or_default().trim().to_owned(),
        })
        .collect();
    if !uses_args && !ctx.args.is_empty() {
        out.reserve(APPEND_PREFIX.len() + joined_len);
        out.push_str(APPEND_PREFIX);
        push_joined(&mut out, &ctx.args);
    }
    Rendered {
        text: out,
        unfilled,
        commands,
    }
}

/// Writes the value of `p`, or `p` itself when it has no value; false in that case.
fn fill(out: &mut String, p: Placeholder<'_>, ctx: &InvocationContext) -> bool {
    let value = match p.kind {
        Kind::AllArguments => {
            push_joined(out, &ctx.args);
            return true;
        }
        Kind::Index(index) => index.and_then(|i| ctx.args.get(i)).map(String::as_str),
        Kind::Named(index) => ctx.args.get(index).map(String::as_str),
        Kind::SessionId => Some(ctx.session_id.as_str()),
        Kind::Effort => ctx.effort.as_deref(),
        Kind::SkillDir | Kind::ProjectDir | Kind::PluginRoot | Kind::PluginData => {
            if fill_dir(out, p.kind, ctx) {
                return true;
            }
            None
        }
    };
    match value {
        Some(v) => {
            out.push_str(v);
            true
        }
        None => {
            out.push_str(p.raw);
            false
        }
    }
}

/// The directory a directory placeholder stands for, when the context has it.
fn dir_of(kind: Kind, ctx: &InvocationContext) -> Option<&std::path::Path> {
    match kind {
        Kind::SkillDir => ctx.skill_dir.as_deref(),
        Kind::ProjectDir => ctx.project_dir.as_deref(),
        Kind::PluginRoot => ctx.plugin_root.as_deref(),
        Kind::PluginData => ctx.plugin_data.as_deref(),
        _ => None,
    }
}

/// Writes the directory `kind` stands for; false (nothing written) when there is none.
fn fill_dir(out: &mut String, kind: Kind, ctx: &InvocationContext) -> bool {
    let Some(dir) = dir_of(kind, ctx) else {
        return false;
    };
    match dir.to_str() {
        Some(dir) => out.push_str(dir),
        // Writing to a `String` cannot fail.
        None => {
            let _ = write!(out, "{}", dir.display());
        }
    }
    true
}

/// Fills only the directory variables (`${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}`,
/// `${CLAUDE_PROJECT_DIR}`, `${CLAUDE_SKILL_DIR}`) in text that is not a skill body: a
/// plugin's hook command, its MCP servers' commands, arguments, environment and URLs, an
/// agent's prompt. Nothing else there is a placeholder: `$1`, `$ARGUMENTS`, `${HOME}` and
/// `\$` belong to the shell or the server, and a variable the context has no directory for
/// stays as written. The placeholder grammar is [`render`]'s own.
///
/// ```
/// use weft_template::fill_directories;
/// use weft_types::InvocationContext;
///
/// let mut ctx = InvocationContext::default();
/// ctx.plugin_root = Some("/plugins/fmt".into());
/// assert_eq!(
///     fill_directories("\"${CLAUDE_PLUGIN_ROOT}\"/run.sh $1 ${HOME} ${CLAUDE_PLUGIN_DATA}", &ctx),
///     "\"/plugins/fmt\"/run.sh $1 ${HOME} ${CLAUDE_PLUGIN_DATA}",
/// );
/// ```
#[must_use]
pub fn fill_directories(text: &str, ctx: &InvocationContext) -> String {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut search = 0;
    while let Some(found) = text.get(search..).and_then(|rest| rest.find('$')) {
        let at = search + found;
        search = at + 1;
        // `in_code`: a bare `$N` is never a placeholder here.
        let Some(p) = crate::scan::match_dollar(text, at, true) else {
            continue;
        };
        if dir_of(p.kind, ctx).is_none() {
            continue;
        }
        out.push_str(text.get(copied..at).unwrap_or_default());
        fill_dir(&mut out, p.kind, ctx);
        copied = at + p.raw.len();
        search = copied;
    }
    out.push_str(text.get(copied..).unwrap_or_default());
    out
}

/// Length of `args` joined by single spaces.
fn joined_len(args: &[String]) -> usize {
    args.iter().map(String::len).sum::<usize>() + args.len().saturating_sub(1)
}

/// Pushes `args` joined by single spaces, without an intermediate `String`.
fn push_joined(out: &mut String, args: &[String]) {
    let mut args = args.iter();
    if let Some(first) = args.next() {
        out.push_str(first);
        for arg in args {
            out.push(' ');
            out.push_str(arg);
        }
    }
}

/// The placeholders a template refers to, in order of first appearance, without duplicates.
///
/// Names are written as in the template without `$` and braces: `$ARGUMENTS[0]` is
/// `ARGUMENTS[0]`, `${1}` and a bare `$1` are both `1`, `{baseDir}` is `baseDir`. A bare `$N`
/// inside Markdown code is not a placeholder; escaped ones (`\$1`) are not either. Whether a
/// value exists (an argument index in range, a skill directory) does not matter here.
///
/// ```
/// use weft_template::placeholders;
///
/// assert_eq!(placeholders("Research $ARGUMENTS[0] about ${1}"), ["ARGUMENTS[0]", "1"]);
/// assert_eq!(placeholders("${1} $1 `$2` {baseDir}"), ["1", "baseDir"]);
/// ```
#[must_use]
pub fn placeholders(template: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for token in Scanner::new(template) {
        if let Token::Placeholder(p) = token
            && !names.iter().any(|n| n == p.name)
        {
            names.push(p.name.to_owned());
        }
    }
    names
}

/// True when the template contains a member of the `$ARGUMENTS` family: `$ARGUMENTS`,
/// `$ARGUMENTS[N]`, `${N}`, or a bare `$N` outside Markdown code, whether or not `N` is in range.
///
/// [`render`] appends the arguments to templates for which this is false.
///
/// ```
/// use weft_template::uses_arguments;
///
/// assert!(uses_arguments("Fix issue $0"));
/// assert!(uses_arguments("```sh\necho ${1}\n```"));
/// assert!(!uses_arguments("```sh\necho $1\n```"));
/// assert!(!uses_arguments("Price: \\$5, session $SESSION_ID"));
/// ```
#[must_use]
pub fn uses_arguments(template: &str) -> bool {
    Scanner::new(template).any(|t| matches!(t, Token::Placeholder(p) if p.kind.is_argument()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(args: &[&str]) -> InvocationContext {
        InvocationContext::new(args.iter().map(|a| (*a).to_owned()).collect(), "sid")
    }

    #[test]
    fn joined_len_matches_join() {
        for args in [vec![], vec!["a"], vec!["a", "bc", ""], vec!["é", "ü"]] {
            let owned: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
            let mut out = String::new();
            push_joined(&mut out, &owned);
            assert_eq!(out, owned.join(" "));
            assert_eq!(joined_len(&owned), out.len());
        }
    }

    #[test]
    fn all_arguments() {
        assert_eq!(render("[$ARGUMENTS]", &ctx(&["a", "b c"])), "[a b c]");
        assert_eq!(render("[$ARGUMENTS]", &ctx(&[])), "[]");
    }

    #[test]
    fn indexed_forms() {
        let c = ctx(&["x", "y"]);
        assert_eq!(render("$ARGUMENTS[1]${0}$1$0", &c), "yxyx");
        assert_eq!(render("${01}", &c), "y");
    }

    #[test]
    fn out_of_range_stays() {
        let c = ctx(&["x"]);
        assert_eq!(render("${5} $ARGUMENTS[5] $5", &c), "${5} $ARGUMENTS[5] $5");
        assert_eq!(
            render(
                "${999999999999999999999} $ARGUMENTS[99999999999999999999999]",
                &c
            ),
            "${999999999999999999999} $ARGUMENTS[99999999999999999999999]"
        );
    }

    #[test]
    fn unfilled_bare_index_does_not_block_the_append_rule() {
        // `$5` with one argument is a price, not a placeholder: the argument is appended.
        assert_eq!(render("cost $5", &ctx(&["x"])), "cost $5\n\nARGUMENTS: x");
        // Braced and `$ARGUMENTS[N]` forms are explicit references even when out of range.
        assert_eq!(render("cost ${5}", &ctx(&["x"])), "cost ${5}");
        assert_eq!(render("cost $0", &ctx(&["x"])), "cost x");
    }

    #[test]
    fn arguments_with_bracket_text() {
        assert_eq!(render("$ARGUMENTS[x]", &ctx(&["a"])), "a[x]");
    }

    #[test]
    fn session_and_dir() {
        let c = ctx(&[]).with_skill_dir("/s/k");
        assert_eq!(
            render(
                "$SESSION_ID ${SESSION_ID} ${CLAUDE_SESSION_ID} ${CLAUDE_SKILL_DIR} {baseDir}",
                &c
            ),
            "sid sid sid /s/k /s/k"
        );
    }

    #[test]
    fn append_rule() {
        assert_eq!(render("x", &ctx(&["a", "b"])), "x\n\nARGUMENTS: a b");
        assert_eq!(render("", &ctx(&["a"])), "\n\nARGUMENTS: a");
        assert_eq!(render("x", &ctx(&[])), "x");
        assert_eq!(render("$SESSION_ID", &ctx(&["a"])), "sid\n\nARGUMENTS: a");
        assert_eq!(
            render("\\$ARGUMENTS", &ctx(&["a"])),
            "$ARGUMENTS\n\nARGUMENTS: a"
        );
    }

    #[test]
    fn project_dir_hyphenated_names_and_plugin_dirs() {
        let c = ctx(&["a.rs"])
            .with_names(vec!["file-name".into(), "mode".into()])
            .with_project_dir("/p");
        let template = "${CLAUDE_PROJECT_DIR}/$file-name in $mode-mode, `$file-name`, $file-name-. ${CLAUDE_PLUGIN_ROOT} ${CLAUDE_PLUGIN_DATA}";
        let out = render_report(template, &c);
        assert_eq!(
            out.text,
            "/p/a.rs in $mode-mode, `$file-name`, a.rs-. ${CLAUDE_PLUGIN_ROOT} ${CLAUDE_PLUGIN_DATA}"
        );
        assert_eq!(
            out.unfilled,
            ["$mode", "${CLAUDE_PLUGIN_ROOT}", "${CLAUDE_PLUGIN_DATA}"]
        );
        // A plugin's skill has both plugin directories.
        let mut c = c;
        c.plugin_root = Some("/plug/fmt".into());
        c.plugin_data = Some("/data/fmt".into());
        let out = render_report(template, &c);
        assert!(out.text.ends_with(". /plug/fmt /data/fmt"), "{}", out.text);
        assert_eq!(out.unfilled, ["$mode"]);
        // Without a project, `${CLAUDE_PROJECT_DIR}` stays and is listed.
        let out = render_report("${CLAUDE_PROJECT_DIR}", &ctx(&[]));
        assert_eq!(out.unfilled, ["${CLAUDE_PROJECT_DIR}"]);
    }

    #[test]
    fn fill_directories_touches_only_the_directory_variables() {
        let mut c = ctx(&["arg"]).with_project_dir("/p");
        c.plugin_root = Some("/r".into());
        assert_eq!(
            fill_directories(
                "${CLAUDE_PLUGIN_ROOT}/x $1 $ARGUMENTS ${0} \\$y `$2` ${CLAUDE_PROJECT_DIR} ${CLAUDE_PLUGIN_DATA} ${CLAUDE_SESSION_ID} ${CLAUDE_PLUGIN_ROOTX} $",
                &c
            ),
            "/r/x $1 $ARGUMENTS ${0} \\$y `$2` /p ${CLAUDE_PLUGIN_DATA} ${CLAUDE_SESSION_ID} ${CLAUDE_PLUGIN_ROOTX} $"
        );
        // Substituted text is not scanned again.
        c.plugin_root = Some("${CLAUDE_PROJECT_DIR}".into());
        assert_eq!(
            fill_directories("${CLAUDE_PLUGIN_ROOT}", &c),
            "${CLAUDE_PROJECT_DIR}"
        );
        assert_eq!(fill_directories("", &c), "");
        assert_eq!(fill_directories("é$ü", &c), "é$ü");
    }

    #[test]
    fn dynamic_commands_are_located_in_the_output() {
        let c = ctx(&["42", "!`rm -rf x`"]).with_skill_dir("/s/k");
        let out = render_report(
            "Issue $0: !`gh issue view ${0} --dir ${CLAUDE_SKILL_DIR}`\\$1 then $1
```!
cat $ARGUMENTS[0]
```
",
            &c,
        );
        assert_eq!(
            out.text,
            "Issue 42: !`gh issue view 42 --dir /s/k`$1 then !`rm -rf x`
```!
cat 42
```
"
        );
        let found: Vec<(&str, &str)> = out
            .commands
            .iter()
            .map(|c| (&out.text[c.range.clone()], c.command.as_str()))
            .collect();
        // The argument that looks like a block is text: it was never in the template.
        assert_eq!(
            found,
            [
                (
                    "!`gh issue view 42 --dir /s/k`",
                    "gh issue view 42 --dir /s/k"
                ),
                ("```!\ncat 42\n```", "cat 42"),
            ]
        );
        let replaced = out.replace_commands(|i, c| format!("<{i}:{}>", c.kind.label()));
        assert_eq!(
            replaced,
            "Issue 42: <0:inline>$1 then !`rm -rf x`\n<1:fenced>\n"
        );
    }

    #[test]
    fn dynamic_commands_survive_the_append_rule() {
        let out = render_report("Now: !`date`", &ctx(&["a"]));
        assert_eq!(out.text, "Now: !`date`\n\nARGUMENTS: a");
        assert_eq!(out.commands.len(), 1);
        assert_eq!(&out.text[out.commands[0].range.clone()], "!`date`");
        assert!(render_report("plain", &ctx(&[])).commands.is_empty());
    }

    #[test]
    fn placeholders_dedup_in_order() {
        assert_eq!(
            placeholders("$1 ${0} $ARGUMENTS ${1} $ARGUMENTS {baseDir} $SESSION_ID ${SESSION_ID}"),
            ["1", "0", "ARGUMENTS", "baseDir", "SESSION_ID"]
        );
        assert!(placeholders("nothing $ here").is_empty());
    }

    #[test]
    fn uses_arguments_cases() {
        assert!(uses_arguments("$ARGUMENTS"));
        assert!(uses_arguments("$ARGUMENTS[2]"));
        assert!(uses_arguments("${3}"));
        assert!(uses_arguments("`${3}`"));
        assert!(uses_arguments("$3"));
        assert!(!uses_arguments("`$3`"));
        assert!(!uses_arguments("\\$3"));
        assert!(!uses_arguments("$ARGUMENTSX ${CLAUDE_SKILL_DIR} {baseDir}"));
        assert!(!uses_arguments(""));
    }
}
