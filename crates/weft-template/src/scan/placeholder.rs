//! The placeholder forms and how each is recognised where it starts: `$ARGUMENTS`,
//! `$ARGUMENTS[N]`, `${N}`, a bare `$N`, `$name`, `$SESSION_ID` and the `${...}` variables,
//! `{baseDir}`. Separate from the scanner because it is the grammar of placeholders, while the
//! scanner decides where in the Markdown they count.

/// What a placeholder refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `$ARGUMENTS`: all arguments joined by single spaces.
    AllArguments,
    /// `$ARGUMENTS[N]`, `${N}` or a bare `$N`: one argument. `None` when `N` does not fit in a
    /// `usize`, which is always out of range.
    Index(Option<usize>),
    /// `$SESSION_ID`, `${SESSION_ID}`, `${CLAUDE_SESSION_ID}`.
    SessionId,
    /// `${CLAUDE_SKILL_DIR}`, `{baseDir}`.
    SkillDir,
    /// `$name` for a name of the skill's `arguments:` list: the argument at that position.
    /// Recognised only outside Markdown code, like a bare `$N`.
    Named(usize),
    /// `${CLAUDE_EFFORT}`: the effort level in force.
    Effort,
    /// `${CLAUDE_PROJECT_DIR}`: the project directory.
    ProjectDir,
    /// `${CLAUDE_PLUGIN_ROOT}`: the root of the plugin the skill came from.
    PluginRoot,
    /// `${CLAUDE_PLUGIN_DATA}`: the plugin's data directory, which survives updates.
    PluginData,
}

impl Kind {
    /// Whether this placeholder is a member of the `$ARGUMENTS` family (suppresses the append rule).
    pub(crate) fn is_argument(self) -> bool {
        matches!(self, Kind::AllArguments | Kind::Index(_) | Kind::Named(_))
    }
}

/// One placeholder occurrence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Placeholder<'a> {
    /// The exact template text, e.g. `${1}`; what is written when the placeholder cannot be filled.
    pub(crate) raw: &'a str,
    /// The name reported by [`crate::placeholders`], e.g. `1`, `ARGUMENTS[0]`, `baseDir`.
    pub(crate) name: &'a str,
    /// What it refers to.
    pub(crate) kind: Kind,
}

/// Identifier characters: a word placeholder (`$ARGUMENTS`, `$SESSION_ID`) is recognised only
/// when the character after it is not one of these. So `$ARGUMENTSX` and `$SESSION_IDX` are
/// literal text rather than a placeholder followed by `X` — a longer identifier is a different
/// (unknown) variable, as in a shell. The `$ARGUMENTS[N]` index form is the one exception.
fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Length of the run of ASCII digits starting at `at`.
fn digits_len(bytes: &[u8], at: usize) -> usize {
    bytes.get(at..).map_or(0, |rest| {
        rest.iter().take_while(|b| b.is_ascii_digit()).count()
    })
}

/// Parses ASCII digits; `None` on overflow.
fn parse_index(digits: &str) -> Option<usize> {
    digits.bytes().try_fold(0usize, |acc, d| {
        acc.checked_mul(10)?.checked_add(usize::from(d - b'0'))
    })
}

