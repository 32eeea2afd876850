//! Decides DIMACS CNF files with one `SatBackend` and replays every model on the clauses:
//! `cargo run --release -p verikit-sat --example sat_backend [--features cadical] -- BACKEND FILE…`
//! with BACKEND `cdcl` or `cadical`. Prints `file answer` per line; the bench script times the
//! process (CPU time).

use verikit_diag::Budget;
use verikit_sat::{CdclBackend, Lit, SatBackend, SatResult};

fn backend(name: &str) -> Option<Box<dyn SatBackend>> {
    match name {
        "cdcl" => Some(Box::new(CdclBackend::new())),
        #[cfg(feature = "cadical")]
        "cadical" => Some(Box::new(verikit_sat::CadicalBackend::new())),
        _ => None,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((name, files)) = args.split_first() else {
        eprintln!("usage: sat_backend cdcl|cadical FILE…");
        std::process::exit(2);
    };
    for f in files {
        let Some(mut b) = backend(name) else {
            eprintln!("unknown or not built backend `{name}`");
            std::process::exit(2);
        };
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{f}: {e}");
                std::process::exit(2);
            }
        };
        let cnf = match verikit_sat::dimacs::parse(&text) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{f}: {}", e.message);
                std::process::exit(2);
            }
        };
        for _ in 0..cnf.num_vars {
            b.new_var();
        }
        for c in &cnf.clauses {
            b.add_clause(c);
        }
        let r = b.solve(&[], &Budget::unlimited());
        if r == SatResult::Sat && !cnf.satisfied_by(|v| b.model_value(Lit::pos(v)) == Some(true)) {
            eprintln!("{f}: model does not satisfy the clauses");
            std::process::exit(1);
        }
        println!("{f} {r:?}");
    }
}
