//! The generator: commands from a grammar that includes what bash and dash read differently
//! (`$'...'`, `$"..."`, `[[ ]]`, `&>`, `|&`, `;&`, aliases, `function`, arithmetic, extglob,
//! brace and tilde expansion, here-docs and here-strings, process substitution), wrappers,
//! `sh -c` / `bash -c` / `eval` nesting, redirections, comments, line continuations and quoting
//! of every kind. Seeded and deterministic: the same seed gives the same commands.
//!
//! A command is a tree ([`Node`]), so that a failing one can be shrunk to a minimal one.

/// A small deterministic generator (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Programs whose stubs only record their call.
pub const RECORDING: &[&str] = &[
    "rm", "ls", "cat", "git", "grep", "head", "tail", "wc", "sort", "touch", "mkdir", "cp", "mv",
    "curl", "make", "python3", "node", "perl", "tar", "id", "date", "echo", "printf", "true",
    "false", "jq", "diff", "sed", "awk", "cargo", "npm", "npx", "valgrind", "sudo", "su", "doas",
    "tee", "cut", "uniq", "tr", "which", "seq", "test", "pwd", "zsh", "rbash", "watch", "flock",
    "chroot", "strace", "script", "nsenter", "ionice", "taskset",
];

/// Programs whose stubs record their call and then run the real program with the same
/// arguments (so that what they run is seen too): wrappers and shells, and programs the
/// analyser does not know that run their arguments (`setarch`, `prlimit`).
pub const PASSING: &[&str] = &[
    "env", "nice", "nohup", "timeout", "xargs", "stdbuf", "time", "find", "sh", "bash", "dash",
    "setarch", "prlimit",
];

/// Every program name the stubs answer to.
pub fn vocabulary() -> impl Iterator<Item = &'static str> {
    RECORDING.iter().chain(PASSING).copied()
}

/// Programs a leaf command starts, weighted towards the ones deny patterns name.
const PROGRAMS: &[&str] = &[
    "rm", "rm", "rm", "ls", "cat", "git", "grep", "head", "wc", "touch", "mkdir", "curl", "make",
    "python3", "node", "perl", "id", "date", "echo", "printf", "true", "jq", "sed", "awk", "cargo",
    "npx", "setarch", "valgrind", "prlimit", "tee", "sort", "cut", "which", "test", "rbash", "zsh",
];

/// Words an argument may be: plain, quoted every way, expansions of every kind.
const WORDS: &[&str] = &[
    "x",
    "y",
    "a.txt",
    "dir",
    "-l",
    "-rf",
    "--all",
    "-n",
    "5",
    "-",
    "--",
    "a#b",
    "#c",
    "'a b'",
    "\"a b\"",
    "a\\ b",
    "'it'\\''s'",
    "\"$x\"",
    "'$x'",
    "$'a\\tb'",
    "$'\\''",
    "$\"msg\"",
    "''",
    "\"\"",
    "$HOME",
    "${x:-d}",
    "${#x}",
    "$((1+2))",
    "$[1+2]",
    "*",
    "?.txt",
    "[ab].txt",
    "{a,b}",
    "{1..2}",
    "~",
    "~/x",
    "x=1",
    "\\$x",
    "\"\\\"\"",
    "a\\\nb",
    "rm",
    "'rm'",
    "@(a|b)",
    "!(x)",
    "\"$@\"",
    "$#",
    "${x[0]}",
    "'\\'",
    "$'\\x41'",
    "\"a'b\"",
    "'a\"b'",
    "x\\;",
    "\\|",
    "\\&",
    "'&>'",
    "\"[[\"",
    "]]",
];

/// How a program's name is spelled.
fn spelling(rng: &mut Rng, program: &str) -> String {
    match rng.below(14) {
        0 => format!("'{program}'"),
        1 => format!("\"{program}\""),
        2 => format!("\\{program}"),
        3 if program.len() > 1 => format!("{}''{}", &program[..1], &program[1..]),
        4 => format!("$'{program}'"),
        5 => {
            let escaped: String = program.bytes().map(|b| format!("\\x{b:02x}")).collect();
            format!("$'{escaped}'")
        }
        6 => format!("$\"{program}\""),
        7 => format!("@BIN@/{program}"),
        _ => program.to_owned(),
    }
}

/// Redirections a leaf may carry.
const REDIRECTS: &[&str] = &[
    ">out",
    "2>&1",
    ">/dev/null",
    "2>/dev/null",
    "&>out",
    "&>/dev/null",
    "&>>out",
    ">&2",
    ">&out",
    "<a.txt",
    "<<<word",
    "<<< \"$x\"",
    ">|out",
    "<>out",
    "{fd}>out",
    ">>out",
    "1>&-",
];

