//! From raw commands to simple commands: assignments, redirections, wrappers, and the strings
//! some programs run as commands (`sh -c`, `eval`, `trap`, `alias`, `find -exec`).

use super::analysis::{CommandAnalysis, Context, Kind, Risk, SimpleCommand, Unanalysable, basename};
use super::parse::{RawCommand, RedirectKind, Sink, parse_into};
use super::paths::{Place, ShellContext, place};
use super::word::Word;
use super::{helpers, programs, wrappers};

/// Commands longer than this are not analysed.
pub(crate) const MAX_LEN: usize = 64 * 1024;
/// At most this many simple commands are analysed.
pub(crate) const MAX_COMMANDS: usize = 2_000;

const SHELLS: &[&str] = &["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh"];

const SUBSCRIPTS: &str = "array subscripts are evaluated as arithmetic and can run commands";
const ARITHMETIC: &str = "arithmetic on variables can run commands (through array subscripts)";

/// Environment variables that change what a program runs or loads.
const RISKY_ENV: &[&str] = &[
    "PATH",
    "BASH_ENV",
    "ENV",
    "SHELLOPTS",
    "BASHOPTS",
    "PS4",
    "PROMPT_COMMAND",
    "IFS",
    "SHELL",
    "PAGER",
    "GIT_PAGER",
    "MANPAGER",
    "EDITOR",
    "VISUAL",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "GIT_EXEC_PATH",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "GIT_CONFIG",
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_TEMPLATE_DIR",
    "GIT_PROXY_COMMAND",
    "LESSOPEN",
    "LESSCLOSE",
    "PYTHONPATH",
    "PYTHONSTARTUP",
    "PYTHONHOME",
    "NODE_OPTIONS",
    "NODE_PATH",
    "PERL5OPT",
    "PERL5LIB",
    "PERLLIB",
    "RUBYOPT",
    "RUBYLIB",
    "RUSTC",
    "RUSTDOC",
    "CC",
    "CXX",
    "MAKEFLAGS",
];
const RISKY_ENV_PREFIXES: &[&str] = &[
    "LD_",
    "DYLD_",
    "GIT_CONFIG_KEY_",
    "GIT_CONFIG_VALUE_",
    "BASH_FUNC_",
    "npm_config_",
    "NPM_CONFIG_",
];

/// Why setting `name` is risky, if it is.
fn env_risk(name: &str) -> Option<String> {
    let risky = RISKY_ENV.contains(&name)
        || RISKY_ENV_PREFIXES.iter().any(|p| name.starts_with(p))
        || name.ends_with("_RUNNER")
        || name.ends_with("_WRAPPER");
    risky.then(|| format!("`{name}=` changes what programs run or load"))
}

/// Analyses `command` (see [`analyse_command`](crate::analyse_command)).
pub(crate) fn analyse(command: &str, ctx: &ShellContext) -> CommandAnalysis {
    let mut sink = Sink::default();
    let mut out = CommandAnalysis::default();
    if command.len() > MAX_LEN {
        out.unanalysable.push(Unanalysable::new(
            format!("the command is longer than {MAX_LEN} bytes"),
            Vec::new(),
        ));
        return out;
    }
    parse_into(command, &mut sink, Vec::new(), 0);
    let mut next = 0;
    while next < sink.commands.len() {
        if out.commands.len() >= MAX_COMMANDS {
            sink.unanalysable.push(Unanalysable::new(
                format!("the command has more than {MAX_COMMANDS} simple commands"),
                Vec::new(),
            ));
            break;
        }
        let raw = std::mem::replace(
            &mut sink.commands[next],
            RawCommand {
                words: Vec::new(),
                redirects: Vec::new(),
                context: Vec::new(),
                depth: 0,
            },
        );
        next += 1;
        Walk {
            sink: &mut sink,
            out: &mut out,
            ctx,
        }
        .command(raw);
    }
    for command in &mut out.commands {
        if command.kind == Kind::Plain
            && command.levels.len() == 1
            && sink.functions.iter().any(|f| f == command.words[0].text())
        {
            command.kind = Kind::FunctionCall;
        }
    }
    out.unanalysable.append(&mut sink.unanalysable);
    out
}

struct Walk<'a> {
    sink: &'a mut Sink,
    out: &'a mut CommandAnalysis,
    ctx: &'a ShellContext,
}

/// What the redirections of a command do.
#[derive(Default)]
struct Redirections {
    writes_file: bool,
    /// A heredoc or here-string: what the program reads as input.
    input: Option<Word>,
}

