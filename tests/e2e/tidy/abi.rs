//! docs/abi.md lists exactly the imports the host provides, with their signatures, and marks
//! exactly those the Rust SDK imports.
//!
//! What each side is read from, and what the reading relies on:
//!
//! - docs/abi.md: every table whose header row is [`DOC_TABLE_HEADER`], one import a row:
//!   `` | `module` | `function` | `func (i32, i32) -> i32` | yes | `` (the last cell `yes` or
//!   `no`: whether the SDK imports it). Its `####` headings that name a function, like
//!   `` `botlens.view(out_ptr: i32, out_cap: i32) -> i32` ``, must agree with the table.
//! - the host: the `const` arrays of [`HOST_TABLES`], entries `("name", <signature>, …)`, the
//!   signature either `Sig { params: &[…], results: &[…] }` or `sig(&[…])` with the file's `sig`
//!   helper, the types written with the file's `const X: Ty = Ty::I32;` aliases or as
//!   `Ty::I32`. An entry whose third element is `Errno(…)` is a stub made from the table; every
//!   other entry must be linked by hand, by a `func_wrap(<module const>, "name", …)` call in a
//!   sandbox source, and every such call must name an entry.
//! - the SDK: every `extern "C"` block under crates/sdk/src after a
//!   `#[link(wasm_import_module = "…")]` attribute (whatever its `cfg`), its `fn` declarations'
//!   Rust types taken as wasm32 types: pointers, `usize`, `isize`, `i32`, `u32` and smaller
//!   integers as `i32`; `i64`, `u64` as `i64`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

use super::source::{
    Keep, blank, closing, files_with, is_ident_char, read, relative, split_top_level,
};
use crate::support::repo_root;

/// The header row of the tables of imports in docs/abi.md.
const DOC_TABLE_HEADER: &str = "| module | function | signature | the Rust SDK imports it |";

/// Where the host lists the functions it provides: a sandbox source, the `&str` const naming
/// the import module, and the const array of the functions.
const HOST_TABLES: &[(&str, &str, &str)] = &[
    ("crates/sandbox/src/abi.rs", "HOST_MODULE", "HOST_FUNCTIONS"),
    ("crates/sandbox/src/wasi.rs", "MODULE", "TABLE"),
];

/// A function signature in wasm types, printed as docs/abi.md and the host's messages print it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Sig {
    params: Vec<String>,
    results: Vec<String>,
}

impl fmt::Display for Sig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "func ({})", self.params.join(", "))?;
        if !self.results.is_empty() {
            write!(f, " -> {}", self.results.join(", "))?;
        }
        Ok(())
    }
}

/// Imports by (module, function name).
type Imports<T> = BTreeMap<(String, String), T>;

/// Reads `func (i32, i64) -> i32`.
fn parse_sig(text: &str) -> Option<Sig> {
    let inner = text.strip_prefix("func (")?;
    let (params, results) = inner.split_once(')')?;
    let list = |types: &str| split_top_level(types).into_iter().map(str::to_owned).collect();
    let results = match results.trim() {
        "" => Vec::new(),
        rest => list(rest.strip_prefix("->")?),
    };
    Some(Sig { params: list(params), results })
}

/// One row of an import table of docs/abi.md: the signature and whether the SDK imports it.
#[derive(Debug, PartialEq)]
struct DocRow {
    sig: Sig,
    in_sdk: bool,
}

/// Reads a row `` | `module` | `name` | `func (…) -> …` | yes | ``.
fn doc_row(row: &str) -> Option<((String, String), DocRow)> {
    let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
    let [module, name, sig, sdk] = cells[..] else { return None };
    let code = |cell: &str| cell.strip_prefix('`')?.strip_suffix('`').map(str::to_owned);
    let in_sdk = match sdk {
        "yes" => true,
        "no" => false,
        _ => return None,
    };
    Some(((code(module)?, code(name)?), DocRow { sig: parse_sig(&code(sig)?)?, in_sdk }))
}

