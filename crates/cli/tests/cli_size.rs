//! The thin-CLI invariant (ARCHITECTURE.md, "Thin CLI"; issue 17): the CLI crate is argument
//! parsing and one library call per subcommand, so it stays small. Lines are counted as `wc -l`
//! counts them (every line, comments and blank lines included) in the Rust files under
//! `crates/cli/src`, except `src/demo/` (the embedded examples of `verikit demo`).

use std::path::{Path, PathBuf};

/// Issue 17's limit: the most lines the CLI's Rust sources may have, outside `src/demo/` (a
/// new command group makes room by moving logic or option structs into its library, decision
/// 0012).
const MAX_TOTAL: usize = 1500;
/// The most lines one `src/cmd/<group>.rs` may have.
const MAX_CMD_FILE: usize = 150;

/// Command files allowed over `MAX_CMD_FILE` for now, each with the most lines it may have (empty:
/// every command file is within the limit; an entry needs a reason).
const OVER_LIMIT_FOR_NOW: &[(&str, usize)] = &[];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every Rust file under `src/` outside `src/demo/`, with its path relative to `src/` (with `/`)
/// and its line count.
fn sources() -> Vec<(String, usize)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut out: Vec<(String, usize)> = files
        .into_iter()
        .filter_map(|p| {
            let rel = p.strip_prefix(&src).ok()?;
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            if rel.starts_with("demo/") {
                return None;
            }
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{rel}: {e}"));
            Some((rel, text.lines().count()))
        })
        .collect();
    out.sort();
    out
}

fn table(files: &[(String, usize)]) -> String {
    files
        .iter()
        .map(|(f, n)| format!("  {n:5} {f}\n"))
        .collect()
}

#[test]
fn cli_sources_do_not_grow() {
    let files = sources();
    assert!(
        files.iter().any(|(f, _)| f == "main.rs"),
        "no main.rs found: {files:?}"
    );
    let total: usize = files.iter().map(|(_, n)| n).sum();
    assert!(
        total <= MAX_TOTAL,
        "the CLI has {total} lines of Rust outside src/demo/ (at most {MAX_TOTAL}): move logic \
         into the libraries' command modules\n{}",
        table(&files)
    );
}

#[test]
fn no_command_file_is_over_the_file_limit() {
    let files = sources();
    let cmd: Vec<_> = files
        .iter()
        .filter(|(f, _)| f.starts_with("cmd/"))
        .collect();
    assert!(cmd.len() > 5, "too few command files found: {cmd:?}");
    for (f, n) in &cmd {
        let limit = OVER_LIMIT_FOR_NOW
            .iter()
            .find(|(g, _)| g == f)
            .map_or(MAX_CMD_FILE, |&(_, m)| m);
        assert!(
            *n <= limit,
            "src/{f} has {n} lines (limit {limit}): a command file defines arguments and \
             calls one library entry point; move the rest into the library's task module"
        );
    }
}

#[test]
fn the_allow_list_names_existing_command_files_over_the_limit() {
    let files = sources();
    for (f, _) in OVER_LIMIT_FOR_NOW {
        let n = files.iter().find(|(g, _)| g == f).map(|(_, n)| *n);
        assert!(
            n.is_some_and(|n| n > MAX_CMD_FILE),
            "OVER_LIMIT_FOR_NOW names src/{f} ({n:?} lines), which does not exist or is within \
             {MAX_CMD_FILE} lines: remove it from the list"
        );
    }
}
