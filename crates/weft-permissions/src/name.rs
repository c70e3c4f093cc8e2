//! Canonical tool names: the built-in tools, Claude Code's aliases for them, and MCP names.
//!
//! Every tool name is canonicalised before it is compared, on the pattern side and on the
//! call side alike, so a deny on `Bash` blocks `exec_shell` and a deny on `exec_shell` blocks
//! `Bash`. Names the alias table does not know are kept exactly as written (case-sensitive):
//! seed 003's lowercase `write` and `edit` are tools of their own, **not** aliases of
//! `write_file` and `edit_file` (only Claude Code's capitalised `Write` and `Edit` are).

/// Every built-in tool, in its canonical (snake_case) spelling (the vocabulary of
/// [`weft_types::tool_names`]).
pub use weft_types::tool_names::BUILTIN_TOOLS;

/// Claude Code's tool names and the built-in each one stands for.
pub use weft_types::tool_names::ALIASES;

/// The prefix and separator of MCP tool names: `mcp__<server>__<tool>`, `<server>__<tool>`.
pub use weft_types::tool_names::{MCP_PREFIX, MCP_SEPARATOR};

/// The tools a background subagent may use: read-only, no MCP, no exec, no spawning.
pub const BACKGROUND_TOOLS: [&str; 4] = weft_types::tool_names::READ_ONLY_TOOLS;

use weft_types::tool_names::alias_target;
pub(crate) use weft_types::tool_names::static_name;

/// The canonical spelling of a tool name.
///
/// Claude Code aliases become the built-in they stand for, `mcp__<server>__<tool>` becomes
/// `<server>__<tool>`, and every other name is returned unchanged. Never allocates.
///
/// ```
/// use weft_permissions::canonical_tool_name;
///
/// assert_eq!(canonical_tool_name("Bash"), "exec_shell");
/// assert_eq!(canonical_tool_name("MultiEdit"), "edit_file");
/// assert_eq!(canonical_tool_name("mcp__github__create_issue"), "github__create_issue");
/// assert_eq!(canonical_tool_name("specKit"), "specKit");
/// assert_eq!(canonical_tool_name("write"), "write"); // not an alias of write_file
/// ```
pub fn canonical_tool_name(name: &str) -> &str {
    if let Some(target) = alias_target(name) {
        return target;
    }
    if let Some(rest) = name.strip_prefix(MCP_PREFIX)
        && mcp_parts(rest).is_some()
    {
        return rest;
    }
    name
}

/// The Claude Code aliases of a canonical built-in name (empty for anything else).
///
/// ```
/// use weft_permissions::aliases_of;
///
/// assert_eq!(aliases_of("edit_file"), ["Edit", "MultiEdit"]);
/// assert_eq!(aliases_of("sessions_spawn"), ["Task", "Agent"]);
/// assert!(aliases_of("specKit").is_empty());
/// ```
pub fn aliases_of(canonical: &str) -> &'static [&'static str] {
    weft_types::tool_names::aliases_of(canonical)
}

/// True for a built-in tool, in its canonical spelling or through an alias.
///
/// ```
/// use weft_permissions::is_builtin_tool;
///
/// assert!(is_builtin_tool("grep"));
/// assert!(is_builtin_tool("Grep"));
/// assert!(!is_builtin_tool("github__grep"));
/// ```
pub fn is_builtin_tool(name: &str) -> bool {
    BUILTIN_TOOLS.contains(&canonical_tool_name(name))
}

/// The server and tool of an MCP name in canonical form (`<server>__<tool>`).
///
/// The name is split at the first `__`; both parts must be non-empty. Pass the canonical
/// name (see [`canonical_tool_name`]): `mcp__github__x` is split as server `mcp`.
///
/// ```
/// use weft_permissions::mcp_parts;
///
/// assert_eq!(mcp_parts("github__create_issue"), Some(("github", "create_issue")));
/// assert_eq!(mcp_parts("read_file"), None);
/// assert_eq!(mcp_parts("__x"), None);
/// ```
pub fn mcp_parts(canonical: &str) -> Option<(&str, &str)> {
    let (server, tool) = split_double_underscore(canonical)?;
    (!server.is_empty() && !tool.is_empty()).then_some((server, tool))
}

/// `text` split at its first `__` (a byte scan: `str::split_once` sets up a substring searcher,
/// which costs more than the whole scan of a tool name).
pub(crate) fn split_double_underscore(text: &str) -> Option<(&str, &str)> {
    let bytes = text.as_bytes();
    let sep = MCP_SEPARATOR.as_bytes();
    let at = bytes.windows(sep.len()).position(|w| w == sep)?;
    Some((&text[..at], &text[at + sep.len()..]))
}

/// True when `text` contains `${` (a variable to substitute). A byte scan: cheaper than
/// `str::contains` on the short strings patterns are.
pub(crate) fn has_variable(text: &str) -> bool {
    text.as_bytes().windows(2).any(|w| w == b"${")
}

