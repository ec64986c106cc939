//! The named layouts that ship inside the binary (the files in `crates/klotski/layouts/`),
//! found by their Chinese name or an ASCII pinyin alias.
//!
//! Not for reading layout files from disk: games do no I/O; the CLI reads files and calls
//! [`Layout::parse`].

use std::sync::OnceLock;

use crate::Layout;

/// A layout bundled with botlens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bundled {
    /// The traditional name (`横刀立马`), also the `name:` in its text.
    pub name: &'static str,
    /// An ASCII alias for the command line (`hengdaolima`).
    pub alias: &'static str,
    /// The layout text.
    pub text: &'static str,
}

/// Every bundled layout, the classic 横刀立马 first.
pub const BUNDLED: [Bundled; 5] = [
    Bundled {
        name: "横刀立马",
        alias: "hengdaolima",
        text: include_str!("../layouts/hengdaolima.txt"),
    },
    Bundled {
        name: "指挥若定",
        alias: "zhihuiruoding",
        text: include_str!("../layouts/zhihuiruoding.txt"),
    },
    Bundled {
        name: "将拥曹营",
        alias: "jiangyongcaoying",
        text: include_str!("../layouts/jiangyongcaoying.txt"),
    },
    Bundled {
        name: "齐头并进",
        alias: "qitoubingjin",
        text: include_str!("../layouts/qitoubingjin.txt"),
    },
    Bundled {
        name: "兵分三路",
        alias: "bingfensanlu",
        text: include_str!("../layouts/bingfensanlu.txt"),
    },
];

/// The bundled layouts, parsed once.
fn parsed() -> &'static [Layout] {
    static PARSED: OnceLock<Vec<Layout>> = OnceLock::new();
    PARSED.get_or_init(|| {
        BUNDLED
            .iter()
            .map(|b| {
                Layout::parse(b.text)
                    .unwrap_or_else(|e| panic!("bundled layout {} is invalid: {e}", b.alias))
            })
            .collect()
    })
}

/// The bundled layout with this name or alias (aliases ignore case and surrounding spaces).
pub fn find(name: &str) -> Option<Layout> {
    let name = name.trim();
    BUNDLED
        .iter()
        .position(|b| b.name == name || b.alias.eq_ignore_ascii_case(name))
        .map(|i| parsed()[i].clone())
}

/// Every bundled layout, parsed, in [`BUNDLED`] order.
pub fn all() -> Vec<Layout> {
    parsed().to_vec()
}

/// `横刀立马 (hengdaolima), 指挥若定 (zhihuiruoding), …`: for "unknown layout" messages.
pub fn names() -> String {
    let names: Vec<String> = BUNDLED.iter().map(|b| format!("{} ({})", b.name, b.alias)).collect();
    names.join(", ")
}

/// The ASCII alias of the bundled layout with this name.
pub fn alias_of(name: &str) -> Option<&'static str> {
    BUNDLED.iter().find(|b| b.name == name).map(|b| b.alias)
}

/// The classic 横刀立马, the default layout.
pub(crate) fn classic() -> Layout {
    parsed()[0].clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_layout_parses_and_carries_its_name() {
        for (bundled, layout) in BUNDLED.iter().zip(all()) {
            assert_eq!(layout.name(), Some(bundled.name));
            assert!(bundled.alias.chars().all(|c| c.is_ascii_lowercase()), "{}", bundled.alias);
            assert_eq!((layout.width(), layout.height()), (4, 5), "{}", bundled.name);
            assert_eq!(layout.pieces().len(), 10, "{}", bundled.name);
        }
    }

    #[test]
    fn layouts_are_found_by_name_or_alias() {
        assert_eq!(find("横刀立马"), Some(Layout::default()));
        assert_eq!(find("hengdaolima"), Some(Layout::default()));
        assert_eq!(find(" HengDaoLiMa "), Some(Layout::default()));
        assert_eq!(
            find("兵分三路").and_then(|l| l.name().map(String::from)),
            Some("兵分三路".into())
        );
        assert_eq!(find("nosuchlayout"), None);
        assert_eq!(alias_of("将拥曹营"), Some("jiangyongcaoying"));
        assert_eq!(alias_of("hengdaolima"), None);
        assert!(names().starts_with("横刀立马 (hengdaolima), 指挥若定 (zhihuiruoding)"));
    }

    #[test]
    fn the_docs_show_the_bundled_classic_and_its_drawing() {
        let docs = include_str!("../../../docs/layouts.md");
        assert!(
            docs.contains(BUNDLED[0].text),
            "docs/layouts.md must quote layouts/hengdaolima.txt"
        );
        let drawing = crate::Klotski::default().render_with(crate::Labels::Names);
        assert!(docs.contains(&drawing), "docs/layouts.md must show:\n{drawing}");
        for b in BUNDLED {
            assert!(
                docs.contains(&format!("| {} | {}", b.name, b.alias)),
                "{} missing from docs",
                b.name
            );
        }
    }

    #[test]
    fn the_classic_matches_the_old_program_one_based_positions() {
        // The old program gives each piece's top-left cell as a 1-based (x, y).
        let expected = [
            ("cc", (2, 1)),
            ("zf", (1, 1)),
            ("zy", (1, 3)),
            ("hz", (4, 1)),
            ("mc", (4, 3)),
            ("gy", (2, 3)),
            ("1", (1, 5)),
            ("2", (4, 5)),
            ("3", (2, 4)),
            ("4", (3, 4)),
        ];
        let layout = classic();
        for (code, (x, y)) in expected {
            let piece = &layout.pieces()[layout.find(code).unwrap()];
            assert_eq!((piece.x + 1, piece.y + 1), (x, y), "{code}");
        }
        let names: Vec<&str> = layout.pieces().iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["曹操", "张飞", "赵云", "黄忠", "马超", "关羽", "兵", "卒", "士", "佐"]);
        assert_eq!(layout.occupant(1, 4), None);
        assert_eq!(layout.occupant(2, 4), None);
    }
}
