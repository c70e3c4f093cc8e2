//! The YAML front end: serde-saphyr with explicit limits, producing [`Node`]s that keep every
//! scalar's source text and position.
//!
//! Scalars are read "typeless" and then put back to the text they were written with, so
//! `version: 1.10` is `"1.10"` and `name: yes` is `"yes"` (YAML 1.2 booleans only: `true`,
//! `false`). Duplicate keys are errors; nesting, alias expansion and document size are bounded
//! so hostile input (10,000-deep nesting, alias bombs) fails fast instead of exhausting memory
//! or the stack.

use serde::de::{Deserialize, Deserializer};
use serde_saphyr::options::{AliasLimits, DuplicateKeyPolicy, NonFiniteFloatPolicy};
use serde_saphyr::{Budget, Options, Spanned};
use weft_types::Position;

use crate::node::{
    Node, NodeKind, STACK_RED_ZONE, STACK_SEGMENT, Shape, ShapeVisitor, typed_scalar_text,
};
use crate::rules::Rule;

/// Bounds applied to every YAML document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct YamlLimits {
    /// Maximum nesting of collections.
    pub max_depth: usize,
    /// Maximum number of nodes (after alias expansion).
    pub max_nodes: usize,
    /// Maximum number of parser events replayed through aliases.
    pub max_alias_events: usize,
    /// Maximum number of aliases.
    pub max_aliases: usize,
}

impl Default for YamlLimits {
    fn default() -> Self {
        Self {
            max_depth: 64,
            max_nodes: 20_000,
            max_alias_events: 10_000,
            max_aliases: 1_000,
        }
    }
}

/// A YAML document that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    /// [`Rule::YamlSyntax`], [`Rule::YamlLimit`] or [`Rule::DuplicateKey`].
    pub rule: Rule,
    /// One line, without position.
    pub message: String,
    /// Where it went wrong, in file coordinates.
    pub pos: Option<Position>,
}

/// A node as serde-saphyr delivers it: a shape plus the places it was referenced and defined.
struct RawNode {
    shape: Shape<RawNode>,
    referenced: Option<Position>,
    /// Byte range of the defining scalar in the source, for recovering typed scalars' text.
    defined_span: Option<(usize, usize)>,
}

impl<'de> Deserialize<'de> for RawNode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || Self::deserialize_here(d))
    }
}

impl RawNode {
    fn deserialize_here<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let spanned = Spanned::<ShapeOf>::deserialize(d)?;
        let referenced = (spanned.referenced.line() > 0).then(|| {
            Position::new(
                u32::try_from(spanned.referenced.line()).unwrap_or(u32::MAX),
                u32::try_from(spanned.referenced.column()).unwrap_or(u32::MAX),
            )
        });
        let span = spanned.defined.span();
        let defined_span = match (span.byte_offset(), span.byte_len()) {
            (Some(o), Some(l)) => usize::try_from(o)
                .ok()
                .zip(usize::try_from(l).ok())
                .map(|(o, l)| (o, o.saturating_add(l))),
            _ => None,
        };
        Ok(RawNode {
            shape: spanned.value.0,
            referenced,
            defined_span,
        })
    }
}

/// Newtype so `Spanned` can wrap the shape (it needs a `Deserialize` type).
struct ShapeOf(Shape<RawNode>);

impl<'de> Deserialize<'de> for ShapeOf {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ShapeVisitor::<RawNode>::new())
            .map(ShapeOf)
    }
}

fn options(limits: &YamlLimits) -> Options {
    let mut budget = Budget::default();
    budget.max_depth = limits.max_depth;
    budget.max_nodes = limits.max_nodes;
    budget.max_aliases = limits.max_aliases;
    budget.max_documents = 1;

    let mut alias = AliasLimits::default();
    alias.max_total_replayed_events = limits.max_alias_events;
    alias.max_replay_stack_depth = 16;
    alias.max_alias_expansions_per_anchor = limits.max_aliases;

    let mut opts = Options::default();
    opts.budget = Some(budget);
    opts.alias_limits = alias;
    opts.duplicate_keys = DuplicateKeyPolicy::Error;
    opts.strict_booleans = true;
    opts.reject_unsupported_tags = true;
    opts.non_finite_float_policy = NonFiniteFloatPolicy::PassThrough;
    opts.with_snippet = false;
    opts
}

