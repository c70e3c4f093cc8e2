//! Little languages inside arguments: `sed` scripts (`e` runs commands, `w` writes files, `r`
//! and `R` read them), `awk` programs (`system`, pipes, redirections, `getline <`) and `jq`
//! programs (`import`, `include`). What they run is not analysed: the command of `e` or
//! `system()` is often built from the input.

use super::analysis::Finding;
use super::paths::{Place, ShellContext, place};
use super::word::Word;

/// Why a `sed` call's scripts are risky, if they are.
pub(crate) fn sed_risk(args: &[Word], ctx: &ShellContext) -> Option<Finding> {
    let mut scripts: Vec<&Word> = Vec::new();
    let mut owned: Vec<Word> = Vec::new();
    let mut explicit = false;
    let mut first_operand: Option<&Word> = None;
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let text = word.text();
        i += 1;
        if text == "--" {
            first_operand = first_operand.or(args.get(i));
            break;
        }
        if let Some(script) = text.strip_prefix("--expression=") {
            explicit = true;
            owned.push(word.part(script));
        } else if text == "-e" || text == "--expression" {
            explicit = true;
            scripts.extend(args.get(i));
            i += 1;
        } else if matches!(text, "-l" | "--line-length") {
            i += 1;
        } else if let Some(rest) = text
            .strip_prefix('-')
            .filter(|r| !r.is_empty() && !text.starts_with("--"))
        {
            if let Some(at) = rest.find('e') {
                explicit = true;
                let script = &rest[at + 1..];
                if script.is_empty() {
                    scripts.extend(args.get(i));
                    i += 1;
                } else {
                    owned.push(word.part(script));
                }
            }
        } else if !text.starts_with('-') && first_operand.is_none() {
            first_operand = Some(word);
        }
    }
    if !explicit {
        scripts.extend(first_operand);
    }
    for script in scripts.into_iter().chain(owned.iter()) {
        if !script.is_literal() {
            return Some(Finding::unseen(format!(
                "the `sed` script `{}` is not literal",
                script.text()
            )));
        }
        let mut reads = Vec::new();
        if let Some(why) = sed_script_risk(script.text(), &mut reads) {
            let reason = format!("the `sed` script {why}");
            return Some(if why.starts_with("writes") {
                Finding::nothing(reason)
            } else {
                Finding::unseen(reason)
            });
        }
        for file in reads {
            if let Place::Outside(why) = place(&Word::literal(file), ctx) {
                return Some(Finding::nothing(format!(
                    "the `sed` script reads `{file}` (`r`/`R`), which {why}"
                )));
            }
        }
    }
    None
}

/// Why a `sed` script runs commands or writes files, if it does; the files its `r` and `R`
/// commands read are added to `reads`.
pub(crate) fn sed_script_risk<'s>(
    script: &'s str,
    reads: &mut Vec<&'s str>,
) -> Option<&'static str> {
    let b = script.as_bytes();
    let mut i = 0;
    loop {
        while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b';') {
            i += 1;
        }
        if i >= b.len() {
            return None;
        }
        i = skip_address(b, i)?;
        let Some(&cmd) = b.get(i) else {
            return Some("has an address without a command");
        };
        i += 1;
        match cmd {
            b'{' | b'}' | b'=' | b'd' | b'D' | b'g' | b'G' | b'h' | b'H' | b'n' | b'N' | b'p'
            | b'P' | b'x' | b'z' | b'F' => {}
            b'q' | b'Q' | b'l' | b'L' => {
                while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b' ') {
                    i += 1;
                }
            }
            b':' | b'b' | b't' | b'T' => {
                while b.get(i).is_some_and(|c| !matches!(c, b';' | b'\n')) {
                    i += 1;
                }
            }
            b'r' | b'R' => {
                let end = end_of_line(b, i);
                reads.push(script[i..end].trim());
                i = end;
            }
            b'a' | b'i' | b'c' | b'#' => i = end_of_line(b, i),
            b'w' | b'W' => return Some("writes files (`w`)"),
            b'e' => return Some("runs commands (`e`)"),
            b's' => {
                let delim = *b.get(i)?;
                i = skip_part(b, i + 1, delim)?;
                i = skip_part(b, i, delim)?;
                while let Some(&flag) = b.get(i) {
                    match flag {
                        b'e' => return Some("runs commands (`s///e`)"),
                        b'w' => return Some("writes files (`s///w`)"),
                        b';' | b'\n' | b'}' | b' ' | b'\t' => break,
                        _ => i += 1,
                    }
                }
            }
            b'y' => {
                let delim = *b.get(i)?;
                i = skip_part(b, i + 1, delim)?;
                i = skip_part(b, i, delim)?;
            }
            _ => return Some("has a command the analyser does not know"),
        }
    }
}