/// The import tables of docs/abi.md, and the problems with how they are written.
fn doc_tables(doc: &str) -> (Imports<DocRow>, Vec<String>) {
    let (mut rows, mut problems) = (Imports::new(), Vec::new());
    let lines: Vec<&str> = doc.lines().collect();
    let starts = lines.iter().enumerate().filter(|(_, line)| line.trim() == DOC_TABLE_HEADER);
    for (start, _) in starts {
        // The header, the `|---|` separator, then rows up to the first line that is not one.
        let after = lines.get(start + 2..).unwrap_or_default();
        let table = after.iter().take_while(|line| line.starts_with('|'));
        for row in table {
            match doc_row(row) {
                Some((key, parsed)) => {
                    if rows.insert(key.clone(), parsed).is_some() {
                        problems.push(format!("docs/abi.md lists `{}.{}` twice", key.0, key.1));
                    }
                }
                None => {
                    problems.push(format!("docs/abi.md: an import row of another shape: {row}"))
                }
            }
        }
    }
    if rows.is_empty() {
        problems.push(format!("docs/abi.md has no table headed `{DOC_TABLE_HEADER}`"));
    }
    (rows, problems)
}

/// The `####` headings of docs/abi.md that name a function, like
/// `` `botlens.view(out_ptr: i32, out_cap: i32) -> i32` ``, as signatures.
fn doc_headings(doc: &str) -> Imports<Sig> {
    let mut found = Imports::new();
    for line in doc.lines() {
        let Some(heading) = line.strip_prefix("#### `").and_then(|h| h.strip_suffix('`')) else {
            continue;
        };
        let Some((module, rest)) = heading.split_once('.') else { continue };
        let Some((name, rest)) = rest.split_once('(') else { continue };
        let Some((params, results)) = rest.split_once(')') else { continue };
        let types = |list: &str| -> Vec<String> {
            split_top_level(list)
                .into_iter()
                .map(|param| param.rsplit(':').next().unwrap_or(param).trim().to_owned())
                .collect()
        };
        let results = results.trim().strip_prefix("->").map(types).unwrap_or_default();
        found.insert((module.to_owned(), name.to_owned()), Sig { params: types(params), results });
    }
    found
}

/// A function a host table lists: its signature and whether it is linked by hand (not a stub
/// made from the table).
#[derive(Debug)]
struct HostEntry {
    sig: Sig,
    linked_by_hand: bool,
}

/// The one-line `const NAME: TYPE = VALUE;` items of a (blanked) source: name → value.
fn consts(code: &str) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    for line in code.lines() {
        let Some(at) = line.find("const ") else { continue };
        let item = &line[at + "const ".len()..];
        let (Some((name, rest)), Some(value_end)) = (item.split_once(':'), item.rfind(';')) else {
            continue;
        };
        if let Some((_, value)) = item[..value_end].split_once(" = ")
            && name.chars().all(is_ident_char)
            && rest.contains(" = ")
        {
            found.insert(name.to_owned(), value.trim().to_owned());
        }
    }
    found
}

/// The text of the array expression `&[…]` of `const NAME…` in `code`, brackets included.
fn const_array<'a>(code: &'a str, name: &str) -> Option<&'a str> {
    let start = code.find(&format!("const {name}:"))?;
    let open = start + code[start..].find("= &[")? + "= &".len();
    Some(&code[open..closing(code, open)?])
}

/// The wasm type of a `Ty` as a source writes it: one of its `aliases`, or `Ty::I32`.
fn ty(token: &str, aliases: &BTreeMap<String, String>) -> Result<String, String> {
    let resolved = aliases.get(token).map_or(token, String::as_str);
    match resolved.strip_prefix("Ty::") {
        Some(name) => Ok(name.to_lowercase()),
        None => Err(format!("`{token}` is not a `Ty`")),
    }
}

