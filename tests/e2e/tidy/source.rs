//! What the tidy checks share: walking the repository's files and reading Rust source without
//! its comments (and, when asked, without its string literals).

use std::path::{Path, PathBuf};

/// Directories never walked: build output, JavaScript packages, git's own.
const SKIPPED_DIRS: [&str; 3] = ["target", "node_modules", ".git"];

/// Every file under `dir` whose name ends in `.` and one of `extensions`, sorted, outside the
/// [`SKIPPED_DIRS`].
pub fn files_with(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(dir, extensions, &mut out);
    out.sort();
    out
}

fn walk(dir: &Path, extensions: &[&str], out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().expect("a file name").to_string_lossy().into_owned();
        if path.is_dir() {
            if !SKIPPED_DIRS.contains(&name.as_str()) {
                walk(&path, extensions, out);
            }
        } else if path.extension().is_some_and(|ext| extensions.iter().any(|e| ext == *e)) {
            out.push(path);
        }
    }
}

/// `path` relative to `root`, with `/` between components: how messages and the checks name
/// files.
pub fn relative(root: &Path, path: &Path) -> String {
    let inside = path.strip_prefix(root).unwrap_or(path);
    inside.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// Reads a file, failing the test with its path if it cannot.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What [`blank`] replaces with spaces besides comments.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Keep string and character literals as they are.
    Strings,
    /// Blank their contents too (the quotes stay).
    Nothing,
}

/// Rust source with every comment (line, block, doc) replaced by spaces, and with `keep`
/// saying whether string and character literals are kept. Line breaks stay and every other
/// character blanked becomes one space, so lines and character positions are unchanged.
/// Lifetimes (`'a`) are told from character literals (`'a'`).
pub fn blank(source: &str, keep: Keep) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = chars.clone();
    let blank_range = |out: &mut Vec<char>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != '\n' {
                *c = ' ';
            }
        }
    };
    let at =
        |i: usize, text: &str| text.chars().enumerate().all(|(k, c)| chars.get(i + k) == Some(&c));
    let mut i = 0;
    while i < chars.len() {
        let prev_is_ident = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if at(i, "//") {
            let end = (i..chars.len()).find(|&k| chars[k] == '\n').unwrap_or(chars.len());
            blank_range(&mut out, i, end);
            i = end;
        } else if at(i, "/*") {
            let (mut depth, mut k) = (0, i);
            while k < chars.len() {
                if at(k, "/*") {
                    depth += 1;
                    k += 2;
                } else if at(k, "*/") {
                    depth -= 1;
                    k += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    k += 1;
                }
            }
            blank_range(&mut out, i, k);
            i = k;
        } else if !prev_is_ident && (at(i, "r\"") || at(i, "r#") || at(i, "br\"") || at(i, "br#")) {
            // A raw string: r"…", r#"…"#, with as many `#` after the closing quote as before.
            let mut k = i + if chars[i] == 'b' { 2 } else { 1 };
            let hashes = (k..chars.len()).take_while(|&j| chars[j] == '#').count();
            k += hashes;
            if chars.get(k) != Some(&'"') {
                i += 1;
                continue;
            }
            let body = k + 1;
            let closing: String =
                std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let end = (body..chars.len()).find(|&j| at(j, &closing)).unwrap_or(chars.len());
            if keep == Keep::Nothing {
                blank_range(&mut out, body, end);
            }
            i = end + closing.chars().count();
        } else if chars[i] == '"' {
            let mut k = i + 1;
            while k < chars.len() && chars[k] != '"' {
                k += if chars[k] == '\\' { 2 } else { 1 };
            }
            if keep == Keep::Nothing {
                blank_range(&mut out, i + 1, k.min(chars.len()));
            }
            i = k + 1;
        } else if chars[i] == '\'' {
            // A character literal is `'x'` or an escape `'\…'`; anything else is a lifetime.
            let end = if chars.get(i + 1) == Some(&'\\') {
                (i + 2..chars.len()).find(|&k| chars[k] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(end) => {
                    if keep == Keep::Nothing {
                        blank_range(&mut out, i + 1, end);
                    }
                    i = end + 1;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    out.into_iter().collect()
}

/// The index just past the bracket that closes the one opening at `open` (`(`, `[` or `{`),
/// counting only brackets of that kind; `None` if it never closes. Meant for [`blank`]ed text.
pub fn closing(text: &str, open: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let (up, down) = match bytes.get(open)? {
        b'(' => (b'(', b')'),
        b'[' => (b'[', b']'),
        b'{' => (b'{', b'}'),
        _ => return None,
    };
    let mut depth = 0usize;
    for (k, &b) in bytes.iter().enumerate().skip(open) {
        if b == up {
            depth += 1;
        } else if b == down {
            depth -= 1;
            if depth == 0 {
                return Some(k + 1);
            }
        }
    }
    None
}

/// Splits `text` at the commas outside any brackets, trimming each part and dropping empty
/// ones (a trailing comma).
pub fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (k, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' if !text[..k].ends_with('-') => depth -= 1,
            ',' if depth == 0 => {
                parts.push(text[start..k].trim());
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(text[start..].trim());
    parts.retain(|part| !part.is_empty());
    parts
}

/// Whether `c` can be part of a Rust identifier.
pub fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_go_and_strings_stay_or_go_as_asked() {
        let source = concat!(
            "let a = \"// not a comment\"; // a comment\n",
            "/* block /* nested */ */ 'x' 'a: r#\"raw\"#",
        );
        let kept = blank(source, Keep::Strings);
        assert_eq!(kept.lines().next(), Some("let a = \"// not a comment\";             "));
        assert!(kept.contains("'x' 'a: r#\"raw\"#"), "{kept}");
        assert!(!kept.contains("nested"), "{kept}");
        let bare = blank(source, Keep::Nothing);
        assert!(bare.starts_with("let a = \"                \";"), "{bare}");
        assert!(bare.contains("' ' 'a: r#\"   \"#"), "{bare}");
        assert_eq!(bare.len(), source.len());
    }

    #[test]
    fn brackets_close_and_lists_split_at_their_own_commas() {
        let text = "f(a, (b, c), [d, e]) -> g";
        assert_eq!(closing(text, 1), Some(20));
        assert_eq!(split_top_level(&text[2..19]), ["a", "(b, c)", "[d, e]"]);
        assert_eq!(
            split_top_level("x: *const u8, f: fn() -> i32,"),
            ["x: *const u8", "f: fn() -> i32"]
        );
    }
}
