//! Helpers shared by the shared-data tests.

use std::path::{Path, PathBuf};

/// Every file below `dir` (recursively) whose extension is `ext` (none if `dir` cannot be read).
pub fn files_with_ext(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_with_ext(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}