/// The types of a `&[…]` list of `Ty`s, or of a const alias of one.
fn ty_list(expr: &str, aliases: &BTreeMap<String, String>) -> Result<Vec<String>, String> {
    let resolved = aliases.get(expr.trim()).map_or(expr.trim(), String::as_str);
    let inner = resolved
        .strip_prefix("&[")
        .and_then(|rest| rest.strip_suffix(']'))
        .ok_or_else(|| format!("`{expr}` is not a list of types"))?;
    split_top_level(inner).into_iter().map(|token| ty(token, aliases)).collect()
}

/// The signature an entry of a host table gives.
fn entry_sig(expr: &str, code: &str, aliases: &BTreeMap<String, String>) -> Result<Sig, String> {
    let field = |text: &str, name: &str| -> Result<String, String> {
        let at =
            text.find(&format!("{name}:")).ok_or_else(|| format!("no `{name}` in `{text}`"))?;
        let value = text[at + name.len() + 1..].trim_start();
        // A list runs to its `]`, an alias of one to the next `,` or `}`.
        let end = match value.starts_with("&[") {
            true => value.find(']').map(|k| k + 1),
            false => value.find([',', '}']),
        };
        Ok(value[..end.unwrap_or(value.len())].trim().to_owned())
    };
    if let Some(fields) = expr.strip_prefix("Sig {") {
        let params = ty_list(&field(fields, "params")?, aliases)?;
        return Ok(Sig { params, results: ty_list(&field(fields, "results")?, aliases)? });
    }
    if let Some(params) = expr.strip_prefix("sig(").and_then(|rest| rest.strip_suffix(')')) {
        // The `sig` helper of the same file fixes the results.
        let helper = code.find("fn sig(").ok_or("`sig(…)` is used but no `fn sig(` is defined")?;
        let body_start = helper + code[helper..].find('{').ok_or("`fn sig` has no body")?;
        let body = &code[body_start..closing(code, body_start).ok_or("`fn sig` does not close")?];
        let results = ty_list(&field(body, "results")?, aliases)?;
        return Ok(Sig { params: ty_list(params, aliases)?, results });
    }
    Err(format!("`{expr}` is neither `Sig {{ … }}` nor `sig(…)`"))
}

/// The functions of one host table, read from its source as the module doc describes.
fn host_table(
    source: &str,
    module_const: &str,
    table: &str,
) -> Result<(String, BTreeMap<String, HostEntry>), String> {
    let code = blank(source, Keep::Strings);
    let aliases = consts(&code);
    let module = aliases
        .get(module_const)
        .and_then(|value| value.strip_prefix('"')?.strip_suffix('"'))
        .ok_or_else(|| format!("no `const {module_const}: &str = \"…\";`"))?
        .to_owned();
    let array =
        const_array(&code, table).ok_or_else(|| format!("no `const {table}: … = &[…];`"))?;
    let mut entries = BTreeMap::new();
    for entry in split_top_level(&array[1..array.len() - 1]) {
        let parts = entry
            .strip_prefix('(')
            .and_then(|e| e.strip_suffix(')'))
            .map(split_top_level)
            .ok_or_else(|| format!("`{entry}` is not a tuple"))?;
        let name = parts
            .first()
            .and_then(|n| n.strip_prefix('"')?.strip_suffix('"'))
            .ok_or_else(|| format!("`{entry}` does not start with a name"))?;
        let sig = entry_sig(
            parts.get(1).ok_or_else(|| format!("`{entry}` has no signature"))?,
            &code,
            &aliases,
        )?;
        let linked_by_hand = !parts.get(2).is_some_and(|behaviour| behaviour.starts_with("Errno("));
        entries.insert(name.to_owned(), HostEntry { sig, linked_by_hand });
    }
    Ok((module, entries))
}

