//! The result of analysing a command: its simple commands, what could not be analysed, and
//! the risky things found.

use std::fmt;

use super::word::Word;

/// Where a simple command was found, from the outside in.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Context {
    /// `( ... )`.
    Subshell,
    /// `$( ... )` or backquotes.
    CommandSubstitution,
    /// `<( ... )` or `>( ... )`.
    ProcessSubstitution,
    /// The command string of `sh -c` (or `bash -lc`, `zsh -c`...).
    ShellString {
        /// The shell's name (`bash`).
        shell: String,
    },
    /// The commands a shell reads from a heredoc or here-string (`bash <<'EOF'`).
    ShellInput {
        /// The shell's name.
        shell: String,
    },
    /// The arguments of `eval`.
    Eval,
    /// The body of a function defined in the command.
    FunctionBody {
        /// The function's name.
        name: String,
    },
    /// The value of an `alias` definition.
    Alias,
    /// The handler of a `trap`.
    Trap,
    /// The command `xargs` runs.
    Xargs,
    /// The command of `find -exec` (or `-execdir`, `-ok`, `-okdir`).
    FindExec,
    /// A command a program runs from one of its arguments: an option's value
    /// (`tar --to-command`, `git -c alias.x=!...`), an environment variable (`GIT_SSH_COMMAND=`),
    /// or its words joined (`watch`, `parallel`).
    Runs {
        /// What runs it, as written: `tar --to-command`, `git -c core.pager`, `watch`.
        by: String,
    },
    /// Everything inside runs as another user (`sudo sh -c '...'`, `su -c '...'`).
    OtherUser {
        /// The wrapper that switches users (`sudo`).
        wrapper: String,
    },
}

impl fmt::Display for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Context::Subshell => f.write_str("a subshell"),
            Context::CommandSubstitution => f.write_str("`$(...)`"),
            Context::ProcessSubstitution => f.write_str("`<(...)`"),
            Context::ShellString { shell } => write!(f, "`{shell} -c`"),
            Context::ShellInput { shell } => write!(f, "the input of `{shell}`"),
            Context::Eval => f.write_str("`eval`"),
            Context::FunctionBody { name } => write!(f, "function `{name}`"),
            Context::Alias => f.write_str("`alias`"),
            Context::Trap => f.write_str("`trap`"),
            Context::Xargs => f.write_str("`xargs`"),
            Context::FindExec => f.write_str("`find -exec`"),
            Context::Runs { by } => write!(f, "`{by}`"),
            Context::OtherUser { wrapper } => write!(f, "`{wrapper}`"),
        }
    }
}

/// What kind of simple command this is, beyond running its program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A program with arguments.
    Plain,
    /// `sh -c STRING`, `eval ...`, `trap`, `alias`, `su -c STRING`, `watch CMD`: the string it
    /// runs was analysed, and its commands are in the analysis.
    Runner,
    /// A call of a function defined in the same command (its body is in the analysis).
    FunctionCall,
}

/// One simple command: a program and its arguments, found anywhere in the command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimpleCommand {
    /// The words from the outermost program on (assignments excluded).
    pub(crate) words: Vec<Word>,
    /// The index in `words` of each program: the wrappers, then the program itself (last).
    pub(crate) levels: Vec<usize>,
    pub(crate) assignments: Vec<Word>,
    pub(crate) context: Vec<Context>,
    /// `xargs` appends arguments read from its input.
    pub(crate) appended_args: bool,
    pub(crate) kind: Kind,
    /// The read-only helper rules accept it (see `helpers.rs`).
    pub(crate) read_only: bool,
    /// The wrapper level that runs the rest as another user (`sudo`, `doas`), if any.
    pub(crate) privileged: Option<usize>,
}

impl SimpleCommand {
    /// The program's name: the basename of the innermost program word (`/bin/rm` is `rm`).
    pub fn program(&self) -> &str {
        basename(self.program_word().text())
    }

    /// The innermost program word, as written.
    pub fn program_word(&self) -> &Word {
        &self.words[self.program_index()]
    }

    fn program_index(&self) -> usize {
        self.levels.last().copied().unwrap_or(0)
    }

    /// The program's arguments (after quote removal).
    pub fn args(&self) -> &[Word] {
        &self.words[self.program_index() + 1..]
    }

