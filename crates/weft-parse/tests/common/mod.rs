//! Shared helpers for the table-driven integration tests of `weft-parse`.
//!
//! A [`Row`] is one input (an ID such as `A01`, the skill directory and the file bytes); a
//! [`Case`] is a row parsed under one [`Profile`] together with what must come out: valid or
//! not, the exact multiset of diagnostic codes, and any number of field checks. [`run`] parses
//! every case and fails once, listing every failing case by its ID.

#![allow(dead_code)]

use std::fmt::Debug;
use std::path::PathBuf;

use weft_parse::{ParseOptions, ParsedSkill, Profile, parse_skill_md};
use weft_types::{DescriptionSource, Diagnostic, Skill, SkillContext};

/// The reference validator's list of allowed keys, as quoted in its messages.
pub const ONLY: &str = "Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.";

/// The frontmatter wrapper CONFORMANCE uses when a row only shows keys:
/// `---⏎<keys>---⏎# Body⏎`.
pub fn fm(keys: &str) -> String {
    format!("---\n{keys}---\n# Body\n")
}

/// The path of `<dir>/SKILL.md`.
pub fn skill_path(dir: &str) -> PathBuf {
    PathBuf::from(format!("{dir}/SKILL.md"))
}

/// Parses `text` as `<dir>/SKILL.md` under `profile` with default limits.
pub fn parse(text: impl AsRef<[u8]>, dir: &str, profile: Profile) -> ParsedSkill {
    parse_skill_md(text.as_ref(), &skill_path(dir), &ParseOptions::new(profile))
}

/// The diagnostic codes, sorted (a multiset).
pub fn codes(diagnostics: &[Diagnostic]) -> Vec<String> {
    let mut c: Vec<String> = diagnostics.iter().map(|d| d.code.clone()).collect();
    c.sort();
    c
}

