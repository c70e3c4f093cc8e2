//! From raw commands to simple commands: assignments, redirections, wrappers, and the strings
//! some programs run as commands (`sh -c`, `eval`, `trap`, `alias`, `find -exec`).

use super::analysis::{
    CommandAnalysis, Context, Kind, Risk, SimpleCommand, Unanalysable, basename,
};
use super::environment::env_risk;
use super::parse::{RawCommand, RedirectKind, Sink, parse_into};
use super::paths::{Place, ShellContext, place};
use super::word::Word;
use super::{helpers, risky, wrappers};

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

impl Walk<'_> {
    pub(super) fn note(&mut self, reason: String, context: &[Context]) {
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
        let assigned = words
            .iter()
            .take_while(|w| w.assignment().is_some())
            .count();
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
        for why in risky::risks(&program, args, self.ctx) {
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
        words: &mut [Word],
        index: Option<usize>,
        context: &[Context],
    ) -> Option<Unwrapped> {
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
                self.note(
                    format!("the program name `{}` is not literal{under}", word.text()),
                    context,
                );
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
    fn wrapper_option(
        &mut self,
        wrapper: &str,
        name: &str,
        value: Option<usize>,
        args: &[Word],
        index: Option<usize>,
    ) {
        if wrapper == "time" && matches!(name, "-o" | "--output") {
            let target = value.and_then(|v| args.get(v));
            if target.is_none_or(|t| matches!(place(t, self.ctx), Place::Outside(_))) {
                self.risk(index, "`time -o` writes outside the project".to_owned());
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
                    t.split_once('=').map_or_else(
                        || t.get(2..).unwrap_or("").to_owned(),
                        |(_, r)| r.to_owned(),
                    )
                })
                .filter(|r| !r.is_empty())
                .unwrap_or_else(|| "{}".to_owned()),
        ),
        _ => None,
    }
}
