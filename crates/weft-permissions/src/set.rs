//! Pattern sets: compiled patterns with their origins, indexed for fast checks.

use std::sync::Arc;

use serde_json::Value;

use crate::name::ToolName;
use crate::pattern::PatternCache;
use crate::{Effect, Origin, PatternContext, PolicyError, ToolPattern};

/// A pattern and the definition it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    pattern: ToolPattern,
    origin: Arc<Origin>,
    /// `group_of(&pattern)`, kept inline for scans.
    group: u64,
}

/// A set of compiled patterns, each remembering its origin, indexed for fast checks.
///
/// A pattern whose key is already in the set is not added again (the first origin is kept).
///
/// ```
/// use weft_permissions::{Effect, Origin, PatternContext, PatternSet};
///
/// let set = PatternSet::compile(["Read", "Bash(git:*)", "github__*"], &Origin::Session, &PatternContext::new())?;
/// assert_eq!(set.len(), 3);
/// assert!(set.matches_tool("read_file", Effect::Allow));
/// assert!(!set.matches_tool("exec_shell", Effect::Allow)); // only some exec_shell calls
/// # Ok::<(), weft_permissions::PolicyError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct PatternSet {
    entries: Vec<Entry>,
    /// `(hash of the tool name, entry)` for patterns naming one tool, and `(WILD, entry)` for
    /// globs and MCP server patterns (which sort last), sorted. Built once the set has
    /// [`INDEX_FROM`] patterns; smaller sets are scanned.
    index: Vec<(u64, usize)>,
}

/// The size from which a set is indexed.
const INDEX_FROM: usize = 8;

/// The index group of a pattern: its tool's hash, or [`WILD`].
fn group_of(pattern: &ToolPattern) -> u64 {
    pattern.tool_hash().unwrap_or(WILD)
}

/// The index key of patterns that do not name one tool. A tool whose hash is `WILD` too is
/// still found: lookups compare names, and the wild tail is matched pattern by pattern.
const WILD: u64 = u64::MAX;

impl PartialEq for PatternSet {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl Eq for PatternSet {}

impl PatternSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty set with room for `n` patterns.
    pub(crate) fn with_capacity(n: usize) -> Self {
        Self {
            entries: Vec::with_capacity(n),
            index: Vec::new(),
        }
    }

