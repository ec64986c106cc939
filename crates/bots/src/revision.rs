//! A bot at a git revision, `DIR@REV`: that revision of the bot's directory (a project, or a
//! bot folder in any language), checked out in a temporary `git worktree` of the repository
//! containing it and removed again when done.
//!
//! The checkout goes to a private directory (mode 0700, created exclusively under a random name
//! in the system's temporary directory), so no other user can plant a file in it or predict
//! where it will be; the bot is at the same place inside it as in the repository. Every git
//! command goes through one function, `git`, which runs it with nothing of the repository's
//! configuration that starts a program: no hooks, no fsmonitor, no fetching; filter drivers are
//! turned off for the checkout, and every revision argument follows `--end-of-options`. Builds
//! of every revision of a project share one cargo target directory,
//! `<project>/target/botlens/revisions/` (under `CARGO_TARGET_DIR` when the user sets it;
//! [`target_dir`]), so the dependencies compiled for one
//! revision serve the next. Only committed files are in a revision: the working tree's changes
//! are not.
//!
//! Not for: building or playing the checkout (see `botlens-harness`'s `pipeline`, given
//! `botlens_bots::RunOptions::cargo_target_dir`).

use std::path::{Path, PathBuf};

use botlens_confine::PrivateDir;

/// Why a revision could not be checked out.
#[derive(Debug, thiserror::Error)]
pub enum RevisionError {
    /// git could not be run, or failed for a reason of its own.
    #[error("git {args}: {message}")]
    Git {
        /// The git arguments.
        args: String,
        /// What git (or the system) said.
        message: String,
    },
    /// The project is not inside a git repository.
    #[error("{} is not inside a git repository, so it has no revision `{rev}`", .dir.display())]
    NotARepository {
        /// The project directory.
        dir: PathBuf,
        /// The revision asked for.
        rev: String,
    },
    /// No private directory could be made for the checkout.
    #[error("cannot make a private directory for the checkout: {0}")]
    Directory(std::io::Error),
    /// The revision names no commit of the repository.
    #[error("`{rev}` is not a revision of the repository at {}: {message}", .repo.display())]
    BadRevision {
        /// The revision as given.
        rev: String,
        /// The repository's top directory.
        repo: PathBuf,
        /// What git said.
        message: String,
    },
}

/// `text` as `PROJECT@REV` when it is one: the part before the last `@` an existing directory
/// and the part after it not empty. `None` for anything else (a plain project, a module, a
/// reference player).
///
/// ```
/// use botlens_bots::revision::split;
///
/// assert_eq!(split(".@HEAD~1"), Some((".", "HEAD~1")));
/// assert_eq!(split("hunter"), None);
/// assert_eq!(split(".@"), None);
/// ```
pub fn split(text: &str) -> Option<(&str, &str)> {
    let (dir, rev) = text.rsplit_once('@')?;
    (!rev.is_empty() && Path::new(dir).is_dir()).then_some((dir, rev))
}

/// The cargo target directory that builds of the revisions of the project at `project_root`
/// share: `botlens/revisions` in the one the project builds into (the user's
/// `CARGO_TARGET_DIR`, else the project's `target/`).
pub fn target_dir(project_root: &Path) -> PathBuf {
    let builds = crate::build::users_target_dir()
        .map(|dir| std::path::absolute(&dir).unwrap_or(dir))
        .unwrap_or_else(|| project_root.join("target"));
    builds.join("botlens").join("revisions")
}

/// The configuration every git command runs with, over the repository's own: a repository is
/// not trusted to start programs. No hooks (`post-checkout` runs on `worktree add`), no
/// filesystem monitor, no bare repository found by walking up from the project (its
/// configuration would apply), no transport (a partial clone would fetch missing objects, with
/// a configured `core.sshCommand`), no submodules, no signature checks (`gpg.program`), no
/// automatic garbage collection. Filter drivers are named in a repository's configuration, so
/// [`Checkout::new`] turns off each one it finds.
const SAFE_CONFIG: [&str; 8] = [
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "safe.bareRepository=explicit",
    "protocol.allow=never",
    "submodule.recurse=false",
    "log.showSignature=false",
    "gc.auto=0",
    "maintenance.auto=false",
];