/// Skips an address (`1`, `$`, `/re/`, `\%re%`, `1,5`, `0~2`, `addr!`); `None` when malformed.
fn skip_address(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        match b.get(i) {
            Some(c)
                if c.is_ascii_digit() || matches!(c, b'$' | b',' | b'~' | b'+' | b'!' | b' ') =>
            {
                i += 1;
            }
            Some(b'/') => i = skip_part(b, i + 1, b'/')?,
            Some(b'\\') => {
                let delim = *b.get(i + 1)?;
                i = skip_part(b, i + 2, delim)?;
            }
            Some(b'I' | b'M') if i > 0 && b[i - 1] == b'/' => i += 1,
            _ => return Some(i),
        }
    }
}

/// Skips to just after the next unescaped `delim`.
fn skip_part(b: &[u8], mut i: usize, delim: u8) -> Option<usize> {
    while let Some(&c) = b.get(i) {
        if c == b'\\' {
            i += 2;
        } else if c == delim {
            return Some(i + 1);
        } else {
            i += 1;
        }
    }
    None
}

fn end_of_line(b: &[u8], mut i: usize) -> usize {
    while let Some(&c) = b.get(i) {
        if c == b'\\' {
            i += 2;
            continue;
        }
        if c == b'\n' {
            break;
        }
        i += 1;
    }
    i
}

/// Why an `awk` call's program is risky, if it is.
pub(crate) fn awk_risk(args: &[Word]) -> Option<Finding> {
    let mut i = 0;
    let mut program: Option<Word> = None;
    while let Some(word) = args.get(i) {
        let text = word.text();
        i += 1;
        if text == "--" {
            program = program.or_else(|| args.get(i).cloned());
            break;
        }
        if matches!(text, "-F" | "-v" | "--field-separator" | "--assign") {
            i += 1;
        } else if matches!(text, "-e" | "--source") {
            program = args.get(i).cloned();
            i += 1;
        } else if let Some(source) = text.strip_prefix("--source=") {
            program = Some(word.part(source));
        } else if text.starts_with('-') && text != "-" {
        } else if program.is_none() {
            program = Some(word.clone());
            break;
        } else {
            break;
        }
    }
    let program = program?;
    if !program.is_literal() {
        return Some(Finding::unseen(format!(
            "the `awk` program `{}` is not literal",
            program.text()
        )));
    }
    let text = program.text();
    let runs = |reason: &str| Some(Finding::unseen(reason.to_owned()));
    if text.contains("system") {
        return runs("the `awk` program calls `system`, which runs commands");
    }
    if text.replace("||", "").contains('|') {
        return runs("the `awk` program pipes to or from a command");
    }
    if text.contains("@load") {
        return runs("the `awk` program loads an extension");
    }
    if let Some(at) = text.find("print")
        && text[at..].replace(">=", "").contains('>')
    {
        return Some(Finding::nothing(
            "the `awk` program writes to a file".to_owned(),
        ));
    }
    // `getline < FILE`, `@include FILE`, and `ARGV`/`ARGC` set by the program (which name the
    // files it reads next) all read files the operands do not show.
    if let Some(at) = text.find("getline")
        && text[at..].replace("<=", "").contains('<')
    {
        return Some(Finding::nothing(
            "the `awk` program reads files it names (`getline <`)".to_owned(),
        ));
    }
    if text.contains("@include") || text.contains("ARGV") || text.contains("ARGC") {
        return Some(Finding::nothing(
            "the `awk` program reads files it names (`@include`, `ARGV`)".to_owned(),
        ));
    }
    None
}

