//! The shared UPPAAL models: every non-SMC `.xml` parses or is refused by name with a located
//! error; a floor on how many parse.

use std::path::{Path, PathBuf};
use verikit_diag::SourceFile;
use verikit_ta::parse_uppaal;

fn xml_files(dir: &Path, out: &mut Vec<PathBuf>) {
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

#[test]
fn every_shared_uppaal_model_parses_or_is_refused_with_a_location() {
    let dir = verikit_testkit::require_data!("ta/uppaal");
    let mut files = Vec::new();
    xml_files(&dir, &mut files);
    files.sort();
    assert!(files.len() >= 100, "found only {} .xml files", files.len());
    let mut ok = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let t0 = std::time::Instant::now();
        let r = parse_uppaal(&text);
        if t0.elapsed().as_secs_f64() > 0.5 {
            eprintln!("slow: {} {:?}", f.display(), t0.elapsed());
        }
        match r {
            Ok(_) => ok += 1,
            Err(d) => {
                let src = SourceFile::new(f.display().to_string(), text);
                let loc = d.location(&src);
                eprintln!("refused: {}", d.one_line(&src));
                assert!(loc.is_some(), "{}: error without a location", f.display());
            }
        }
    }
    eprintln!("{ok} of {} UPPAAL models parse", files.len());
    assert!(ok >= 73, "only {ok} of {} parse", files.len());
}
