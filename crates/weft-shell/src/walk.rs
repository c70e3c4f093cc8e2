//! From raw commands to simple commands: assignments, redirections, wrappers, and the strings
//! some programs run as commands (`sh -c`, `eval`, `trap`, `alias`, `find -exec`, `su -c`,
//! `watch`, option values such as `tar --to-command`).

use super::analysis::{
    CodeForm, CommandAnalysis, Context, Finding, Kind, Risk, SimpleCommand, Unanalysable, basename,
};
use super::dialect::Dialect;
use super::environment::{Scope, env_finding};
use super::helpers::{self, Reading};
use super::parse::{RawCommand, RedirectKind, Sink, parse_into};
use super::paths::{Outside, Place, ShellContext, place};
use super::protected::{Reach, protected_write};
use super::word::Word;
use super::wrapper_options::{join, replace_string, wrapper_option, write_to};
use super::wrappers::{self, Then};
use super::{interpreters, risky};

/// Commands longer than this are not analysed.
pub(crate) const MAX_LEN: usize = 64 * 1024;
/// At most this many simple commands are analysed.
pub(crate) const MAX_COMMANDS: usize = 2_000;

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
    parse_into(command, &mut sink, Vec::new(), 0, ctx.dialect());
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
                dialect: Dialect::Posix,
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

pub(super) struct Walk<'a> {
    pub(super) sink: &'a mut Sink,
    pub(super) out: &'a mut CommandAnalysis,
    pub(super) ctx: &'a ShellContext,
}

/// What the redirections of a command do.
#[derive(Default)]
pub(super) struct Redirections {
    pub(super) writes_file: bool,
    /// A heredoc or here-string: what the program reads as input.
    pub(super) input: Option<Word>,
}

/// Where a command is and what it runs as, for the commands it runs in turn.
pub(super) struct Site<'c> {
    pub(super) context: &'c [Context],
    pub(super) depth: usize,
    /// The wrapper running it as another user (`sudo`), if any.
    pub(super) other_user: Option<String>,
    /// The language of the shell running it (`eval` and `trap` strings are read in it too).
    pub(super) dialect: Dialect,
}

impl Site<'_> {
    /// The context of a command this one runs, found in `extra`.
    pub(super) fn inner(&self, extra: Context) -> Vec<Context> {
        let mut chain = self.context.to_vec();
        if let Some(wrapper) = &self.other_user
            && !chain.iter().any(|c| matches!(c, Context::OtherUser { .. }))
        {
            chain.push(Context::OtherUser {
                wrapper: wrapper.clone(),
            });
        }
        chain.push(extra);
        chain
    }
}

/// What a command's last wrapper runs, when it is not a program.
enum Tail {
    /// The program at the last level.
    Program,
    /// A string a shell runs (`su -c STRING`).
    String(Word),
    /// The wrapper's command words, joined and run by a shell (`watch`).
    Joined(Word),
    /// A shell reading commands from its input (`chroot DIR`).
    Shell,
}

/// What unwrapping found.
struct Unwrapped {
    levels: Vec<usize>,
    privileged: Option<usize>,
    appended: bool,
    tail: Tail,
}

/// How many times `env -S` strings are split in one command, at most.
const MAX_SPLITS: usize = 16;

