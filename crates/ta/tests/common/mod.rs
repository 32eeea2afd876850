//! Helpers shared by the shared-data tests.

use std::path::{Path, PathBuf};

/// Every `.xml` file below `dir`, recursively (none if `dir` cannot be read).
pub fn xml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            xml_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "xml") {
            out.push(p);
        }
    }
}