    /// Every word from the outermost program on: wrappers, their options, the program, its
    /// arguments.
    pub fn words(&self) -> &[Word] {
        &self.words
    }

    /// The wrappers the program runs under, outermost first (`["sudo", "env"]`).
    pub fn wrappers(&self) -> Vec<&str> {
        let inner = self.levels.len().saturating_sub(1);
        self.levels[..inner]
            .iter()
            .map(|&i| basename(self.words[i].text()))
            .collect()
    }

    /// The `NAME=value` words before the command.
    pub fn assignments(&self) -> &[Word] {
        &self.assignments
    }

    /// Where the command was found, outermost first (empty at the top level).
    pub fn context(&self) -> &[Context] {
        &self.context
    }

    /// True when `xargs` appends arguments read from its input.
    pub fn appends_input_arguments(&self) -> bool {
        self.appended_args
    }

    /// True for `sh -c`, `eval`, `trap`, `alias` and the like (`su -c`, `watch`), whose
    /// strings were analysed as commands.
    pub fn runs_analysed_string(&self) -> bool {
        self.kind == Kind::Runner
    }

    /// The wrapper that runs this command as another user, if one does: at one of its own
    /// levels (`sudo rm x`) or around the string it was found in (`sudo sh -c 'rm x'`).
    pub fn other_user(&self) -> Option<&str> {
        if let Some(level) = self.privileged {
            return self
                .levels
                .get(level)
                .map(|&i| basename(self.words[i].text()));
        }
        self.context.iter().find_map(|c| match c {
            Context::OtherUser { wrapper } => Some(wrapper.as_str()),
            _ => None,
        })
    }

    /// True for a call of a function the same command defines.
    pub fn calls_defined_function(&self) -> bool {
        self.kind == Kind::FunctionCall
    }

    /// True when the command is a read-only helper (`head`, `wc`, `grep`...) used read-only.
    pub fn is_read_only_helper(&self) -> bool {
        self.read_only
    }

    /// True when the program may run a program its arguments name: it is neither looked
    /// through (a wrapper, a shell) nor known to take only data (`setarch x86_64 rm`,
    /// `valgrind rm`, `npx rm`, `make --eval=...`). A deny of `rm` then matches when
    /// [`argument_words`](Self::argument_words) has `rm`.
    pub fn may_run_its_arguments(&self) -> bool {
        self.kind == Kind::Plain && super::programs::may_run_arguments(self.program())
    }

    /// The words of the program's arguments, and of the shell-like words inside them (`'rm
    /// -rf v'` gives `rm`, `-rf`, `v`), by basename (`/bin/rm` is `rm`): what a program that
    /// runs its arguments could run.
    pub fn argument_words(&self) -> Vec<&str> {
        let mut out = Vec::new();
        for arg in self.args() {
            let text = arg.text();
            out.push(basename(text));
            let separators = |c: char| c.is_whitespace() || ";&|()<>`'\"=,{}$".contains(c);
            let mut parts = text.split(separators).filter(|p| !p.is_empty());
            if parts.clone().count() > 1 || parts.clone().next() != Some(text) {
                out.extend(parts.by_ref().map(basename));
            }
        }
        out
    }

    /// True when a program of the command reads the repository's configuration, which can
    /// name programs it runs (git: `core.fsmonitor`, `core.pager`, diff drivers, filters,
    /// hooks, `!` aliases). The analyser cannot read that file (a cloned or unpacked project
    /// may bring its own `.git/config`), so such a command must run in the sandbox, or be
    /// approved by a person.
    pub fn reads_repository_config(&self) -> bool {
        self.levels
            .iter()
            .any(|&i| basename(self.words[i].text()) == "git")
    }

    /// The number of program levels: the wrappers, then the program (`sudo env rm x` has 3).
    pub fn level_count(&self) -> usize {
        self.levels.len()
    }

    /// The words of one level: its program word, then everything after it (level 1 of
    /// `sudo env rm x` is `env rm x`).
    pub fn level(&self, level: usize) -> &[Word] {
        let start = self.levels.get(level).copied().unwrap_or(0);
        &self.words[start..]
    }

    /// The level of the wrapper that runs the levels inside it as another user (`sudo`,
    /// `doas`), if one does.
    pub fn privileged_level(&self) -> Option<usize> {
        self.privileged
    }