/// The `(module const, name)` of every `func_wrap(<const>, "name", …)` call in `source`.
fn func_wraps(source: &str) -> Vec<(String, String)> {
    let code = blank(source, Keep::Strings);
    let mut found = Vec::new();
    for (at, _) in code.match_indices("func_wrap(") {
        let open = at + "func_wrap".len();
        let Some(close) = closing(&code, open) else { continue };
        if let [module, name, ..] = split_top_level(&code[open + 1..close - 1])[..] {
            let module = module.rsplit("::").next().unwrap_or(module).to_owned();
            found.push((module, name.trim_matches('"').to_owned()));
        }
    }
    found
}

/// The wasm32 type a Rust type of an SDK import passes as.
fn wasm_type(rust: &str) -> Result<String, String> {
    let rust = rust.trim();
    if rust.starts_with('*') {
        return Ok("i32".into());
    }
    match rust {
        "usize" | "isize" | "i32" | "u32" | "i16" | "u16" | "i8" | "u8" | "bool" | "char" => {
            Ok("i32".into())
        }
        "i64" | "u64" => Ok("i64".into()),
        "f32" | "f64" => Ok(rust.into()),
        other => Err(format!("no wasm type for the Rust type `{other}`")),
    }
}

/// The imports an SDK source declares, as the module doc describes.
fn sdk_imports(source: &str) -> Result<Imports<Sig>, String> {
    let code = blank(source, Keep::Strings);
    let mut found = Imports::new();
    let attribute = "#[link(wasm_import_module = \"";
    for (at, _) in code.match_indices(attribute) {
        let module_start = at + attribute.len();
        let module =
            &code[module_start..module_start + code[module_start..].find('"').ok_or("unclosed")?];
        let block =
            module_start + code[module_start..].find("extern \"C\"").ok_or("no extern block")?;
        let open = block + code[block..].find('{').ok_or("no extern block body")?;
        let body = &code[open + 1..closing(&code, open).ok_or("unclosed extern block")? - 1];
        for item in body.split(';').filter(|item| item.contains("fn ")) {
            let link_name = item
                .split_once("#[link_name = \"")
                .and_then(|(_, rest)| rest.split_once('"'))
                .map(|(name, _)| name.to_owned());
            let after = &item[item.find("fn ").unwrap() + 3..];
            let paren = after.find('(').ok_or_else(|| format!("`{item}`: no parameters"))?;
            let name = link_name.unwrap_or_else(|| after[..paren].trim().to_owned());
            let close = closing(after, paren).ok_or_else(|| format!("`{item}`: unclosed"))?;
            let params = split_top_level(&after[paren + 1..close - 1])
                .into_iter()
                .map(|param| wasm_type(param.split_once(':').map_or(param, |(_, ty)| ty)))
                .collect::<Result<_, _>>()?;
            let results = match after[close..].trim().strip_prefix("->") {
                Some(ty) if ty.trim() == "!" => Vec::new(),
                Some(ty) => vec![wasm_type(ty)?],
                None => Vec::new(),
            };
            found.insert((module.to_owned(), name), Sig { params, results });
        }
    }
    Ok(found)
}

/// What the check compares: the document's tables and headings, the host's tables (with the
/// calls that link functions by hand) and the SDK's imports.
struct Sides {
    doc: String,
    host_tables: Vec<(String, BTreeMap<String, HostEntry>)>,
    /// `(module, name)` of each hand-linked function, module by its const name.
    func_wraps: Vec<(String, String)>,
    /// The module const name of each host table, in the order of `host_tables`.
    module_consts: Vec<String>,
    sdk: Imports<Sig>,
}

