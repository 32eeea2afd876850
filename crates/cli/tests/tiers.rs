//! The workspace's tier invariant (ARCHITECTURE.md, "Tiers and invariants"), checked on the
//! dependency graph `cargo metadata` reports.
//!
//! Every workspace crate declares its tier in its manifest:
//!
//! ```toml
//! [package.metadata.verikit]
//! tier = "kernel"   # or "engine", "application", "cli", "dev"
//! ```
//!
//! and a crate may depend (normal or build dependency) only on crates of its own tier or a lower
//! one (kernel < engine < application < cli); nothing depends on the CLI; `dev` crates (test
//! support) are dev-dependencies only.

use serde_json::Value;
use std::collections::BTreeMap;
use std::process::Command;

fn rank(tier: &str) -> Option<u8> {
    match tier {
        "kernel" => Some(0),
        "engine" => Some(1),
        "application" => Some(2),
        "cli" => Some(3),
        "dev" => Some(0),
        _ => None,
    }
}

#[test]
fn dependencies_point_down_the_tiers() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");
    let packages = meta["packages"].as_array().expect("packages");
    let mut tier: BTreeMap<String, String> = BTreeMap::new();
    let mut problems = Vec::new();
    for p in packages {
        let name = p["name"].as_str().unwrap_or_default().to_string();
        match p["metadata"]["verikit"]["tier"].as_str() {
            Some(t) if rank(t).is_some() => {
                tier.insert(name, t.to_string());
            }
            other => problems.push(format!(
                "{name}: declare its tier in Cargo.toml: [package.metadata.verikit] tier = \
                 \"kernel\" | \"engine\" | \"application\" | \"cli\" | \"dev\" (found {other:?})"
            )),
        }
    }
    for p in packages {
        let name = p["name"].as_str().unwrap_or_default();
        let Some(own) = tier.get(name) else { continue };
        for d in p["dependencies"].as_array().into_iter().flatten() {
            let dep = d["name"].as_str().unwrap_or_default();
            let Some(dt) = tier.get(dep) else { continue }; // external crate
            let kind = d["kind"].as_str().unwrap_or("normal"); // null = normal
            let edge = format!("{name} ({own}) -> {dep} ({dt}) [{kind}]");
            if dt == "cli" {
                problems.push(format!("{edge}: nothing depends on the CLI"));
            } else if dt == "dev" && kind != "dev" {
                problems.push(format!("{edge}: test support is a dev-dependency only"));
            } else if kind != "dev" && rank(dt) > rank(own) {
                problems.push(format!("{edge}: dependencies point down the tiers only"));
            }
        }
    }
    // The shape the map describes: the kernels exist, the CLI is the only binary crate's tier.
    for k in [
        "verikit-diag",
        "verikit-logic",
        "verikit-graph",
        "verikit-bdd",
    ] {
        if tier.get(k).map(String::as_str) != Some("kernel") {
            problems.push(format!("{k} must be a kernel"));
        }
    }
    if tier.get("verikit").map(String::as_str) != Some("cli") {
        problems.push("the `verikit` crate must be the cli tier".into());
    }
    assert!(
        problems.is_empty(),
        "tier violations:\n{}",
        problems.join("\n")
    );
}

#[test]
fn tier_ranks_order_as_documented() {
    assert!(rank("kernel") < rank("engine"));
    assert!(rank("engine") < rank("application"));
    assert!(rank("application") < rank("cli"));
    assert_eq!(rank("framework"), None);
}
