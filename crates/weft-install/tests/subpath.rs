//! `--path SUBDIR`: installing the skills of one directory of a source (a git repository, a
//! local directory), the subpath in the lockfile, `update` following it, and paths that
//! would leave the source.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::Path;

use common::*;
use weft_install::{
    InstallError, InstallTarget, Selection, apply_install, apply_update, plan_install, plan_update,
    verify,
};

fn target(root: &Path) -> InstallTarget {
    InstallTarget::new(root.join("project/.clawft"))
}

/// The names and source directories a plan would install.
fn planned(plan: &weft_install::InstallPlan) -> Vec<(String, String)> {
    plan.skills
        .iter()
        .map(|s| (s.name.clone(), s.dir.clone()))
        .collect()
}

#[tokio::test]
async fn git_subpath_picks_its_skills_and_update_follows_the_recorded_one() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::new(&tmp.path().join("repo"));
    // `review` twice: the one under skills/ is wanted, legacy/ holds an older copy.
    repo.commit(
        &[
            ("README.md", "# Team skills\n"),
            ("skills/review/SKILL.md", &skill_md("review", "", "v1")),
            ("skills/deploy/SKILL.md", &skill_md("deploy", "", "Deploy.")),
            ("legacy/review/SKILL.md", &skill_md("review", "", "legacy")),
        ],
        "v1",
    );
    let t = target(tmp.path());
    let fetched = fetch_for(&t, &repo.url, None, tmp.path()).await.unwrap();

    // The whole repository has two skills named `review`: it cannot be installed as is.
    let err = plan_install(&t, &fetched, None, &Selection::All, &[]).unwrap_err();
    assert!(
        matches!(&err, InstallError::DuplicateName(n) if n == "review"),
        "{err}"
    );
    // Under skills/ there are two to choose from, listed with their directories.
    let err = plan_install(&t, &fetched, Some("skills"), &Selection::Single, &[]).unwrap_err();
    let InstallError::ChooseSkills { available, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(
        available,
        &[
            ("deploy".to_owned(), "skills/deploy".to_owned()),
            ("review".to_owned(), "skills/review".to_owned()),
        ]
    );
    // `./skills/review/` is the same directory, written loosely.
    let plan = plan_install(
        &t,
        &fetched,
        Some("./skills/review/"),
        &Selection::Single,
        &[],
    )
    .unwrap();
    assert_eq!(
        planned(&plan),
        [("review".to_owned(), "skills/review".to_owned())]
    );
    apply_install(&t, &plan, false, now()).unwrap();
    let entry = &t.load_lock().unwrap().skills["review"];
    assert_eq!(entry.source.subpath, "skills/review");
    assert_eq!(entry.source.location, repo.url);
    assert_eq!(
        std::fs::read_to_string(t.skill_dir("review").join("SKILL.md")).unwrap(),
        skill_md("review", "", "v1")
    );

    // Upstream changes both copies; the update takes the one at the recorded subpath.
    let v2 = repo.commit(
        &[
            ("skills/review/SKILL.md", &skill_md("review", "", "v2")),
            (
                "legacy/review/SKILL.md",
                &skill_md("review", "", "legacy v2"),
            ),
        ],
        "v2",
    );
    let opts = options(&t.staging_dir(), tmp.path());
    let plan = plan_update(&t, &[], &opts, &[]).await.unwrap();
    let update = plan.pending().next().unwrap();
    assert_eq!(update.source.subpath, "skills/review");
    assert_eq!(apply_update(&t, &plan, false, now()).unwrap(), ["review"]);
    assert_eq!(
        std::fs::read_to_string(t.skill_dir("review").join("SKILL.md")).unwrap(),
        skill_md("review", "", "v2")
    );
    let entry = &t.load_lock().unwrap().skills["review"];
    assert_eq!(entry.source.subpath, "skills/review");
    assert_eq!(entry.commit.as_deref(), Some(v2.as_str()));
    assert!(verify(&t).unwrap()[0].status.is_intact());
}

#[tokio::test]
async fn directory_subpath_installs_only_the_skills_under_it() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("pack");
    write_files(
        &src,
        &[
            ("tools/lint/SKILL.md", &skill_md("lint", "", "Lint.")),
            ("tools/format/SKILL.md", &skill_md("format", "", "Format.")),
            ("docs/write/SKILL.md", &skill_md("write", "", "Write.")),
        ],
    );
    let t = target(tmp.path());
    let fetched = fetch_for(&t, src.to_str().unwrap(), None, tmp.path())
        .await
        .unwrap();
    let plan = plan_install(&t, &fetched, Some("tools"), &Selection::All, &[]).unwrap();
    assert_eq!(
        planned(&plan),
        [
            ("format".to_owned(), "tools/format".to_owned()),
            ("lint".to_owned(), "tools/lint".to_owned()),
        ]
    );
    assert_eq!(
        apply_install(&t, &plan, false, now()).unwrap().installed,
        ["format", "lint"]
    );
    let lock = t.load_lock().unwrap();
    assert_eq!(
        lock.skills.keys().map(String::as_str).collect::<Vec<_>>(),
        ["format", "lint"]
    );
    assert_eq!(lock.skills["lint"].source.subpath, "tools/lint");
    assert!(!t.skill_dir("write").exists());

    // A skill of another directory is not found under this one.
    let err = plan_install(
        &t,
        &fetched,
        Some("tools"),
        &Selection::Named(vec!["write".into()]),
        &[],
    )
    .unwrap_err();
    assert!(
        matches!(&err, InstallError::UnknownSkill { available, .. } if available == &["format", "lint"]),
        "{err}"
    );
    // A directory without skills says where it looked.
    let err = plan_install(&t, &fetched, Some("nothing"), &Selection::All, &[]).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "no skill found in {}/nothing (a skill is a directory with a SKILL.md or skill.json)",
            src.display()
        )
    );
}

#[tokio::test]
async fn a_subpath_leaving_the_source_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    // A skill beside the source, which a `..` would reach.
    write_files(
        tmp.path(),
        &[
            ("pack/inner/SKILL.md", &skill_md("inner", "", "Inner.")),
            ("outside/SKILL.md", &skill_md("outside", "", "Outside.")),
        ],
    );
    let t = target(tmp.path());
    let src = tmp.path().join("pack");
    let fetched = fetch_for(&t, src.to_str().unwrap(), None, tmp.path())
        .await
        .unwrap();
    let outside = tmp.path().join("outside");
    let outside = outside.to_str().unwrap();
    for (path, reason) in [
        ("../outside", "`..` would leave the source"),
        ("inner/../../outside", "`..` would leave the source"),
        ("inner/..", "`..` would leave the source"),
        (
            outside,
            "an absolute path; give a directory relative to the source's root",
        ),
        (
            "/inner",
            "an absolute path; give a directory relative to the source's root",
        ),
        ("in\\ner", "backslash in a path"),
    ] {
        let err = plan_install(&t, &fetched, Some(path), &Selection::All, &[]).unwrap_err();
        assert!(
            matches!(&err, InstallError::BadSubpath { path: p, reason: r } if p == path && r == reason),
            "{path}: {err:?}"
        );
        assert_eq!(err.to_string(), format!("--path {path}: {reason}"));
    }
    // Nothing was written, not even a lockfile.
    assert!(!t.lock_path().exists());
    // `.` and an empty path are the whole source.
    for path in [".", "", "./"] {
        let plan = plan_install(&t, &fetched, Some(path), &Selection::All, &[]).unwrap();
        assert_eq!(
            planned(&plan),
            [("inner".to_owned(), "inner".to_owned())],
            "{path:?}"
        );
    }
}