/// Every disagreement between the sides, one message each.
fn disagreements(sides: &Sides) -> Vec<String> {
    let (doc, mut problems) = doc_tables(&sides.doc);
    let mut host = Imports::new();
    for ((module, entries), module_const) in sides.host_tables.iter().zip(&sides.module_consts) {
        for (name, entry) in entries {
            host.insert((module.clone(), name.clone()), entry.sig.clone());
            let wrapped = sides.func_wraps.iter().any(|(m, n)| m == module_const && n == name);
            if entry.linked_by_hand && !wrapped {
                problems
                    .push(format!("the host lists `{module}.{name}` but no `func_wrap` links it"));
            }
        }
    }
    for (module_const, name) in &sides.func_wraps {
        let Some(table) = sides.module_consts.iter().position(|c| c == module_const) else {
            let call = format!("func_wrap({module_const}, \"{name}\")");
            problems.push(format!("`{call}`: `{module_const}` names no host table"));
            continue;
        };
        let (module, entries) = &sides.host_tables[table];
        if !entries.get(name).is_some_and(|entry| entry.linked_by_hand) {
            problems.push(format!(
                "`func_wrap` links `{module}.{name}`, which the host's table does not list as \
                 linked by hand"
            ));
        }
    }
    let show = |(module, name): &(String, String)| format!("`{module}.{name}`");
    for (key, sig) in &host {
        match doc.get(key) {
            None => problems.push(format!(
                "the host provides {} ({sig}); docs/abi.md does not list it",
                show(key)
            )),
            Some(row) if row.sig != *sig => problems.push(format!(
                "docs/abi.md gives {} as `{}`, the host as `{sig}`",
                show(key),
                row.sig
            )),
            Some(_) => {}
        }
    }
    for (key, row) in &doc {
        if !host.contains_key(key) {
            problems
                .push(format!("docs/abi.md lists {}, which the host does not provide", show(key)));
        }
        match (row.in_sdk, sides.sdk.get(key)) {
            (true, None) => problems
                .push(format!("docs/abi.md says the SDK imports {}; it does not", show(key))),
            (false, Some(_)) => problems
                .push(format!("docs/abi.md says the SDK does not import {}; it does", show(key))),
            (true, Some(sig)) if *sig != row.sig => problems.push(format!(
                "the SDK imports {} as `{sig}`, docs/abi.md gives `{}`",
                show(key),
                row.sig
            )),
            _ => {}
        }
    }
    for key in sides.sdk.keys().filter(|key| !doc.contains_key(*key)) {
        problems.push(format!("the SDK imports {}; docs/abi.md does not list it", show(key)));
    }
    // The headings that describe a module's functions describe exactly those of its table.
    let headings = doc_headings(&sides.doc);
    let described: BTreeSet<&String> = headings.keys().map(|(module, _)| module).collect();
    for (key, row) in doc.iter().filter(|((module, _), _)| described.contains(module)) {
        match headings.get(key) {
            None => problems.push(format!("docs/abi.md: no heading describes {}", show(key))),
            Some(sig) if *sig != row.sig => problems.push(format!(
                "docs/abi.md: the heading of {} gives `{sig}`, the table `{}`",
                show(key),
                row.sig
            )),
            Some(_) => {}
        }
    }
    for key in headings.keys().filter(|key| !doc.contains_key(*key)) {
        problems
            .push(format!("docs/abi.md: a heading describes {}, which no table lists", show(key)));
    }
    problems
}

/// The sides as the repository has them.
fn repository_sides(root: &Path) -> Result<Sides, String> {
    let mut host_tables = Vec::new();
    let mut module_consts = Vec::new();
    for (file, module_const, table) in HOST_TABLES {
        let source = read(&root.join(file));
        host_tables
            .push(host_table(&source, module_const, table).map_err(|e| format!("{file}: {e}"))?);
        module_consts.push((*module_const).to_owned());
    }
    let func_wraps = files_with(&root.join("crates/sandbox/src"), &["rs"])
        .iter()
        .flat_map(|f| func_wraps(&read(f)))
        .collect();
    let mut sdk = Imports::new();
    for file in files_with(&root.join("crates/sdk/src"), &["rs"]) {
        sdk.extend(
            sdk_imports(&read(&file)).map_err(|e| format!("{}: {e}", relative(root, &file)))?,
        );
    }
    Ok(Sides { doc: read(&root.join("docs/abi.md")), host_tables, func_wraps, module_consts, sdk })
}