impl Walk<'_> {
    pub(super) fn note(&mut self, reason: String, context: &[Context]) {
        self.sink
            .unanalysable
            .push(Unanalysable::new(reason, context.to_vec()));
    }

    fn risk(&mut self, index: Option<usize>, reason: String) {
        self.record(index, Finding::nothing(reason), None);
    }

    /// Records a risky thing, and analyses the command it runs.
    pub(super) fn record(&mut self, index: Option<usize>, finding: Finding, at: Option<&Site<'_>>) {
        self.out.risks.push(Risk::new(
            index,
            finding.reason,
            finding.runs,
            finding.protected,
        ));
        let (Some(code), Some(at)) = (finding.code, at) else {
            return;
        };
        let chain = at.inner(Context::Runs {
            by: code.by.clone(),
        });
        match code.form {
            // Programs run such strings with `sh -c` (git, tar, `GIT_SSH_COMMAND`...).
            CodeForm::Shell(word) => {
                let what = format!("`{}`", code.by);
                self.run_string(&word, chain, at.depth, &what, Dialect::Posix);
            }
            CodeForm::Words(words) => {
                if !words.is_empty() {
                    self.sink.commands.push(RawCommand {
                        words,
                        redirects: Vec::new(),
                        context: chain,
                        depth: at.depth + 1,
                        dialect: Dialect::Posix,
                    });
                }
            }
        }
    }

    fn command(&mut self, raw: RawCommand) {
        let RawCommand {
            mut words,
            redirects,
            context,
            depth,
            dialect,
        } = raw;
        let index = if words.iter().any(|w| w.assignment().is_none()) {
            Some(self.out.commands.len())
        } else {
            None
        };
        let risks_before = self.out.risks.len();
        let inherited = context.iter().find_map(|c| match c {
            Context::OtherUser { wrapper } => Some(wrapper.clone()),
            _ => None,
        });
        let mut at = Site {
            context: &context,
            depth,
            other_user: inherited,
            dialect,
        };
        let assigned = words
            .iter()
            .take_while(|w| w.assignment().is_some())
            .count();
        // With no command, assignments set shell variables; before one, its environment.
        let scope = if assigned == words.len() {
            Scope::Shell
        } else {
            Scope::Environment
        };
        let assignments: Vec<Word> = words.drain(..assigned).collect();
        for word in &assignments {
            if dialect == Dialect::Bash
                && let Some((name, _)) = word.assignment()
                && super::language::LANGUAGE_SWITCHES.contains(&name)
            {
                self.note(
                    format!("`{name}=` changes how bash reads the commands after it"),
                    &context,
                );
            }
            if let Some(finding) = env_finding(word, self.ctx, scope) {
                self.record(index, finding, Some(&at));
            }
        }
        let redirections = self.redirections(&redirects, index);
        if words.is_empty() {
            return;
        }
        let Some(unwrapped) = self.unwrap(&mut words, index, &at) else {
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
            tail,
        } = unwrapped;
        if let Some(p) = privileged {
            at.other_user = Some(basename(words[levels[p]].text()).to_owned());
        }
        let last = *levels.last().unwrap_or(&0);
        let program = basename(words[last].text()).to_owned();
        let args = &words[last + 1..];
        let kind = match tail {
            Tail::Program => {
                let kind = self.runs(&program, args, &redirections, &at);
                self.builtin_checks(&program, args, &at, index);
                for finding in risky::risks(&program, args, self.ctx) {
                    self.record(index, finding, Some(&at));
                }
                let code = interpreters::inline_code(&program, args)
                    .or_else(|| interpreters::input_code(&program, args));
                if let Some(finding) = code {
                    self.record(index, finding, None);
                }
                kind
            }
            // `su -c`, `flock -c`, `watch`: the user's shell or `sh -c`, read as POSIX.
            Tail::String(string) => {
                let chain = at.inner(Context::ShellString {
                    shell: program.clone(),
                });
                let what = format!("`{program} -c`");
                self.run_string(&string, chain, depth, &what, Dialect::Posix)
            }
            Tail::Joined(joined) => {
                let chain = at.inner(Context::Runs {
                    by: program.clone(),
                });
                let what = format!("`{program}`");
                self.run_string(&joined, chain, depth, &what, Dialect::Posix)
            }
            Tail::Shell => self.shell_input(&program, &redirections, &at),
        };
        let reading = helpers::find(&program).map(|h| h.reading(args, appended, self.ctx));
        if let Some(Reading::Outside(reason)) = &reading {
            self.risk(index, reason.clone());
        }
        let risky = self.out.risks.len() > risks_before;
        let read_only = !risky
            && !redirections.writes_file
            && at.other_user.is_none()
            && reading == Some(Reading::Inside);
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
    fn redirections(
        &mut self,
        redirects: &[super::parse::Redirect],
        index: Option<usize>,
    ) -> Redirections {
        let mut out = Redirections::default();
        for r in redirects {
            match r.kind {
                RedirectKind::Write => {
                    let place = place(&r.target, self.ctx);
                    let target = r.target.text();
                    if let Place::Outside(why) = place {
                        let reason = if why == Outside::Beyond {
                            format!("`> {target}` writes outside the project")
                        } else {
                            format!("`> {target}` writes to a path that {why}")
                        };
                        self.risk(index, reason);
                    }
                    if place != Place::Special {
                        let what = format!("`> {target}`");
                        let found = protected_write(&what, &r.target, self.ctx, Reach::Path);
                        if let Some(finding) = found {
                            self.record(index, finding, None);
                        }
                    }
                    out.writes_file |= place != Place::Special;
                    self.out.writes_files |= place != Place::Special;
                }
                RedirectKind::Read => {
                    if let Place::Outside(why) = place(&r.target, self.ctx) {
                        self.risk(
                            index,
                            format!("`< {}` reads a path that {why}", r.target.text()),
                        );
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
    fn unwrap(
        &mut self,
        words: &mut Vec<Word>,
        index: Option<usize>,
        at: &Site<'_>,
    ) -> Option<Unwrapped> {
        let context = at.context;
        let mut levels = vec![0];
        let mut privileged = None;
        let mut appended = false;
        let mut splits = 0;
        let mut level = 0;
        let unwrapped = |levels, privileged, appended, tail| {
            Some(Unwrapped {
                levels,
                privileged,
                appended,
                tail,
            })
        };
        loop {
            let word = &words[level];
            if !word.is_literal() {
                let under = if level > 0 {
                    format!(" (under `{}`)", basename(words[0].text()))
                } else {
                    String::new()
                };
                self.note(
                    format!("the program name `{}` is not literal{under}", word.text()),
                    context,
                );
                return None;
            }
            let Some(wrapper) = wrappers::find(basename(word.text())) else {
                break;
            };
            let args = level + 1;
            let parsed = match wrapper.unwrap(&words[args..]) {
                Ok(parsed) => parsed,
                Err(why) => {
                    self.note(why, context);
                    return None;
                }
            };
            if wrapper.privileged {
                privileged.get_or_insert(levels.len() - 1);
            }
            let here = Site {
                context,
                depth: at.depth,
                other_user: privileged
                    .map(|p| basename(words[levels[p]].text()).to_owned())
                    .or_else(|| at.other_user.clone()),
                dialect: at.dialect,
            };
            for (name, value) in &parsed.options {
                if let Some(finding) = wrapper_option(wrapper.name, name, value.as_ref(), self.ctx)
                {
                    self.record(index, finding, Some(&here));
                }
            }
            // `script` writes its typescript, `flock` creates its lock file (`flock 9` names
            // a descriptor).
            if matches!(wrapper.name, "script" | "flock") {
                for &operand in &parsed.operands {
                    let file = &words[args + operand];
                    if file.is_literal() && file.text().bytes().all(|b| b.is_ascii_digit()) {
                        continue;
                    }
                    if let Some(finding) = write_to(wrapper.name, "FILE", Some(file), self.ctx) {
                        self.record(index, finding, None);
                    }
                }
            }
            match parsed.then {
                Then::Command(start) => {
                    if wrapper.assignments {
                        for w in &words[args..args + start] {
                            if let Some(finding) = env_finding(w, self.ctx, Scope::Environment) {
                                self.record(index, finding, Some(&here));
                            }
                        }
                    }
                    let command = args + start;
                    if wrapper.appends {
                        match replace_string(&parsed.options) {
                            Some(rep) => {
                                for w in &mut words[command..] {
                                    if w.text().contains(rep.as_str()) {
                                        *w = Word::placeholder(w.text());
                                    }
                                }
                            }
                            None => appended = true,
                        }
                    }
                    level = command;
                    levels.push(level);
                }
                Then::Split {
                    at: option,
                    len,
                    text,
                } => {
                    let from = args + option;
                    match wrappers::split_string(&text) {
                        Some(split) if splits < MAX_SPLITS => {
                            splits += 1;
                            words.splice(from..from + len, split);
                        }
                        _ => {
                            self.note(
                                format!(
                                    "`{} -S` builds its command from a string the analyser does not split (`{}`)",
                                    wrapper.name,
                                    super::shorten(text.text())
                                ),
                                context,
                            );
                            return None;
                        }
                    }
                }
                Then::String(string) => {
                    return unwrapped(levels, privileged, appended, Tail::String(string));
                }
                Then::Joined { start, end } => {
                    if start == end {
                        self.note(
                            format!(
                                "`{}` takes the commands it runs from its arguments or its input",
                                wrapper.name
                            ),
                            context,
                        );
                        return None;
                    }
                    let joined = join(&words[args + start..args + end], wrapper, &parsed.options);
                    return unwrapped(levels, privileged, appended, Tail::Joined(joined));
                }
                Then::Shell => return unwrapped(levels, privileged, appended, Tail::Shell),
                Then::Nothing => break,
            }
        }
        unwrapped(levels, privileged, appended, Tail::Program)
    }

    /// A shell that reads commands from its input (`chroot DIR`, `su`, `sudo -s`): the
    /// heredoc or here-string it reads is analysed; any other input cannot be.
    fn shell_input(&mut self, program: &str, redirections: &Redirections, at: &Site<'_>) -> Kind {
        match &redirections.input {
            Some(input) => {
                let chain = at.inner(Context::ShellInput {
                    shell: program.to_owned(),
                });
                let what = format!("the input of `{program}`");
                self.run_string(input, chain, at.depth, &what, Dialect::Posix)
            }
            None => {
                self.note(
                    format!(
                        "`{program}` without a command starts a shell that reads commands from its input"
                    ),
                    at.context,
                );
                Kind::Plain
            }
        }
    }
}
