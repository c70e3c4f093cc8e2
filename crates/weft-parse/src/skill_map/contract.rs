//! The skill-injection contract (seed 001/003): execution protocol, pre- and postconditions,
//! output contract, compatibility and composability rules. Separate because these keys belong
//! to definitions and form a contract of their own.

use weft_types::{
    CompatibilityKind, CompatibilityRule, ComposabilityKind, ComposabilityRule, OutputContract,
    SkillContract,
};

use crate::fields::{self, Field, Fields};
use crate::node::NodeKind;
use crate::report::Report;
use crate::rules::Rule;

pub(super) fn read_contract(f: &mut Fields<'_>, report: &mut Report<'_>) -> SkillContract {
    let mut contract = SkillContract::default();
    if let Some(field) = f.take(report, &["execution-protocol", "execution_protocol"]) {
        contract.execution_protocol = fields::text_list(report, &field);
    }
    if let Some(field) = f.take(report, &["preconditions"]) {
        contract.preconditions = fields::text_list(report, &field);
    }
    if let Some(field) = f.take(report, &["postconditions"]) {
        contract.postconditions = fields::text_list(report, &field);
    }
    if let Some(field) = f.take(report, &["output-contract", "output_contract"]) {
        contract.output_contract = read_output_contract(&field, report);
    }
    if let Some(field) = f.take(report, &["compatibility-rules", "compatibility_rules"]) {
        contract.compatibility_rules = read_rules(&field, report, |kind| match kind {
            "requires" => Some(CompatibilityKind::Requires),
            "incompatible" => Some(CompatibilityKind::Incompatible),
            _ => None,
        })
        .into_iter()
        .map(|(kind, skill, reason)| CompatibilityRule {
            kind,
            skill,
            reason,
        })
        .collect();
    }
    if let Some(field) = f.take(report, &["composability-rules", "composability_rules"]) {
        contract.composability_rules = read_rules(&field, report, |kind| match kind {
            "requires" => Some(ComposabilityKind::Requires),
            "forbids" => Some(ComposabilityKind::Forbids),
            _ => None,
        })
        .into_iter()
        .map(|(kind, skill, reason)| ComposabilityRule {
            kind,
            skill,
            reason,
        })
        .collect();
    }
    contract
}

fn read_output_contract(field: &Field<'_>, report: &mut Report<'_>) -> Option<OutputContract> {
    let NodeKind::Map(entries) = &field.value.kind else {
        report.error(
            Rule::InvalidSkillRule,
            field.pos(),
            format!(
                "`{}` must be a mapping with `type` and optional `schema`",
                field.key
            ),
        );
        return None;
    };
    let mut f = Fields::new(entries, report);
    let kind = f
        .take(report, &["type"])
        .and_then(|t| fields::string(report, &t, Rule::InvalidSkillRule));
    let schema = f.take(report, &["schema"]).map(|s| fields::value(&s));
    match kind {
        Some(kind) => Some(OutputContract { kind, schema }),
        None => {
            report.error(
                Rule::InvalidSkillRule,
                field.pos(),
                format!("`{}` needs a `type`", field.key),
            );
            None
        }
    }
}

/// Reads a list of `{type, skill, reason}` rules; `kind_of` maps the `type` text.
fn read_rules<K>(
    field: &Field<'_>,
    report: &mut Report<'_>,
    kind_of: impl Fn(&str) -> Option<K>,
) -> Vec<(K, String, Option<String>)> {
    let key = field.key;
    let NodeKind::Seq(items) = &field.value.kind else {
        if !field.value.is_null() {
            report.error(
                Rule::InvalidSkillRule,
                field.pos(),
                format!("`{key}` must be a list of {{type, skill, reason}} entries"),
            );
        }
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items {
        let NodeKind::Map(entries) = &item.kind else {
            report.error(
                Rule::InvalidSkillRule,
                item.pos,
                format!(
                    "each `{key}` entry must be a mapping, found {}",
                    item.type_name()
                ),
            );
            continue;
        };
        let mut f = Fields::new(entries, report);
        let kind_text = f
            .take(report, &["type"])
            .and_then(|t| fields::string(report, &t, Rule::InvalidSkillRule));
        let skill = f
            .take(report, &["skill"])
            .and_then(|s| fields::string(report, &s, Rule::InvalidSkillRule));
        let reason = f
            .take(report, &["reason"])
            .and_then(|r| fields::string(report, &r, Rule::WrongType));
        let kind = kind_text.as_deref().and_then(&kind_of);
        match (kind, skill) {
            (Some(kind), Some(skill)) if !skill.trim().is_empty() => {
                out.push((kind, skill.trim().to_owned(), reason));
            }
            (None, _) => report.error(
                Rule::InvalidSkillRule,
                item.pos,
                format!(
                    "`{key}` entry has type {}; expected one of the documented types",
                    kind_text.map_or_else(|| "missing".to_owned(), |t| format!("`{t}`"))
                ),
            ),
            _ => report.error(
                Rule::InvalidSkillRule,
                item.pos,
                format!("`{key}` entry names no `skill`"),
            ),
        }
    }
    out
}
