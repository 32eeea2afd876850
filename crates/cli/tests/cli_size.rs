//! The thin-CLI invariant (ARCHITECTURE.md, "Thin CLI"; issue 17): the CLI crate is argument
//! parsing and one library call per subcommand, so it stays small. Lines are counted as `wc -l`
//! counts them (every line, comments and blank lines included) in the Rust files under
//! `crates/cli/src`, except `src/demo/` (the embedded examples of `verikit demo`).

use std::path::{Path, PathBuf};

/// The most lines the CLI's Rust sources may have, outside `src/demo/`.
const MAX_TOTAL: usize = 1500;
/// The most lines one `src/cmd/<group>.rs` may have.
const MAX_CMD_FILE: usize = 150;

/// Command files still over `MAX_CMD_FILE`; each counts as `MAX_CMD_FILE` lines in the total
/// while it is listed. Remove an entry as soon as its file is thinned: from then on it counts as
/// it is.
const OVER_LIMIT_FOR_NOW: &[&str] = &[
    // The omega crate's groups: their remaining logic moves into `verikit_omega::task` on the
    // branch that closes the omega API. Remove both when it is merged.
    "cmd/ltl.rs",
    "cmd/aut.rs",
    // Seven subcommands whose arguments and help text alone are about 130 lines; no logic is left
    // in it (one library call per subcommand), but it is over the limit until its arguments are
    // shared or reduced.
    "cmd/nfa.rs",
];

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
fn cli_sources_stay_under_the_total_limit() {
    let files = sources();
    assert!(
        files.iter().any(|(f, _)| f == "main.rs"),
        "no main.rs found: {files:?}"
    );
    let counted: usize = files
        .iter()
        .map(|(f, n)| {
            if OVER_LIMIT_FOR_NOW.contains(&f.as_str()) {
                (*n).min(MAX_CMD_FILE)
            } else {
                *n
            }
        })
        .sum();
    assert!(
        counted <= MAX_TOTAL,
        "the CLI has {counted} lines of Rust outside src/demo/ (limit {MAX_TOTAL}; files in \
         OVER_LIMIT_FOR_NOW count as {MAX_CMD_FILE}): move logic into the libraries' task \
         modules\n{}",
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
        if OVER_LIMIT_FOR_NOW.contains(&f.as_str()) {
            continue;
        }
        assert!(
            *n <= MAX_CMD_FILE,
            "src/{f} has {n} lines (limit {MAX_CMD_FILE}): a command file defines arguments and \
             calls one library entry point; move the rest into the library's task module"
        );
    }
}

#[test]
fn the_allow_list_names_existing_command_files() {
    let files = sources();
    for f in OVER_LIMIT_FOR_NOW {
        assert!(
            files.iter().any(|(g, _)| g == f),
            "OVER_LIMIT_FOR_NOW names src/{f}, which does not exist: remove it from the list"
        );
    }
}
