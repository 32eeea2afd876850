//! The file-level import graph of a crate and its cycles.
//!
//! Every `src/**/*.rs` file is a node (its module path follows from its place: `a/b.rs` and
//! `a/b/mod.rs` are `a::b`, `lib.rs`/`main.rs` the crate root). An edge `f → g` is drawn for every
//! path in `f` that starts with `crate::`, `super::` or `self::` (in `use` trees, grouped ones
//! included, and in expressions and types), and for `use` paths relative to `f`'s own module
//! (`pub use twa::Twa` in `lib.rs`); the path is resolved to the longest prefix that is a module
//! file, and a re-export (`pub use m::Item`) is followed to the module that defines the item.
//! Code under `#[cfg(test)]` is left out: tests may drive an algorithm through the pipeline that
//! calls it. Comments, strings and character literals are skipped.
//!
//! A cycle is a strongly connected group of at least two files ([`import_cycles`]);
//! [`assert_no_import_cycles`] fails on every group not covered by an allow-list entry.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// One file of the graph: its path under `src/` and its module path.
#[derive(Clone, Debug)]
struct ModFile {
    rel: String,
    module: Vec<String>,
}

/// The file-level import graph of one crate.
#[derive(Clone, Debug)]
pub struct ImportGraph {
    /// Files, as paths relative to the crate's `src/` (`/`-separated).
    pub files: Vec<String>,
    /// Edges `(from, to)` between indices of `files`, without self-loops, deduplicated.
    pub edges: Vec<(u32, u32)>,
}

/// A deliberate cycle: the files of one crate (paths under `src/`) that may form one group, and
/// why. A group found in the graph is allowed when all its files are in one entry of its crate.
#[derive(Clone, Copy, Debug)]
pub struct AllowedCycle {
    pub krate: &'static str,
    pub files: &'static [&'static str],
    pub reason: &'static str,
}

/// The import graph of the crate whose `src/` folder is `src`.
pub fn import_graph(src: &Path) -> ImportGraph {
    let mut paths = Vec::new();
    collect_rs(src, &mut paths);
    paths.sort();
    let mut files: Vec<ModFile> = Vec::new();
    for p in &paths {
        let rel = p
            .strip_prefix(src)
            .unwrap_or(p)
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        let mut module: Vec<String> = rel
            .trim_end_matches(".rs")
            .split('/')
            .map(String::from)
            .collect();
        if module.len() == 1 && (module[0] == "lib" || module[0] == "main") {
            module.clear();
        } else if module.last().is_some_and(|l| l == "mod") {
            module.pop();
        }
        files.push(ModFile { rel, module });
    }
    let by_module: HashMap<Vec<String>, usize> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.module.clone(), i))
        .collect();
    // Tokens (test code removed) and the paths each file mentions.
    let mut excluded: BTreeSet<Vec<String>> = BTreeSet::new();
    let mut per_file: Vec<Vec<Vec<String>>> = Vec::new();
    let mut uses_per_file: Vec<Vec<(Vec<String>, bool)>> = Vec::new();
    for (f, p) in files.iter().zip(&paths) {
        let text = std::fs::read_to_string(p).unwrap_or_default();
        let toks = tokenize(&strip(&text));
        let (toks, test_mods) = drop_test_items(&toks);
        for m in test_mods {
            let mut full = f.module.clone();
            full.push(m);
            excluded.insert(full);
        }
        let (uses, others) = paths_in(&toks);
        uses_per_file.push(uses);
        per_file.push(others);
    }
    // Re-exports: module file index -> item name -> absolute path.
    let mut reexports: Vec<HashMap<String, Vec<String>>> = vec![HashMap::new(); files.len()];
    for (i, uses) in uses_per_file.iter().enumerate() {
        for (u, public) in uses {
            if !public {
                continue;
            }
            if let Some(abs) = absolute(&files[i].module, u, &by_module, true) {
                if let Some(last) = u.last() {
                    if last != "*" && last != "self" {
                        reexports[i].insert(last.clone(), abs);
                    }
                }
            }
        }
    }
    let keep: Vec<bool> = files
        .iter()
        .map(|f| !excluded.iter().any(|e| f.module.starts_with(e)))
        .collect();
    let mut edges = BTreeSet::new();
    for (i, f) in files.iter().enumerate() {
        if !keep[i] {
            continue;
        }
        let all = uses_per_file[i]
            .iter()
            .map(|(u, _)| (u, true))
            .chain(per_file[i].iter().map(|u| (u, false)));
        for (u, in_use) in all {
            let Some(abs) = absolute(&f.module, u, &by_module, in_use) else {
                continue;
            };
            if let Some(t) = resolve(&abs, &by_module, &reexports, 0) {
                if t != i && keep[t] {
                    edges.insert((i as u32, t as u32));
                }
            }
        }
    }
    ImportGraph {
        files: files.into_iter().map(|f| f.rel).collect(),
        edges: edges.into_iter().collect(),
    }
}