impl Walk<'_> {
    fn note(&mut self, reason: String, context: &[Context]) {
        self.sink
            .unanalysable
            .push(Unanalysable::new(reason, context.to_vec()));
    }

    fn risk(&mut self, index: Option<usize>, reason: String) {
        self.out.risks.push(Risk::new(index, reason));
    }

    fn command(&mut self, raw: RawCommand) {
        let RawCommand {
            mut words,
            redirects,
            context,
            depth,
        } = raw;
        let index = if words.iter().any(|w| w.assignment().is_none()) {
            Some(self.out.commands.len())
        } else {
            None
        };
        let risks_before = self.out.risks.len();
        let assigned = words.iter().take_while(|w| w.assignment().is_some()).count();
        let assignments: Vec<Word> = words.drain(..assigned).collect();
        for word in &assignments {
            if let Some(why) = word.assignment().and_then(|(name, _)| env_risk(name)) {
                self.risk(index, why);
            }
        }
        let redirections = self.redirections(&redirects, index);
        if words.is_empty() {
            return;
        }
        let Some(unwrapped) = self.unwrap(&mut words, index, &context) else {
            // No command is kept: the risks found so far belong to none.
            for risk in &mut self.out.risks[risks_before..] {
                risk.command = None;
            }
            return;
        };
        let Unwrapped {
            levels,
            privileged,
            appended,
        } = unwrapped;
        let at = *levels.last().unwrap_or(&0);
        let program = basename(words[at].text()).to_owned();
        let args = &words[at + 1..];
        let kind = self.runs(&program, args, &redirections, &context, depth);
        self.builtin_checks(&program, args, &context);
        for why in programs::risks(&program, args, self.ctx) {
            self.risk(index, why);
        }
        let risky = self.out.risks.len() > risks_before;
        let read_only = !risky
            && !redirections.writes_file
            && privileged.is_none()
            && helpers::find(&program).is_some_and(|h| h.reads_inside(args, appended, self.ctx));
        self.out.commands.push(SimpleCommand {
            words,
            levels,
            assignments,
            context,
            appended_args: appended,
            kind,
            read_only,
            privileged,
        });
    }

    /// Checks the targets of redirections.
    fn redirections(&mut self, redirects: &[super::parse::Redirect], index: Option<usize>) -> Redirections {
        let mut out = Redirections::default();
        for r in redirects {
            match r.kind {
                RedirectKind::Write => {
                    let place = place(&r.target, self.ctx);
                    if let Place::Outside(why) = place {
                        let target = r.target.text();
                        let reason = if why == "is outside the project" {
                            format!("`> {target}` writes outside the project")
                        } else {
                            format!("`> {target}` writes to a path that {why}")
                        };
                        self.risk(index, reason);
                    }
                    out.writes_file |= place != Place::Special;
                }
                RedirectKind::Read => {
                    if let Place::Outside(why) = place(&r.target, self.ctx) {
                        self.risk(index, format!("`< {}` reads a path that {why}", r.target.text()));
                    }
                }
                RedirectKind::Heredoc(id) => out.input = self.sink.heredocs.get(id).cloned(),
                RedirectKind::HereString => out.input = Some(r.target.clone()),
                RedirectKind::Duplicate => {}
            }
        }
        out
    }

    /// Looks through wrappers; `None` when the command cannot be analysed.
    fn unwrap(&mut self, words: &mut [Word], index: Option<usize>, context: &[Context]) -> Option<Unwrapped> {
        let mut levels = vec![0];
        let mut privileged = None;
        let mut appended = false;
        let mut at = 0;
        loop {
            let word = &words[at];
            if !word.is_literal() {
                let under = if at > 0 {
                    format!(" (under `{}`)", basename(words[0].text()))
                } else {
                    String::new()
                };
                self.note(format!("the program name `{}` is not literal{under}", word.text()), context);
                return None;
            }
            let Some(wrapper) = wrappers::find(basename(word.text())) else {
                break;
            };
            match wrapper.unwrap(&words[at + 1..]) {
                wrappers::Unwrap::Inner { start, options } => {
                    let args = at + 1;
                    if wrapper.privileged {
                        privileged.get_or_insert(levels.len() - 1);
                    }
                    if wrapper.assignments {
                        for w in &words[args..args + start] {
                            if let Some(why) = w.assignment().and_then(|(n, _)| env_risk(n)) {
                                self.risk(index, why);
                            }
                        }
                    }
                    for (name, value) in &options {
                        self.wrapper_option(wrapper.name, name, *value, &words[args..], index);
                    }
                    if wrapper.appends {
                        let replace = options.iter().find_map(|(name, value)| {
                            replace_string(name, value.and_then(|v| words[args..].get(v)))
                        });
                        let inner = args + start;
                        match replace {
                            Some(rep) => {
                                for w in &mut words[inner..] {
                                    if w.text().contains(rep.as_str()) {
                                        *w = Word::placeholder(w.text());
                                    }
                                }
                            }
                            None => appended = true,
                        }
                    }
                    at = args + start;
                    levels.push(at);
                }
                wrappers::Unwrap::NoCommand => break,
                wrappers::Unwrap::Unknown(why) => {
                    self.note(why, context);
                    return None;
                }
            }
        }
        Some(Unwrapped {
            levels,
            privileged,
            appended,
        })
    }

    /// Risks of a wrapper's own options (`time -o FILE`).
    fn wrapper_option(&mut self, wrapper: &str, name: &str, value: Option<usize>, args: &[Word], index: Option<usize>) {
        if wrapper == "time" && matches!(name, "-o" | "--output") {
            let target = value.and_then(|v| args.get(v));
            if target.is_none_or(|t| matches!(place(t, self.ctx), Place::Outside(_))) {
                self.risk(index, "`time -o` writes outside the project".to_owned());
            }
        }
    }

    /// Analyses what shells, `eval`, `trap`, `alias` and `find -exec` run; the command's kind.
    fn runs(&mut self, program: &str, args: &[Word], redirections: &Redirections, context: &[Context], depth: usize) -> Kind {
        let nested = |extra: Context| {
            let mut chain = context.to_vec();
            chain.push(extra);
            chain
        };
        match program {
            p if SHELLS.contains(&p) => match shell_mode(args) {
                ShellMode::Command(i) => {
                    let chain = nested(Context::ShellString { shell: p.to_owned() });
                    self.run_string(&args[i], chain, depth, &format!("`{p} -c`"))
                }
                ShellMode::Stdin => match &redirections.input {
                    Some(input) => {
                        let chain = nested(Context::ShellInput { shell: p.to_owned() });
                        self.run_string(input, chain, depth, &format!("the input of `{p}`"))
                    }
                    None => {
                        self.note(format!("`{p}` reads commands from its input"), context);
                        Kind::Plain
                    }
                },
                ShellMode::File => Kind::Plain,
                ShellMode::Unknown(why) => {
                    self.note(why, context);
                    Kind::Plain
                }
            },
            "eval" => {
                let text = args.iter().map(Word::text).collect::<Vec<_>>().join(" ");
                let word = if args.iter().all(Word::is_literal) {
                    Word::literal(text)
                } else {
                    Word::placeholder(text)
                };
                self.run_string(&word, nested(Context::Eval), depth, "`eval`")
            }
            "trap" => match args {
                [handler, _, ..] if !handler.text().starts_with('-') => {
                    self.run_string(handler, nested(Context::Trap), depth, "`trap`")
                }
                _ => Kind::Plain,
            },
            "alias" => {
                for arg in args {
                    if let Some((_, value)) = arg.text().split_once('=') {
                        let word = if arg.is_literal() {
                            Word::literal(value)
                        } else {
                            Word::placeholder(value)
                        };
                        self.run_string(&word, nested(Context::Alias), depth, "`alias`");
                    }
                }
                Kind::Runner
            }
            "find" => {
                self.find_exec(args, nested(Context::FindExec), depth);
                Kind::Plain
            }
            _ => Kind::Plain,
        }
    }

    /// Parses `word` as commands, or records why it cannot be.
    fn run_string(&mut self, word: &Word, context: Vec<Context>, depth: usize, what: &str) -> Kind {
        if word.is_literal() {
            parse_into(word.text(), self.sink, context, depth + 1);
        } else {
            let shown = super::shorten(word.text());
            self.sink.unanalysable.push(Unanalysable::new(
                format!("the string {what} runs (`{shown}`) is not literal"),
                context,
            ));
        }
        Kind::Runner
    }

    /// The commands of `-exec`, `-execdir`, `-ok` and `-okdir`.
    fn find_exec(&mut self, args: &[Word], context: Vec<Context>, depth: usize) {
        let mut i = 0;
        while i < args.len() {
            if matches!(args[i].text(), "-exec" | "-execdir" | "-ok" | "-okdir") {
                let mut words: Vec<Word> = Vec::new();
                i += 1;
                while let Some(w) = args.get(i) {
                    let end = w.text() == ";"
                        || (w.text() == "+" && words.last().is_some_and(|l| l.text() == "{}"));
                    if end {
                        break;
                    }
                    words.push(if w.text().contains("{}") {
                        Word::placeholder(w.text())
                    } else {
                        w.clone()
                    });
                    i += 1;
                }
                if !words.is_empty() {
                    self.sink.commands.push(RawCommand {
                        words,
                        redirects: Vec::new(),
                        context: context.clone(),
                        depth: depth + 1,
                    });
                }
            }
            i += 1;
        }
    }

    /// Builtins that evaluate names as arithmetic (array subscripts run commands).
    fn builtin_checks(&mut self, program: &str, args: &[Word], context: &[Context]) {
        let has_subscript = |w: &Word| w.text().contains('[');
        let reason = match program {
            "let" => args.iter().any(|w| !is_integer(w)).then_some(ARITHMETIC),
            "declare" | "typeset" | "local" | "export" | "readonly" | "unset" | "read" | "mapfile"
            | "readarray" => args
                .iter()
                .any(|w| !w.text().starts_with('-') && has_subscript(w))
                .then_some(SUBSCRIPTS),
            "printf" | "test" | "[" | "[[" => {
                let after_flag = args
                    .windows(2)
                    .any(|pair| pair[0].text() == "-v" && has_subscript(&pair[1]));
                let arithmetic = program == "[["
                    && args.windows(3).any(|t| {
                        matches!(t[1].text(), "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge")
                            && !(is_integer(&t[0]) && is_integer(&t[2]))
                    });
                if after_flag {
                    Some(SUBSCRIPTS)
                } else if arithmetic {
                    Some(ARITHMETIC)
                } else {
                    None
                }
            }
            _ => None,
        };
        if let Some(reason) = reason {
            self.note(format!("`{program}`: {reason}"), context);
        }
        if matches!(program, "export" | "declare" | "typeset" | "local" | "readonly") {
            for w in args {
                if let Some(why) = w.assignment().and_then(|(n, _)| env_risk(n)) {
                    self.out.risks.push(Risk::new(Some(self.out.commands.len()), why));
                }
            }
        }
    }
}

