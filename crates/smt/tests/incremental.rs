//! Long incremental scripts: many `(push 1) (assert …) (check-sat) (pop 1)` blocks, nested
//! scopes and assertions at the outer levels between them, answered in one session (where the
//! solver rebuilds its encoding after enough pops) and every check again in a script of its
//! own holding only the assertions in scope. The answers must agree and every model and
//! Farkas certificate must pass the independent checker.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use verikit_smt::{run_script, RunOptions, ScriptOutput};

fn run(s: &str) -> ScriptOutput {
    run_script(
        s,
        RunOptions {
            check: true,
            ..Default::default()
        },
    )
}

/// A random linear term over `x0..x{n-1}` (integer or rational coefficients).
fn term(rng: &mut StdRng, n: usize, ints: bool) -> String {
    let k = rng.gen_range(1..=3);
    let mut parts = Vec::new();
    for _ in 0..k {
        let c: i32 = match rng.gen_range(-3..=3) {
            0 => 1,
            c => c,
        };
        let x = rng.gen_range(0..n);
        parts.push(format!("(* {} x{x})", num(c, ints)));
    }
    if rng.gen_bool(0.5) {
        parts.push(num(rng.gen_range(-6..=6), ints));
    }
    if parts.len() == 1 {
        parts.remove(0)
    } else {
        format!("(+ {})", parts.join(" "))
    }
}

fn num(v: i32, ints: bool) -> String {
    let a = if ints {
        v.abs().to_string()
    } else {
        format!("{}.0", v.abs())
    };
    if v < 0 {
        format!("(- {a})")
    } else {
        a
    }
}

fn formula(rng: &mut StdRng, depth: u32, n: usize, ints: bool) -> String {
    if depth == 0 || rng.gen_bool(0.3) {
        if rng.gen_bool(0.15) {
            return format!("b{}", rng.gen_range(0..2));
        }
        let op = ["<=", "<", ">=", ">", "=", "distinct"][rng.gen_range(0..6)];
        let rhs = if rng.gen_bool(0.5) {
            num(rng.gen_range(-6..=6), ints)
        } else {
            term(rng, n, ints)
        };
        return format!("({op} {} {rhs})", term(rng, n, ints));
    }
    let d = depth - 1;
    let ops = [
        ("not", 1),
        ("ite", 3),
        ("=>", 2),
        ("xor", 2),
        ("and", 2),
        ("or", 3),
    ];
    let (op, arity) = ops[rng.gen_range(0..6) as usize];
    let args: Vec<String> = (0..arity).map(|_| formula(rng, d, n, ints)).collect();
    format!("({op} {})", args.join(" "))
}

/// One long script and, for each of its checks, the stand-alone script of that check.
fn scripts(seed: u64, ints: bool, blocks: usize) -> (String, Vec<String>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let n = 3;
    let (logic, sort) = if ints {
        ("QF_LIA", "Int")
    } else {
        ("QF_LRA", "Real")
    };
    let mut head = format!("(set-logic {logic})\n");
    for i in 0..n {
        head += &format!("(declare-fun x{i} () {sort})\n");
    }
    head += "(declare-fun b0 () Bool)\n(declare-fun b1 () Bool)\n";
    if ints {
        // Branch and bound without cuts terminates on bounded integer problems only.
        for i in 0..n {
            head += &format!("(assert (<= (- 20) x{i} 20))\n");
        }
    }
    let mut long = head.clone();
    let mut single = Vec::new();
    // Assertions of the open scopes (outermost first).
    let mut stack: Vec<Vec<String>> = vec![Vec::new()];
    for _ in 0..blocks {
        // Sometimes open or close an outer scope, or add an outer assertion (kept weak so
        // that most blocks stay satisfiable).
        match rng.gen_range(0..12) {
            0 if stack.len() < 3 => {
                long += "(push 1)\n";
                stack.push(Vec::new());
            }
            1 if stack.len() > 1 => {
                long += "(pop 1)\n";
                stack.pop();
            }
            2 => {
                let a = format!("(assert (or {} b0 b1))", formula(&mut rng, 1, n, ints));
                long += &a;
                long += "\n";
                if let Some(top) = stack.last_mut() {
                    top.push(a);
                }
            }
            _ => {}
        }
        let body: Vec<String> = (0..rng.gen_range(1..=3))
            .map(|_| format!("(assert {})", formula(&mut rng, 3, n, ints)))
            .collect();
        long += &format!("(push 1)\n{}\n(check-sat)\n(pop 1)\n", body.join("\n"));
        let outer: Vec<String> = stack.iter().flatten().cloned().collect();
        single.push(format!(
            "{head}{}\n{}\n(check-sat)\n",
            outer.join("\n"),
            body.join("\n")
        ));
    }
    (long, single)
}

fn same_answers(seed: u64, ints: bool, blocks: usize) {
    let (long, single) = scripts(seed, ints, blocks);
    let out = run(&long);
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!(out.checks.len(), single.len());
    assert!(
        out.stats.rebuilds > 0,
        "{blocks} blocks never rebuilt the encoding"
    );
    for (i, (c, s)) in out.checks.iter().zip(&single).enumerate() {
        assert_ne!(c.model_valid, Some(false), "check {i}: invalid model");
        assert!(
            c.certificate_failures.is_empty(),
            "check {i}: {:?}",
            c.certificate_failures
        );
        let alone = run(s);
        assert_eq!(alone.checks.len(), 1);
        assert_eq!(
            c.answer, alone.checks[0].answer,
            "check {i} (seed {seed}): the long script and the stand-alone script disagree:\n{s}"
        );
    }
}

#[test]
fn long_lra_script_answers_like_separate_scripts() {
    same_answers(1, false, 150);
}

#[test]
fn long_lia_script_answers_like_separate_scripts() {
    same_answers(2, true, 150);
}

#[test]
fn outer_scopes_survive_a_rebuild() {
    // x ≥ 10 at the base and x ≤ 20 in an outer scope hold across many popped blocks.
    let mut s = String::from(
        "(set-logic QF_LIA)(declare-fun x () Int)(declare-fun y () Int)
         (assert (>= x 10))(push 1)(assert (<= x 20))\n",
    );
    for i in 0..200 {
        s += &format!(
            "(push 1)(assert (= (+ x (* 2 y)) {}))(assert (< y {i}))(check-sat)(pop 1)\n",
            3 * i + 1
        );
    }
    s += "(push 1)(assert (> x 20))(check-sat)(pop 1)(pop 1)(push 1)(assert (> x 20))(check-sat)(pop 1)(assert (< x 10))(check-sat)\n";
    let out = run(&s);
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert!(out.stats.rebuilds > 0);
    let answers: Vec<&str> = out.checks.iter().map(|c| c.answer.as_str()).collect();
    for (i, a) in answers[..200].iter().enumerate() {
        // x + 2y = 3i + 1, 10 ≤ x ≤ 20, y < i: some x of the right parity with
        // y = (3i + 1 − x)/2 < i, i.e. x > i + 1.
        let want = (10..=20).any(|x: i64| {
            let r = 3 * i as i64 + 1 - x;
            r % 2 == 0 && r / 2 < i as i64
        });
        assert_eq!(*a, if want { "sat" } else { "unsat" }, "block {i}");
    }
    assert_eq!(&answers[200..], &["unsat", "sat", "unsat"]);
    assert!(out.checks.iter().all(|c| c.model_valid != Some(false)));
}
