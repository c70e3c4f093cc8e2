//! The catalog of rules every diagnostic comes from, and how serious each one is per profile.
//!
//! A rule has one number; the letter of its code (`E` or `W`) is chosen by the profile. Loading
//! is lenient (a problem is a warning whenever the skill can still be used), `validate` reports
//! what an author should fix, `--strict` raises the rules the design marks as strict-only, and
//! the `spec` profile applies the open Agent Skills specification with the reference
//! validator's wording.

/// Which set of rules to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Profile {
    /// What an agent does when it loads skills: warn and keep going whenever possible.
    #[default]
    Load,
    /// `weft skills validate`: the rules of this project's design, errors for what breaks a skill.
    Validate,
    /// `weft skills validate --strict`: as `Validate`, plus the strict-only errors.
    Strict,
    /// `weft skills validate --profile spec`: the open spec's rules with `skills-ref` wording.
    Spec,
}

/// How a rule is reported under one profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// Not reported.
    Off,
    /// Reported as a warning.
    Warn,
    /// Reported as an error.
    Error,
}

use Level::{Error as E, Off as O, Warn as W};

macro_rules! rules {
    ($( $(#[$doc:meta])* $variant:ident = $num:literal, $summary:literal, [$load:expr, $validate:expr, $strict:expr, $spec:expr]; )*) => {
        /// Every rule a weft parser or validator can report.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Rule {
            $( $(#[$doc])* $variant, )*
        }

        impl Rule {
            /// Every rule, in catalog order.
            pub const ALL: &'static [Rule] = &[ $( Rule::$variant, )* ];

            /// The rule number used in codes (`E101` is rule 101).
            pub const fn number(self) -> u16 {
                match self { $( Rule::$variant => $num, )* }
            }

            /// A one-line summary of the rule, for documentation.
            pub const fn summary(self) -> &'static str {
                match self { $( Rule::$variant => $summary, )* }
            }

            /// A diagnostic for this rule at the severity `profile` gives it; `None` when the
            /// rule is off under that profile.
            pub fn diagnostic(
                self,
                profile: Profile,
                message: impl Into<String>,
            ) -> Option<weft_types::Diagnostic> {
                let severity = match self.level(profile) {
                    Level::Off => return None,
                    Level::Warn => weft_types::Severity::Warning,
                    Level::Error => weft_types::Severity::Error,
                };
                Some(weft_types::Diagnostic::new(severity, self.number(), message))
            }

            /// How the rule is reported under `profile`.
            pub const fn level(self, profile: Profile) -> Level {
                match self {
                    $( Rule::$variant => match profile {
                        Profile::Load => $load,
                        Profile::Validate => $validate,
                        Profile::Strict => $strict,
                        Profile::Spec => $spec,
                    }, )*
                }
            }
        }
    };
}

rules! {
    // --- files, encoding and framing -----------------------------------------------------
    /// The file is not valid UTF-8.
    InvalidUtf8 = 1, "file is not valid UTF-8", [E, E, E, E];
    /// A control character (other than tab, LF, CR) inside the frontmatter.
    ControlInFrontmatter = 2, "control character in the frontmatter", [E, E, E, E];
    /// A control character (other than tab, LF, CR) inside the body.
    ControlInBody = 3, "control character in the body", [O, W, W, O];
    /// The file is larger than the limit (256 KiB by default) and was not read.
    FileTooLarge = 4, "file exceeds the size limit", [E, E, E, E];
    /// A UTF-8 byte-order mark was stripped.
    ByteOrderMark = 5, "UTF-8 byte-order mark stripped", [O, W, W, W];
    /// The opening `---` has no closing `---` line.
    FrontmatterNotClosed = 6, "frontmatter not closed with a `---` line", [E, E, E, E];
    /// The file has no frontmatter: the whole file is the body.
    NoFrontmatter = 7, "no YAML frontmatter", [O, W, E, E];
    /// Blank lines before the opening `---`.
    LeadingBlankLines = 8, "blank lines before the opening `---`", [W, W, W, E];
    /// The first line looks like a delimiter but is not exactly `---`.
    MalformedDelimiter = 9, "first line is not a `---` delimiter", [E, E, E, E];
    /// The file could not be read.
    Unreadable = 10, "file could not be read", [E, E, E, E];
    /// The body is larger than `max_skill_prompt_bytes` and was truncated.
    BodyTruncated = 11, "body truncated at the prompt size limit", [W, W, W, O];
    /// The skill file is spelled `skill.md` (accepted by the reference validator).
    FileNameSpelling = 12, "skill file named `skill.md`, not `SKILL.md`", [W, W, W, W];
    /// Both `SKILL.md` and `skill.json` exist; `SKILL.md` is used.
    BothFormats = 13, "both SKILL.md and skill.json present; SKILL.md wins", [W, W, W, W];
    /// A path given to `validate` holds no skill file.
    MissingSkillFile = 14, "no SKILL.md or skill.json in the directory", [E, E, E, E];
    /// A path given to `validate` does not exist.
    PathNotFound = 15, "path does not exist", [E, E, E, E];
    /// A skill nested inside another skill's directory; discovery does not load it.
    NestedSkill = 16, "skill nested below another skill is not discovered", [W, W, W, O];
    /// The skill file is spelled in another case (`Skill.md`): loaded, but not a valid skill.
    FileNameCase = 17, "skill file name in the wrong case (e.g. `Skill.md`)", [W, E, E, E];
    /// A skill or agent file is a symbolic link whose target leaves its root (the skill's
    /// directory, the agents directory): it is not read. Also a directory link leaving an
    /// untrusted project or a commands root: it is not followed.
    SymlinkOutsideRoot = 18, "symlink leaving its root (a file not read, a directory not entered)", [E, E, E, E];
    /// The file is a FIFO, a device or a socket, or lives on a pseudo-filesystem (`/proc`,
    /// `/sys`): it is not read (a directory there is not entered).
    NotRegularFile = 19, "not a regular file (FIFO, device, socket, /proc, /sys)", [E, E, E, E];

    // --- YAML ----------------------------------------------------------------------------
    /// The frontmatter is not valid YAML.
    YamlSyntax = 20, "invalid YAML", [E, E, E, E];
    /// The YAML exceeds a safety limit (nesting, aliases, size).
    YamlLimit = 21, "YAML exceeds a safety limit", [E, E, E, E];
    /// A mapping key appears twice.
    DuplicateKey = 22, "duplicate key", [E, E, E, E];
    /// The frontmatter is not a mapping.
    NotAMapping = 23, "frontmatter is not a YAML mapping", [E, E, E, E];
    /// The same field is given in two spellings (`allowed-tools` and `allowed_tools`).
    DuplicateField = 24, "field given in two spellings", [E, E, E, E];
    /// A plain value containing `: ` was read as quoted text.
    UnquotedColon = 25, "unquoted `: ` inside a value", [W, E, E, E];
    /// A mapping key is not a string.
    NonStringKey = 26, "mapping key is not a string", [E, E, E, E];
    /// A key or value holds a terminal control character (C0 other than tab and LF, DEL,
    /// C1, a bidirectional override or isolate) once decoded: an escape (`"\e"`, `\u001b`)
    /// or `!!binary` got past the check on the raw bytes. The file is not loaded.
    ControlInValue = 27, "control character in a decoded value (escape, !!binary)", [E, E, E, W];

    // --- name ----------------------------------------------------------------------------
    /// The name breaks the naming rules (1-64 of `[a-z0-9-]`, no edge or double hyphens).
    InvalidName = 101, "invalid name", [W, E, E, E];
    /// The name contains a reserved word (`anthropic`, `claude`).
    ReservedName = 102, "name contains a reserved word", [W, W, E, O];
    /// The name differs from the directory name.
    NameMismatch = 103, "name differs from the directory name", [W, W, W, E];
    /// There is no `name`; the directory name is used.
    MissingName = 104, "no name; the directory name is used", [O, W, E, E];
    /// The `name` value is not a non-empty string.
    NameNotString = 105, "name is not a non-empty string", [W, E, E, E];
    /// The name had surrounding whitespace, which was trimmed.
    NameWhitespace = 106, "name has surrounding whitespace", [W, W, W, O];
    /// The directory name has characters outside `[A-Za-z0-9_-]`; the skill is skipped.
    UnsafeDirName = 107, "directory name outside [A-Za-z0-9_-]", [E, E, E, O];
    /// Neither the name nor the directory name is a valid name: the skill cannot be loaded.
    NoValidName = 108, "no valid name to load the skill under", [E, E, E, E];

    /// The name has an `_` or a leading or trailing `-`: outside the spec, but Claude Code
    /// and Codex load such skills, so weft does too (under that name), with this warning.
    NameOutsideSpec = 109, "name with `_` or an edge `-` (loaded; the spec rejects it)", [W, W, E, E];

    // --- description ---------------------------------------------------------------------
    /// No description and no body paragraph to take one from.
    MissingDescription = 110, "no description", [E, E, E, E];
    /// The description is longer than 1,024 characters.
    DescriptionTooLong = 111, "description longer than 1024 characters", [W, W, E, E];
    /// The description is not a string.
    DescriptionNotString = 112, "description is not a string", [E, E, E, E];
    /// There is no `description`; the first paragraph of the body is used.
    DescriptionFromBody = 113, "no description; the body's first paragraph is used", [O, W, E, E];

    // --- other fields --------------------------------------------------------------------
    /// A top-level key no runtime of the family defines (kept, ignored), with the closest
    /// known key when there is one: probably a typo.
    UnknownKey = 118, "unknown top-level key (did you mean ...)", [O, W, W, O];
    /// A field weft recognises but does not implement (`shell`, OpenClaw's
    /// `command-dispatch` ...): kept, without effect.
    UnsupportedField = 119, "recognised field weft does not implement", [W, W, E, O];
    /// `compatibility` is longer than 500 characters.
    CompatibilityTooLong = 120, "compatibility longer than 500 characters", [W, W, W, E];
    /// `compatibility` is not a string (ignored).
    CompatibilityNotString = 121, "compatibility is not a string", [W, W, E, E];
    /// `compatibility` is present but empty.
    CompatibilityEmpty = 122, "compatibility is empty", [O, W, W, E];
    /// `license` is not a string (ignored).
    LicenseNotString = 123, "license is not a string", [W, W, E, O];
    /// `metadata` is not a mapping (dropped).
    MetadataNotMap = 124, "metadata is not a mapping", [W, W, E, O];
    /// `metadata` exceeds 8 KiB serialized or 10 levels of nesting.
    MetadataTooLarge = 125, "metadata too large or too deep", [E, E, E, E];
    /// `metadata` values are not all strings (the spec says string to string).
    MetadataNotFlat = 126, "metadata values are not all strings", [O, O, O, W];
    /// A top-level key outside the open spec (kept, shown by `skills show`); the `spec`
    /// profile's rule, with the reference validator's wording.
    UnknownField = 127, "unknown field", [O, O, O, E];
    /// A key that belongs elsewhere (`tools` in a SKILL.md).
    MisplacedField = 128, "field meant for another file type", [O, W, W, O];
    /// A field has the wrong type and is ignored.
    WrongType = 129, "field has the wrong type and is ignored", [W, W, E, O];

    // --- tools ---------------------------------------------------------------------------
    /// A tool list is neither a string nor a list of strings.
    InvalidToolList = 130, "tool list is not a string or a list of strings", [E, E, E, E];
    /// `allowed-tools` is present and empty: the skill grants no tools.
    EmptyToolList = 131, "empty allowed-tools: the skill grants no tools", [W, W, W, O];
    /// A tool pattern does not compile: unbalanced parentheses (found when the list is
    /// split), or a specifier that does not fit its tool (`WebFetch(example.com)`, `Bash()`;
    /// found when the registry compiles the skill's policy). The skill does not load.
    MalformedToolPattern = 132, "tool pattern does not compile (unbalanced parentheses, a specifier that does not fit its tool)", [E, E, E, E];
    /// `allowed-tools` is a YAML list (the spec says a space-separated string).
    ToolListNotString = 133, "allowed-tools is a list, not a string", [O, O, O, W];
    /// A tool is both allowed and forbidden by the same definition (deny wins).
    ToolAllowedAndForbidden = 134, "tool both allowed and forbidden (deny wins)", [W, W, W, O];
    /// A tool list names a tool no runtime of the family knows (not a built-in, a Claude Code
    /// tool or an MCP pattern): probably a typo.
    UnknownTool = 135, "unknown tool name in a tool list", [W, W, W, O];
    /// A tool list names a tool of Claude Code, OpenClaw or Codex that weft does not have
    /// (`WebSearch`, `TodoWrite`, ...): it grants nothing here.
    UnsupportedTool = 136, "a tool weft does not have (Claude Code's WebSearch, ...)", [W, W, W, O];

    // --- invocation ----------------------------------------------------------------------
    /// A boolean field is not a boolean; the default is kept.
    InvalidBoolean = 140, "not a boolean", [W, E, E, O];
    /// `context` is neither `inline` nor `fork`.
    InvalidContext = 141, "context is neither inline nor fork", [W, E, E, O];
    /// `model` is neither an alias nor `provider/model`.
    UnrecognizedModel = 142, "model is not an alias or provider/model", [W, W, W, O];
    /// `agent` names no agent weft knows (checked by `skills validate` against the agents
    /// it discovers).
    UnknownAgent = 143, "agent names no known agent", [O, W, W, O];
    /// `effort` is not one of `low`, `medium`, `high`, `xhigh`, `max`.
    InvalidEffort = 144, "effort is not low, medium, high, xhigh or max", [W, W, E, O];
    /// A `paths:` glob does not compile: it never matches (checked by `skills validate`).
    InvalidPathGlob = 145, "a paths glob does not compile", [O, W, E, O];
    /// A `hooks` entry that cannot be read (not a mapping, an unknown event, a handler
    /// without `type: command` or `command`, a bad `timeout`): that entry is skipped.
    InvalidHook = 146, "malformed hook configuration; the entry is skipped", [W, E, E, O];
    /// A hook weft recognises but does not run: an event it has no moment for
    /// (`PermissionRequest`...), a handler type other than `command` (`http`, `prompt`...),
    /// or a field it does not apply (`async`, `if`).
    UnsupportedHook = 147, "hook event, type or field weft does not run", [W, W, E, O];

    // --- skill-injection definitions -----------------------------------------------------
    /// A compatibility or composability rule is malformed.
    InvalidSkillRule = 150, "malformed compatibility or composability rule", [E, E, E, E];
    /// A definition declares no `allowed_tools`: it grants nothing when composed.
    DefinitionWithoutTools = 151, "definition declares no allowed_tools", [O, W, W, O];
    /// A definition declares no `execution_protocol`.
    DefinitionWithoutProtocol = 152, "definition declares no execution_protocol", [O, W, W, O];

    // --- legacy skill.json ---------------------------------------------------------------
    /// `skill.json` is not valid JSON.
    InvalidJson = 160, "invalid JSON", [E, E, E, E];
    /// `skill.json` has no `prompt.md` beside it.
    MissingPrompt = 162, "skill.json without prompt.md", [O, W, W, O];

    // --- agents --------------------------------------------------------------------------
    /// An agent file has no `name`; the file name is used.
    AgentMissingName = 170, "agent has no name; the file name is used", [O, W, E, O];
    /// An agent file has no `description`.
    AgentMissingDescription = 171, "agent has no description", [W, W, E, O];
    /// `tools: []` gives an agent no tools at all.
    AgentNoTools = 172, "agent tools list is empty: no tools", [W, W, W, O];
    /// An unknown Claude Code `color`.
    AgentUnknownColor = 173, "unknown agent color", [W, W, W, O];
    /// An unknown Claude Code `permissionMode`.
    AgentUnknownPermissionMode = 174, "unknown permissionMode", [W, W, E, O];
    /// A numeric agent field is not a valid number.
    AgentInvalidNumber = 175, "agent number field is invalid", [W, E, E, O];
    /// The agent file type is not recognised.
    AgentUnknownFormat = 176, "unrecognised agent file", [E, E, E, O];
    /// The agent name breaks the naming rules.
    AgentInvalidName = 177, "invalid agent name", [W, W, E, O];
    /// An untrusted project's agent overrides a user or built-in agent of the same name.
    AgentProjectOverride = 178, "project agent overrides a user or built-in agent", [W, W, W, O];
    /// An untrusted project's agent asked for more than the user's limits; lowered to them.
    AgentLimitLowered = 179, "project agent's limit lowered to the user's", [W, W, W, O];

    // --- discovery -----------------------------------------------------------------------
    /// An OpenClaw requirement (`requires.bins`, `anyBins`, `env`, `os`) is not met here; the
    /// skill still loads.
    UnmetRequirement = 180, "OpenClaw requirement not met on this machine", [W, W, W, O];
    /// A project skill overrides a user, workspace, plugin or built-in skill (SEC-SKILL-06).
    ProjectOverride = 181, "project skill overrides a skill of another scope", [W, W, W, O];
    /// The same name twice in one scope: the first in path order wins.
    DuplicateInScope = 182, "same skill name twice in one scope", [W, W, W, O];
    /// A skill file broke after it was loaded: the last good version stays in use.
    KeptLastGood = 183, "broken skill file; the last good version is kept", [W, W, W, O];
    /// The walk reached its limit on directories visited; the rest of the tree is not read.
    WalkLimit = 184, "walk stopped at the limit on directories visited", [W, W, W, W];
    /// A directory, command or agent file name is not valid UTF-8: it cannot name a skill,
    /// command or agent and is skipped, with a warning.
    NonUtf8Name = 185, "file or directory name is not valid UTF-8; skipped", [W, W, W, W];
    /// A skill and a `.claude/commands` command have the same name: the skill wins.
    CommandShadowed = 186, "a skill shadows a command of the same name", [W, W, W, O];
    /// A command file's path gives no usable name (characters outside [A-Za-z0-9_-]).
    UnsafeCommandName = 187, "command file name outside [A-Za-z0-9_-]", [W, W, W, O];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for rule in Rule::ALL {
            assert!(seen.insert(rule.number()), "{rule:?} reuses a number");
        }
    }

    #[test]
    fn strict_is_never_laxer_than_validate() {
        fn rank(l: Level) -> u8 {
            match l {
                Level::Off => 0,
                Level::Warn => 1,
                Level::Error => 2,
            }
        }
        for rule in Rule::ALL {
            assert!(
                rank(rule.level(Profile::Strict)) >= rank(rule.level(Profile::Validate)),
                "{rule:?}"
            );
        }
    }
}