/// What unwrapping found.
struct Unwrapped {
    levels: Vec<usize>,
    privileged: Option<usize>,
    appended: bool,
}

/// The replace string of `xargs -I R` / `-i[R]` / `--replace[=R]`.
fn replace_string(option: &str, value: Option<&Word>) -> Option<String> {
    match option {
        "-I" => value.map(|v| v.text().to_owned()),
        "-i" | "--replace" => Some(
            value
                .map(|v| {
                    let t = v.text();
                    t.split_once('=')
                        .map_or_else(|| t.get(2..).unwrap_or("").to_owned(), |(_, r)| r.to_owned())
                })
                .filter(|r| !r.is_empty())
                .unwrap_or_else(|| "{}".to_owned()),
        ),
        _ => None,
    }
}

fn is_integer(word: &Word) -> bool {
    let text = word.text().trim();
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    word.is_literal() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// How a shell's arguments say it gets its commands.
#[derive(Debug, PartialEq, Eq)]
enum ShellMode {
    /// `-c STRING`: the index of the string.
    Command(usize),
    /// From its input (no operand, or `-s`).
    Stdin,
    /// From a script file.
    File,
    /// Arguments the analyser cannot read.
    Unknown(String),
}

fn shell_mode(args: &[Word]) -> ShellMode {
    const LONG_FLAGS: &[&str] = &[
        "--norc",
        "--noprofile",
        "--login",
        "--posix",
        "--noediting",
        "--restricted",
        "--verbose",
        "--debugger",
        "--version",
        "--help",
    ];
    let mut i = 0;
    let mut command = false;
    let mut stdin = false;
    while let Some(word) = args.get(i) {
        let text = word.text();
        if !word.is_literal() && word.may_be_option() {
            return ShellMode::Unknown(format!("`{text}` after the shell is not literal"));
        }
        if text == "--" || text == "-" {
            i += 1;
            break;
        }
        if text.starts_with("--") {
            if matches!(text, "--rcfile" | "--init-file") {
                i += 2;
            } else if LONG_FLAGS.contains(&text) {
                i += 1;
            } else {
                return ShellMode::Unknown(format!("unknown shell option `{text}`"));
            }
            continue;
        }
        if (text.starts_with('-') || text.starts_with('+')) && text.len() > 1 {
            for c in text[1..].chars() {
                match c {
                    'c' => command = true,
                    's' => stdin = true,
                    'o' | 'O' => i += 1,
                    _ => {}
                }
            }
            i += 1;
            continue;
        }
        break;
    }
    if command {
        return if i < args.len() {
            ShellMode::Command(i)
        } else {
            ShellMode::Unknown("`-c` without a command string".to_owned())
        };
    }
    if stdin || i >= args.len() {
        ShellMode::Stdin
    } else {
        ShellMode::File
    }
}