/// `a`, `b` and `c` concatenated, in one allocation.
pub(crate) fn concat3(a: &str, b: &str, c: &str) -> String {
    let mut out = String::with_capacity(a.len() + b.len() + c.len());
    out.push_str(a);
    out.push_str(b);
    out.push_str(c);
    out
}

/// True when `name` (in any spelling) is an MCP tool, `<server>__<tool>`.
///
/// ```
/// use weft_permissions::is_mcp_tool;
///
/// assert!(is_mcp_tool("github__create_issue"));
/// assert!(is_mcp_tool("mcp__github__create_issue"));
/// assert!(!is_mcp_tool("Bash"));
/// ```
pub fn is_mcp_tool(name: &str) -> bool {
    mcp_parts(canonical_tool_name(name)).is_some()
}

/// A tool name as the gate sees it: canonical spelling, hash and MCP parts, computed once.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ToolName<'a> {
    /// The name the caller used.
    pub(crate) given: &'a str,
    /// The canonical spelling.
    pub(crate) canonical: &'a str,
    /// `fx_hash(canonical)`.
    pub(crate) hash: u64,
    /// `(server, tool)` for MCP tools.
    pub(crate) mcp: Option<(&'a str, &'a str)>,
}

impl<'a> ToolName<'a> {
    /// A name already canonical, with its hash.
    pub(crate) fn canonical(canonical: &'a str, hash: u64) -> Self {
        Self {
            given: canonical,
            canonical,
            hash,
            mcp: mcp_parts(canonical),
        }
    }

    /// Canonicalises `given`.
    pub(crate) fn new(given: &'a str) -> Self {
        let canonical = canonical_tool_name(given);
        Self {
            given,
            canonical,
            hash: fx_hash(canonical),
            mcp: mcp_parts(canonical),
        }
    }
}

/// A `BuildHasher` for maps keyed by tool names and pattern texts ([`fx_hash`]'s mixing).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct FxBuild;

/// The hasher of [`FxBuild`].
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct FxHasher(u64);

impl std::hash::BuildHasher for FxBuild {
    type Hasher = FxHasher;

    fn build_hasher(&self) -> FxHasher {
        FxHasher(0)
    }
}

impl std::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A fast non-cryptographic hash of a short string (the Fx hash of rustc), for indexing
/// tool names. Tool names come from configuration and the model, so collisions only cost a
/// string comparison.
pub(crate) fn fx_hash(text: &str) -> u64 {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let mut hash = text.len() as u64;
    let mut chunks = text.as_bytes().chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        hash = (hash.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        hash = (hash.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alias_table_and_function_agree() {
        for (alias, target) in ALIASES {
            assert_eq!(canonical_tool_name(alias), target);
            assert!(aliases_of(target).contains(&alias));
            assert!(BUILTIN_TOOLS.contains(&target));
        }
        for tool in BUILTIN_TOOLS {
            assert_eq!(canonical_tool_name(tool), tool);
            // The gate names built-ins without canonicalising them (gate::BUILTIN_NAMES).
            assert_eq!(ToolName::new(tool).mcp, None);
            for alias in aliases_of(tool) {
                assert_eq!(canonical_tool_name(alias), tool);
            }
        }
    }

    #[test]
    fn unknown_names_are_kept_exactly() {
        for name in [
            "specKit",
            "opencode-executor",
            "write",
            "edit",
            "bash",
            "READ",
        ] {
            assert_eq!(canonical_tool_name(name), name);
            assert!(!is_builtin_tool(name));
        }
    }

    #[test]
    fn mcp_prefix_is_stripped_only_with_a_tool_part() {
        assert_eq!(canonical_tool_name("mcp__x__y"), "x__y");
        assert_eq!(canonical_tool_name("mcp__x"), "mcp__x");
        assert_eq!(canonical_tool_name("mcp__x__"), "mcp__x__");
        assert_eq!(canonical_tool_name("mcp__a__b__c"), "a__b__c");
        assert_eq!(mcp_parts("a__b__c"), Some(("a", "b__c")));
    }

    #[test]
    fn static_names_cover_the_tables() {
        for (alias, target) in ALIASES {
            assert_eq!(static_name(alias), Some(alias));
            assert_eq!(static_name(target), Some(target));
        }
        for tool in BUILTIN_TOOLS {
            assert_eq!(static_name(tool), Some(tool));
        }
        assert_eq!(static_name("specKit"), None);
        assert_eq!(split_double_underscore("a__b__c"), Some(("a", "b__c")));
        assert_eq!(split_double_underscore("a_b"), None);
    }

    #[test]
    fn tool_name_precomputes_parts() {
        let t = ToolName::new("mcp__github__list");
        assert_eq!(t.given, "mcp__github__list");
        assert_eq!(t.canonical, "github__list");
        assert_eq!(t.mcp, Some(("github", "list")));
        assert_eq!(ToolName::new("Bash").mcp, None);
    }
}