    /// Compiles `patterns`, all from `origin`.
    pub fn compile<I>(
        patterns: I,
        origin: &Origin,
        ctx: &PatternContext,
    ) -> Result<Self, PolicyError>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        Self::compile_shared(patterns, &Arc::new(origin.clone()), ctx)
    }

    pub(crate) fn compile_shared<I>(
        patterns: I,
        origin: &Arc<Origin>,
        ctx: &PatternContext,
    ) -> Result<Self, PolicyError>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        let patterns = patterns.into_iter();
        let mut set = Self::with_capacity(patterns.size_hint().0);
        for text in patterns {
            let pattern =
                ToolPattern::parse_with(text.as_ref(), ctx).map_err(|error| PolicyError {
                    origin: (**origin).clone(),
                    error,
                })?;
            set.push_shared(pattern, Arc::clone(origin));
        }
        Ok(set)
    }

    /// Compiles `patterns` through `cache`, all from `origin`.
    pub(crate) fn compile_cached<'t>(
        patterns: &'t [String],
        origin: &Arc<Origin>,
        ctx: &PatternContext,
        cache: &mut PatternCache<'t>,
    ) -> Result<Self, PolicyError> {
        let mut set = Self::with_capacity(patterns.len());
        for text in patterns {
            let pattern = cache.get(text, ctx).map_err(|error| PolicyError {
                origin: (**origin).clone(),
                error,
            })?;
            set.push_shared(pattern, Arc::clone(origin));
        }
        Ok(set)
    }

    /// Adds a pattern, unless one with the same key is already in the set.
    pub fn push(&mut self, pattern: ToolPattern, origin: Origin) {
        self.push_shared(pattern, Arc::new(origin));
    }

    fn push_shared(&mut self, pattern: ToolPattern, origin: Arc<Origin>) {
        let same = |e: &Entry| {
            e.pattern.key_hash() == pattern.key_hash() && e.pattern.key() == pattern.key()
        };
        let group = group_of(&pattern);
        if self.index.is_empty() {
            if self.entries.iter().any(same) {
                return;
            }
            self.entries.push(Entry {
                pattern,
                origin,
                group,
            });
            if self.entries.len() >= INDEX_FROM {
                let mut index: Vec<(u64, usize)> = self
                    .entries
                    .iter()
                    .enumerate()
                    .map(|(i, e)| (e.group, i))
                    .collect();
                index.sort_unstable();
                self.index = index;
            }
            return;
        }
        let start = self.index.partition_point(|(h, _)| *h < group);
        let mut end = start;
        for &(_, i) in self.index[start..].iter().take_while(|(h, _)| *h == group) {
            if same(&self.entries[i]) {
                return;
            }
            end += 1;
        }
        self.index.insert(end, (group, self.entries.len()));
        self.entries.push(Entry {
            pattern,
            origin,
            group,
        });
    }

    /// Adds every pattern of `other` (cheap: patterns and origins are shared).
    pub fn extend_from(&mut self, other: &PatternSet) {
        for entry in &other.entries {
            self.push_shared(entry.pattern.clone(), Arc::clone(&entry.origin));
        }
    }

    /// The origins of the patterns, in insertion order (repeated per pattern).
    pub(crate) fn shared_origins(&self) -> impl Iterator<Item = &Arc<Origin>> {
        self.entries.iter().map(|e| &e.origin)
    }

    /// The tools named exactly by some pattern (canonical).
    pub(crate) fn exact_tools(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().filter_map(|e| e.pattern.tool())
    }

    /// The number of patterns.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the set has no pattern.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The patterns and their origins, in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&ToolPattern, &Origin)> {
        self.entries.iter().map(|e| (&e.pattern, &*e.origin))
    }

    /// True when some unscoped pattern matches the tool name (every call of it).
    pub fn matches_tool(&self, tool: &str, effect: Effect) -> bool {
        self.name_hit(&ToolName::new(tool), effect).is_some()
    }

    /// True when some pattern applies to the call.
    pub fn matches_call(&self, tool: &str, input: &Value, effect: Effect) -> bool {
        let name = ToolName::new(tool);
        match effect {
            Effect::Allow => self.permits(&name, input),
            Effect::Deny => self.deny_hit(&name, input).is_some(),
        }
    }

    /// True when some unscoped deny pattern matches every call of the tool `pattern` names
    /// (false for patterns naming no single tool).
    pub(crate) fn denies_tool_of(&self, pattern: &ToolPattern) -> bool {
        if self.entries.is_empty() {
            return false;
        }
        match (pattern.tool(), pattern.tool_hash()) {
            (Some(tool), Some(hash)) => {
                let name = ToolName::canonical(tool, hash);
                self.name_hit(&name, Effect::Deny).is_some()
            }
            _ => false,
        }
    }

    pub(crate) fn entry(&self, index: usize) -> (&ToolPattern, &Origin) {
        let e = &self.entries[index];
        (&e.pattern, &e.origin)
    }

    /// The first entry of an index group (in insertion order) for which `f` says yes.
    fn find_in_group(&self, group: u64, mut f: impl FnMut(&Entry) -> bool) -> Option<usize> {
        if self.index.is_empty() {
            for (i, entry) in self.entries.iter().enumerate() {
                if entry.group == group && f(entry) {
                    return Some(i);
                }
            }
            return None;
        }
        let start = self.index.partition_point(|(h, _)| *h < group);
        for &(h, i) in &self.index[start..] {
            if h != group {
                break;
            }
            if f(&self.entries[i]) {
                return Some(i);
            }
        }
        None
    }

    /// The first pattern naming exactly this tool (`scoped` or not) for which `f` says yes.
    fn find_for_tool(
        &self,
        name: &ToolName<'_>,
        scoped: bool,
        mut f: impl FnMut(&ToolPattern) -> bool,
    ) -> Option<usize> {
        self.find_in_group(name.hash, |e| {
            e.pattern.is_scoped() == scoped
                && e.pattern.tool() == Some(name.canonical)
                && f(&e.pattern)
        })
    }

    /// The first unscoped pattern matching the name.
    pub(crate) fn name_hit(&self, name: &ToolName<'_>, effect: Effect) -> Option<usize> {
        if self.entries.is_empty() {
            return None;
        }
        self.find_for_tool(name, false, |_| true)
            .or_else(|| self.find_in_group(WILD, |e| e.pattern.matches_name(name, effect)))
    }

    /// The scoped patterns of a tool, in insertion order.
    pub(crate) fn scoped_for(&self, name: &ToolName<'_>) -> Vec<usize> {
        let mut out = Vec::new();
        for (i, e) in self.entries.iter().enumerate() {
            if e.group == name.hash
                && e.pattern.is_scoped()
                && e.pattern.tool() == Some(name.canonical)
            {
                out.push(i);
            }
        }
        out
    }

    /// True when the tool has a scoped pattern.
    pub(crate) fn has_scoped(&self, name: &ToolName<'_>) -> bool {
        self.find_for_tool(name, true, |_| true).is_some()
    }

    /// The first deny pattern applying to the call.
    pub(crate) fn deny_hit(&self, name: &ToolName<'_>, input: &Value) -> Option<usize> {
        if self.entries.is_empty() {
            return None;
        }
        self.name_hit(name, Effect::Deny)
            .or_else(|| self.find_for_tool(name, true, |p| p.applies_to_input(input, Effect::Deny)))
    }

    /// True when some allow pattern applies to the call.
    pub(crate) fn permits(&self, name: &ToolName<'_>, input: &Value) -> bool {
        self.name_hit(name, Effect::Allow).is_some()
            || self
                .find_for_tool(name, true, |p| p.applies_to_input(input, Effect::Allow))
                .is_some()
    }

    /// True when some allow pattern could apply to some call of the tool.
    pub(crate) fn could_permit(&self, name: &ToolName<'_>) -> bool {
        self.name_hit(name, Effect::Allow).is_some() || self.has_scoped(name)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn sets_index_patterns() {
        let set = PatternSet::compile(
            ["Read", "Bash(git:*)", "read_*", "github__*", "Read"],
            &Origin::Session,
            &PatternContext::new(),
        )
        .unwrap();
        assert_eq!(set.len(), 4);
        assert_eq!(set.scoped_for(&ToolName::new("Bash")).len(), 1);
        assert!(set.matches_tool("Read", Effect::Allow));
        assert!(set.matches_tool("github__x", Effect::Allow));
        assert!(set.matches_call("Bash", &json!({"command": "git log"}), Effect::Allow));
        assert!(!set.matches_call("Bash", &json!({"command": "make"}), Effect::Allow));
        assert!(!set.matches_call("Bash", &json!({"command": "make"}), Effect::Deny));
        // A read-only helper is accepted by any set that allows some command.
        assert!(set.matches_call("Bash", &json!({"command": "ls"}), Effect::Allow));
    }

    #[test]
    fn large_sets_are_indexed_the_same_way() {
        let texts = [
            "Read",
            "Grep",
            "Glob",
            "LS",
            "specKit",
            "tool-a",
            "tool-b",
            "github__*",
            "Bash(git:*)",
            "Bash(npm run *)",
            "read_*",
            "Read",
            "tool-a",
            "mcp__x__y",
        ];
        for n in [4, texts.len()] {
            let set =
                PatternSet::compile(&texts[..n], &Origin::Session, &PatternContext::new()).unwrap();
            let expect = |tool: &str| {
                texts[..n].iter().any(|t| {
                    ToolPattern::parse(t)
                        .unwrap()
                        .matches_tool(tool, Effect::Allow)
                })
            };
            for tool in [
                "read_file",
                "grep",
                "list_directory",
                "specKit",
                "tool-b",
                "github__x",
                "x__y",
                "read_me",
                "nope",
            ] {
                assert_eq!(
                    set.matches_tool(tool, Effect::Allow),
                    expect(tool),
                    "{tool} in {n}"
                );
            }
            let git = json!({"command": "git log"});
            assert_eq!(set.matches_call("Bash", &git, Effect::Allow), n > 8);
        }
        let big = PatternSet::compile(texts, &Origin::Session, &PatternContext::new()).unwrap();
        assert_eq!(big.len(), 12);
        let order: Vec<&str> = big.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(order[..3], ["Read", "Grep", "Glob"]);
    }
}
