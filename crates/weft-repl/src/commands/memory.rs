//! `/memory` and `/memory search <q>`.

use async_trait::async_trait;

use crate::command::{CommandContext, CommandError, CompletionContext, Dispatch, SlashCommand};

/// Lines of the memory file `/memory` shows.
const SUMMARY_LINES: usize = 20;

/// `/memory [search <q>]`.
pub(crate) struct Memory;

#[async_trait]
impl SlashCommand for Memory {
    fn name(&self) -> &str {
        "memory"
    }

    fn description(&self) -> &str {
        "Show the memory summary, or search it"
    }

    fn usage(&self) -> &str {
        "[search <q>]"
    }

    fn help(&self) -> &str {
        "Shows where the memory file is, its size and its first lines. `/memory search <q>` \
         prints the lines containing q (case-insensitive) with their line numbers."
    }

    async fn execute(
        &self,
        args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        let Some(path) = ctx.env.workspace.memory_file.clone() else {
            writeln!(ctx.out, "No memory file (no home directory).")?;
            return Ok(Dispatch::Handled);
        };
        let query = match args.split_once(char::is_whitespace) {
            Some(("search", q)) => Some(q.trim()),
            None if args == "search" => {
                return Err(CommandError::Usage("usage: /memory search <q>".to_owned()));
            }
            None if args.is_empty() => None,
            _ => {
                return Err(CommandError::Usage(
                    "usage: /memory [search <q>]".to_owned(),
                ));
            }
        };
        let text = match weft_fs::read_regular(&path, weft_tools::MEMORY_CAP) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) if e.is_not_found() => {
                writeln!(
                    ctx.out,
                    "Memory is empty ({} does not exist yet).",
                    path.display()
                )?;
                return Ok(Dispatch::Handled);
            }
            Err(e) => return Err(std::io::Error::from(e).into()),
        };
        match query {
            None => {
                let lines = text.lines().count();
                writeln!(
                    ctx.out,
                    "Memory: {} ({} lines, {} bytes)",
                    path.display(),
                    lines,
                    text.len()
                )?;
                for line in text.lines().take(SUMMARY_LINES) {
                    writeln!(ctx.out, "  {line}")?;
                }
                if lines > SUMMARY_LINES {
                    writeln!(ctx.out, "  … {} more lines", lines - SUMMARY_LINES)?;
                }
            }
            Some(q) => {
                let needle = q.to_lowercase();
                let hits: Vec<(usize, &str)> = text
                    .lines()
                    .enumerate()
                    .filter(|(_, l)| l.to_lowercase().contains(&needle))
                    .collect();
                if hits.is_empty() {
                    writeln!(ctx.out, "No memory lines contain {q:?}.")?;
                }
                for (n, line) in hits {
                    writeln!(ctx.out, "{:>5}: {line}", n + 1)?;
                }
            }
        }
        Ok(Dispatch::Handled)
    }

    fn completions(&self, partial: &str, _names: &CompletionContext) -> Vec<String> {
        crate::command::starting_with(partial, ["search"])
    }
}
