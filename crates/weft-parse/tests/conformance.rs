//! The SKILL.md and agent-file cases of `CONFORMANCE.md` (sections A-F and I), as tables.
//!
//! Each row is parsed under the profiles its columns speak about: `load` is the lenient
//! column, `validate`/`strict` weft's strict column, and `spec` the reference validator
//! (`skills-ref`) column with its exact wording. Where DESIGN.md overrides a CONFORMANCE
//! recommendation (e.g. a file without frontmatter loads) the case follows DESIGN.md and says
//! so. A failing case is reported by its ID (`C06/spec`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::Path;

use common::{Case, ONLY, fm, row, run};
use weft_parse::{ParseOptions, ParsedAgent, Profile, parse_agent};
use weft_types::{
    AgentDefinition, DescriptionSource, PermissionMode, SkillContext, UnknownPermissionMode,
};

/// The same expectations under every profile.
fn every_profile(r: &common::Row, f: impl Fn(Case) -> Case) -> Vec<Case> {
    vec![f(r.load()), f(r.validate()), f(r.strict()), f(r.spec())]
}

// --- A. Framing, delimiters, encoding -------------------------------------------------------

fn section_a() -> Vec<Case> {
    let mut v = Vec::new();

    let a01 = row(
        "A01",
        "pdf-processing",
        "---\nname: pdf-processing\ndescription: Extract PDF text. Use when handling PDFs.\n---\n",
    );
    v.extend(every_profile(&a01, |c| {
        c.ok(&[])
            .name("pdf-processing")
            .description("Extract PDF text. Use when handling PDFs.")
            .body(None)
            .allow(None)
            .metadata("null")
    }));

    // DESIGN 3.1 overrides CONFORMANCE: no frontmatter loads (name from the directory,
    // description from the first paragraph); W007 under validate, an error when strict.
    // The missing frontmatter is reported once, not again as a missing name and description.
    let a02 = row("A02", "notes", "# Title\n\nJust markdown.\n");
    v.push(
        a02.load()
            .ok(&[])
            .name("notes")
            .description("Just markdown.")
            .description_source(DescriptionSource::FirstParagraph)
            .body(Some("# Title\n\nJust markdown.")),
    );
    v.push(
        a02.validate()
            .ok(&["W007"])
            .name("notes")
            .description("Just markdown."),
    );
    v.push(a02.strict().err(&["E007"]));
    // skills-ref stops at the first problem: one error, its wording.
    v.push(
        a02.spec()
            .err(&["E007"])
            .msg("E007", "SKILL.md must start with YAML frontmatter (---)"),
    );

    // An empty file has no frontmatter and no paragraph to describe it: not loadable.
    let a03 = row("A03", "empty-skill", "");
    v.push(a03.load().err(&["E110"]).body(None));
    v.push(a03.validate().err(&["W007", "E110"]));

    let a04 = row("A04", "s", "\n---\nname: s\ndescription: d\n---\n");
    v.push(a04.load().ok(&["W008"]).name("s").description("d"));
    v.push(a04.validate().ok(&["W008"]).at("W008", 1, None));
    v.push(
        a04.spec()
            .err(&["E008"])
            .msg("E008", "SKILL.md must start with YAML frontmatter (---)"),
    );

    // Deliberate deviation: the BOM is stripped; a warning outside the lenient loader.
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(b"---\nname: s\ndescription: d\n---\nBody\n");
    let a05 = row("A05", "s", bom);
    v.push(
        a05.load()
            .ok(&[])
            .name("s")
            .description("d")
            .body(Some("Body")),
    );
    v.push(a05.validate().ok(&["W005"]).name("s"));
    v.push(a05.strict().ok(&["W005"]));
    v.push(
        a05.spec()
            .ok(&["W005"])
            .msg_contains("W005", "byte-order mark"),
    );

    let a06 = row(
        "A06",
        "s",
        "---\r\nname: s\r\ndescription: d\r\n---\r\nBody\r\n",
    );
    v.extend(every_profile(&a06, |c| {
        c.ok(&[]).name("s").description("d").body(Some("Body"))
    }));

    let a07 = row("A07", "s", "---\nname: s\ndescription: d\n");
    v.push(
        a07.load()
            .err(&["E006"])
            .at("E006", 1, Some(1))
            .report_name(Some("s")),
    );
    v.push(a07.validate().err(&["E006"]));
    v.push(
        a07.spec()
            .err(&["E006"])
            .msg("E006", "SKILL.md frontmatter not properly closed with ---"),
    );

    // Extra framing rows: a lone opening line; whitespace-only lines before it.
    let a07b = row("A07b", "s", "---");
    v.push(a07b.load().err(&["E006"]));
    let a04b = row("A04b", "s", "  \n\t\n---\nname: s\ndescription: d\n---\n");
    v.push(
        a04b.load()
            .ok(&["W008"])
            .msg_contains("W008", "2 blank line"),
    );

    let a08 = row("A08", "s", "----\nname: s\ndescription: d\n---\n");
    v.push(a08.load().err(&["E009"]).at("E009", 1, None));
    v.push(a08.validate().err(&["E009"]));

    let a09 = row("A09", "s", "---   \nname: s\ndescription: d\n---  \nBody\n");
    v.push(a09.load().ok(&[]).name("s").body(Some("Body")));
    v.push(a09.spec().ok(&[]));

    let a10 = row("A10", "s", "---\nname: s\ndescription: d\n...\nBody");
    v.push(a10.load().err(&["E006"]));
    v.push(
        a10.spec()
            .err(&["E006"])
            .msg("E006", "SKILL.md frontmatter not properly closed with ---"),
    );

    let a11 = row(
        "A11",
        "s",
        fm("name: s\ndescription: Converts em---dashes in text\n"),
    );
    v.push(
        a11.load()
            .ok(&[])
            .description("Converts em---dashes in text"),
    );
    v.push(
        a11.spec()
            .ok(&[])
            .description("Converts em---dashes in text"),
    );

    let a12 = row(
        "A12",
        "s",
        "---\n\n## name: s\ndescription: d\n\n| a | b |\n| --- | --- |\n",
    );
    v.push(a12.load().err(&["E006"]));
    v.push(a12.spec().err(&["E006"]));

    let a13 = row(
        "A13",
        "s",
        "---\nname: s\ndescription: d\n---\nPart 1\n\n---\n\nPart 2\n---\n",
    );
    v.push(
        a13.load()
            .ok(&[])
            .body(Some("Part 1\n\n---\n\nPart 2\n---")),
    );
    v.push(a13.validate().ok(&[]));

    let a14 = row(
        "A14",
        "s",
        "---\nname: s\ndescription: d\n---\nBody\n---\nname: t\n---\n",
    );
    v.push(
        a14.load()
            .ok(&[])
            .name("s")
            .body(Some("Body\n---\nname: t\n---")),
    );
    v.push(a14.validate().ok(&[]).name("s"));

    let a15 = row("A15", "s", "---\nname: s\ndescription: d\n---");
    v.extend(every_profile(&a15, |c| c.ok(&[]).body(None)));

    let a16 = row("A16", "s", "---\nname: s\ndescription: d\n---\n\n\n");
    v.push(a16.load().ok(&[]).body(None));
    v.push(a16.validate().ok(&[]).body(None));

    let a17 = row("A17", "s", "---\n---\nBody");
    v.push(a17.load().err(&["E023"]));
    v.push(a17.validate().err(&["E023"]));
    v.push(
        a17.spec()
            .err(&["E023"])
            .msg("E023", "SKILL.md frontmatter must be a YAML mapping"),
    );

    let a18 = row("A18", "s", "---\n# just a comment\n---\n");
    v.push(a18.load().err(&["E023"]));
    v.push(
        a18.spec()
            .err(&["E023"])
            .msg("E023", "SKILL.md frontmatter must be a YAML mapping"),
    );

    let a19 = row("A19", "s", "---\n- name\n- description\n---\n");
    v.push(a19.load().err(&["E023"]));
    v.push(
        a19.spec()
            .err(&["E023"])
            .msg("E023", "SKILL.md frontmatter must be a YAML mapping"),
    );

    // "---\n" (4) + "name: s\n" (8) + "description: caf" (16) = byte 28, line 3.
    let a20 = row(
        "A20",
        "s",
        &b"---\nname: s\ndescription: caf\xe9\n---\n"[..],
    );
    v.push(
        a20.load()
            .err(&["E001"])
            .byte_offset("E001", 28)
            .at("E001", 3, None),
    );
    v.push(a20.validate().err(&["E001"]).byte_offset("E001", 28));
    v.push(a20.spec().err(&["E001"]));

    // U+0080 after "description: a" (14 characters): line 3, column 15.
    let a21 = row("A21", "s", "---\nname: s\ndescription: a\u{80}b\n---\n");
    v.push(a21.load().err(&["E002"]).at("E002", 3, Some(15)));
    v.push(a21.validate().err(&["E002"]).at("E002", 3, Some(15)));
    v.push(a21.spec().err(&["E002"]));

    let a22 = row(
        "A22",
        "s",
        "---\nname: s\ndescription: d\n---\nBody\0here\n",
    );
    v.push(a22.load().ok(&[]).body(Some("Body\0here")));
    v.push(a22.validate().ok(&["W003"]).at("W003", 5, Some(5)));
    v.push(a22.spec().ok(&[]));
    v
}