    /// `` `git log` `` plus where it was found: "`rm x` (in `sh -c`)".
    pub fn describe(&self) -> String {
        let mut out = format!("`{}`", super::shorten(&self.to_string()));
        if let Some(inner) = self.context.last() {
            out.push_str(&format!(" (in {inner})"));
        }
        out
    }
}

impl fmt::Display for SimpleCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for a in &self.assignments {
            write!(f, "{} ", display_word(a))?;
        }
        f.write_str(&join_words(&self.words))
    }
}

/// Words joined by spaces, quoted where needed.
pub(crate) fn join_words(words: &[Word]) -> String {
    let mut out = String::new();
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&display_word(w));
    }
    out
}

fn display_word(word: &Word) -> std::borrow::Cow<'_, str> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:=@%+,^{}".contains(c);
    if word.is_literal() && (word.text().is_empty() || !word.text().chars().all(plain)) {
        shell_words::quote(word.text())
    } else {
        std::borrow::Cow::Borrowed(word.text())
    }
}

/// The name a program path runs under: the part after its last `/` (`/bin/rm` is `rm`).
pub fn basename(path: &str) -> &str {
    match path.trim_end_matches('/').rsplit_once('/') {
        Some((_, base)) => base,
        None => path,
    }
}

/// A part of the command the analyser cannot see through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unanalysable {
    reason: String,
    context: Vec<Context>,
}

impl Unanalysable {
    pub(crate) fn new(reason: String, context: Vec<Context>) -> Self {
        Self { reason, context }
    }

    /// Why, e.g. "the program name `$CMD` is not literal".
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// Where it was found, outermost first.
    pub fn context(&self) -> &[Context] {
        &self.context
    }
}

impl fmt::Display for Unanalysable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)?;
        if let Some(inner) = self.context.last() {
            write!(f, " (in {inner})")?;
        }
        Ok(())
    }
}

/// Whether a risky thing runs other programs, and whether the analyser saw them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Runs {
    /// It writes, deletes or changes something, but runs nothing else.
    Nothing,
    /// It runs a command the analyser parsed (`tar --to-command='gzip -d'`): those commands
    /// are in the analysis and judged like any other.
    Analysed,
    /// It may run a program the analyser cannot see (`awk 'BEGIN{system(...)}'`,
    /// `git -c core.hooksPath=dir`, `LD_PRELOAD=`).
    Unseen,
    /// Code of a general-purpose language given on the command line (`python3 -c`,
    /// `perl -e`): it may run any program, so a deny denies it; an allow of the interpreter
    /// already allows whatever it can do, so it is no reason to ask.
    Interpreted,
}

/// Something a pattern never pre-approves: an option that runs other programs or writes
/// arbitrary files, a write outside the project, an environment variable that changes what
/// a program runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Risk {
    pub(crate) command: Option<usize>,
    reason: String,
    pub(crate) runs: Runs,
    protected: bool,
}

impl Risk {
    pub(crate) fn new(command: Option<usize>, reason: String, runs: Runs, protected: bool) -> Self {
        Self {
            command,
            reason,
            runs,
            protected,
        }
    }

    /// True when the command may write, move or delete a protected path: what decides what
    /// later sessions may do (`.clawft/`, `.claude/`, `.agents/`, `.codex/`, `.mcp.json`,
    /// `.git/config`, `.git/hooks/`; see [`PROTECTED_PATHS`](crate::PROTECTED_PATHS)), or
    /// a path it cannot read that may be one. No pattern pre-approves it, and it asks in
    /// every permission mode but `bypass`.
    pub fn writes_protected_path(&self) -> bool {
        self.protected
    }

    /// True when the risky thing may run a program the analyser cannot see (`sed '1e cmd'`,
    /// `awk '{system(...)}'`, `git -c core.hooksPath=...`, `PATH=...`): under a scoped `Bash`
    /// deny such a call is denied, as an unanalysable part is, since it could reach a denied
    /// program.
    pub fn runs_unseen_program(&self) -> bool {
        matches!(self.runs, Runs::Unseen | Runs::Interpreted)
    }

    /// True when an allow pattern cannot pre-approve a call with this risk (all but inline
    /// interpreter code, which the interpreter's pattern already covers).
    pub fn needs_approval(&self) -> bool {
        self.runs != Runs::Interpreted
    }