/// Runs git in `dir` with `args` (and [`SAFE_CONFIG`]); its standard output, trimmed, or why it
/// failed. Every git command botlens runs goes through here, confined (`tools`): it
/// reads the repository around `dir` and writes its git directories, nothing else.
fn git(dir: &Path, args: &[&str]) -> Result<String, RevisionError> {
    git_writing(dir, args, &[])
}

/// [`git`], also writing beneath `writes` (a worktree's private directory).
fn git_writing(dir: &Path, args: &[&str], writes: &[&Path]) -> Result<String, RevisionError> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    // git runs in a directory of its own: `dir` as botlens sees it.
    let dir = &std::path::absolute(dir).unwrap_or_else(|_| dir.to_owned());
    let mut command = crate::tools::system("git", &path);
    command.arg("--no-pager");
    for setting in SAFE_CONFIG {
        command.args(["-c", setting]);
    }
    command
        .arg("-C")
        .arg(dir)
        .args(args)
        // Never fetch an object a partial clone lacks; no system-wide configuration either (the
        // user's own is not read: git's home is private).
        .env("GIT_NO_LAZY_FETCH", "1")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .read(dir)
        .limits(crate::tools::build_limits(GIT_TIMEOUT));
    let (top, git_dirs) = repository_around(dir);
    if let Some(top) = top {
        command.read(top);
    }
    for writable in git_dirs.iter().map(PathBuf::as_path).chain(writes.iter().copied()) {
        command.write(writable);
    }
    let failed = |message: String| RevisionError::Git { args: args.join(" "), message };
    let output = crate::tools::run(&command, &crate::CancelToken::new())
        .map_err(|error| failed(error.to_string()))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
    } else {
        Err(failed(String::from_utf8_lossy(&output.stderr).trim().to_owned()))
    }
}

/// How long one git command may take.
const GIT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// The repository around `dir`: the directory holding the nearest `.git` above it (or at it),
/// and its git directories — `.git` itself, or for a linked worktree (a `.git` file) the
/// directory it names and the common one. `(None, [])` outside any repository.
fn repository_around(dir: &Path) -> (Option<PathBuf>, Vec<PathBuf>) {
    let Ok(dir) = dir.canonicalize() else { return (None, Vec::new()) };
    let Some(top) = dir.ancestors().find(|above| above.join(".git").exists()) else {
        return (None, Vec::new());
    };
    let dot_git = top.join(".git");
    if dot_git.is_dir() {
        return (Some(top.to_owned()), vec![dot_git]);
    }
    let named = |file: &Path, relative_to: &Path| {
        let text = std::fs::read_to_string(file).ok()?;
        let line = text.lines().next()?.trim();
        let named = line.strip_prefix("gitdir:").map_or(line, str::trim);
        relative_to.join(named).canonicalize().ok()
    };
    let mut git_dirs = Vec::new();
    if let Some(git_dir) = named(&dot_git, top) {
        git_dirs.extend(named(&git_dir.join("commondir"), &git_dir));
        git_dirs.push(git_dir);
    }
    (Some(top.to_owned()), git_dirs)
}

/// A project's repository: its top directory and where the project sits in it.
#[derive(Debug, Clone)]
pub struct Repository {
    /// The repository's top directory.
    pub top: PathBuf,
    /// The project's directory relative to `top` (empty when it is the top).
    pub prefix: PathBuf,
}

impl Repository {
    /// The repository containing the project in `project_dir`; `rev` names the revision asked
    /// for, for the error when there is none.
    pub fn of(project_dir: &Path, rev: &str) -> Result<Repository, RevisionError> {
        let not_a_repository =
            |_| RevisionError::NotARepository { dir: project_dir.to_owned(), rev: rev.to_owned() };
        let top = git(project_dir, &["rev-parse", "--show-toplevel"]).map_err(not_a_repository)?;
        let prefix = git(project_dir, &["rev-parse", "--show-prefix"])?;
        Ok(Repository { top: top.into(), prefix: prefix.into() })
    }