// --- B. YAML dialect --------------------------------------------------------------------------

fn section_b() -> Vec<Case> {
    let mut v = Vec::new();

    let b01 = row(
        "B01",
        "s",
        fm(
            "name: s\ndescription: d\nmetadata: {\"openclaw\":{\"emoji\":\"x\",\"requires\":{\"bins\":[\"uv\"]}}}\n",
        ),
    );
    v.push(
        b01.load()
            .ok(&[])
            .metadata(r#"{"openclaw":{"emoji":"x","requires":{"bins":["uv"]}}}"#),
    );
    v.push(b01.validate().ok(&[]));
    // Then E07 applies: nested metadata is a spec warning.
    v.push(b01.spec().ok(&["W126"]));

    let b02 = row(
        "B02",
        "s",
        fm("name: s\ndescription: d\nrequires:\n  mcp: [rube]\n"),
    );
    v.push(b02.load().ok(&[]).extra("requires", r#"{"mcp":["rube"]}"#));
    // F01: `requires` is an unknown field; `validate` says so (issue 15), loading does not.
    v.push(b02.validate().ok(&["W118"]));
    v.push(b02.spec().err(&["E127"]).msg(
        "E127",
        &format!("Unexpected fields in frontmatter: requires. {ONLY}"),
    ));

    let b03 = row(
        "B03",
        "s",
        fm("name: s\ndescription: first\ndescription: second\n"),
    );
    v.push(b03.load().err(&["E022"]).at("E022", 4, None));
    v.push(b03.validate().err(&["E022"]));
    v.push(
        b03.spec()
            .err(&["E022"])
            .msg_contains("E022", "Invalid YAML in frontmatter: "),
    );

    let b04 = row("B04", "s", fm("name: &n s\ndescription: *n\n"));
    v.push(b04.load().ok(&[]).name("s").description("s"));
    v.push(b04.validate().ok(&[]).description("s"));

    let b05 = row("B05", "s", fm("name: s\ndescription: !!str d\n"));
    v.push(b05.load().ok(&[]).description("d"));
    v.push(b05.validate().ok(&[]));
    let b05b = row("B05b", "s", fm("name: s\ndescription: !custom d\n"));
    v.push(b05b.load().err(&["E020"]));
    v.push(b05b.validate().err(&["E020"]));

    let b06 = row(
        "B06",
        "s",
        fm("name: s\ndescription: d\nmetadata:\n\tauthor: me\n"),
    );
    v.push(b06.load().err(&["E020"]));
    v.push(
        b06.spec()
            .err(&["E020"])
            .msg_contains("E020", "Invalid YAML in frontmatter: "),
    );

    // Recovered by re-quoting when loading; an error in validate.
    let b07 = row(
        "B07",
        "s",
        fm("name: s\ndescription: Use this skill when: the user asks about PDFs\n"),
    );
    v.push(
        b07.load()
            .ok(&["W025"])
            .description("Use this skill when: the user asks about PDFs")
            .at("W025", 3, None),
    );
    v.push(b07.validate().err(&["E025"]).at("E025", 3, None));
    v.push(b07.strict().err(&["E025"]));
    v.push(b07.spec().err(&["E025"]));

    // The B07 fallback with CRLF, with an apostrophe, on two lines, and next to a real
    // syntax error (which it must not hide).
    let b07b = row(
        "B07b",
        "s",
        "---\r\nname: s\r\ndescription: Use when: asked\r\n---\r\nBody\r\n",
    );
    v.push(b07b.load().ok(&["W025"]).description("Use when: asked"));
    let b07c = row(
        "B07c",
        "s",
        fm("name: s\ndescription: Don't use when: bored\n"),
    );
    v.push(
        b07c.load()
            .ok(&["W025"])
            .description("Don't use when: bored"),
    );
    let b07d = row(
        "B07d",
        "s",
        fm("name: s\ndescription: Use when: asked\ncompatibility: Needs: uv\n"),
    );
    v.push(
        b07d.load()
            .ok(&["W025", "W025"])
            .compatibility(Some("Needs: uv")),
    );
    let b07e = row(
        "B07e",
        "s",
        fm("name: s\ndescription: Use when: asked\nmetadata:\n\tx: y\n"),
    );
    v.push(b07e.load().err(&["E020"]));

    // A mapping key that is not a string.
    let b18 = row("B18", "s", fm("name: s\ndescription: d\n[a, b]: x\n"));
    v.push(b18.load().err(&["E026"]));

    let b08 = row(
        "B08",
        "s",
        fm("name: s\ndescription: \"Use this skill when: the user asks\"\n"),
    );
    v.push(
        b08.load()
            .ok(&[])
            .description("Use this skill when: the user asks"),
    );
    v.push(b08.spec().ok(&[]));

    let b09 = row(
        "B09",
        "s",
        fm("name: s\ndescription: Formats C# code #fast\n"),
    );
    v.push(b09.load().ok(&[]).description("Formats C# code"));
    v.push(b09.validate().ok(&[]).description("Formats C# code"));

    let b10 = row(
        "B10",
        "s",
        fm("# leading comment\nname: s  # trailing\ndescription: d\n"),
    );
    v.push(b10.load().ok(&[]).name("s").declared_name(None));
    v.push(b10.validate().ok(&[]).name("s"));

    let b11 = row("B11", "123", fm("name: 123\ndescription: d\n"));
    v.push(b11.load().ok(&[]).name("123"));
    v.push(b11.validate().ok(&[]).name("123"));
    v.push(b11.spec().ok(&[]));

    let b12 = row("B12", "yes", fm("name: yes\ndescription: d\n"));
    v.push(b12.load().ok(&[]).name("yes"));
    v.push(b12.validate().ok(&[]).name("yes"));

    // Core-schema null means "no value": the directory name is used when loading.
    let b13 = row("B13", "null", fm("name: null\ndescription: d\n"));
    v.push(b13.load().ok(&["W105"]).name("null"));
    v.push(b13.validate().err(&["E105"]));
    v.push(
        b13.spec()
            .err(&["E105"])
            .msg("E105", "Field 'name' must be a non-empty string"),
    );
    let b13b = row("B13b", "tilde", fm("name: ~\ndescription: d\n"));
    v.push(b13b.load().ok(&["W105"]).name("tilde"));
    v.push(b13b.validate().err(&["E105"]));

    let b14 = row(
        "B14",
        "s",
        fm("name: s\ndescription: d\nmetadata:\n  version: 1.10\n"),
    );
    v.push(b14.load().ok(&[]).metadata(r#"{"version":"1.10"}"#));
    v.push(b14.spec().ok(&[]).metadata(r#"{"version":"1.10"}"#));

    let b15 = row("B15", "s", fm("name: s\ndescription: 'It''s fine'\n"));
    v.push(b15.load().ok(&[]).description("It's fine"));

    let b16 = row(
        "B16",
        "s",
        fm("name: s\ndescription: \"caf\\u00e9 \\t tab\"\n"),
    );
    v.push(b16.load().ok(&[]).description("café \t tab"));

    // A literal block: `multi⏎line⏎`. Loading falls back to the directory name.
    let b17 = row(
        "B17",
        "multi",
        fm("name: |\n  multi\n  line\ndescription: d\n"),
    );
    v.push(
        b17.load()
            .ok(&["W101", "W103", "W106"])
            .name("multi")
            .declared_name(Some("multi\nline\n")),
    );
    v.push(b17.validate().err(&["E101", "W103", "W106"]));
    v.push(
        b17.spec()
            .err(&["E101", "E103"])
            .msg(
                "E101",
                "Skill name 'multi\nline' contains invalid characters. Only letters, digits, and hyphens are allowed.",
            )
            .msg("E103", "Directory name 'multi' must match skill name 'multi\nline'"),
    );
    v
}

// --- C. name ----------------------------------------------------------------------------------

fn section_c() -> Vec<Case> {
    let mut v = Vec::new();
    let named = |id: &str, dir: &str, name: &str| {
        row(id, dir, fm(&format!("name: {name}\ndescription: d\n")))
    };

    // Directory named like the (invalid) name: loading has no valid id to fall back to.
    let c01 = named("C01", "PDF-Processing", "PDF-Processing");
    v.push(c01.load().err(&["W101", "E108"]));
    v.push(c01.validate().err(&["E101"]));
    v.push(
        c01.spec()
            .err(&["E101"])
            .msg("E101", "Skill name 'PDF-Processing' must be lowercase"),
    );
    // In a valid directory, loading falls back to the directory name.
    let c01b = named("C01b", "pdf-processing", "PDF-Processing");
    v.push(
        c01b.load()
            .ok(&["W101", "W103"])
            .name("pdf-processing")
            .declared_name(Some("PDF-Processing")),
    );
    v.push(c01b.validate().err(&["E101", "W103"]));

    // Lenient: warn, load (Claude Code and Codex load these names, so weft's default profile
    // does too, under the name as written); the spec profile rejects them.
    for (id, name) in [("C02", "-pdf"), ("C03", "pdf-")] {
        let r = named(id, name, name);
        v.push(r.load().ok(&["W109"]).name(name));
        v.push(r.validate().ok(&["W109"]));
        v.push(
            r.spec()
                .err(&["E101"])
                .msg("E101", "Skill name cannot start or end with a hyphen"),
        );
        let lenient = named(&format!("{id}b"), "pdf", name);
        v.push(lenient.load().ok(&["W109", "W103"]).name("pdf"));
    }

    let c04 = named("C04", "pdf--processing", "pdf--processing");
    v.push(c04.validate().err(&["E101"]));
    v.push(
        c04.spec()
            .err(&["E101"])
            .msg("E101", "Skill name cannot contain consecutive hyphens"),
    );
    let c04b = named("C04b", "pdf-processing", "pdf--processing");
    v.push(c04b.load().ok(&["W101", "W103"]).name("pdf-processing"));

    let c05 = named("C05", "pdf_processing", "pdf_processing");
    v.push(c05.load().ok(&["W109"]).name("pdf_processing"));
    v.push(c05.validate().ok(&["W109"]));
    v.push(c05.spec().err(&["E101"]).msg(
        "E101",
        "Skill name 'pdf_processing' contains invalid characters. Only letters, digits, and hyphens are allowed.",
    ));

    // Errors accumulate (Composio `ahrefs-automation`: four under spec).
    let c06 = row(
        "C06",
        "ahrefs-automation",
        fm("name: Ahrefs Automation\ndescription: d\nrequires:\n  mcp: [rube]\n"),
    );
    v.push(
        c06.load()
            .ok(&["W101", "W101", "W103"])
            .name("ahrefs-automation")
            .declared_name(Some("Ahrefs Automation")),
    );
    v.push(c06.validate().err(&["E101", "E101", "W103", "W118"]));
    v.push(
        c06.spec()
            .err(&["E101", "E101", "E103", "E127"])
            .msg(
                "E127",
                &format!("Unexpected fields in frontmatter: requires. {ONLY}"),
            )
            .msg("E101", "Skill name 'Ahrefs Automation' must be lowercase")
            .msg(
                "E101",
                "Skill name 'Ahrefs Automation' contains invalid characters. Only letters, digits, and hyphens are allowed.",
            )
            .msg(
                "E103",
                "Directory name 'ahrefs-automation' must match skill name 'Ahrefs Automation'",
            ),
    );
    let c06b = named("C06b", "pdf-processing", "pdf processing");
    v.push(c06b.load().ok(&["W101", "W103"]).name("pdf-processing"));

    // `pdf.v2/` is also an unsafe directory name (SEC-SKILL-02).
    let c07 = named("C07", "pdf.v2", "pdf.v2");
    v.push(c07.validate().err(&["E101", "E107"]));
    v.push(
        c07.spec()
            .err(&["E101"])
            .msg_contains("E101", "contains invalid characters"),
    );
    let c07b = named("C07b", "pdf-v2", "pdf.v2");
    v.push(c07b.load().ok(&["W101", "W103"]).name("pdf-v2"));

    let a64 = "a".repeat(64);
    let c08 = named("C08", &a64, &a64);
    v.extend(every_profile(&c08, |c| c.ok(&[]).name(&"a".repeat(64))));

    let a65 = "a".repeat(65);
    let c09 = named("C09", &a65, &a65);
    // DESIGN 3.4: the directory name is not valid either, so the skill is excluded.
    v.push(c09.load().err(&["W101", "E108"]));
    v.push(c09.validate().err(&["E101"]));
    v.push(c09.spec().err(&["E101"]).msg(
        "E101",
        &format!("Skill name '{a65}' exceeds 64 character limit (65 chars)"),
    ));
    let c09b = named("C09b", "long", &a65);
    v.push(c09b.load().ok(&["W101", "W103"]).name("long"));

    // ASCII reading in weft's profiles, the reference reading (Unicode, NFKC) under spec.
    let cyr = "а".repeat(64);
    let c10 = named("C10", &cyr, &cyr);
    v.push(c10.validate().err(&["E101", "E107"]));
    v.push(c10.spec().ok(&[]));

    let c11 = named("C11", "技能", "技能");
    v.push(c11.validate().err(&["E101", "E107"]));
    v.push(c11.spec().ok(&[]));

    let c12 = named("C12", "НАВЫК", "НАВЫК");
    v.push(c12.validate().err(&["E101", "E107"]));
    v.push(
        c12.spec()
            .err(&["E101"])
            .msg("E101", "Skill name 'НАВЫК' must be lowercase"),
    );

    // NFKC-equal directory and name; the skill publishes the normalised form.
    let c13 = named("C13", "caf\u{e9}", "cafe\u{301}");
    v.push(c13.spec().ok(&[]).name("caf\u{e9}"));

    // Validate one string, publish the same one: `ｐｄｆ` is stored as `pdf`.
    let c14 = named("C14", "pdf", "ｐｄｆ");
    v.push(c14.spec().ok(&[]).name("pdf"));
    v.push(
        c14.load()
            .ok(&["W101", "W103"])
            .name("pdf")
            .declared_name(Some("ｐｄｆ")),
    );

    let decomposed = "e\u{301}".repeat(33);
    let c15 = named("C15", &decomposed, &decomposed);
    v.push(c15.spec().ok(&[]));

    let c16 = named("C16", "pdf-🚀", "pdf-🚀");
    v.push(c16.spec().err(&["E101"]).msg(
        "E101",
        "Skill name 'pdf-🚀' contains invalid characters. Only letters, digits, and hyphens are allowed.",
    ));
    let c16b = named("C16b", "pdf", "pdf-🚀");
    v.push(c16b.load().ok(&["W101", "W103"]).name("pdf"));
    v.push(c16b.validate().err(&["E101", "W103"]));

    // DESIGN 3.4: a name differing from its directory is a warning (an error under spec).
    let c17 = named("C17", "pdf", "pdf-processing");
    v.push(c17.load().ok(&["W103"]).name("pdf-processing"));
    v.push(c17.validate().ok(&["W103"]).name("pdf-processing"));
    v.push(c17.strict().ok(&["W103"]));
    v.push(c17.spec().err(&["E103"]).msg(
        "E103",
        "Directory name 'pdf' must match skill name 'pdf-processing'",
    ));

    let c18 = named("C18", "PDF", "pdf");
    v.push(c18.load().ok(&["W103"]).name("pdf"));
    v.push(
        c18.spec()
            .err(&["E103"])
            .msg("E103", "Directory name 'PDF' must match skill name 'pdf'"),
    );

    let c19 = named("C19", "pdf", "\"  pdf  \"");
    v.push(
        c19.load()
            .ok(&["W106"])
            .name("pdf")
            .declared_name(Some("  pdf  ")),
    );
    v.push(c19.validate().ok(&["W106"]).name("pdf"));
    v.push(c19.spec().ok(&[]).name("pdf"));

    let c20 = row("C20", "pdf", fm("description: d\n"));
    v.push(c20.load().ok(&[]).name("pdf").declared_name(None));
    v.push(c20.validate().ok(&["W104"]).name("pdf"));
    v.push(c20.strict().err(&["E104"]));
    v.push(
        c20.spec()
            .err(&["E104"])
            .msg("E104", "Missing required field in frontmatter: name"),
    );

    let c21 = named("C21", "pdf", "\"\"");
    v.push(c21.load().ok(&["W105"]).name("pdf"));
    v.push(c21.validate().err(&["E105"]));
    v.push(
        c21.spec()
            .err(&["E105"])
            .msg("E105", "Field 'name' must be a non-empty string"),
    );
    let c21b = row("C21b", "pdf", fm("name:\ndescription: d\n"));
    v.push(c21b.load().ok(&["W105"]).name("pdf"));
    v.push(
        c21b.spec()
            .err(&["E105"])
            .msg("E105", "Field 'name' must be a non-empty string"),
    );

    let c22 = row("C22", "s", fm("Name: s\ndescription: d\n"));
    v.push(c22.load().ok(&[]).name("s").extra("Name", r#""s""#));
    v.push(c22.validate().ok(&["W104", "W118"]).name("s"));
    v.push(
        c22.spec()
            .err(&["E104", "E127"])
            .msg(
                "E127",
                &format!("Unexpected fields in frontmatter: Name. {ONLY}"),
            )
            .msg("E104", "Missing required field in frontmatter: name"),
    );

    // Reserved words: a warning, an error only under --strict, not a spec rule.
    let c23 = named("C23", "claude-helper", "claude-helper");
    v.push(c23.load().ok(&["W102"]).name("claude-helper"));
    v.push(c23.validate().ok(&["W102"]));
    v.push(c23.strict().err(&["E102"]));
    v.push(c23.spec().ok(&[]));
    v
}

// --- D. description ---------------------------------------------------------------------------

fn section_d() -> Vec<Case> {
    let mut v = Vec::new();
    let described =
        |id: &str, value: &str| row(id, "s", fm(&format!("name: s\ndescription: {value}\n")));

    // The wrapper's body is only a heading: nothing to take a description from.
    let d01 = row("D01", "s", fm("name: s\n"));
    v.push(d01.load().err(&["E110"]));
    v.push(d01.validate().err(&["E110"]));
    v.push(
        d01.spec()
            .err(&["E110"])
            .msg("E110", "Missing required field in frontmatter: description"),
    );
    // DESIGN 3.1: with a body paragraph, the description defaults to it.
    let d01b = row(
        "D01b",
        "s",
        "---\nname: s\n---\n# Title\n\nFirst paragraph\nhere.\n",
    );
    v.push(
        d01b.load()
            .ok(&[])
            .description("First paragraph here.")
            .description_source(DescriptionSource::FirstParagraph),
    );
    v.push(d01b.validate().ok(&["W113"]));
    v.push(d01b.strict().err(&["E113"]));
    v.push(
        d01b.spec()
            .err(&["E113"])
            .msg("E113", "Missing required field in frontmatter: description"),
    );

    let d02 = described("D02", "'   '");
    v.push(d02.load().err(&["E110"]));
    v.push(
        d02.spec()
            .err(&["E110"])
            .msg("E110", "Field 'description' must be a non-empty string"),
    );

    let d03 = described("D03", &"x".repeat(1024));
    v.extend(every_profile(&d03, |c| c.ok(&[]).description_chars(1024)));

    let d04 = described("D04", &"x".repeat(1025));
    v.push(d04.load().ok(&["W111"]).description_chars(1025));
    v.push(d04.validate().ok(&["W111"]));
    v.push(d04.strict().err(&["E111"]));
    v.push(d04.spec().err(&["E111"]).msg(
        "E111",
        "Description exceeds 1024 character limit (1025 chars)",
    ));

    // `|` keeps the final newline: 1,025 characters as parsed (as the reference measures).
    let d05 = described("D05", &format!("|\n  {}", "x".repeat(1024)));
    v.push(d05.load().ok(&["W111"]));
    v.push(d05.spec().err(&["E111"]).msg(
        "E111",
        "Description exceeds 1024 character limit (1025 chars)",
    ));

    let d06 = described("D06", &format!("|-\n  {}", "x".repeat(1024)));
    v.push(d06.strict().ok(&[]).description_chars(1024));
    v.push(d06.spec().ok(&[]));

    // Characters, not bytes.
    let d07 = described("D07", &"💡".repeat(1024));
    v.push(d07.strict().ok(&[]).description_chars(1024));
    v.push(d07.spec().ok(&[]));

    let d08 = described("D08", ">\n  Line one\n  line two.\n\n  Para two.");
    v.push(
        d08.load()
            .ok(&[])
            .description("Line one line two.\nPara two."),
    );

    let d09 = described("D09", "First part\n  continues here");
    v.push(d09.load().ok(&[]).description("First part continues here"));
    v.push(d09.spec().ok(&[]));

    // Three `|-` lines, 1,068 characters in all (Anthropic's `claude-api`).
    let d10 = described(
        "D10",
        &format!(
            "|-\n  {}\n  {}\n  {}",
            "a".repeat(355),
            "b".repeat(356),
            "c".repeat(355)
        ),
    );
    v.push(d10.load().ok(&["W111"]).description_chars(1068));
    v.push(d10.spec().err(&["E111"]).msg(
        "E111",
        "Description exceeds 1024 character limit (1068 chars)",
    ));

    let d11 = described("D11", "\"Use <foo> & <bar> tags\"");
    v.push(d11.load().ok(&[]).description("Use <foo> & <bar> tags"));
    v.push(d11.spec().ok(&[]));

    let d12 = described("D12", "\n  - a\n  - b");
    v.push(d12.load().err(&["E112"]));
    v.push(
        d12.spec()
            .err(&["E112"])
            .msg("E112", "Field 'description' must be a non-empty string"),
    );

    let d13 = described("D13", "42");
    v.push(d13.load().ok(&[]).description("42"));
    v.push(d13.spec().ok(&[]));

    // A long `when_to_use` is not a parse error (catalogs truncate it).
    let d14 = row(
        "D14",
        "s",
        fm(&format!(
            "name: s\ndescription: d\nwhen_to_use: {}\n",
            "w".repeat(1600)
        )),
    );
    v.push(d14.load().ok(&[]).when_to_use_chars(1600));
    v.push(d14.strict().ok(&[]));
    v
}

// --- E. Optional spec fields ------------------------------------------------------------------

fn section_e() -> Vec<Case> {
    let mut v = Vec::new();
    let with = |id: &str, keys: &str| row(id, "s", fm(&format!("name: s\ndescription: d\n{keys}")));

    let e01 = row(
        "E01",
        "pdf-processing",
        fm(
            "name: pdf-processing\ndescription: Extract PDF text.\nlicense: Apache-2.0\ncompatibility: Requires Python 3.14+ and uv\nmetadata:\n  author: example-org\n  version: \"1.0\"\nallowed-tools: Bash(git:*) Bash(jq:*) Read\n",
        ),
    );
    v.extend(every_profile(&e01, |c| {
        c.ok(&[])
            .license(Some("Apache-2.0"))
            .compatibility(Some("Requires Python 3.14+ and uv"))
            .metadata(r#"{"author":"example-org","version":"1.0"}"#)
            .allow(Some(&["Bash(git:*)", "Bash(jq:*)", "Read"]))
    }));

    let e02 = with("E02", "compatibility: \"\"\n");
    v.push(e02.load().ok(&[]).compatibility(None));
    v.push(e02.validate().ok(&["W122"]));
    v.push(e02.spec().err(&["E122"]));

    let e03 = with("E03", &format!("compatibility: {}\n", "c".repeat(500)));
    v.push(e03.spec().ok(&[]));
    v.push(e03.strict().ok(&[]));
    let e03b = with("E03b", &format!("compatibility: {}\n", "c".repeat(501)));
    v.push(
        e03b.load()
            .ok(&["W120"])
            .compatibility(Some(&"c".repeat(501))),
    );
    v.push(e03b.validate().ok(&["W120"]));
    v.push(e03b.strict().ok(&["W120"]));
    v.push(e03b.spec().err(&["E120"]).msg(
        "E120",
        "Compatibility exceeds 500 character limit (501 chars)",
    ));

    let e04 = with("E04", "compatibility:\n  - claude-code\n");
    v.push(e04.load().ok(&["W121"]).compatibility(None));
    v.push(e04.validate().ok(&["W121"]));
    v.push(e04.strict().err(&["E121"]));
    v.push(
        e04.spec()
            .err(&["E121"])
            .msg("E121", "Field 'compatibility' must be a string"),
    );

    let e05 = with("E05", "license:\n  - MIT\n");
    v.push(e05.load().ok(&["W123"]).license(None));
    v.push(e05.strict().err(&["E123"]));
    v.push(e05.spec().ok(&[]));

    let e06 = with("E06", "metadata:\n  version: 1.0\n  stable: true\n");
    v.push(
        e06.load()
            .ok(&[])
            .metadata(r#"{"version":"1.0","stable":"true"}"#),
    );
    v.push(e06.spec().ok(&[]));

    // Nested metadata is kept structured (never a language-specific repr).
    let e07 = with(
        "E07",
        "metadata:\n  openclaw:\n    requires:\n      bins:\n        - uv\n",
    );
    v.push(
        e07.load()
            .ok(&[])
            .metadata(r#"{"openclaw":{"requires":{"bins":["uv"]}}}"#),
    );
    v.push(e07.validate().ok(&[]));
    v.push(e07.strict().ok(&[]));
    v.push(
        e07.spec()
            .ok(&["W126"])
            .metadata(r#"{"openclaw":{"requires":{"bins":["uv"]}}}"#),
    );

    let e08 = with("E08", "metadata: author=me\n");
    v.push(e08.load().ok(&["W124"]).metadata("null"));
    v.push(e08.validate().ok(&["W124"]));
    v.push(e08.strict().err(&["E124"]));
    v.push(e08.spec().ok(&[]));

    let e09 = with("E09", "metadata:\n");
    v.extend(every_profile(&e09, |c| c.ok(&[]).metadata("null")));

    let e10 = with("E10", "allowed-tools:\n  - Read\n  - Bash(git:*)\n");
    v.push(e10.load().ok(&[]).allow(Some(&["Read", "Bash(git:*)"])));
    v.push(e10.validate().ok(&[]));
    v.push(e10.spec().ok(&["W133"]));

    let e11 = with("E11", "allowed-tools: Read, Grep, Bash(git status:*)\n");
    v.push(
        e11.load()
            .ok(&[])
            .allow(Some(&["Read", "Grep", "Bash(git status:*)"])),
    );
    v.push(e11.spec().ok(&[]));

    let e12 = with(
        "E12",
        "allowed-tools: Bash(git add *) Bash(git commit *) Read\n",
    );
    v.push(
        e12.load()
            .ok(&[])
            .allow(Some(&["Bash(git add *)", "Bash(git commit *)", "Read"])),
    );

    // Patterns are kept as written; their meaning is weft-permissions' business.
    let e13 = with(
        "E13",
        "allowed-tools: Bash(git:*) Bash(git *) Bash(git:* push)\n",
    );
    v.push(
        e13.load()
            .ok(&[])
            .allow(Some(&["Bash(git:*)", "Bash(git *)", "Bash(git:* push)"])),
    );

    let e14 = with(
        "E14",
        "allowed-tools: Bash(${CLAUDE_SKILL_DIR}/scripts/render.sh *)\n",
    );
    v.push(
        e14.load()
            .ok(&[])
            .allow(Some(&["Bash(${CLAUDE_SKILL_DIR}/scripts/render.sh *)"])),
    );

    // Present and empty: zero tools, with a warning.
    let e15 = with("E15", "allowed-tools:\n");
    v.push(e15.load().ok(&["W131"]).allow(Some(&[])));
    v.push(e15.validate().ok(&["W131"]).allow(Some(&[])));
    v.push(e15.strict().ok(&["W131"]));
    v.push(e15.spec().ok(&[]));
    let e15b = with("E15b", "allowed-tools: \"\"\n");
    v.push(e15b.load().ok(&["W131"]).allow(Some(&[])));

    // Extra tool-list rows: a list that cannot be trusted is an error even when loading (an
    // unrestricted reading would grant too much); overlap with forbidden-tools (deny wins);
    // the snake_case spelling.
    let e17 = with("E17", "allowed-tools: Read Bash(git\n");
    v.push(e17.load().err(&["E132"]));
    let e18 = with("E18", "allowed-tools:\n  Read: true\n");
    v.push(e18.load().err(&["E130"]));
    let e19 = with("E19", "allowed-tools: Read Write\nforbidden-tools: Write\n");
    v.push(
        e19.load()
            .ok(&["W134"])
            .allow(Some(&["Read", "Write"]))
            .deny(&["Write"]),
    );
    let e20 = with("E20", "allowed_tools: [Read, Grep]\n");
    v.push(e20.load().ok(&[]).allow(Some(&["Read", "Grep"])));
    let e21 = with("E21", "allowed-tools: Read\nallowed_tools: Write\n");
    v.push(e21.load().err(&["E024"]));

    let e16 = with("E16", "allowed-tools: mcp__github__* Read\n");
    v.push(e16.load().ok(&[]).allow(Some(&["mcp__github__*", "Read"])));
    v
}

// --- F. Unknown and client-specific fields ----------------------------------------------------

fn section_f() -> Vec<Case> {
    let mut v = Vec::new();
    let with = |id: &str, keys: &str| row(id, "s", fm(&format!("name: s\ndescription: d\n{keys}")));

    let f01 = with("F01", "version: 1.0.0\n");
    v.push(f01.load().ok(&[]).version(Some("1.0.0")));
    v.push(f01.validate().ok(&[]));
    v.push(f01.strict().ok(&[]));
    v.push(f01.spec().err(&["E127"]).msg(
        "E127",
        &format!("Unexpected fields in frontmatter: version. {ONLY}"),
    ));

    let f02 = with(
        "F02",
        "disable-model-invocation: true\nuser-invocable: false\ncontext: fork\nagent: Explore\nargument-hint: \"[file]\"\nmodel: sonnet\n",
    );
    v.push(
        f02.load()
            .ok(&[])
            .disable_model_invocation(true)
            .user_invocable(false)
            .context(SkillContext::Fork)
            .agent(Some("Explore"))
            .argument_hint(Some("[file]"))
            .model(Some("sonnet")),
    );
    v.push(f02.validate().ok(&[]));
    v.push(f02.strict().ok(&[]));
    v.push(f02.spec().err(&["E127"]).msg(
        "E127",
        &format!("Unexpected fields in frontmatter: agent, argument-hint, context, disable-model-invocation, model, user-invocable. {ONLY}"),
    ));

    let f03 = with("F03", "metadata.openclaw:\n  a: b\n");
    v.push(
        f03.load()
            .ok(&[])
            .metadata("null")
            .extra("metadata.openclaw", r#"{"a":"b"}"#),
    );
    v.push(f03.spec().err(&["E127"]).msg(
        "E127",
        &format!("Unexpected fields in frontmatter: metadata.openclaw. {ONLY}"),
    ));

    // Claude Code's boolean spellings.
    for (id, text, value) in [
        ("F04a", "yes", true),
        ("F04b", "On", true),
        ("F04c", "1", true),
        ("F04d", "no", false),
        ("F04e", "OFF", false),
    ] {
        let r = with(id, &format!("disable-model-invocation: {text}\n"));
        v.push(r.load().ok(&[]).disable_model_invocation(value));
        v.push(r.validate().ok(&[]).disable_model_invocation(value));
    }
    let f04f = with("F04f", "disable-model-invocation: maybe\n");
    v.push(f04f.load().ok(&["W140"]).disable_model_invocation(false));
    v.push(f04f.validate().err(&["E140"]));

    let f05 = with("F05", "disable-model-invocation: true\n");
    v.push(
        f05.load()
            .ok(&[])
            .disable_model_invocation(true)
            .user_invocable(true),
    );

    let f06 = with("F06", "user-invocable: false\n");
    v.push(
        f06.load()
            .ok(&[])
            .user_invocable(false)
            .disable_model_invocation(false),
    );

    // The `general-purpose` default agent is chosen when the fork runs, not by the parser.
    let f07 = with("F07", "context: fork\n");
    v.push(f07.load().ok(&[]).context(SkillContext::Fork).agent(None));

    let f08 = with("F08", "tools:\n  - Read\n");
    v.push(f08.load().ok(&[]).allow(None).extra("tools", r#"["Read"]"#));
    v.push(
        f08.validate()
            .ok(&["W128"])
            .msg_contains("W128", "allowed-tools"),
    );
    v.push(f08.spec().err(&["E127"]).msg(
        "E127",
        &format!("Unexpected fields in frontmatter: tools. {ONLY}"),
    ));

    // Extra rows for DESIGN 3.1 keys: snake_case spellings, bad values, keywords, version text.
    let f11 = with(
        "F11",
        "disable_model_invocation: true\nuser_invocable: false\nargument_hint: \"[x]\"\n",
    );
    v.push(
        f11.load()
            .ok(&[])
            .disable_model_invocation(true)
            .user_invocable(false)
            .argument_hint(Some("[x]")),
    );
    let f12 = with("F12", "context: sideways\n");
    v.push(f12.load().ok(&["W141"]).context(SkillContext::Inline));
    v.push(f12.validate().err(&["E141"]));
    let f13 = with("F13", "model: gpt-4o\n");
    v.push(f13.load().ok(&["W142"]).model(Some("gpt-4o")));
    let f13b = with("F13b", "model: openai/gpt-4o\n");
    v.push(f13b.validate().ok(&[]).model(Some("openai/gpt-4o")));
    let f14 = with("F14", "keywords: [PDF, Extract]\n");
    v.push(f14.load().ok(&[]).check("keywords", |p| {
        let k = &p.skill.as_ref().ok_or("no skill")?.keywords;
        if k == &["pdf", "extract"] {
            Ok(())
        } else {
            Err(format!(
                "keywords: expected [\"pdf\", \"extract\"], got {k:?}"
            ))
        }
    }));
    let f15 = with("F15", "version: 1.10\n");
    v.push(f15.load().ok(&[]).version(Some("1.10")));
    // The spec profile knows only the kebab-case spec keys.
    let f17 = with("F17", "allowed_tools: Read\n");
    v.push(f17.spec().err(&["E127"]).msg(
        "E127",
        &format!("Unexpected fields in frontmatter: allowed_tools. {ONLY}"),
    ));
    let f16 = with("F16", "user-invocable: false\nuser_invocable: true\n");
    v.push(f16.load().err(&["E024"]));

    // The parser keeps bodies verbatim; substitution and `!`cmd`` belong to weft-template.
    let f09 = row(
        "F09",
        "s",
        "---\nname: s\ndescription: d\n---\nDeploy $ARGUMENTS to $0, not \\$1.\n",
    );
    v.push(
        f09.load()
            .ok(&[])
            .body(Some("Deploy $ARGUMENTS to $0, not \\$1.")),
    );
    let f10 = row(
        "F10",
        "s",
        "---\nname: s\ndescription: d\n---\nKEY=!`cmd`\n- diff: !`git diff`\n",
    );
    v.push(
        f10.load()
            .ok(&[])
            .body(Some("KEY=!`cmd`\n- diff: !`git diff`")),
    );
    v
}

#[test]
fn section_a_framing_and_encoding() {
    run(section_a());
}

#[test]
fn section_b_yaml_dialect() {
    run(section_b());
}

#[test]
fn section_c_name() {
    run(section_c());
}

#[test]
fn section_d_description() {
    run(section_d());
}

#[test]
fn section_e_optional_fields() {
    run(section_e());
}

#[test]
fn section_f_client_fields() {
    run(section_f());
}

#[test]
fn table_covers_every_section() {
    let all: Vec<Case> = [
        section_a(),
        section_b(),
        section_c(),
        section_d(),
        section_e(),
        section_f(),
    ]
    .into_iter()
    .flatten()
    .collect();
    let rows: std::collections::BTreeSet<String> = all
        .iter()
        .map(|c| c.id.split('/').next().unwrap_or("").to_owned())
        .collect();
    // The base CONFORMANCE IDs (`C01b` is an extra variant of `C01`).
    let base: std::collections::BTreeSet<&str> = rows
        .iter()
        .map(|r| r.trim_end_matches(|c: char| c.is_ascii_lowercase()))
        .collect();
    println!(
        "{} cases, {} rows, {} CONFORMANCE IDs (+ {} agent cases)",
        all.len(),
        rows.len(),
        base.len(),
        section_i().len()
    );
    assert!(base.len() >= 60, "only {} CONFORMANCE rows", base.len());
    assert!(all.len() >= 150, "only {} cases", all.len());
}

// --- I. Subagent files ------------------------------------------------------------------------

type AgentCheck = Box<dyn Fn(&AgentDefinition) -> Result<(), String>>;

struct AgentCase {
    id: &'static str,
    text: Vec<u8>,
    profile: Profile,
    valid: bool,
    codes: &'static [&'static str],
    check: AgentCheck,
}

fn agent_case(
    id: &'static str,
    keys: &str,
    profile: Profile,
    valid: bool,
    codes: &'static [&'static str],
    check: impl Fn(&AgentDefinition) -> Result<(), String> + 'static,
) -> AgentCase {
    agent_file(
        id,
        format!(
            "---\nname: code-reviewer\ndescription: Reviews code\n{keys}---\nYou are a reviewer.\n"
        ),
        profile,
        valid,
        codes,
        check,
    )
}

/// A case with the whole file given.
fn agent_file(
    id: &'static str,
    text: impl Into<Vec<u8>>,
    profile: Profile,
    valid: bool,
    codes: &'static [&'static str],
    check: impl Fn(&AgentDefinition) -> Result<(), String> + 'static,
) -> AgentCase {
    AgentCase {
        id,
        text: text.into(),
        profile,
        valid,
        codes,
        check: Box::new(check),
    }
}

fn eq<T: PartialEq + std::fmt::Debug>(what: &str, actual: T, expected: T) -> Result<(), String> {
    if actual == expected {
        Ok(())
    } else {
        Err(format!("{what}: expected {expected:?}, got {actual:?}"))
    }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

fn parse_reviewer(bytes: &[u8], profile: Profile) -> ParsedAgent {
    parse_agent(
        bytes,
        Path::new(".claude/agents/reviewer.md"),
        &ParseOptions::new(profile),
    )
}

fn section_i() -> Vec<AgentCase> {
    use Profile::{Load, Strict, Validate};
    vec![
        // The file name need not match the name; the body is the system prompt.
        agent_case("I01/load", "", Load, true, &[], |a| {
            eq("name", a.name.as_str(), "code-reviewer")?;
            eq("description", a.description.as_str(), "Reviews code")?;
            eq(
                "system_prompt",
                a.system_prompt.as_deref(),
                Some("You are a reviewer."),
            )
        }),
        agent_case("I01/strict", "", Strict, true, &[], |a| {
            eq("name", a.name.as_str(), "code-reviewer")
        }),
        agent_case(
            "I02/load",
            "tools: Read, Grep, Glob\n",
            Load,
            true,
            &[],
            |a| {
                eq(
                    "tools",
                    a.tools.clone(),
                    Some(strings(&["Read", "Grep", "Glob"])),
                )
            },
        ),
        agent_case(
            "I02b/load",
            "tools:\n  - Read\n  - Grep\n  - Glob\n",
            Load,
            true,
            &[],
            |a| {
                eq(
                    "tools",
                    a.tools.clone(),
                    Some(strings(&["Read", "Grep", "Glob"])),
                )
            },
        ),
        agent_case("I03/load", "", Load, true, &[], |a| {
            eq("tools (inherit all)", a.tools.clone(), None)
        }),
        // Both kept; the permission layer removes Write (disallowed first, then tools).
        agent_case(
            "I04/load",
            "tools: Read, Write\ndisallowedTools: Write\n",
            Load,
            true,
            &[],
            |a| {
                eq("tools", a.tools.clone(), Some(strings(&["Read", "Write"])))?;
                eq(
                    "disallowed_tools",
                    a.disallowed_tools.clone(),
                    strings(&["Write"]),
                )
            },
        ),
        agent_case(
            "I05/load",
            "disallowedTools: mcp__github, mcp__*\n",
            Load,
            true,
            &[],
            |a| {
                eq(
                    "disallowed_tools",
                    a.disallowed_tools.clone(),
                    strings(&["mcp__github", "mcp__*"]),
                )
            },
        ),
        agent_case("I06a/load", "", Load, true, &[], |a| {
            eq("model", a.model.as_deref(), None)
        }),
        agent_case("I06b/load", "model: inherit\n", Load, true, &[], |a| {
            eq("model", a.model.as_deref(), Some("inherit"))
        }),
        // A bare Claude model id is accepted as written, without a warning (an Anthropic
        // provider serves it at run time; without one the session's model runs).
        agent_case(
            "I06c/load",
            "model: claude-opus-4-8\n",
            Load,
            true,
            &[],
            |a| eq("model", a.model.as_deref(), Some("claude-opus-4-8")),
        ),
        agent_case(
            "I07a/load",
            "permissionMode: manual\n",
            Load,
            true,
            &[],
            |a| {
                eq(
                    "permission_mode",
                    a.permission_mode.clone(),
                    Some(Ok(PermissionMode::Ask)),
                )
            },
        ),
        agent_case(
            "I07b/validate",
            "permissionMode: acceptEdits\n",
            Validate,
            true,
            &[],
            |a| {
                eq(
                    "permission_mode",
                    a.permission_mode.clone(),
                    Some(Ok(PermissionMode::AcceptEdits)),
                )
            },
        ),
        agent_case(
            "I07c/load",
            "permissionMode: yolo\n",
            Load,
            true,
            &["W174"],
            |a| {
                eq(
                    "permission_mode",
                    a.permission_mode.clone(),
                    Some(Err(UnknownPermissionMode("yolo".to_owned()))),
                )
            },
        ),
        agent_case(
            "I07c/strict",
            "permissionMode: yolo\n",
            Strict,
            false,
            &["E174"],
            |_| Ok(()),
        ),
        // Whether a preloaded skill may be preloaded is decided where skills are known.
        agent_case(
            "I08/load",
            "skills: [api-conventions]\n",
            Load,
            true,
            &[],
            |a| eq("skills", a.skills.clone(), strings(&["api-conventions"])),
        ),
        agent_case(
            "I11/load",
            "tools: Agent(worker, researcher), Read\n",
            Load,
            true,
            &[],
            |a| {
                eq(
                    "tools",
                    a.tools.clone(),
                    Some(strings(&["Agent(worker, researcher)", "Read"])),
                )
            },
        ),
        agent_case(
            "I12a/load",
            "color: magenta\n",
            Load,
            true,
            &["W173"],
            |a| {
                eq(
                    "extra color",
                    a.extra.iter().any(|(k, _)| k == "color"),
                    true,
                )
            },
        ),
        agent_case("I12b/load", "color: cyan\n", Load, true, &[], |_| Ok(())),
        // Extra rows for DESIGN 3.3 agent fields.
        agent_file(
            "I13/load",
            "---\ndescription: Reviews code\n---\nYou are a reviewer.\n",
            Load,
            true,
            &[],
            |a| eq("name from the file name", a.name.as_str(), "reviewer"),
        ),
        agent_file(
            "I13/validate",
            "---\ndescription: Reviews code\n---\nYou are a reviewer.\n",
            Validate,
            true,
            &["W170"],
            |a| eq("name from the file name", a.name.as_str(), "reviewer"),
        ),
        agent_file(
            "I14/load",
            "---\nname: Code Reviewer\ndescription: Reviews code\n---\n",
            Load,
            true,
            &["W177", "W177"],
            |a| eq("name", a.name.as_str(), "Code Reviewer"),
        ),
        agent_file(
            "I14/strict",
            "---\nname: Code Reviewer\ndescription: Reviews code\n---\n",
            Strict,
            false,
            &["E177", "E177"],
            |_| Ok(()),
        ),
        agent_file(
            "I15/load",
            "---\nname: code-reviewer\ndescription: Reviews code\nYou are a reviewer.\n",
            Load,
            false,
            &["E006"],
            |_| Ok(()),
        ),
        // The Context Graph template (seed 000 section 6): no frontmatter.
        agent_file(
            "I16/load",
            "# Reviewer Subagent\n\n## Role\nReviews code.\n\n## Model\nhaiku\n\n## Allowed Tools\n- Read\n- Grep (if applicable)\n- Bash(git:*)\n\n## Constraints\n- Never write.\n",
            Load,
            true,
            &[],
            |a| {
                eq("name", a.name.as_str(), "reviewer")?;
                eq("description", a.description.as_str(), "Reviews code.")?;
                eq("model", a.model.as_deref(), Some("haiku"))?;
                eq(
                    "tools",
                    a.tools.clone(),
                    Some(strings(&["Read", "Grep", "Bash(git:*)"])),
                )?;
                eq(
                    "system prompt is the document",
                    a.system_prompt
                        .as_deref()
                        .map(|p| p.starts_with("# Reviewer Subagent")),
                    Some(true),
                )
            },
        ),
        agent_case("I17/load", "tools: []\n", Load, true, &["W172"], |a| {
            eq("tools", a.tools.clone(), Some(Vec::new()))
        }),
        agent_case("I18a/load", "maxTurns: 5\n", Load, true, &[], |a| {
            eq("max_tool_iterations", a.max_tool_iterations, Some(5))
        }),
        agent_case("I18b/load", "maxTurns: 0\n", Load, true, &["W175"], |a| {
            eq("max_tool_iterations", a.max_tool_iterations, None)
        }),
        agent_case(
            "I18c/validate",
            "maxTurns: many\n",
            Validate,
            false,
            &["E175"],
            |_| Ok(()),
        ),
        agent_file(
            "I19/load",
            "---\nname: code-reviewer\n---\nYou are a reviewer.\n",
            Load,
            true,
            &["W171"],
            |a| {
                eq(
                    "description from the body",
                    a.description.as_str(),
                    "You are a reviewer.",
                )
            },
        ),
        // Latin-1 bytes: a diagnostic with the byte offset, no agent.
        agent_file(
            "I20/load",
            &b"---\nname: code-reviewer\ndescription: caf\xe9\n---\n"[..],
            Load,
            false,
            &["E001"],
            |_| Ok(()),
        ),
    ]
}

#[test]
fn section_i_agent_files() {
    let cases = section_i();
    let total = cases.len();
    let mut failed = Vec::new();
    for c in cases {
        let parsed = parse_reviewer(&c.text, c.profile);
        let mut problems = Vec::new();
        if parsed.agent.is_some() != c.valid {
            problems.push(format!(
                "expected valid={}, got {}",
                c.valid,
                parsed.agent.is_some()
            ));
        }
        let mut want: Vec<String> = strings(c.codes);
        want.sort();
        let got = common::codes(&parsed.diagnostics);
        if got != want {
            problems.push(format!("codes: expected {want:?}, got {got:?}"));
        }
        if let Some(agent) = &parsed.agent
            && let Err(e) = (c.check)(agent)
        {
            problems.push(e);
        }
        if !problems.is_empty() {
            failed.push(format!(
                "[{}]\n  {}\n  diagnostics:\n{}",
                c.id,
                problems.join("\n  "),
                common::describe(&parsed.diagnostics)
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {total} cases failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