    /// The index of the simple command it belongs to (`None`: a redirection of a compound
    /// command, or a bare assignment).
    pub fn command_index(&self) -> Option<usize> {
        self.command
    }

    /// Why, e.g. "`git -c` can run other programs".
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for Risk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

/// A risky thing a rule found, before the walk records it (and analyses what it runs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finding {
    pub(crate) reason: String,
    pub(crate) runs: Runs,
    /// The command it runs, when the analyser can read it.
    pub(crate) code: Option<Code>,
    /// It may write a protected path.
    pub(crate) protected: bool,
}

/// A command that a risky thing runs: analysed like the rest of the call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Code {
    /// What runs it, as written (`tar --to-command`, `GIT_SSH_COMMAND=`).
    pub(crate) by: String,
    pub(crate) form: CodeForm,
}

/// How a risky thing runs its command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CodeForm {
    /// A string a shell runs (`git rebase --exec 'make test'`).
    Shell(Word),
    /// A program and its arguments (`git bisect run make test`).
    Words(Vec<Word>),
}

impl Finding {
    /// A risky thing that runs nothing else (a write, a deletion).
    pub(crate) fn nothing(reason: String) -> Self {
        Self {
            reason,
            runs: Runs::Nothing,
            code: None,
            protected: false,
        }
    }

    /// A write (or move, or deletion) of a protected path.
    pub(crate) fn protected(reason: String) -> Self {
        Self {
            protected: true,
            ..Self::nothing(reason)
        }
    }

    /// A risky thing that may run programs the analyser cannot see.
    pub(crate) fn unseen(reason: String) -> Self {
        Self {
            runs: Runs::Unseen,
            ..Self::nothing(reason)
        }
    }

    /// A risky thing that runs `code`, a string a shell runs, which is analysed.
    pub(crate) fn shell(reason: String, by: impl Into<String>, code: Word) -> Self {
        Self {
            runs: Runs::Analysed,
            code: Some(Code {
                by: by.into(),
                form: CodeForm::Shell(code),
            }),
            ..Self::nothing(reason)
        }
    }
}

/// Everything the analyser found in one command.
///
/// ```
/// use weft_shell::{ShellContext, analyse_command};
///
/// let analysis = analyse_command("git -C sub log --oneline | head -5", &ShellContext::new());
/// let programs: Vec<&str> = analysis.commands().iter().map(|c| c.program()).collect();
/// assert_eq!(programs, ["git", "head"]);
/// assert!(analysis.is_fully_analysed());
///
/// let analysis = analyse_command("sh -c 'rm -rf build' && $CMD", &ShellContext::new());
/// assert_eq!(analysis.commands()[1].program(), "rm");
/// assert_eq!(analysis.unanalysable()[0].reason(), "the program name `$CMD` is not literal");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommandAnalysis {
    pub(crate) commands: Vec<SimpleCommand>,
    pub(crate) unanalysable: Vec<Unanalysable>,
    pub(crate) risks: Vec<Risk>,
    /// A redirection writes a file (`> out`, `{ ...; } >> log`; not `/dev/null`).
    pub(crate) writes_files: bool,
}

impl CommandAnalysis {
    /// The simple commands, in the order they were found.
    pub fn commands(&self) -> &[SimpleCommand] {
        &self.commands
    }

    /// The parts that could not be analysed.
    pub fn unanalysable(&self) -> &[Unanalysable] {
        &self.unanalysable
    }

    /// The risky things found.
    pub fn risks(&self) -> &[Risk] {
        &self.risks
    }

    /// True when nothing is unanalysable.
    pub fn is_fully_analysed(&self) -> bool {
        self.unanalysable.is_empty()
    }

    /// The first risk that may write a protected path ([`Risk::writes_protected_path`]).
    pub fn protected_write(&self) -> Option<&Risk> {
        self.risks.iter().find(|r| r.writes_protected_path())
    }

    /// True when the command must run in the sandbox even where a pattern pre-approves it:
    /// some simple command reads the repository's configuration
    /// ([`SimpleCommand::reads_repository_config`]).
    pub fn needs_sandbox(&self) -> bool {
        self.commands
            .iter()
            .any(SimpleCommand::reads_repository_config)
    }
}