/// Parses one YAML document whose first line is line `first_line` of its file.
///
/// An empty or comment-only document is a [`NodeKind::Null`] node.
///
/// ```
/// use weft_parse::node::NodeKind;
/// use weft_parse::yaml::{parse, YamlLimits};
///
/// let node = parse("version: 1.10\nname: yes\n", 2, &YamlLimits::default()).unwrap();
/// let NodeKind::Map(entries) = node.kind else { panic!() };
/// assert_eq!(entries[0].1.as_scalar(), Some("1.10"));
/// assert_eq!(entries[1].1.as_scalar(), Some("yes"));
/// assert_eq!(entries[1].0.pos.unwrap().line, 3);
/// ```
pub fn parse(text: &str, first_line: u32, limits: &YamlLimits) -> Result<Node, YamlError> {
    let line_shift = first_line.saturating_sub(1);
    match serde_saphyr::from_str_with_options::<RawNode>(text, options(limits)) {
        Ok(raw) => Ok(into_node(raw, text, line_shift)),
        Err(err) => Err(convert_error(&err, line_shift, limits)),
    }
}

fn shift(pos: Option<Position>, line_shift: u32) -> Option<Position> {
    pos.map(|p| Position::new(p.line.saturating_add(line_shift), p.column))
}

fn into_node(raw: RawNode, src: &str, line_shift: u32) -> Node {
    let pos = shift(raw.referenced, line_shift);
    let kind = match raw.shape {
        Shape::Null => NodeKind::Null,
        Shape::Str(s) => NodeKind::Scalar(s),
        Shape::Seq(items) => NodeKind::Seq(
            items
                .into_iter()
                .map(|n| into_node(n, src, line_shift))
                .collect(),
        ),
        Shape::Map(entries) => NodeKind::Map(
            entries
                .into_iter()
                .map(|(k, v)| (into_node(k, src, line_shift), into_node(v, src, line_shift)))
                .collect(),
        ),
        typed => {
            // A number or boolean: take the text as written when the span gives it.
            let written = raw
                .defined_span
                .and_then(|(start, end)| src.get(start..end))
                .map(str::trim)
                .filter(|s| !s.is_empty() && !s.starts_with(['*', '&', '!']));
            NodeKind::Scalar(match written {
                Some(s) => s.to_owned(),
                None => typed_scalar_text(&typed).unwrap_or_default(),
            })
        }
    };
    Node { kind, pos }
}

/// A sentence for a budget breach (the library's own text is its `Debug` form).
fn describe_breach(breach: &serde_saphyr::budget::BudgetBreach, limits: &YamlLimits) -> String {
    use serde_saphyr::budget::BudgetBreach as B;
    match breach {
        B::Depth { depth } => format!(
            "nesting depth {depth} exceeds the limit of {}",
            limits.max_depth
        ),
        B::Nodes { nodes } => format!(
            "{nodes} nodes (after expanding aliases) exceed the limit of {}",
            limits.max_nodes
        ),
        B::Aliases { aliases } => format!(
            "{aliases} aliases exceed the limit of {}",
            limits.max_aliases
        ),
        B::Documents { .. } => "more than one YAML document".to_owned(),
        other => format!("size limit exceeded ({other:?})"),
    }
}