/// The groups of at least two files that import each other (strongly connected components of
/// [`import_graph`]), each sorted, in a stable order.
pub fn import_cycles(src: &Path) -> Vec<Vec<String>> {
    let g = import_graph(src);
    let csr = verikit_graph::Csr::from_edges(g.files.len(), &g.edges);
    let sccs = verikit_graph::sccs(&csr);
    let mut out: Vec<Vec<String>> = sccs
        .members
        .iter()
        .filter(|m| m.len() > 1)
        .map(|m| {
            let mut v: Vec<String> = m.iter().map(|&s| g.files[s as usize].clone()).collect();
            v.sort();
            v
        })
        .collect();
    out.sort();
    out
}

/// Fails (listing them) on the import cycles of every crate under `crates_dir` that no entry of
/// `allow` covers; returns every cycle found, as `(crate, files)`, for reporting.
pub fn assert_no_import_cycles(
    crates_dir: &Path,
    allow: &[AllowedCycle],
) -> Vec<(String, Vec<String>)> {
    let mut crates: Vec<PathBuf> = std::fs::read_dir(crates_dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    crates.sort();
    let mut found = Vec::new();
    let mut bad = Vec::new();
    for c in crates {
        let src = c.join("src");
        if !src.is_dir() {
            continue;
        }
        let name = c
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for cyc in import_cycles(&src) {
            let ok = allow
                .iter()
                .any(|a| a.krate == name && cyc.iter().all(|f| a.files.contains(&f.as_str())));
            if !ok {
                bad.push(format!("{name}: {}", cyc.join(" ↔ ")));
            }
            found.push((name.clone(), cyc));
        }
    }
    assert!(
        bad.is_empty(),
        "file-level import cycles not in the allow-list (algorithm modules must not import the \
         module that calls them; move shared helpers down):\n  {}",
        bad.join("\n  ")
    );
    found
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.filter_map(|e| e.ok()) {
        let p = e.path();
        if p.is_dir() {
            collect_rs(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The absolute module path named by `path` (as written in the file of module `here`), or `None`
/// for paths into other crates. `in_use`: a `use` path, which may also start with a child module.
fn absolute(
    here: &[String],
    path: &[String],
    by_module: &HashMap<Vec<String>, usize>,
    in_use: bool,
) -> Option<Vec<String>> {
    let first = path.first()?;
    let mut base: Vec<String>;
    let mut rest = &path[1..];
    match first.as_str() {
        "crate" => base = Vec::new(),
        "self" => base = here.to_vec(),
        "super" => {
            base = here.to_vec();
            base.pop()?;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        _ if in_use => {
            let mut child = here.to_vec();
            child.push(first.clone());
            if !by_module.contains_key(&child) {
                return None;
            }
            base = child;
        }
        _ => return None,
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The file an absolute path lands in: the longest module prefix, following a re-export of the
/// next segment.
fn resolve(
    abs: &[String],
    by_module: &HashMap<Vec<String>, usize>,
    reexports: &[HashMap<String, Vec<String>>],
    depth: usize,
) -> Option<usize> {
    for k in (0..=abs.len()).rev() {
        if let Some(&m) = by_module.get(&abs[..k]) {
            if depth < 8 {
                if let Some(next) = abs.get(k).and_then(|n| reexports[m].get(n)) {
                    let mut target = next.clone();
                    target.extend(abs[k + 1..].iter().cloned());
                    if let Some(t) = resolve(&target, by_module, reexports, depth + 1) {
                        return Some(t);
                    }
                }
            }
            return Some(m);
        }
    }
    None
}

/// Source text without comments, string literals and character literals (replaced by spaces).
fn strip(s: &str) -> String {
    let c: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if ch == 'r' && (next == Some('"') || next == Some('#')) && !prev_ident(&c, i) {
            // Raw string r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(ch);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= c.len() {
                    break;
                }
                if c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            i = j;
            out.push(' ');
        } else if ch == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push(' ');
        } else if ch == '\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if next == Some('\\') {
                let mut j = i + 2;
                while j < c.len() && c[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
                out.push(' ');
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push(' ');
            } else {
                out.push(ch);
                i += 1;
            }
        } else {
            out.push(ch);
            i += 1;
        }
    }
    out
}

fn prev_ident(c: &[char], i: usize) -> bool {
    i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_')
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Path, // ::
    P(char),
}

fn tokenize(s: &str) -> Vec<Tok> {
    let c: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_alphabetic() || ch == '_' {
            let st = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let w: String = c[st..i].iter().collect();
            // Raw identifiers r#name.
            out.push(Tok::Ident(w));
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push(Tok::Path);
            i += 2;
        } else if ch.is_whitespace() || ch.is_ascii_digit() {
            i += 1;
        } else {
            out.push(Tok::P(ch));
            i += 1;
        }
    }
    out
}

fn is_ident(t: Option<&Tok>, w: &str) -> bool {
    matches!(t, Some(Tok::Ident(x)) if x == w)
}

/// The tokens without the items under `#[cfg(test)]`, and the names of the out-of-line test
/// modules (`#[cfg(test)] mod tests;`).
fn drop_test_items(toks: &[Tok]) -> (Vec<Tok>, Vec<String>) {
    let mut out = Vec::new();
    let mut test_mods = Vec::new();
    let mut i = 0;
    let is_cfg_test = |i: usize| {
        toks.get(i) == Some(&Tok::P('#'))
            && toks.get(i + 1) == Some(&Tok::P('['))
            && is_ident(toks.get(i + 2), "cfg")
            && toks.get(i + 3) == Some(&Tok::P('('))
            && is_ident(toks.get(i + 4), "test")
            && toks.get(i + 5) == Some(&Tok::P(')'))
            && toks.get(i + 6) == Some(&Tok::P(']'))
    };
    while i < toks.len() {
        if !is_cfg_test(i) {
            out.push(toks[i].clone());
            i += 1;
            continue;
        }
        i += 7;
        // Further attributes of the item.
        while toks.get(i) == Some(&Tok::P('#')) && toks.get(i + 1) == Some(&Tok::P('[')) {
            let mut d = 0;
            i += 1;
            while i < toks.len() {
                match toks[i] {
                    Tok::P('[') => d += 1,
                    Tok::P(']') => {
                        d -= 1;
                        if d == 0 {
                            i += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        // The item: up to `;` at depth 0 or the end of its first braced block.
        let start = i;
        let mut d = 0i32;
        while i < toks.len() {
            match toks[i] {
                Tok::P('{') | Tok::P('(') | Tok::P('[') => d += 1,
                Tok::P('}') | Tok::P(')') | Tok::P(']') => {
                    d -= 1;
                    if d == 0 && toks[i] == Tok::P('}') {
                        i += 1;
                        break;
                    }
                }
                Tok::P(';') if d == 0 => {
                    // `mod name;`
                    let item = &toks[start..i];
                    if let Some(p) = item.iter().position(|t| is_ident(Some(t), "mod")) {
                        if let Some(Tok::Ident(n)) = item.get(p + 1) {
                            test_mods.push(n.clone());
                        }
                    }
                    i += 1;
                    break;
                }
                _ => {}
            }
            i += 1;
        }
    }
    (out, test_mods)
}

/// The paths of `use` trees (expanded, `crate::{a, b::c}` → `crate::a`, `crate::b::c`), each
/// with whether the `use` is a re-export (`pub use`, `pub(…) use`), and the other paths starting
/// with `crate`, `super` or `self` followed by `::`.
#[allow(clippy::type_complexity)]
fn paths_in(toks: &[Tok]) -> (Vec<(Vec<String>, bool)>, Vec<Vec<String>>) {
    let mut uses = Vec::new();
    let mut others = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if is_ident(toks.get(i), "use") {
            let public = i > 0
                && (is_ident(toks.get(i - 1), "pub") || toks.get(i - 1) == Some(&Tok::P(')')));
            let mut j = i + 1;
            let mut tree = Vec::new();
            use_tree(toks, &mut j, Vec::new(), &mut tree);
            uses.extend(tree.into_iter().map(|u| (u, public)));
            i = j;
            continue;
        }
        if let Some(Tok::Ident(w)) = toks.get(i) {
            let after_path = i > 0 && toks[i - 1] == Tok::Path;
            if (w == "crate" || w == "super" || w == "self")
                && toks.get(i + 1) == Some(&Tok::Path)
                && !after_path
            {
                let mut p = vec![w.clone()];
                let mut j = i + 1;
                while toks.get(j) == Some(&Tok::Path) {
                    match toks.get(j + 1) {
                        Some(Tok::Ident(x)) => {
                            p.push(x.clone());
                            j += 2;
                        }
                        _ => break,
                    }
                }
                others.push(p);
                i = j;
                continue;
            }
        }
        i += 1;
    }
    (uses, others)
}

/// Parses one use tree at `*i` with the given prefix; leaves `*i` after it (after the `;` at the
/// top level).
fn use_tree(toks: &[Tok], i: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut p = prefix;
    loop {
        match toks.get(*i) {
            Some(Tok::Ident(w)) if w == "as" => {
                // `a::b as c`: skip the alias.
                *i += 2;
            }
            Some(Tok::Ident(w)) => {
                p.push(w.clone());
                *i += 1;
            }
            Some(Tok::Path) => *i += 1,
            Some(Tok::P('*')) => {
                p.push("*".into());
                *i += 1;
            }
            Some(Tok::P('{')) => {
                *i += 1;
                loop {
                    use_tree(toks, i, p.clone(), out);
                    match toks.get(*i) {
                        Some(Tok::P(',')) => *i += 1,
                        Some(Tok::P('}')) => {
                            *i += 1;
                            break;
                        }
                        _ => break,
                    }
                    if toks.get(*i) == Some(&Tok::P('}')) {
                        *i += 1;
                        break;
                    }
                }
                if toks.get(*i) == Some(&Tok::P(';')) {
                    *i += 1;
                }
                return;
            }
            Some(Tok::P(';')) => {
                *i += 1;
                if !p.is_empty() {
                    out.push(p);
                }
                return;
            }
            _ => {
                // `,` or `}` of an enclosing group (left for the caller), or the end.
                if !p.is_empty() {
                    out.push(p);
                }
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, rel: &str, text: &str) {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn finds_cycles_through_use_trees_super_and_reexports() {
        let dir = std::env::temp_dir().join(format!("verikit-import-graph-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        write(
            &dir,
            "lib.rs",
            "pub mod a; pub mod b; pub mod c; pub mod d; pub mod m;\npub use d::Item;\n",
        );
        write(&dir, "a.rs", "use crate::{b::X, c};\n// crate::d::nothing in a comment\nfn f() { let s = \"crate::d::Y\"; }\n");
        write(
            &dir,
            "b.rs",
            "fn g() { crate::a::f(); }\n#[cfg(test)]\nmod tests { use crate::c::Z; }\n",
        );
        write(&dir, "c.rs", "fn h() -> crate::Item { todo!() }\n");
        write(
            &dir,
            "d.rs",
            "pub struct Item; fn k<'a>(x: &'a str) -> char { 'x' }\n",
        );
        write(&dir, "m/mod.rs", "mod inner;\npub use inner::Q;\n");
        write(
            &dir,
            "m/inner.rs",
            "use super::super::m::Q;\npub struct Q;\n",
        );
        let g = import_graph(&dir);
        let name = |i: u32| g.files[i as usize].as_str();
        let edges: BTreeSet<(&str, &str)> =
            g.edges.iter().map(|&(a, b)| (name(a), name(b))).collect();
        assert!(edges.contains(&("a.rs", "b.rs")));
        assert!(edges.contains(&("a.rs", "c.rs")));
        assert!(edges.contains(&("b.rs", "a.rs")));
        assert!(edges.contains(&("c.rs", "d.rs")), "{edges:?}");
        assert!(edges.contains(&("lib.rs", "d.rs")));
        assert!(edges.contains(&("m/mod.rs", "m/inner.rs")));
        assert!(
            !edges.contains(&("a.rs", "d.rs")),
            "comments and strings are skipped"
        );
        assert!(!edges.contains(&("b.rs", "c.rs")), "test code is skipped");
        assert!(
            !edges.contains(&("m/inner.rs", "m/mod.rs")),
            "re-exports are followed"
        );
        assert_eq!(
            import_cycles(&dir),
            vec![vec!["a.rs".to_string(), "b.rs".to_string()]]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
