//! An open-ended value (skill `metadata`, unknown frontmatter keys) as plain data.

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

    #[cfg(feature = "serde")]
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

    #[cfg(feature = "serde")]
    #[test]
    fn round_trips_through_json() {
        let v = sample();
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, r#"{"a":"1.10","b":[null,"x\"y\n"]}"#);
        let back: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back, v);
    }
}
