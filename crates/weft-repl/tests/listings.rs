//! The REPL's listings as a person sees them: fitted to the terminal's width like the CLI's
//! tables (`weft_term::fit_table`), whole when the output is not a terminal; a skill's details
//! in the same rows as `weft skills show`; a mistyped configuration key answered with the
//! closest ones.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::fixture;

/// The listing commands.
const LISTINGS: [&str; 5] = ["/skills", "/agents", "/tools", "/config --origin", "/help"];

#[tokio::test]
async fn listings_are_whole_without_a_terminal_and_fitted_to_its_width() {
    let mut f = fixture();
    let mut whole = String::new();
    for command in LISTINGS {
        let (_, out) = f.dispatch(command).await;
        whole.push_str(&format!("> {command}\n{out}"));
    }
    insta::assert_snapshot!("whole", whole);

    f.width = Some(60);
    let mut fitted = String::new();
    for command in LISTINGS {
        let (_, out) = f.dispatch(command).await;
        // Table rows (cells two spaces apart) fit; sentences around them are not cut.
        for line in out.lines().filter(|l| l.trim_start().contains("  ")) {
            assert!(
                line.chars().count() <= 60,
                "{command}: a line wider than 60 columns: {line}"
            );
        }
        fitted.push_str(&format!("> {command}\n{out}"));
    }
    insta::assert_snapshot!("fitted_60", fitted);
}

#[tokio::test]
async fn a_skills_details_are_the_rows_skills_show_prints() {
    let mut f = fixture();
    let (_, out) = f.dispatch("/skills research").await;
    insta::assert_snapshot!("details", out);
}

#[tokio::test]
async fn a_mistyped_configuration_key_gets_the_closest_ones() {
    let mut f = fixture();
    let mut out = String::new();
    for command in [
        "/config modle",
        "/config agent.temprature",
        "/config --origin modle",
        "/config zzzzzz",
    ] {
        let (_, text) = f.dispatch(command).await;
        out.push_str(&format!("> {command}\n{text}"));
    }
    insta::assert_snapshot!("unknown_keys", out);
}
