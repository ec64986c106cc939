//! A bot project at a git revision, `PROJECT@REV`: that revision of the project, checked out
//! in a temporary `git worktree` of the repository containing the project and removed again
//! when done.
//!
//! The checkout goes to a fresh directory under the system's temporary directory; the project
//! is at the same place inside it as in the repository. Builds of every revision share one
//! cargo target directory, `<project>/target/botlens/revisions/` ([`target_dir`]), so the
//! dependencies compiled for one revision serve the next. Only committed files are in a
//! revision: the working tree's changes are not.
//!
//! Not for: building or playing the checkout (see [`crate::pipeline`], given
//! [`crate::RunOptions::cargo_target_dir`]).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

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
/// use botlens_harness::revision::split;
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
/// share.
pub fn target_dir(project_root: &Path) -> PathBuf {
    project_root.join("target").join("botlens").join("revisions")
}

/// Runs git in `dir` with `args`; its standard output, trimmed, or why it failed.
fn git(dir: &Path, args: &[&str]) -> Result<String, RevisionError> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| RevisionError::Git { args: args.join(" "), message: e.to_string() })?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
    } else {
        let message = String::from_utf8_lossy(&output.stderr).trim().to_owned();
        Err(RevisionError::Git { args: args.join(" "), message })
    }
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

    /// The full hash of the commit `rev` names.
    pub fn commit(&self, rev: &str) -> Result<String, RevisionError> {
        let spec = format!("{rev}^{{commit}}");
        git(&self.top, &["rev-parse", "--verify", "--end-of-options", &spec]).map_err(|error| {
            let message = match error {
                RevisionError::Git { message, .. } => message,
                other => other.to_string(),
            };
            let message = message.lines().next().unwrap_or("unknown revision").to_owned();
            RevisionError::BadRevision { rev: rev.to_owned(), repo: self.top.clone(), message }
        })
    }

    /// The commits after `good` up to and including `bad`, oldest first, along the first-parent
    /// line from `bad` (`git rev-list --first-parent --reverse good..bad`).
    pub fn commits_between(&self, good: &str, bad: &str) -> Result<Vec<String>, RevisionError> {
        let range = format!("{good}..{bad}");
        let list = git(&self.top, &["rev-list", "--first-parent", "--reverse", &range])?;
        Ok(list.lines().map(str::to_owned).collect())
    }

    /// The subject line of `commit`.
    pub fn subject(&self, commit: &str) -> Result<String, RevisionError> {
        git(&self.top, &["log", "-1", "--format=%s", commit])
    }
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
}

impl Checkout {
    /// Checks out revision `rev` of the repository containing the project in `project_dir`.
    pub fn new(project_dir: &Path, rev: &str) -> Result<Checkout, RevisionError> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let repository = Repository::of(project_dir, rev)?;
        let commit = repository.commit(rev)?;
        let worktree = std::env::temp_dir().join(format!(
            "botlens-revision-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let path = worktree.to_string_lossy().into_owned();
        git(
            &repository.top,
            &["worktree", "add", "--detach", "--force", "--quiet", &path, &commit],
        )?;
        Ok(Checkout {
            project: worktree.join(&repository.prefix),
            commit,
            repository: repository.top,
            worktree,
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
        if git(&self.repository, &["worktree", "remove", "--force", &path]).is_err() {
            let _ = std::fs::remove_dir_all(&self.worktree);
            let _ = git(&self.repository, &["worktree", "prune"]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A repository with two commits of `file`: "one", then "two"; its top directory.
    fn repository() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let run = |args: &[&str]| {
            let mut all = vec!["-c", "user.name=t", "-c", "user.email=t@example.invalid"];
            all.extend_from_slice(args);
            git(dir.path(), &all).unwrap();
        };
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
        let flag = Checkout::new(&repo.path().join("bot"), "--output=x").unwrap_err();
        assert!(matches!(flag, RevisionError::BadRevision { .. }), "{flag}");
        let outside = tempfile::tempdir().unwrap();
        let error = Checkout::new(outside.path(), "HEAD").unwrap_err().to_string();
        assert!(error.contains("is not inside a git repository"), "{error}");
        assert_eq!(split("nowhere@HEAD"), None, "not a directory");
    }
}