    /// The full hash of the commit `rev` names; a revision starting with `-` is refused.
    pub fn commit(&self, rev: &str) -> Result<String, RevisionError> {
        let bad = |message: &str| RevisionError::BadRevision {
            rev: rev.to_owned(),
            repo: self.top.clone(),
            message: message.to_owned(),
        };
        if rev.starts_with('-') {
            return Err(bad("a revision does not start with `-`"));
        }
        let spec = format!("{rev}^{{commit}}");
        git(&self.top, &["rev-parse", "--verify", "--end-of-options", &spec]).map_err(|error| {
            let message = match error {
                RevisionError::Git { message, .. } => message,
                other => other.to_string(),
            };
            bad(message.lines().next().unwrap_or("unknown revision"))
        })
    }

    /// The commits after `good` up to and including `bad`, oldest first, along the first-parent
    /// line from `bad` (`git rev-list --first-parent --reverse good..bad`).
    pub fn commits_between(&self, good: &str, bad: &str) -> Result<Vec<String>, RevisionError> {
        let range = format!("{good}..{bad}");
        let list = git(
            &self.top,
            &["rev-list", "--first-parent", "--reverse", "--end-of-options", &range, "--"],
        )?;
        Ok(list.lines().map(str::to_owned).collect())
    }

    /// The subject line of `commit`.
    pub fn subject(&self, commit: &str) -> Result<String, RevisionError> {
        git(&self.top, &["log", "-1", "--format=%s", "--end-of-options", commit, "--"])
    }

    /// `-c` settings that turn off every filter driver the repository's configuration defines
    /// (`filter.<driver>.smudge` would run a program on each file checked out): an empty
    /// command is no filter, and no driver is required. A driver whose name holds `=` cannot be
    /// named in a `-c` setting, so it is refused.
    fn filters_off(&self) -> Result<Vec<String>, RevisionError> {
        let names = git(&self.top, &["config", "-z", "--name-only", "--get-regexp", r"^filter\."])
            .or_else(|error| match error {
                // Status 1: no such setting.
                RevisionError::Git { ref message, .. } if message.is_empty() => Ok(String::new()),
                error => Err(error),
            })?;
        let mut drivers: Vec<&str> = names
            .split('\0')
            .filter_map(|name| name.strip_prefix("filter.")?.rsplit_once('.'))
            .map(|(driver, _)| driver)
            .collect();
        drivers.sort_unstable();
        drivers.dedup();
        let mut settings = Vec::new();
        for driver in drivers {
            if driver.contains('=') {
                return Err(RevisionError::Git {
                    args: "config".into(),
                    message: format!(
                        "the filter driver `{driver}` has `=` in its name, so botlens cannot turn it off for the checkout; rename or remove it"
                    ),
                });
            }
            for (key, value) in
                [("smudge", ""), ("clean", ""), ("process", ""), ("required", "false")]
            {
                settings.push("-c".to_owned());
                settings.push(format!("filter.{driver}.{key}={value}"));
            }
        }
        Ok(settings)
    }
}

/// A new private directory for a checkout: a random name under the system's temporary
/// directory, created exclusively (never one that already exists), mode 0700 on Unix.
fn private_directory() -> Result<PrivateDir, RevisionError> {
    botlens_confine::private_dir("botlens-revision-", None).map_err(RevisionError::Directory)
}

/// A revision checked out in a temporary worktree; dropping it removes the worktree.
#[derive(Debug)]
pub struct Checkout {
    /// The project's directory inside the worktree.
    pub project: PathBuf,
    /// The commit checked out (full hash).
    pub commit: String,
    repository: PathBuf,
    worktree: PathBuf,
    /// The private directory holding the worktree, removed after it (fields drop after
    /// [`Drop::drop`]).
    _private: PrivateDir,
}