fn convert_error(err: &serde_saphyr::Error, line_shift: u32, limits: &YamlLimits) -> YamlError {
    let inner = err.without_snippet();
    let rule = match inner {
        serde_saphyr::Error::DuplicateMappingKey { .. } => Rule::DuplicateKey,
        serde_saphyr::Error::Budget { .. }
        | serde_saphyr::Error::AliasReplayCounterOverflow { .. }
        | serde_saphyr::Error::AliasReplayLimitExceeded { .. }
        | serde_saphyr::Error::AliasExpansionLimitExceeded { .. }
        | serde_saphyr::Error::AliasReplayStackDepthExceeded { .. } => Rule::YamlLimit,
        _ => Rule::YamlSyntax,
    };
    let mut message = match inner {
        serde_saphyr::Error::Budget { breach, .. } => describe_breach(breach, limits),
        other => other.to_string(),
    };
    // Drop the "line N column M: " prefix (the position is reported separately) and the
    // library's advice about its own options.
    if let Some(rest) = message
        .strip_prefix("error: ")
        .map(str::to_owned)
        .or_else(|| Some(message.clone()))
    {
        message = rest;
    }
    if message.starts_with("line ")
        && let Some(idx) = message.find(": ")
    {
        message = message[idx + 2..].to_owned();
    }
    // Positions inside the message count from the frontmatter's first line, not the file's;
    // the diagnostic carries the file position, so drop them from the text.
    for marker in [
        ", set DuplicateKeyPolicy",
        " at line ",
        " (defined at line",
        " (used at line",
    ] {
        if let Some(idx) = message.find(marker) {
            message.truncate(idx);
        }
    }
    let message = message.lines().next().unwrap_or("").trim().to_owned();
    let message = if rule == Rule::YamlLimit && message.contains("recursion limit") {
        format!("{message} (nesting deeper than the limit)")
    } else {
        message
    };
    let pos = err.location().filter(|l| l.line() > 0).map(|l| {
        Position::new(
            u32::try_from(l.line())
                .unwrap_or(u32::MAX)
                .saturating_add(line_shift),
            u32::try_from(l.column()).unwrap_or(u32::MAX),
        )
    });
    // Some limit breaches arrive wrapped (e.g. inside an alias error); recognise them by text.
    let rule = if rule == Rule::YamlSyntax
        && ["recursion limit", "limit exceeded", "budget breached"]
            .iter()
            .any(|m| message.contains(m))
    {
        Rule::YamlLimit
    } else {
        rule
    };
    YamlError { rule, message, pos }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(text: &str) -> Vec<(Node, Node)> {
        match parse(text, 1, &YamlLimits::default()).unwrap().kind {
            NodeKind::Map(m) => m,
            other => panic!("not a map: {other:?}"),
        }
    }

    fn scalar_of(text: &str) -> String {
        map(text)[0].1.as_scalar().unwrap().to_owned()
    }

    #[test]
    fn scalars_keep_source_text() {
        assert_eq!(scalar_of("v: 1.10\n"), "1.10");
        assert_eq!(scalar_of("v: 123\n"), "123");
        assert_eq!(scalar_of("v: yes\n"), "yes");
        assert_eq!(scalar_of("v: n\n"), "n");
        assert_eq!(scalar_of("v: true\n"), "true");
        assert_eq!(scalar_of("v: 0x1F\n"), "0x1F");
        assert_eq!(scalar_of("v: .nan\n"), ".nan");
        assert_eq!(scalar_of("v: 'It''s fine'\n"), "It's fine");
        assert_eq!(scalar_of("v: \"caf\\u00e9 \\t tab\"\n"), "café \t tab");
        assert_eq!(scalar_of("v: Formats C# code #fast\n"), "Formats C# code");
        assert_eq!(scalar_of("v: !!str d\n"), "d");
    }

    #[test]
    fn aliases_resolve_and_keep_text() {
        let m = map("a: &n 1.50\nb: *n\n");
        assert_eq!(m[1].1.as_scalar(), Some("1.50"));
    }

    #[test]
    fn null_forms() {
        assert!(map("a:\n")[0].1.is_null());
        assert!(map("a: ~\n")[0].1.is_null());
        assert!(map("a: null\n")[0].1.is_null());
        assert!(parse("", 1, &YamlLimits::default()).unwrap().is_null());
        assert!(parse("# c\n", 1, &YamlLimits::default()).unwrap().is_null());
    }

    #[test]
    fn positions_are_shifted_to_file_lines() {
        let node = parse("a: 1\nb: 2\n", 2, &YamlLimits::default()).unwrap();
        let NodeKind::Map(m) = node.kind else {
            panic!()
        };
        assert_eq!(m[1].0.pos, Some(Position::new(3, 1)));
        assert_eq!(m[1].1.pos, Some(Position::new(3, 4)));
    }

    #[test]
    fn duplicate_keys_are_errors_with_position() {
        let err = parse("d: 1\nd: 2\n", 2, &YamlLimits::default()).unwrap_err();
        assert_eq!(err.rule, Rule::DuplicateKey);
        assert_eq!(err.pos, Some(Position::new(3, 1)));
        assert_eq!(err.message, "duplicate mapping key: d");
    }

    #[test]
    fn deep_nesting_fails_fast() {
        let err = parse(&"[".repeat(10_000), 1, &YamlLimits::default()).unwrap_err();
        assert_eq!(err.rule, Rule::YamlLimit);
        let err = parse(&"{a: ".repeat(100_000), 1, &YamlLimits::default()).unwrap_err();
        assert_eq!(err.rule, Rule::YamlLimit);
    }

    #[test]
    fn alias_bomb_is_bounded() {
        let mut doc = String::from("a: &a [x,x,x,x,x,x,x,x,x]\n");
        let names = ["a", "b", "c", "d", "e", "f", "g", "h"];
        for w in names.windows(2) {
            let refs = vec![format!("*{}", w[0]); 9].join(",");
            doc.push_str(&format!("{}: &{} [{}]\n", w[1], w[1], refs));
        }
        let err = parse(&doc, 1, &YamlLimits::default()).unwrap_err();
        assert_eq!(err.rule, Rule::YamlLimit, "{err:?}");
    }

    #[test]
    fn syntax_errors_have_positions() {
        let err = parse(
            "description: Use this skill when: the user asks\n",
            2,
            &YamlLimits::default(),
        )
        .unwrap_err();
        assert_eq!(err.rule, Rule::YamlSyntax);
        assert_eq!(err.pos.map(|p| p.line), Some(2));
        let err = parse("m:\n\tauthor: me\n", 1, &YamlLimits::default()).unwrap_err();
        assert_eq!(err.rule, Rule::YamlSyntax);
    }

    #[test]
    fn custom_tags_are_rejected() {
        let err = parse("x: !custom y\n", 1, &YamlLimits::default()).unwrap_err();
        assert_eq!(err.rule, Rule::YamlSyntax);
    }
}
#[cfg(test)]
mod stack_tests {
    use super::*;

    /// Parses on a thread with a 2 MiB stack (the size of rayon's and tokio's workers).
    fn parse_on_small_stack(doc: String) -> Result<(), YamlError> {
        std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(move || parse(&doc, 1, &YamlLimits::default()).map(|_| ()))
            .unwrap()
            .join()
            .expect("no stack overflow")
    }

    #[test]
    fn nesting_up_to_the_limit_fits_a_small_stack() {
        // The mapping is level 1, so 63 brackets reach the limit of 64 exactly.
        let ok = format!("m: {}{}\n", "[".repeat(63), "]".repeat(63));
        assert_eq!(parse_on_small_stack(ok), Ok(()));
        let deep = format!("m: {}{}\n", "[".repeat(100), "]".repeat(100));
        assert_eq!(
            parse_on_small_stack(deep).unwrap_err().rule,
            Rule::YamlLimit
        );
        let block: String = (0..63).map(|i| format!("{}k:\n", "  ".repeat(i))).collect();
        assert_eq!(parse_on_small_stack(block), Ok(()));
    }
}
