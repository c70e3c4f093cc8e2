//! Comparing what ran with what the analyser said would run.

use weft_shell::{CommandAnalysis, basename};

/// True when the analysis says "ask": something it cannot see through, or a risk that may run
/// a program it cannot see (a scoped deny denies either).
pub fn asks(analysis: &CommandAnalysis) -> bool {
    !analysis.is_fully_analysed() || analysis.risks().iter().any(|r| r.runs_unseen_program())
}

/// The calls in `ran` (`[program, args...]`, as the stubs logged them) that no simple command
/// of `analysis` accounts for: none of its program levels has that program, or, at the level
/// of the program a command runs in the end, every such level has literal arguments that
/// differ from the call's. (A wrapper's own words are compared through the program it runs:
/// the analysis reads some of them apart, as `env -S STRING` is split.)
pub fn unexplained<'r>(analysis: &CommandAnalysis, ran: &'r [Vec<String>]) -> Vec<&'r [String]> {
    ran.iter()
        .filter(|call| !explained(analysis, call))
        .map(Vec::as_slice)
        .collect()
}

fn explained(analysis: &CommandAnalysis, call: &[String]) -> bool {
    let Some((program, args)) = call.split_first() else {
        return true;
    };
    analysis.commands().iter().any(|command| {
        // A program the analyser does not know that may run its arguments (`setarch x86_64
        // rm`): a deny matches the words of its arguments, so a program named there is seen.
        if command.may_run_its_arguments() && command.argument_words().contains(&program.as_str()) {
            return true;
        }
        (0..command.level_count()).any(|level| {
            let words = command.level(level);
            let Some((word, rest)) = words.split_first() else {
                return false;
            };
            if basename(word.text()) != program {
                return false;
            }
            if level + 1 < command.level_count() {
                return true;
            }
            // Words the shell expands, or arguments `xargs` adds, are known only as they
            // run: the program is what counts then.
            let dynamic = command.appends_input_arguments() || rest.iter().any(|w| !w.is_literal());
            dynamic
                || (rest.len() == args.len() && rest.iter().zip(args).all(|(w, a)| w.text() == a))
        })
    })
}
