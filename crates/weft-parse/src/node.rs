//! A format-neutral document tree: what YAML and JSON files both become before their fields
//! are interpreted, so every format shares one set of field rules.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use weft_types::{Position, Value};

/// One node of a parsed YAML or JSON document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// What the node holds.
    pub kind: NodeKind,
    /// Where it starts in the file, when the format reports positions (YAML does, JSON not).
    pub pos: Option<Position>,
}

/// The shape of a [`Node`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeKind {
    /// `null`, `~`, or an empty value.
    Null,
    /// A scalar, as written (`1.10` stays `1.10`; quotes and escapes resolved).
    Scalar(String),
    /// A sequence.
    Seq(Vec<Node>),
    /// A mapping, in source order.
    Map(Vec<(Node, Node)>),
}

impl Node {
    /// A node without a position.
    pub fn new(kind: NodeKind) -> Self {
        Self { kind, pos: None }
    }

    /// The scalar text, when this is a scalar.
    pub fn as_scalar(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// True for [`NodeKind::Null`].
    pub fn is_null(&self) -> bool {
        matches!(self.kind, NodeKind::Null)
    }

    /// A short name of the node's type for messages (`a list`, `a mapping`, ...).
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            NodeKind::Null => "null",
            NodeKind::Scalar(_) => "a string",
            NodeKind::Seq(_) => "a list",
            NodeKind::Map(_) => "a mapping",
        }
    }

    /// Converts to a plain [`Value`]; mapping keys that are not scalars are written as their
    /// JSON text.
    pub fn to_value(&self) -> Value {
        match &self.kind {
            NodeKind::Null => Value::Null,
            NodeKind::Scalar(s) => Value::Scalar(s.clone()),
            NodeKind::Seq(items) => Value::List(items.iter().map(Node::to_value).collect()),
            NodeKind::Map(entries) => Value::Map(
                entries
                    .iter()
                    .map(|(k, v)| (k.key_text(), v.to_value()))
                    .collect(),
            ),
        }
    }

    fn key_text(&self) -> String {
        match &self.kind {
            NodeKind::Scalar(s) => s.clone(),
            NodeKind::Null => "null".to_owned(),
            _ => serde_json::to_string(&self.to_value()).unwrap_or_default(),
        }
    }
}

/// Stack kept free before descending one more level while deserializing, and the size of each
/// extra segment. Nesting is bounded (YAML by its limits, JSON at 128 levels), but one level
/// costs several serde frames (over 64 KiB in debug builds); growing the stack on demand keeps
/// deep yet allowed documents safe on small thread stacks such as rayon's or tokio's.
pub(crate) const STACK_RED_ZONE: usize = 256 * 1024;
pub(crate) const STACK_SEGMENT: usize = 1024 * 1024;

/// The shape of a node whose children are `C`: shared by the JSON node and the spanned YAML
/// node, so both are read by one visitor.
#[derive(Debug)]
pub(crate) enum Shape<C> {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Seq(Vec<C>),
    Map(Vec<(C, C)>),
}

pub(crate) struct ShapeVisitor<C>(PhantomData<C>);

impl<C> ShapeVisitor<C> {
    pub(crate) fn new() -> Self {
        Self(PhantomData)
    }
}

impl<'de, C: Deserialize<'de>> Visitor<'de> for ShapeVisitor<C> {
    type Value = Shape<C>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_unit<E>(self) -> Result<Shape<C>, E> {
        Ok(Shape::Null)
    }
    fn visit_none<E>(self) -> Result<Shape<C>, E> {
        Ok(Shape::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Shape<C>, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Shape<C>, E> {
        Ok(Shape::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Shape<C>, E> {
        Ok(Shape::Int(i128::from(v)))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Shape<C>, E> {
        Ok(Shape::Int(i128::from(v)))
    }
    fn visit_i128<E>(self, v: i128) -> Result<Shape<C>, E> {
        Ok(Shape::Int(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Shape<C>, E> {
        Ok(Shape::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Shape<C>, E> {
        Ok(Shape::Str(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Shape<C>, E> {
        Ok(Shape::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Shape<C>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Shape::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Shape<C>, A::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(Shape::Map(entries))
    }
}

/// The text of a typed scalar when the source text is not available.
pub(crate) fn typed_scalar_text(shape: &Shape<impl Sized>) -> Option<String> {
    match shape {
        Shape::Bool(b) => Some(b.to_string()),
        Shape::Int(i) => Some(i.to_string()),
        Shape::Float(f) => Some(f.to_string()),
        _ => None,
    }
}

/// JSON documents deserialize straight into position-less nodes.
impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // serde_json stops at 128 levels; grow the stack on demand so that limit, not the
        // thread's stack size, is what deep documents hit.
        stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || Self::deserialize_here(d))
    }
}

impl Node {
    fn deserialize_here<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let shape = d.deserialize_any(ShapeVisitor::<Node>::new())?;
        let kind = match shape {
            Shape::Null => NodeKind::Null,
            Shape::Str(s) => NodeKind::Scalar(s),
            Shape::Seq(items) => NodeKind::Seq(items),
            Shape::Map(entries) => NodeKind::Map(entries),
            typed => NodeKind::Scalar(typed_scalar_text(&typed).unwrap_or_default()),
        };
        Ok(Node::new(kind))
    }
}

/// Parses JSON into a node tree; the error carries serde_json's line and column.
pub(crate) fn parse_json(text: &str) -> Result<Node, serde_json::Error> {
    serde_json::from_str(text)
}

/// The position and one-line message of a JSON error.
pub(crate) fn json_error(err: &serde_json::Error) -> (Option<Position>, String) {
    let pos = (err.line() > 0).then(|| {
        Position::new(
            u32::try_from(err.line()).unwrap_or(u32::MAX),
            u32::try_from(err.column()).unwrap_or(u32::MAX),
        )
    });
    let msg = err.to_string();
    let msg = msg.split(" at line ").next().unwrap_or(&msg).to_owned();
    (pos, msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_scalars_become_text() {
        let node = parse_json(r#"{"a": 1.5, "b": true, "c": null, "d": [1, "x"]}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&node.to_value()).unwrap(),
            r#"{"a":"1.5","b":"true","c":null,"d":["1","x"]}"#
        );
    }
}
