//! What the scanner reports: rules, severities, findings and the report for one package.

use std::fmt;

use serde::{Deserialize, Serialize};

/// How serious a finding is. High refuses an install unless the user forces it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; never blocks.
    Low,
    /// Needs a human look; never blocks.
    Medium,
    /// Refuses an install unless forced.
    High,
}

impl Severity {
    /// `high`, `medium` or `low`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! rules {
    ($($(#[$doc:meta])* $variant:ident = $code:literal, $name:literal;)*) => {
        /// Every check the scanner makes, with a stable code (`S101`) and a short name.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule {
            $($(#[$doc])* $variant,)*
        }

        impl Rule {
            /// Every rule, in code order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant,)*];

            /// The stable code, e.g. `S101`.
            pub fn code(self) -> &'static str {
                match self { $(Rule::$variant => $code,)* }
            }

            /// The short name, e.g. `pipe-to-shell`.
            pub fn name(self) -> &'static str {
                match self { $(Rule::$variant => $name,)* }
            }

            /// The rule with this code or name.
            pub fn from_code(text: &str) -> Option<Rule> {
                Rule::ALL.iter().copied().find(|r| r.code() == text || r.name() == text)
            }
        }
    };
}

rules! {
    /// `curl`/`wget` output piped into a shell (or a shell reading a download).
    PipeToShell = "S101", "pipe-to-shell";
    /// Base64 or hex decoded and then run.
    DecodeAndRun = "S102", "decode-and-run";
    /// An encoded blob whose decoded text is a command.
    EncodedPayload = "S103", "encoded-payload";
    /// A command written to hide what it does (`${IFS}`, reversed strings, char codes).
    ObfuscatedCommand = "S104", "obfuscated-command";
    /// A shell connected back to a remote host.
    ReverseShell = "S105", "reverse-shell";
    /// Zero-width characters, bidirectional overrides, Unicode tag characters.
    HiddenUnicode = "S201", "hidden-unicode";
    /// Text that tries to override the agent's instructions.
    PromptInjection = "S301", "prompt-injection";
    /// Text asking for keys, credentials or an environment dump.
    SecretRequest = "S302", "secret-request";
    /// A script reading SSH keys, cloud credentials, `.env` files or API keys.
    SecretRead = "S401", "secret-read";
    /// Secrets or the environment sent over the network.
    SecretExfiltration = "S402", "secret-exfiltration";
    /// `allowed-tools` broader than the skill needs (unrestricted shell, `*`).
    BroadTools = "S501", "broad-tools";
    /// A dynamic-context line (`` !`command` ``) that runs when the skill loads.
    DynamicContext = "S502", "dynamic-context";
    /// A symbolic link (leaving the package is high).
    Symlink = "S601", "symlink";
    /// An executable binary or opaque data the scanner cannot read.
    Binary = "S602", "binary";
    /// A file larger than the scanner's per-file limit.
    Oversize = "S603", "oversize";
    /// A FIFO, device or socket.
    SpecialFile = "S604", "special-file";
    /// An archive entry that would be written outside the package (absolute path, `..`,
    /// drive letter), a hard link, a name that is not UTF-8 or holds control characters, or
    /// a name given twice.
    UnsafeEntry = "S605", "unsafe-entry";
    /// A name one edit away from an installed or built-in skill.
    Typosquat = "S701", "typosquat";
    /// The exact name of a skill the user already has in another place (a built-in, another
    /// scope, another root): one of the two would hide the other.
    Shadowing = "S702", "shadowing";
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.code(), self.name())
    }
}

impl Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for Rule {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Rule::from_code(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown scan rule `{text}`")))
    }
}

/// One thing the scanner found, with where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// The rule (serialised as its code).
    #[serde(rename = "code")]
    pub rule: Rule,
    /// How serious it is.
    pub severity: Severity,
    /// The file, relative to the package root, `/`-separated (empty for the package itself).
    pub path: String,
    /// 1-based line, when the finding is in a text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// 1-based column in characters, when the finding is in a text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// One sentence saying what was found and why it matters.
    pub message: String,
    /// The matched text, shortened and with control characters made visible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
}

impl Finding {
    /// A finding about a whole file (no line).
    pub fn in_file(
        rule: Rule,
        severity: Severity,
        path: &str,
        message: impl Into<String>,
    ) -> Finding {
        Finding {
            rule,
            severity,
            path: path.to_owned(),
            line: None,
            column: None,
            message: message.into(),
            excerpt: None,
        }
    }

    /// `path:line:column`, or as much of it as is known.
    pub fn location(&self) -> String {
        match (self.line, self.column) {
            (Some(l), Some(c)) => format!("{}:{l}:{c}", self.path),
            (Some(l), None) => format!("{}:{l}", self.path),
            _ => self.path.clone(),
        }
    }
}

/// Counts of findings by severity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeverityCounts {
    /// High-severity findings.
    pub high: usize,
    /// Medium-severity findings.
    pub medium: usize,
    /// Low-severity findings.
    pub low: usize,
}

impl SeverityCounts {
    /// Total findings.
    pub fn total(&self) -> usize {
        self.high + self.medium + self.low
    }
}

impl fmt::Display for SeverityCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} high, {} medium, {} low",
            self.high, self.medium, self.low
        )
    }
}

/// Everything the scanner found in one package, most severe first, then by file and line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScanReport {
    /// The findings.
    pub findings: Vec<Finding>,
    /// How many files were looked at.
    pub files: usize,
    /// How many bytes were read.
    pub bytes: u64,
}

impl ScanReport {
    /// Findings per severity.
    pub fn counts(&self) -> SeverityCounts {
        let mut c = SeverityCounts::default();
        for f in &self.findings {
            match f.severity {
                Severity::High => c.high += 1,
                Severity::Medium => c.medium += 1,
                Severity::Low => c.low += 1,
            }
        }
        c
    }

    /// The worst severity found, if any.
    pub fn max_severity(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }

    /// True when an install must be refused unless forced: any high-severity finding.
    pub fn blocks_install(&self) -> bool {
        self.max_severity() == Some(Severity::High)
    }

    /// The high-severity findings.
    pub fn high(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::High)
    }

    /// Puts the findings in report order: severity (high first), path, line, column, code.
    pub fn sort(&mut self) {
        self.findings.sort_by(|a, b| {
            b.severity
                .cmp(&a.severity)
                .then_with(|| a.path.cmp(&b.path))
                .then_with(|| a.line.cmp(&b.line))
                .then_with(|| a.column.cmp(&b.column))
                .then_with(|| a.rule.cmp(&b.rule))
        });
        self.findings.dedup();
    }
}
