//! An open-ended value (skill `metadata`, unknown frontmatter keys) as plain data.

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A YAML or JSON value whose scalars keep the text they were written with.
///
/// `version: 1.10` stays `"1.10"` and `stable: yes` stays `"yes"`: the consumer decides what a
/// scalar means. Maps keep their source order. Serializes as the JSON it looks like (scalars as
/// strings), never as a language-specific representation.
///
/// ```
/// use weft_types::Value;
///
/// let v = Value::Map(vec![("version".into(), Value::from("1.10"))]);
/// assert_eq!(v.get("version").and_then(Value::as_str), Some("1.10"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Value {
    /// `null`, `~` or an empty value.
    #[default]
    Null,
    /// Any other scalar, as written (quotes and escapes already resolved).
    Scalar(String),
    /// A sequence.
    List(Vec<Value>),
    /// A mapping with string keys, in source order.
    Map(Vec<(String, Value)>),
}

impl Value {
    /// The scalar text, when this is a scalar.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// The entries, when this is a map.
    pub fn as_map(&self) -> Option<&[(String, Value)]> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The items, when this is a list.
    pub fn as_list(&self) -> Option<&[Value]> {
        match self {
            Value::List(l) => Some(l),
            _ => None,
        }
    }

    /// The value under `key` when this is a map (the first one, keys are unique when parsed).
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_map()?
            .iter()
            .find_map(|(k, v)| (k == key).then_some(v))
    }

    /// True for [`Value::Null`].
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// How deeply collections nest: a scalar is 0, `[a]` is 1, `{a: [b]}` is 2.
    pub fn depth(&self) -> usize {
        match self {
            Value::Null | Value::Scalar(_) => 0,
            Value::List(items) => 1 + items.iter().map(Value::depth).max().unwrap_or(0),
            Value::Map(entries) => 1 + entries.iter().map(|(_, v)| v.depth()).max().unwrap_or(0),
        }
    }

    /// The length of the compact JSON this value serializes to, without building it.
    pub fn json_len(&self) -> usize {
        fn str_len(s: &str) -> usize {
            2 + s
                .chars()
                .map(|c| match c {
                    '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
                    c if (c as u32) < 0x20 => 6,
                    c => c.len_utf8(),
                })
                .sum::<usize>()
        }
        match self {
            Value::Null => 4,
            Value::Scalar(s) => str_len(s),
            Value::List(items) => {
                2 + items.iter().map(Value::json_len).sum::<usize>() + items.len().saturating_sub(1)
            }
            Value::Map(entries) => {
                2 + entries
                    .iter()
                    .map(|(k, v)| str_len(k) + 1 + v.json_len())
                    .sum::<usize>()
                    + entries.len().saturating_sub(1)
            }
        }
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Scalar(s.to_owned())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Scalar(s)
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Scalar(s) => serializer.serialize_str(s),
            Value::List(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Map(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> serde::de::Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON or YAML value")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Scalar(v.to_string()))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Scalar(v.to_string()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Scalar(v.to_string()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Scalar(v.to_string()))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::Scalar(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::Scalar(v))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::List(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Value>()? {
            entries.push((k, v));
        }
        Ok(Value::Map(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Value {
        Value::Map(vec![
            ("a".into(), Value::from("1.10")),
            (
                "b".into(),
                Value::List(vec![Value::Null, Value::from("x\"y\n")]),
            ),
        ])
    }

    #[test]
    fn json_len_matches_serde_json() {
        let v = sample();
        assert_eq!(v.json_len(), serde_json::to_string(&v).unwrap().len());
    }

    #[test]
    fn depth_counts_collections() {
        assert_eq!(Value::from("x").depth(), 0);
        assert_eq!(sample().depth(), 2);
    }

    #[test]
    fn round_trips_through_json() {
        let v = sample();
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, r#"{"a":"1.10","b":[null,"x\"y\n"]}"#);
        let back: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back, v);
    }
}
