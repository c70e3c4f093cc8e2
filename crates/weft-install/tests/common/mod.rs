//! Building sources inside tests: skill directories, bare git repositories, archives, and a
//! loopback HTTP server. Nothing touches the network.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use weft_install::{
    FetchOptions, Fetched, GitOptions, InstallError, InstallTarget, Selection, Source,
    apply_install, fetch, plan_install,
};

/// A fixed clock, so lockfiles can be compared byte for byte.
pub fn now() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_795_392_000)
}

/// A SKILL.md with these frontmatter lines and body.
pub fn skill_md(name: &str, extra: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill\n{extra}---\n{body}\n")
}

/// Writes `files` under `dir`.
pub fn write_files(dir: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let full = dir.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
}

/// git's environment for tests: PATH only, and HOME set to `home` (an empty directory unless
/// the test puts a .gitconfig there).
#[allow(clippy::disallowed_methods)] // the tests run the developer's own git
pub fn git_env(home: &Path) -> Vec<(OsString, OsString)> {
    vec![
        ("PATH".into(), std::env::var_os("PATH").unwrap_or_default()),
        ("HOME".into(), home.as_os_str().to_owned()),
        ("GIT_CONFIG_NOSYSTEM".into(), "1".into()),
    ]
}

/// Runs git in `dir` with a test identity.
pub fn git(dir: &Path, home: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env_clear()
        .envs(git_env(home))
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

/// A bare repository at `<root>/remote.git` with a work tree at `<root>/work`; returns the
/// work tree and the `file://` URL.
pub struct Repo {
    pub work: PathBuf,
    pub url: String,
    pub home: PathBuf,
}

impl Repo {
    pub fn new(root: &Path) -> Repo {
        let home = root.join("git-home");
        std::fs::create_dir_all(&home).unwrap();
        let bare = root.join("remote.git");
        let work = root.join("work");
        std::fs::create_dir_all(&bare).unwrap();
        std::fs::create_dir_all(&work).unwrap();
        git(&bare, &home, &["init", "--quiet", "--bare", "-b", "main"]);
        git(&work, &home, &["init", "--quiet", "-b", "main"]);
        let url = format!("file://{}", bare.display());
        git(&work, &home, &["remote", "add", "origin", &url]);
        Repo { work, url, home }
    }

    /// Writes files, commits and pushes; returns the commit id.
    pub fn commit(&self, files: &[(&str, &str)], message: &str) -> String {
        write_files(&self.work, files);
        git(&self.work, &self.home, &["add", "-A"]);
        git(
            &self.work,
            &self.home,
            &["commit", "--quiet", "-m", message],
        );
        git(
            &self.work,
            &self.home,
            &["push", "--quiet", "origin", "HEAD:main"],
        );
        git(&self.work, &self.home, &["rev-parse", "HEAD"])
    }

    pub fn tag(&self, name: &str) {
        git(&self.work, &self.home, &["tag", name]);
        git(&self.work, &self.home, &["push", "--quiet", "origin", name]);
    }
}

/// Fetch options for a test: git with a clean HOME, temporary clones under `work`.
pub fn options(work: &Path, git_home: &Path) -> FetchOptions {
    FetchOptions {
        git: GitOptions {
            env: git_env(git_home),
            ..GitOptions::default()
        },
        ..FetchOptions::new(work)
    }
}

/// Fetches `source` for `target`.
pub async fn fetch_for(
    target: &InstallTarget,
    source: &str,
    rev: Option<&str>,
    git_home: &Path,
) -> Result<Fetched, InstallError> {
    let source = Source::parse(source, Path::new("/"))?;
    fetch(&source, rev, &options(&target.staging_dir(), git_home)).await
}

/// Fetches, plans and applies an install; returns the names written.
pub async fn install(
    target: &InstallTarget,
    source: &str,
    selection: Selection,
    force: bool,
    git_home: &Path,
) -> Result<Vec<String>, InstallError> {
    let fetched = fetch_for(target, source, None, git_home).await?;
    let plan = plan_install(target, &fetched, None, &selection, &[])?;
    apply_install(target, &plan, force, now()).map(|outcome| outcome.installed)
}

/// A `.tar.gz` of `entries`: `(path, Some(text))` files, `(path, None)` directories, written
/// with raw names so hostile ones (`../x`) can be made.
pub fn tar_gz(entries: &[(&str, Option<&str>)], links: &[(&str, &str)]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut builder = tar::Builder::new(gz);
    for (path, text) in entries {
        let mut header = tar::Header::new_gnu();
        let data = text.unwrap_or("").as_bytes();
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_entry_type(if text.is_some() {
            tar::EntryType::Regular
        } else {
            tar::EntryType::Directory
        });
        set_raw_name(&mut header, path);
        header.set_cksum();
        builder.append(&header, data).unwrap();
    }
    for (path, target) in links {
        let mut header = tar::Header::new_gnu();
        header.set_size(0);
        header.set_mode(0o777);
        header.set_entry_type(tar::EntryType::Symlink);
        set_raw_name(&mut header, path);
        let name = &mut header.as_old_mut().linkname;
        name[..target.len()].copy_from_slice(target.as_bytes());
        header.set_cksum();
        builder.append(&header, std::io::empty()).unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap()
}

fn set_raw_name(header: &mut tar::Header, path: &str) {
    let name = &mut header.as_old_mut().name;
    name.fill(0);
    name[..path.len()].copy_from_slice(path.as_bytes());
}

/// A `.zip` of `(name, text)` entries, names written as given.
pub fn zip(entries: &[(&str, &str)]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, text) in entries {
        writer.start_file(*name, options).unwrap();
        writer.write_all(text.as_bytes()).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// Serves `body` at every path on a loopback port until the returned sender is dropped.
pub async fn serve(body: Vec<u8>) -> (String, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = axum::Router::new().fallback(move || {
        let body = body.clone();
        async move { body }
    });
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = rx.await;
            })
            .await
            .unwrap();
    });
    (format!("http://{addr}"), tx)
}