impl Checkout {
    /// Checks out revision `rev` of the repository containing the project in `project_dir`.
    pub fn new(project_dir: &Path, rev: &str) -> Result<Checkout, RevisionError> {
        let repository = Repository::of(project_dir, rev)?;
        let commit = repository.commit(rev)?;
        let private = private_directory()?;
        // Named after the repository, for paths in messages; git makes it, inside the private
        // directory, so nothing was there before.
        let name = repository.top.file_name().map(|name| name.to_string_lossy().into_owned());
        let worktree = private.path().join(name.as_deref().unwrap_or("checkout"));
        let path = worktree.to_string_lossy().into_owned();
        let mut args = repository.filters_off()?;
        args.extend(
            ["worktree", "add", "--detach", "--quiet", "--end-of-options", &path, &commit]
                .map(str::to_owned),
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        git_writing(&repository.top, &args, &[private.path()])?;
        Ok(Checkout {
            project: worktree.join(&repository.prefix),
            commit,
            repository: repository.top,
            worktree,
            _private: private,
        })
    }

    /// The commit's first twelve hex digits, as people quote it.
    pub fn short(&self) -> &str {
        &self.commit[..self.commit.len().min(12)]
    }
}

impl Drop for Checkout {
    fn drop(&mut self) {
        let path = self.worktree.to_string_lossy().into_owned();
        // `--force`: the build may have left untracked files (a `Cargo.lock`) in it.
        let remove = ["worktree", "remove", "--force", "--end-of-options", &path];
        let private = self.worktree.parent().unwrap_or(&self.worktree);
        if git_writing(&self.repository, &remove, &[private]).is_err() {
            let _ = std::fs::remove_dir_all(&self.worktree);
            let _ = git(&self.repository, &["worktree", "prune"]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// Runs the test's own git (not botlens's confined one, which only reads) in `dir`.
    fn setup(dir: &Path, args: &[&str]) {
        let identity = ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-C"];
        let status = Command::new("git").args(identity).arg(dir).args(args).status().unwrap();
        assert!(status.success(), "git {args:?}");
    }

    /// A repository with two commits of `file`: "one", then "two"; its top directory.
    fn repository() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let run = |args: &[&str]| setup(dir.path(), args);
        run(&["init", "--quiet"]);
        std::fs::create_dir(dir.path().join("bot")).unwrap();
        for text in ["one", "two"] {
            std::fs::write(dir.path().join("bot/file"), text).unwrap();
            run(&["add", "."]);
            run(&["commit", "--quiet", "-m", text]);
        }
        dir
    }

    #[test]
    fn a_revision_is_checked_out_at_the_projects_place_and_removed_after() {
        let repo = repository();
        let checkout = Checkout::new(&repo.path().join("bot"), "HEAD~1").unwrap();
        assert_eq!(std::fs::read_to_string(checkout.project.join("file")).unwrap(), "one");
        assert!(checkout.project.ends_with("bot"));
        assert_eq!(checkout.short().len(), 12);
        let worktree = checkout.worktree.clone();
        drop(checkout);
        assert!(!worktree.exists(), "the worktree is removed");
        let listed = git(repo.path(), &["worktree", "list"]).unwrap();
        assert_eq!(listed.lines().count(), 1, "{listed}");
        let repository = Repository::of(&repo.path().join("bot"), "HEAD").unwrap();
        assert_eq!(repository.prefix, Path::new("bot/"));
        let commits = repository.commits_between("HEAD~1", "HEAD").unwrap();
        assert_eq!(commits, [repository.commit("HEAD").unwrap()]);
        assert_eq!(repository.subject(&commits[0]).unwrap(), "two");
    }

    #[test]
    fn bad_revisions_and_directories_outside_git_are_clear_errors() {
        let repo = repository();
        let error = Checkout::new(&repo.path().join("bot"), "no-such-branch").unwrap_err();
        let text = error.to_string();
        assert!(matches!(error, RevisionError::BadRevision { .. }), "{text}");
        assert!(text.starts_with("`no-such-branch` is not a revision of the repository"), "{text}");
        for flag in ["--output=x", "-h", "--all"] {
            let error = Checkout::new(&repo.path().join("bot"), flag).unwrap_err();
            assert!(matches!(error, RevisionError::BadRevision { .. }), "{error}");
            let said = format!(
                "`{flag}` is not a revision of the repository at {}: a revision does not start with `-`",
                repo.path().display()
            );
            assert_eq!(error.to_string(), said);
        }
        let outside = tempfile::tempdir().unwrap();
        let error = Checkout::new(outside.path(), "HEAD").unwrap_err().to_string();
        assert!(error.contains("is not inside a git repository"), "{error}");
        assert_eq!(split("nowhere@HEAD"), None, "not a directory");
    }

    /// Makes `file` executable.
    #[cfg(unix)]
    fn executable(file: &Path) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_checkout_runs_no_hook_filter_or_monitor_the_repository_configures() {
        let repo = repository();
        let marks = tempfile::tempdir().unwrap();
        let mark = |name: &str| marks.path().join(name);
        let hook = repo.path().join(".git/hooks/post-checkout");
        std::fs::write(&hook, format!("#!/bin/sh\ntouch '{}'\n", mark("hook").display())).unwrap();
        executable(&hook);
        let monitor = repo.path().join("monitor.sh");
        std::fs::write(&monitor, format!("#!/bin/sh\ntouch '{}'\n", mark("monitor").display()))
            .unwrap();
        executable(&monitor);
        std::fs::write(repo.path().join("bot/.gitattributes"), "* filter=evil\n").unwrap();
        setup(repo.path(), &["add", "."]);
        setup(repo.path(), &["commit", "--quiet", "-m", "attributes"]);
        let smudge = format!("touch '{}'; cat", mark("smudge").display());
        let process = format!("touch '{}'", mark("process").display());
        for (key, value) in [
            ("filter.evil.smudge", smudge.as_str()),
            ("filter.evil.process", &process),
            ("filter.evil.required", "true"),
            ("core.fsmonitor", &monitor.display().to_string()),
        ] {
            // Written by git itself, bypassing the configuration `git()` adds.
            let status = Command::new("git")
                .arg("-C")
                .arg(repo.path())
                .args(["config", key, value])
                .status()
                .unwrap();
            assert!(status.success());
        }
        let checkout = Checkout::new(&repo.path().join("bot"), "HEAD~1").unwrap();
        assert_eq!(std::fs::read_to_string(checkout.project.join("file")).unwrap(), "two");
        let latest = Checkout::new(&repo.path().join("bot"), "HEAD").unwrap();
        let attributes = std::fs::read_to_string(latest.project.join(".gitattributes")).unwrap();
        assert_eq!(attributes, "* filter=evil\n", "checked out as committed, unfiltered");
        drop((checkout, latest));
        let status = Command::new("git")
            .arg("-C")
            .arg(repo.path())
            .args(["config", "filter.a=b.smudge", &smudge])
            .status()
            .unwrap();
        assert!(status.success());
        let error = Checkout::new(&repo.path().join("bot"), "HEAD").unwrap_err().to_string();
        assert_eq!(
            error,
            "git config: the filter driver `a=b` has `=` in its name, so botlens cannot turn it off for the checkout; rename or remove it"
        );
        let ran: Vec<_> =
            std::fs::read_dir(marks.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(ran.is_empty(), "the repository ran {ran:?}");
    }

    #[cfg(unix)]
    #[test]
    fn the_worktree_is_in_a_new_private_directory_of_an_unpredictable_name() {
        use std::os::unix::fs::PermissionsExt;
        let repo = repository();
        // What an earlier botlens would have used; another user may have made it.
        let predictable = |n: u32| {
            std::env::temp_dir().join(format!("botlens-revision-{}-{n}", std::process::id()))
        };
        let planted = predictable(0);
        let _ = std::fs::create_dir(&planted);
        let first = Checkout::new(&repo.path().join("bot"), "HEAD").unwrap();
        let second = Checkout::new(&repo.path().join("bot"), "HEAD").unwrap();
        let _ = std::fs::remove_dir(&planted);
        let private = first.worktree.parent().unwrap().to_owned();
        assert_ne!(Some(private.as_path()), second.worktree.parent());
        for n in 0..2 {
            assert_ne!(private, predictable(n));
        }
        let mode = std::fs::metadata(&private).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700, "{}", private.display());
        let name = private.file_name().unwrap().to_string_lossy().into_owned();
        let random = name.strip_prefix("botlens-revision-").unwrap();
        assert!(random.len() >= 6 && !random.contains('-'), "{name}");
        assert_eq!(first.worktree.file_name(), repo.path().file_name());
        drop(first);
        assert!(!private.exists(), "the private directory goes with the worktree");
    }
}