#[test]
fn the_abi_document_lists_exactly_the_imports_of_the_host_and_marks_the_sdks() {
    let sides = repository_sides(&repo_root()).unwrap_or_else(|e| panic!("{e}"));
    let host_functions: usize = sides.host_tables.iter().map(|(_, entries)| entries.len()).sum();
    assert!(
        host_functions > 40 && sides.sdk.len() > 4,
        "read too little: {host_functions}, {:?}",
        sides.sdk
    );
    let problems = disagreements(&sides);
    assert!(problems.is_empty(), "docs/abi.md and the code disagree:\n{}", problems.join("\n"));
}

#[test]
fn planted_disagreements_are_each_reported() {
    let host = r#"
        const HOST_MODULE: &str = "botlens";
        const I: Ty = Ty::I32;
        const ERRNO: &[Ty] = &[I];
        const fn sig(params: &'static [Ty]) -> Sig { Sig { params, results: ERRNO } }
        // const HOST_FUNCTIONS: a comment is not the table
        pub(crate) const HOST_FUNCTIONS: &[(&str, Sig, Behaviour)] = &[
            ("view", Sig { params: &[I, I], results: &[I] }, Implemented),
            ("log", Sig { params: &[I, Ty::I64], results: &[] }, Implemented),
            ("yield", sig(&[]), Errno(0)),
            ("spare", sig(&[I]), Implemented),
        ];
        fn link(linker: &mut Linker) {
            linker.func_wrap(HOST_MODULE, "view", view)?;
            linker.func_wrap(abi::HOST_MODULE, "log", log)?;
            linker.func_wrap(HOST_MODULE, "yield", stub)?;
        }
    "#;
    let sdk = r#"
        #[link(wasm_import_module = "botlens")]
        unsafe extern "C" {
            pub fn view(out_ptr: *mut u8, out_cap: usize) -> i32;
            #[link_name = "log"]
            pub fn write_log(ptr: *const u8, len: u64);
        }
    "#;
    let header = format!("{DOC_TABLE_HEADER}\n|---|---|---|---|\n");
    let doc = format!(
        "#### `botlens.view(out_ptr: i32, out_cap: i32) -> i32`\n\n{header}\
         | `botlens` | `view` | `func (i32, i32) -> i32` | yes |\n\
         | `botlens` | `log` | `func (i32, i32)` | no |\n\
         | `botlens` | `yield` | `func () -> i32` | yes |\n\
         | `botlens` | `gone` | `func ()` | no |\n"
    );
    let sides = Sides {
        doc,
        host_tables: vec![host_table(host, "HOST_MODULE", "HOST_FUNCTIONS").expect("a table")],
        func_wraps: func_wraps(host),
        module_consts: vec!["HOST_MODULE".into()],
        sdk: sdk_imports(sdk).expect("imports"),
    };
    let problems = disagreements(&sides);
    let expected = [
        "the host lists `botlens.spare` but no `func_wrap` links it",
        "`func_wrap` links `botlens.yield`, which the host's table does not list as linked by hand",
        "docs/abi.md gives `botlens.log` as `func (i32, i32)`, the host as `func (i32, i64)`",
        "the host provides `botlens.spare` (func (i32) -> i32); docs/abi.md does not list it",
        "docs/abi.md lists `botlens.gone`, which the host does not provide",
        "docs/abi.md says the SDK does not import `botlens.log`; it does",
        "docs/abi.md says the SDK imports `botlens.yield`; it does not",
    ];
    let headings = [
        "docs/abi.md: no heading describes `botlens.gone`",
        "docs/abi.md: no heading describes `botlens.log`",
        "docs/abi.md: no heading describes `botlens.yield`",
    ];
    assert_eq!(problems, [&expected[..], &headings[..]].concat(), "{problems:#?}");
}
