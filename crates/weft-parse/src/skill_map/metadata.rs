//! The skill's `metadata` mapping: its size limits, the spec's flat-strings rule, and the
//! OpenClaw gating keys inside it that weft recognises without implementing. Separate because
//! `metadata` is open-ended data with rules of its own.

use weft_types::Value;

use crate::fields::{self, Field};
use crate::node::NodeKind;
use crate::options::Limits;
use crate::report::Report;
use crate::rules::Rule;

/// OpenClaw gating keys weft recognises but does not implement, and why.
pub const UNSUPPORTED_OPENCLAW_KEYS: [(&str, &str); 4] = [
    (
        "requires.config",
        "OpenClaw configuration requirements are not checked",
    ),
    (
        "primaryEnv",
        "weft gives no key to a skill (`skills.entries.<name>.apiKey` is not used)",
    ),
    ("install", "weft installs no dependency for a skill"),
    (
        "skillKey",
        "the skill's configuration entry is its name (`skills.entries.<name>`)",
    ),
];

/// A named warning for each OpenClaw gating key (`metadata.openclaw`, or the older
/// `clawdbot`/`moltbot`) of [`UNSUPPORTED_OPENCLAW_KEYS`].
pub(super) fn report_unsupported_openclaw(
    metadata: &Value,
    field: &Field<'_>,
    report: &mut Report<'_>,
) {
    for (block_name, block) in ["openclaw", "clawdbot", "moltbot"]
        .iter()
        .filter_map(|k| metadata.get(k).map(|b| (*k, b)))
    {
        for (key, why) in UNSUPPORTED_OPENCLAW_KEYS {
            let value = match key.split_once('.') {
                Some((outer, inner)) => block.get(outer).and_then(|o| o.get(inner)),
                None => block.get(key),
            };
            // An empty value (`primaryEnv: ""`, `config: []`) asks for nothing.
            let present = value.is_some_and(|v| match v {
                Value::Null => false,
                Value::Scalar(s) => !s.trim().is_empty(),
                Value::List(items) => !items.is_empty(),
                Value::Map(entries) => !entries.is_empty(),
            });
            if present {
                report.emit(Rule::UnsupportedField, field.key_pos, || {
                    format!(
                        "`metadata.{block_name}.{key}` is recognised but not supported: {why}; it has no effect"
                    )
                });
            }
        }
    }
}

pub(super) fn read_metadata(
    field: &Field<'_>,
    limits: &Limits,
    report: &mut Report<'_>,
) -> Option<Value> {
    match &field.value.kind {
        NodeKind::Null => None,
        NodeKind::Map(entries) => {
            let value = field.value.to_value();
            let depth = value.depth();
            let size = value.json_len();
            if depth > limits.max_metadata_depth || size > limits.max_metadata_bytes {
                report.error(
                    Rule::MetadataTooLarge,
                    field.key_pos.or(field.pos()),
                    format!(
                        "`metadata` is {size} bytes as JSON and {depth} levels deep; the limits are {} bytes and {} levels",
                        limits.max_metadata_bytes, limits.max_metadata_depth
                    ),
                );
                return None;
            }
            if report.enabled(Rule::MetadataNotFlat) {
                let nested: Vec<&str> = entries
                    .iter()
                    .filter(|(_, v)| !matches!(v.kind, NodeKind::Scalar(_) | NodeKind::Null))
                    .filter_map(|(k, _)| k.as_scalar())
                    .collect();
                if !nested.is_empty() {
                    report.emit(Rule::MetadataNotFlat, field.pos(), || {
                        format!(
                            "metadata values must be strings under the spec; nested: {}",
                            nested.join(", ")
                        )
                    });
                }
            }
            Some(value)
        }
        _ => {
            let found = fields::describe(field.value);
            report.emit(Rule::MetadataNotMap, field.pos(), || {
                format!("`metadata` must be a mapping, found {found}; dropped")
            });
            None
        }
    }
}