/// The codes and messages, one per line, for failure output.
pub fn describe(diagnostics: &[Diagnostic]) -> String {
    if diagnostics.is_empty() {
        return "    (no diagnostics)".to_owned();
    }
    diagnostics
        .iter()
        .map(|d| {
            format!(
                "    {} line={:?} col={:?} byte={:?}: {}",
                d.code, d.line, d.column, d.byte_offset, d.message
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Asserts the exact multiset of codes, with the diagnostics in the failure message.
#[track_caller]
pub fn assert_codes(diagnostics: &[Diagnostic], expected: &[&str]) {
    let mut want: Vec<String> = expected.iter().map(|s| (*s).to_owned()).collect();
    want.sort();
    assert_eq!(
        codes(diagnostics),
        want,
        "diagnostic codes differ; got:\n{}",
        describe(diagnostics)
    );
}

/// The first diagnostic with `code`, or a panic listing what was reported.
#[track_caller]
pub fn diag<'a>(diagnostics: &'a [Diagnostic], code: &str) -> &'a Diagnostic {
    diagnostics
        .iter()
        .find(|d| d.code == code)
        .unwrap_or_else(|| panic!("no {code}; got:\n{}", describe(diagnostics)))
}

type Check = Box<dyn Fn(&ParsedSkill) -> Result<(), String>>;

/// One input: an ID, the directory the file lives in and its bytes.
#[derive(Debug, Clone)]
pub struct Row {
    /// Conformance ID, e.g. `A01`.
    pub id: String,
    /// The directory name (the file is `<dir>/SKILL.md`).
    pub dir: String,
    /// The file's bytes.
    pub text: Vec<u8>,
}

/// A row with a directory and text.
pub fn row(id: &str, dir: &str, text: impl Into<Vec<u8>>) -> Row {
    Row {
        id: id.to_owned(),
        dir: dir.to_owned(),
        text: text.into(),
    }
}

impl Row {
    /// The row parsed under `profile`.
    pub fn under(&self, profile: Profile) -> Case {
        let tag = match profile {
            Profile::Load => "load",
            Profile::Validate => "validate",
            Profile::Strict => "strict",
            Profile::Spec => "spec",
        };
        Case {
            id: format!("{}/{tag}", self.id),
            dir: self.dir.clone(),
            text: self.text.clone(),
            profile,
            valid: true,
            codes: Vec::new(),
            checks: Vec::new(),
        }
    }

    /// Under [`Profile::Load`] (the lenient column).
    pub fn load(&self) -> Case {
        self.under(Profile::Load)
    }

    /// Under [`Profile::Validate`].
    pub fn validate(&self) -> Case {
        self.under(Profile::Validate)
    }

    /// Under [`Profile::Strict`].
    pub fn strict(&self) -> Case {
        self.under(Profile::Strict)
    }

    /// Under [`Profile::Spec`] (reference validator wording).
    pub fn spec(&self) -> Case {
        self.under(Profile::Spec)
    }
}

/// A row under one profile, with its expectations.
pub struct Case {
    /// `A01/load`.
    pub id: String,
    dir: String,
    text: Vec<u8>,
    profile: Profile,
    valid: bool,
    codes: Vec<String>,
    checks: Vec<(String, Check)>,
}

fn skill_of(p: &ParsedSkill) -> Result<&Skill, String> {
    p.skill
        .as_ref()
        .ok_or_else(|| "no skill (invalid) but a field check needs one".to_owned())
}

fn same<T: PartialEq + Debug + ?Sized>(what: &str, actual: &T, expected: &T) -> Result<(), String> {
    if actual == expected {
        Ok(())
    } else {
        Err(format!("{what}: expected {expected:?}, got {actual:?}"))
    }
}

fn owned(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

impl Case {
    /// Expects a usable skill and exactly these diagnostic codes.
    pub fn ok(mut self, codes: &[&str]) -> Self {
        self.valid = true;
        self.codes = owned(codes);
        self
    }

    /// Expects no skill (an error) and exactly these diagnostic codes.
    pub fn err(mut self, codes: &[&str]) -> Self {
        self.valid = false;
        self.codes = owned(codes);
        self
    }

    /// Adds a check.
    pub fn check(
        mut self,
        label: &str,
        f: impl Fn(&ParsedSkill) -> Result<(), String> + 'static,
    ) -> Self {
        self.checks.push((label.to_owned(), Box::new(f)));
        self
    }

    /// The skill's identifier.
    pub fn name(self, expected: &str) -> Self {
        let e = expected.to_owned();
        self.check("name", move |p| same("name", &skill_of(p)?.name, &e))
    }

    /// The `name` key as written, when it is not the identifier.
    pub fn declared_name(self, expected: Option<&str>) -> Self {
        let e = expected.map(str::to_owned);
        self.check("declared_name", move |p| {
            same("declared_name", &skill_of(p)?.declared_name, &e)
        })
    }

    /// `ParsedSkill::name` (the name known for reports, also without a skill).
    pub fn report_name(self, expected: Option<&str>) -> Self {
        let e = expected.map(str::to_owned);
        self.check("report name", move |p| same("parsed.name", &p.name, &e))
    }

    /// The description text.
    pub fn description(self, expected: &str) -> Self {
        let e = expected.to_owned();
        self.check("description", move |p| {
            same("description", &skill_of(p)?.description, &e)
        })
    }

    /// The description length in characters.
    pub fn description_chars(self, expected: usize) -> Self {
        self.check("description chars", move |p| {
            same(
                "description chars",
                &skill_of(p)?.description.chars().count(),
                &expected,
            )
        })
    }

    /// Where the description came from.
    pub fn description_source(self, expected: DescriptionSource) -> Self {
        self.check("description source", move |p| {
            same(
                "description_source",
                &skill_of(p)?.description_source,
                &expected,
            )
        })
    }

    /// The body (`ParsedSkill::body`).
    pub fn body(self, expected: Option<&str>) -> Self {
        let e = expected.map(str::to_owned);
        self.check("body", move |p| same("body", &p.body, &e))
    }

    /// `tools.allow`.
    pub fn allow(self, expected: Option<&[&str]>) -> Self {
        let e = expected.map(owned);
        self.check("allow", move |p| {
            same("tools.allow", &skill_of(p)?.tools.allow, &e)
        })
    }

    /// `tools.deny`.
    pub fn deny(self, expected: &[&str]) -> Self {
        let e = owned(expected);
        self.check("deny", move |p| {
            same("tools.deny", &skill_of(p)?.tools.deny, &e)
        })
    }

    /// `metadata` as compact JSON (`null` when absent).
    pub fn metadata(self, expected_json: &str) -> Self {
        let e = expected_json.to_owned();
        self.check("metadata", move |p| {
            let json = serde_json::to_string(&skill_of(p)?.metadata)
                .map_err(|err| format!("metadata does not serialize: {err}"))?;
            same("metadata JSON", &json, &e)
        })
    }

    /// `license`.
    pub fn license(self, expected: Option<&str>) -> Self {
        let e = expected.map(str::to_owned);
        self.check("license", move |p| {
            same("license", &skill_of(p)?.license, &e)
        })
    }

    /// `compatibility`.
    pub fn compatibility(self, expected: Option<&str>) -> Self {
        let e = expected.map(str::to_owned);
        self.check("compatibility", move |p| {
            same("compatibility", &skill_of(p)?.compatibility, &e)
        })
    }

    /// `version`.
    pub fn version(self, expected: Option<&str>) -> Self {
        let e = expected.map(str::to_owned);
        self.check("version", move |p| {
            same("version", &skill_of(p)?.version, &e)
        })
    }

    /// `disable_model_invocation`.
    pub fn disable_model_invocation(self, expected: bool) -> Self {
        self.check("disable_model_invocation", move |p| {
            same(
                "disable_model_invocation",
                &skill_of(p)?.disable_model_invocation,
                &expected,
            )
        })
    }

    /// `user_invocable`.
    pub fn user_invocable(self, expected: bool) -> Self {
        self.check("user_invocable", move |p| {
            same("user_invocable", &skill_of(p)?.user_invocable, &expected)
        })
    }

    /// `context`.
    pub fn context(self, expected: SkillContext) -> Self {
        self.check("context", move |p| {
            same("context", &skill_of(p)?.context, &expected)
        })
    }

    /// `agent`.
    pub fn agent(self, expected: Option<&str>) -> Self {
        let e = expected.map(str::to_owned);
        self.check("agent", move |p| same("agent", &skill_of(p)?.agent, &e))
    }

    /// `model`.
    pub fn model(self, expected: Option<&str>) -> Self {
        let e = expected.map(str::to_owned);
        self.check("model", move |p| same("model", &skill_of(p)?.model, &e))
    }

    /// `argument_hint`.
    pub fn argument_hint(self, expected: Option<&str>) -> Self {
        let e = expected.map(str::to_owned);
        self.check("argument_hint", move |p| {
            same("argument_hint", &skill_of(p)?.argument_hint, &e)
        })
    }

    /// `when_to_use`.
    pub fn when_to_use_chars(self, expected: usize) -> Self {
        self.check("when_to_use", move |p| {
            same(
                "when_to_use chars",
                &skill_of(p)?
                    .when_to_use
                    .as_deref()
                    .map(|s| s.chars().count()),
                &Some(expected),
            )
        })
    }

    /// An unknown key kept in `extra`, with its value as compact JSON.
    pub fn extra(self, key: &str, expected_json: &str) -> Self {
        let (k, e) = (key.to_owned(), expected_json.to_owned());
        self.check("extra", move |p| {
            let skill = skill_of(p)?;
            let value = skill
                .extra
                .iter()
                .find(|(key, _)| *key == k)
                .map(|(_, v)| v)
                .ok_or_else(|| {
                    let keys: Vec<&str> = skill.extra.iter().map(|(k, _)| k.as_str()).collect();
                    format!("extra has no `{k}` (keys: {keys:?})")
                })?;
            let json = serde_json::to_string(value).map_err(|err| err.to_string())?;
            same(&format!("extra[{k}] JSON"), &json, &e)
        })
    }

    /// Some diagnostic with `code` has exactly `message`.
    pub fn msg(self, code: &str, message: &str) -> Self {
        let (c, m) = (code.to_owned(), message.to_owned());
        self.check("message", move |p| {
            if p.diagnostics.iter().any(|d| d.code == c && d.message == m) {
                Ok(())
            } else {
                Err(format!("no {c} with message {m:?}"))
            }
        })
    }

    /// Some diagnostic with `code` contains `part` in its message.
    pub fn msg_contains(self, code: &str, part: &str) -> Self {
        let (c, m) = (code.to_owned(), part.to_owned());
        self.check("message part", move |p| {
            if p.diagnostics
                .iter()
                .any(|d| d.code == c && d.message.contains(&m))
            {
                Ok(())
            } else {
                Err(format!("no {c} whose message contains {m:?}"))
            }
        })
    }

    /// The first diagnostic with `code` is on `line` (and `column` when given).
    pub fn at(self, code: &str, line: u32, column: Option<u32>) -> Self {
        let c = code.to_owned();
        self.check("position", move |p| {
            let d = p
                .diagnostics
                .iter()
                .find(|d| d.code == c)
                .ok_or_else(|| format!("no {c} to check the position of"))?;
            same(&format!("{c} line"), &d.line, &Some(line))?;
            if let Some(col) = column {
                same(&format!("{c} column"), &d.column, &Some(col))?;
            }
            Ok(())
        })
    }

    /// The first diagnostic with `code` has `byte_offset`.
    pub fn byte_offset(self, code: &str, offset: u64) -> Self {
        let c = code.to_owned();
        self.check("byte offset", move |p| {
            let d = p
                .diagnostics
                .iter()
                .find(|d| d.code == c)
                .ok_or_else(|| format!("no {c} to check the byte offset of"))?;
            same(&format!("{c} byte_offset"), &d.byte_offset, &Some(offset))
        })
    }

    /// Parses the case and returns every way it differs from the expectations.
    pub fn failures(&self) -> Vec<String> {
        let parsed = parse_skill_md(
            &self.text,
            &skill_path(&self.dir),
            &ParseOptions::new(self.profile),
        );
        let mut out = Vec::new();
        if parsed.skill.is_some() != self.valid {
            out.push(format!(
                "expected {}, got {}",
                if self.valid { "a skill" } else { "no skill" },
                if parsed.skill.is_some() {
                    "a skill"
                } else {
                    "no skill"
                }
            ));
        }
        let mut want = self.codes.clone();
        want.sort();
        let got = codes(&parsed.diagnostics);
        if got != want {
            out.push(format!("codes: expected {want:?}, got {got:?}"));
        }
        for (label, check) in &self.checks {
            if let Err(e) = check(&parsed) {
                out.push(format!("[{label}] {e}"));
            }
        }
        if !out.is_empty() {
            out.push(format!("diagnostics:\n{}", describe(&parsed.diagnostics)));
        }
        out
    }
}

/// Runs every case and panics once, listing each failing case by ID.
#[track_caller]
pub fn run(cases: Vec<Case>) {
    let total = cases.len();
    let mut ids = std::collections::HashSet::new();
    for c in &cases {
        assert!(ids.insert(c.id.clone()), "duplicate case id {}", c.id);
    }
    let failed: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let f = c.failures();
            (!f.is_empty()).then(|| format!("[{}]\n  {}", c.id, f.join("\n  ")))
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {total} cases failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