/// The placeholder starting with the `$` at `at`, if any. `in_code` disables the bare `$N` form.
pub(crate) fn match_dollar(src: &str, at: usize, in_code: bool) -> Option<Placeholder<'_>> {
    let bytes = src.as_bytes();
    let rest = src.get(at + 1..)?;
    let make = |len: usize, name_start: usize, name_end: usize, kind: Kind| {
        Some(Placeholder {
            raw: src.get(at..at + len)?,
            name: src.get(at + name_start..at + name_end)?,
            kind,
        })
    };
    match rest.as_bytes().first()? {
        b'{' => {
            let inner = at + 2;
            let digits = digits_len(bytes, inner);
            if digits > 0 {
                if bytes.get(inner + digits) != Some(&b'}') {
                    return None;
                }
                let kind = Kind::Index(parse_index(src.get(inner..inner + digits)?));
                return make(digits + 3, 2, 2 + digits, kind);
            }
            for (name, kind) in [
                ("SESSION_ID", Kind::SessionId),
                ("CLAUDE_SESSION_ID", Kind::SessionId),
                ("CLAUDE_SKILL_DIR", Kind::SkillDir),
                ("CLAUDE_EFFORT", Kind::Effort),
                ("CLAUDE_PROJECT_DIR", Kind::ProjectDir),
                ("CLAUDE_PLUGIN_ROOT", Kind::PluginRoot),
                ("CLAUDE_PLUGIN_DATA", Kind::PluginData),
            ] {
                let body = rest.get(1..)?;
                if body.starts_with(name) && body.as_bytes().get(name.len()) == Some(&b'}') {
                    return make(name.len() + 3, 2, 2 + name.len(), kind);
                }
            }
            None
        }
        b'A' => {
            const WORD: &str = "ARGUMENTS";
            if !rest.starts_with(WORD) {
                return None;
            }
            let after = at + 1 + WORD.len();
            match bytes.get(after) {
                Some(b'[') => {
                    let digits = digits_len(bytes, after + 1);
                    if digits > 0 && bytes.get(after + 1 + digits) == Some(&b']') {
                        let index = parse_index(src.get(after + 1..after + 1 + digits)?);
                        let len = 1 + WORD.len() + digits + 2;
                        return make(len, 1, len, Kind::Index(index));
                    }
                    // `$ARGUMENTS[` without a valid index: `$ARGUMENTS` then literal text.
                    make(1 + WORD.len(), 1, 1 + WORD.len(), Kind::AllArguments)
                }
                Some(&b) if is_ident(b) => None,
                _ => make(1 + WORD.len(), 1, 1 + WORD.len(), Kind::AllArguments),
            }
        }
        b'S' => {
            const WORD: &str = "SESSION_ID";
            if !rest.starts_with(WORD) {
                return None;
            }
            match bytes.get(at + 1 + WORD.len()) {
                Some(&b) if is_ident(b) => None,
                _ => make(1 + WORD.len(), 1, 1 + WORD.len(), Kind::SessionId),
            }
        }
        b'0'..=b'9' if !in_code => {
            let digits = digits_len(bytes, at + 1);
            let index = parse_index(src.get(at + 1..at + 1 + digits)?);
            make(1 + digits, 1, 1 + digits, Kind::Index(index))
        }
        _ => None,
    }
}

/// `$name` at `at` for one of the skill's argument `names`, outside code: the whole
/// identifier after the `$` must be the name (so `$issues` is not `$issue` + `s`).
pub(super) fn match_named<'a>(
    src: &'a str,
    at: usize,
    in_code: bool,
    names: &[String],
) -> Option<Placeholder<'a>> {
    if in_code || names.is_empty() {
        return None;
    }
    let bytes = src.as_bytes();
    let start = at + 1;
    let first = *bytes.get(start)?;
    if !(first.is_ascii_alphabetic() || first == b'_') {
        return None;
    }
    let rest = bytes.get(start..)?;
    let len = rest.iter().take_while(|&&b| is_ident(b)).count();
    // A name may have hyphens (`arguments: [file-name]`): the longest run with them is tried
    // first (trailing hyphens are punctuation), then the identifier alone.
    let hyphenated = rest
        .iter()
        .take_while(|&&b| is_ident(b) || b == b'-')
        .count();
    let hyphenated = hyphenated
        - rest
            .get(..hyphenated)?
            .iter()
            .rev()
            .take_while(|&&b| b == b'-')
            .count();
    [hyphenated, len].into_iter().find_map(|len| {
        let ident = src.get(start..start + len)?;
        let index = names.iter().position(|n| n == ident)?;
        Some(Placeholder {
            raw: src.get(at..start + len)?,
            name: ident,
            kind: Kind::Named(index),
        })
    })
}

/// `{baseDir}` starting at `at`, if it is there.
pub(super) fn match_base_dir(src: &str, at: usize) -> Option<Placeholder<'_>> {
    const RAW: &str = "{baseDir}";
    let raw = src.get(at..at + RAW.len()).filter(|r| *r == RAW)?;
    Some(Placeholder {
        raw,
        name: raw.get(1..RAW.len() - 1)?,
        kind: Kind::SkillDir,
    })
}
