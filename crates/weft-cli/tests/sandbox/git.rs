//! A bare git repository built inside a test, served over `file://`: the source of the
//! install tests (no network).

use std::path::{Path, PathBuf};

use super::Sandbox;

/// A bare repository at `<tmp>/remote.git` fed from the work tree `<tmp>/work`.
pub struct Repo {
    /// The work tree (write files here, then [`push`](Repo::push)).
    pub work: PathBuf,
    /// `file://<tmp>/remote.git`.
    pub url: String,
    home: PathBuf,
}

impl Repo {
    /// An empty repository (branch `main`) and its work tree.
    pub fn new(s: &Sandbox) -> Self {
        Self::named(s, "remote")
    }

    /// Another one, at `<tmp>/<name>.git` fed from `<tmp>/<name>-work`.
    pub fn named(s: &Sandbox, name: &str) -> Self {
        let bare = s.dir(&format!("{name}.git"));
        let work = if name == "remote" {
            s.dir("work")
        } else {
            s.dir(&format!("{name}-work"))
        };
        let repo = Repo {
            work,
            url: format!("file://{}", bare.display()),
            home: s.home.clone(),
        };
        repo.git(&bare, &["init", "--quiet", "--bare", "-b", "main"]);
        repo.git(&repo.work, &["init", "--quiet", "-b", "main"]);
        repo
    }

    /// Runs git in `dir` with a test identity; returns its standard output, trimmed.
    pub fn git(&self, dir: &Path, args: &[&str]) -> String {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("HOME", &self.home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    /// Commits the work tree as it is and pushes it; returns the commit id.
    pub fn push(&self, message: &str) -> String {
        self.git(&self.work, &["add", "-A"]);
        self.git(&self.work, &["commit", "--quiet", "-m", message]);
        self.git(&self.work, &["push", "--quiet", &self.url, "HEAD:main"]);
        self.git(&self.work, &["rev-parse", "HEAD"])
    }
}