/// Why a `jq` call's filter is risky, if it is: `import` and `include` read module files
/// from its search path (`~/.jq` among them), outside the project.
pub(crate) fn jq_risk(args: &[Word]) -> Option<Finding> {
    let filter = args.iter().find(|w| !w.text().starts_with('-'))?;
    let text = filter.text();
    (text.contains("import") || text.contains("include")).then(|| {
        Finding::nothing(
            "the `jq` filter loads modules from files (`import`, `include`)".to_owned(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sed_scripts() {
        for safe in [
            "1,5p",
            "s/a/b/g",
            "/x/d; s|a|b|2",
            "y/abc/xyz/",
            "$!N;P;D",
            "s/e/w/",
        ] {
            assert_eq!(sed_script_risk(safe, &mut Vec::new()), None, "{safe}");
        }
        for risky in [
            "s/a/b/e",
            "s/a/b/w out",
            "1e id",
            "w /etc/x",
            "/x/W f",
            "1~2e date",
        ] {
            assert!(sed_script_risk(risky, &mut Vec::new()).is_some(), "{risky}");
        }
        let words = |t: &str| t.split(' ').map(Word::literal).collect::<Vec<_>>();
        let ctx = ShellContext::new();
        assert!(sed_risk(&words("-n 1,5p file"), &ctx).is_none());
        assert!(sed_risk(&words("-e s/a/b/e file"), &ctx).is_some());
        assert!(sed_risk(&words("-ne 1e"), &ctx).is_some());
        assert!(sed_risk(&words("--expression=w"), &ctx).is_some());
        let mut reads = Vec::new();
        assert_eq!(sed_script_risk("1r /etc/x\n$R  y.txt", &mut reads), None);
        assert_eq!(reads, ["/etc/x", "y.txt"]);
        let script = |s: &str| vec![Word::literal(s), Word::literal("f")];
        assert!(sed_risk(&script("1r /root/.ssh/id_rsa"), &ctx).is_some());
        assert!(sed_risk(&script("R ../x"), &ctx).is_some());
        assert!(sed_risk(&script("1r notes.txt"), &ctx).is_none());
    }

    #[test]
    fn awk_programs() {
        let words = |t: &[&str]| t.iter().map(|w| Word::literal(*w)).collect::<Vec<_>>();
        assert!(awk_risk(&words(&["{print $1}"])).is_none());
        assert!(awk_risk(&words(&["-F:", "$3 > 100 || $1 == \"x\" {print}"])).is_none());
        assert!(awk_risk(&words(&["BEGIN{system(\"id\")}"])).is_some());
        assert!(awk_risk(&words(&["{print | \"sh\"}"])).is_some());
        assert!(awk_risk(&words(&["{print > \"/etc/x\"}"])).is_some());
        assert!(awk_risk(&words(&["-v", "x=1", "{print x}"])).is_none());
        assert!(
            awk_risk(&words(&[
                "BEGIN{while((getline l < \"/etc/passwd\")>0) print l}"
            ]))
            .is_some()
        );
        assert!(awk_risk(&words(&["$1 <= 5"])).is_none());
        for reads in [
            "BEGIN{ARGV[1]=\"/etc/passwd\"; ARGC=2} {print}",
            "@include \"/etc/passwd\"",
        ] {
            assert!(awk_risk(&words(&[reads])).is_some(), "{reads}");
        }
        assert!(jq_risk(&words(&["-r", "import \"x\" as x; .a"])).is_some());
        assert!(jq_risk(&words(&[".a | length"])).is_none());
    }
}