/// A tree of the generated command.
#[derive(Debug, Clone)]
pub enum Node {
    /// A simple command, rendered.
    Leaf(String),
    /// Commands joined by separators (`seps[i]` comes after `items[i]`).
    Seq(Vec<Node>, Vec<&'static str>),
    /// A form around a command.
    Form(&'static Form, Box<Node>),
}

/// How a form puts its command in: as it is, single-quoted, double-quoted (escaped), or as a
/// heredoc body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Put {
    Raw,
    Single,
    Double,
    DoubleRaw,
}

/// A form: `before` + the command (put in as `put`) + `after`.
#[derive(Debug)]
pub struct Form {
    pub before: &'static str,
    pub put: Put,
    pub after: &'static str,
    /// The command must be one simple command (`xargs`, `find -exec`, wrappers).
    pub simple: bool,
}

const fn form(before: &'static str, put: Put, after: &'static str) -> Form {
    Form {
        before,
        put,
        after,
        simple: false,
    }
}

const fn wrapper(before: &'static str) -> Form {
    Form {
        before,
        put: Put::Raw,
        after: "",
        simple: true,
    }
}

/// The forms.
static FORMS: &[Form] = &[
    form("( ", Put::Raw, " )"),
    form("{ ", Put::Raw, "; }"),
    form("{ ", Put::Raw, "\n}"),
    form("if true; then ", Put::Raw, "; fi"),
    form("if false; then :; else ", Put::Raw, "; fi"),
    form("while false; do ", Put::Raw, "; done"),
    form("until true; do ", Put::Raw, "; done"),
    form("for i in a b; do ", Put::Raw, "; done"),
    form("for ((i=0;i<1;i++)); do ", Put::Raw, "; done"),
    form("case x in x) ", Put::Raw, ";; esac"),
    form("case x in x) ", Put::Raw, ";& y) id;; esac"),
    form("case x in x) id;;& x) ", Put::Raw, ";; esac"),
    form("f() { ", Put::Raw, "; }; f"),
    form("f() { ", Put::Raw, "; }"),
    form("function f { ", Put::Raw, "; }; f"),
    form("function g() { ", Put::Raw, "; }; g"),
    form("echo $( ", Put::Raw, " )"),
    form("echo \"$( ", Put::Raw, " )\""),
    form("echo `", Put::Raw, "`"),
    form("cat <( ", Put::Raw, " )"),
    form("tee >( ", Put::Raw, " ) </dev/null"),
    form("sh -c ", Put::Single, ""),
    form("bash -c ", Put::Single, ""),
    form("dash -c ", Put::Single, ""),
    form("sh -c ", Put::Double, ""),
    form("bash -c ", Put::DoubleRaw, ""),
    form("eval ", Put::Single, ""),
    form("eval ", Put::Raw, ""),
    form("sh <<'E'\n", Put::Raw, "\nE"),
    form("bash <<E\n", Put::Raw, "\nE"),
    form("sh -s <<< ", Put::Single, ""),
    form(". /dev/stdin <<'E'\n", Put::Raw, "\nE"),
    form("cat <<E\n$( ", Put::Raw, " )\nE"),
    form("cat <<'E'\n$( ", Put::Raw, " )\nE"),
    form("alias a=", Put::Single, "\na"),
    form("alias a=", Put::Single, "; a"),
    form("shopt -s expand_aliases\nalias a=", Put::Single, "\na"),
    form("trap ", Put::Single, " EXIT"),
    form("[[ -n x ]] && ", Put::Raw, ""),
    form("[[ a > out ]] || ", Put::Raw, ""),
    form("(( 1 )) && ", Put::Raw, ""),
    form("! ", Put::Raw, ""),
    form("", Put::Raw, " &"),
    form("", Put::Raw, " # rm c"),
    form("# rm c\n", Put::Raw, ""),
    form("coproc ", Put::Raw, ""),
    form("time ", Put::Raw, ""),
    form("set -e; ", Put::Raw, ""),
    form("set -o posix; ", Put::Raw, ""),
    form("x=$(", Put::Raw, ")"),
    form("echo {", Put::Raw, ",b}"),
    form("exec 3>out; ", Put::Raw, ""),
    wrapper("env "),
    wrapper("env A=1 "),
    wrapper("env -u X "),
    wrapper("env -- "),
    wrapper("nice -n 1 "),
    wrapper("nice "),
    wrapper("nohup "),
    wrapper("timeout 5 "),
    wrapper("timeout -s KILL 5 "),
    wrapper("xargs "),
    wrapper("xargs -0 "),
    wrapper("xargs -I{} "),
    wrapper("stdbuf -oL "),
    wrapper("time -p "),
    wrapper("time -o out "),
    wrapper("command "),
    wrapper("builtin command "),
    wrapper("exec "),
    wrapper("exec -a name "),
    wrapper("sudo "),
    wrapper("setarch x86_64 "),
    wrapper("valgrind -q "),
    wrapper("prlimit --nofile=64 "),
    wrapper("A=1 "),
    wrapper("LANG=C "),
    Form {
        before: "env -S ",
        put: Put::Single,
        after: "",
        simple: true,
    },
    Form {
        before: "find . -name a.txt -exec ",
        put: Put::Raw,
        after: " {} \\;",
        simple: true,
    },
    Form {
        before: "find . -name a.txt -exec ",
        put: Put::Raw,
        after: " {} +",
        simple: true,
    },
    Form {
        before: "echo a.txt | xargs ",
        put: Put::Raw,
        after: "",
        simple: true,
    },
];

/// Separators between commands (`&>` and friends are redirections, in `REDIRECTS`).
const SEPARATORS: &[&str] = &[
    "; ", " && ", " || ", " | ", " & ", "\n", " |& ", ";", " ;\n", " \\\n&& ", " | \\\n",
];

/// Commands the read-only table accepts (each with something that may make it write).
const READERS: &[&str] = &[
    "git status -sb",
    "git log --oneline -n 2",
    "git diff --stat",
    "git branch --list 'a*'",
    "ls -la dir",
    "cat a.txt",
    "head -n 1 a.txt",
    "grep -n a a.txt b.txt",
    "wc -l *.txt",
    "find . -name '*.txt' -print",
    "sort a.txt | uniq -c",
    "cut -c1 a.txt",
    "tail -1 b.txt dir/c.txt",
    "diff a.txt b.txt",
    "env LC_ALL=C sort -r b.txt",
    "jq . a.txt",
    "sed -n 1p a.txt",
    "date +%s",
];

/// A simple command: maybe assignments, a program, arguments and redirections.
fn leaf(rng: &mut Rng) -> Node {
    if rng.chance(15) {
        let mut out = (*rng.pick(READERS)).to_owned();
        if rng.chance(30) {
            out.push(' ');
            out.push_str(rng.pick::<&str>(REDIRECTS));
        }
        return Node::Leaf(out);
    }
    let mut out = String::new();
    if rng.chance(10) {
        out.push_str(rng.pick::<&str>(&["x=1 ", "LANG=C ", "A=\"a b\" ", "B=$(id) "]));
    }
    let program = *rng.pick(PROGRAMS);
    out.push_str(&spelling(rng, program));
    for _ in 0..rng.below(4) {
        out.push(' ');
        out.push_str(rng.pick::<&str>(WORDS));
    }
    if rng.chance(25) {
        out.push(' ');
        out.push_str(rng.pick::<&str>(REDIRECTS));
    }
    Node::Leaf(out)
}

/// A command of at most `depth` levels of forms.
pub fn command(rng: &mut Rng, depth: usize) -> Node {
    let roll = rng.below(100);
    if depth == 0 || roll < 30 {
        return leaf(rng);
    }
    if roll < 55 {
        let n = 2 + rng.below(2);
        let items = (0..n).map(|_| command(rng, depth - 1)).collect();
        let seps = (0..n - 1).map(|_| *rng.pick(SEPARATORS)).collect();
        return Node::Seq(items, seps);
    }
    let form = rng.pick(FORMS);
    let inner = if form.simple {
        leaf(rng)
    } else {
        command(rng, depth - 1)
    };
    Node::Form(form, Box::new(inner))
}

impl Node {
    /// The command's text.
    pub fn render(&self) -> String {
        match self {
            Node::Leaf(text) => text.clone(),
            Node::Seq(items, seps) => {
                let mut out = String::new();
                for (i, item) in items.iter().enumerate() {
                    out.push_str(&item.render());
                    if let Some(sep) = seps.get(i) {
                        out.push_str(sep);
                    }
                }
                out
            }
            Node::Form(form, inner) => {
                let inner = inner.render();
                let put = match form.put {
                    Put::Raw => inner,
                    Put::Single => shell_words::quote(&inner).into_owned(),
                    Put::Double => {
                        let mut out = String::from("\"");
                        for c in inner.chars() {
                            if matches!(c, '"' | '\\' | '$' | '`') {
                                out.push('\\');
                            }
                            out.push(c);
                        }
                        out.push('"');
                        out
                    }
                    Put::DoubleRaw => format!("\"{inner}\""),
                };
                format!("{}{put}{}", form.before, form.after)
            }
        }
    }

    /// Smaller commands like this one: a part in place of the whole, a command of a list left
    /// out, a part made smaller.
    pub fn shrunk(&self) -> Vec<Node> {
        match self {
            Node::Leaf(_) => Vec::new(),
            Node::Seq(items, seps) => {
                let mut out: Vec<Node> = items.to_vec();
                for skip in 0..items.len() {
                    let kept: Vec<Node> = items
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != skip)
                        .map(|(_, n)| n.clone())
                        .collect();
                    if kept.len() > 1 {
                        let mut s = seps.clone();
                        s.remove(skip.min(s.len() - 1));
                        out.push(Node::Seq(kept, s));
                    }
                }
                for (i, item) in items.iter().enumerate() {
                    for smaller in item.shrunk() {
                        let mut copy = items.clone();
                        copy[i] = smaller;
                        out.push(Node::Seq(copy, seps.clone()));
                    }
                }
                out
            }
            Node::Form(form, inner) => {
                let mut out = vec![(**inner).clone()];
                for smaller in inner.shrunk() {
                    out.push(Node::Form(form, Box::new(smaller)));
                }
                out
            }
        }
    }
}
