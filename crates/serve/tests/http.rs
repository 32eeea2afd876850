//! The playground end to end over loopback: a server on an ephemeral port, every endpoint with a
//! good input (its answer checked), a bad input (the CLI's located error), a timeout, the limits
//! (body size, unknown engine, bad JSON), and a load test of a few hundred concurrent requests
//! after which the server still answers.

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::OnceLock;
use std::time::Duration;
use verikit_serve::{bind, ServeOptions};

/// One shared server for the tests of this file (1 s per request, 4 threads).
fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| start(1.0, 4))
}

fn start(timeout_s: f64, threads: usize) -> SocketAddr {
    let opts = ServeOptions {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        timeout_s,
        threads,
        max_body_bytes: 64 * 1024,
        ..ServeOptions::default()
    };
    let s = bind(&opts).expect("bind");
    let addr = s.local_addr().expect("addr");
    std::thread::spawn(move || s.run());
    addr
}

/// A minimal HTTP/1.1 client: (status, body).
fn request(addr: SocketAddr, method: &str, path: &str, body: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    // The server may answer (413) before reading a too-large body.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).to_string();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    let body = text.split_once("\r\n\r\n").map(|x| x.1).unwrap_or("");
    // Chunked bodies (the answers are JSON: keep from the first brace to the last).
    let body = match (body.find(['{', '<']), body.rfind(['}', '>'])) {
        (Some(a), Some(b)) if a <= b && !body.starts_with(['{', '<']) => &body[a..=b],
        _ => body,
    };
    (status, body.to_string())
}

fn post(addr: SocketAddr, engine: &str, body: Value) -> (u16, Value) {
    let (status, text) = request(
        addr,
        "POST",
        &format!("/api/{engine}"),
        body.to_string().as_bytes(),
    );
    let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (status, v)
}

const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../cli/demo");

fn demo(path: &str) -> String {
    std::fs::read_to_string(format!("{DEMO}/{path}")).unwrap()
}

#[test]
fn pages_and_assets_are_served() {
    let addr = server();
    for p in ["/", "/ltl", "/smt", "/nfa", "/prism", "/bn"] {
        let (status, body) = request(addr, "GET", p, b"");
        assert_eq!(status, 200, "{p}");
        assert!(body.contains("<script src=\"/app.js\">"), "{p}");
    }
    let (status, js) = request(addr, "GET", "/app.js", b"");
    assert_eq!(status, 200);
    for e in verikit_serve::ENGINES {
        assert!(js.contains(&format!("  {e}: {{")), "no page for {e}");
    }
    assert_eq!(request(addr, "GET", "/style.css", b"").0, 200);
    assert_eq!(request(addr, "GET", "/health", b""), (200, "ok".into()));
    assert_eq!(request(addr, "GET", "/nothing", b"").0, 404);
}

#[test]
fn ltl_translates_and_draws() {
    let (status, v) = post(server(), "ltl", json!({"formula": "G(a -> F b)"}));
    assert_eq!(status, 200, "{v}");
    let a = &v["answer"];
    let states = a["stats"]["states"]
        .as_u64()
        .or(a["input"]["states"].as_u64());
    let hoa = a["hoa"].as_str().unwrap();
    assert!(hoa.starts_with("HOA: v1"), "{hoa}");
    let svg = a["svg"].as_str().unwrap();
    assert!(svg.starts_with("<svg"));
    let n = hoa
        .lines()
        .find_map(|l| l.strip_prefix("States: "))
        .unwrap();
    let n: usize = n.trim().parse().unwrap();
    assert_eq!(svg.matches("<g class=\"node\"").count(), n);
    if let Some(s) = states {
        assert_eq!(s as usize, n);
    }
    let (status, v) = post(server(), "ltl", json!({"formula": "a U b", "sba": true}));
    assert_eq!(status, 200);
    assert!(
        v["answer"]["hoa"].as_str().unwrap().contains("state-acc"),
        "{v}"
    );
}

#[test]
fn bad_input_gets_the_located_error() {
    let addr = server();
    let cases = [
        ("ltl", json!({"formula": "G(a -> "}), "<formula>:1:"),
        (
            "smt",
            json!({"script": "(set-logic QF_LIA)\n(assert (> x 1))\n"}),
            "script.smt2:2:",
        ),
        (
            "nfa",
            json!({"a": "@NFA-explicit\n%Initial q0\nq0 a\n", "b": demo("nfa/has-a.mata")}),
            "A:3:",
        ),
        (
            "prism",
            json!({"model": "dtmc\nmodule m\n s : [0..1] init 0;\n [] s=0 -> (s'=2;\nendmodule\n", "properties": "P=? [F s=1]"}),
            "model.prism:4:",
        ),
        (
            "prism",
            json!({"model": demo("prism/die.prism"), "properties": "P=? [F s=]"}),
            "properties.props:1:",
        ),
        (
            "bn",
            json!({"network": "targets, factors\nx1, x1 &\n"}),
            "network.bnet:2:",
        ),
    ];
    for (engine, body, at) in cases {
        let (status, v) = post(addr, engine, body);
        assert_eq!(status, 400, "{engine}: {v}");
        assert_eq!(v["kind"], "input", "{engine}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(at), "{engine}: expected {at} in\n{e}");
        assert!(e.contains('^'), "{engine}: no caret in\n{e}");
    }
}

#[test]
fn smt_answers_with_checked_model() {
    let script = "(set-logic QF_LIA)\n(declare-const x Int)\n(declare-const y Int)\n(assert (and (> x 2) (< y 5) (= (+ x y) 9)))\n(check-sat)\n(get-model)\n";
    let (status, v) = post(server(), "smt", json!({ "script": script }));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["answer"]["verdict"], "true", "{v}");
    assert_eq!(v["answer"]["result"], "sat");
    // The model is replayed here: x > 2, y < 5, x + y = 9.
    let text = v["text"].as_str().unwrap();
    let val = |n: &str| -> i64 {
        let head = format!("(define-fun {n} () Int ");
        let i = text
            .find(&head)
            .unwrap_or_else(|| panic!("no {n} in {text}"));
        let rest = &text[i + head.len()..];
        let end = rest.find(')').unwrap();
        rest[..end]
            .trim()
            .replace("(- ", "-")
            .replace(' ', "")
            .parse()
            .unwrap()
    };
    let (x, y) = (val("x"), val("y"));
    assert!(x > 2 && y < 5 && x + y == 9, "{text}");
    let unsat = "(set-logic QF_LRA)\n(declare-const x Real)\n(assert (> x 1))\n(assert (< x 0))\n(check-sat)\n";
    let (_, v) = post(server(), "smt", json!({ "script": unsat }));
    assert_eq!(v["answer"]["verdict"], "false", "{v}");
}

/// A word's membership in a `.mata` explicit automaton over single-letter symbols.
fn accepts(mata: &str, word: &[String]) -> bool {
    let mut init = Vec::new();
    let mut fin = Vec::new();
    let mut trans = Vec::new();
    for l in mata.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        match f.first() {
            Some(&"%Initial") => init.extend(f[1..].iter().map(|s| s.to_string())),
            Some(&"%Final") => fin.extend(f[1..].iter().map(|s| s.to_string())),
            Some(s) if !s.starts_with(['@', '%', '#']) && f.len() == 3 => {
                trans.push((f[0].to_string(), f[1].to_string(), f[2].to_string()))
            }
            _ => {}
        }
    }
    let mut cur: Vec<String> = init;
    for a in word {
        let mut next: Vec<String> = trans
            .iter()
            .filter(|(p, l, _)| cur.contains(p) && l == a)
            .map(|t| t.2.clone())
            .collect();
        next.sort();
        next.dedup();
        cur = next;
    }
    cur.iter().any(|s| fin.contains(s))
}

#[test]
fn nfa_inclusion_with_replayed_witness() {
    let (ends_ab, has_a) = (demo("nfa/ends-ab.mata"), demo("nfa/has-a.mata"));
    let (status, v) = post(server(), "nfa", json!({"a": ends_ab, "b": has_a}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["answer"]["verdict"], "true", "{v}");
    let (_, v) = post(
        server(),
        "nfa",
        json!({"a": has_a, "b": ends_ab, "question": "incl"}),
    );
    assert_eq!(v["answer"]["verdict"], "false", "{v}");
    let w: Vec<String> = serde_json::from_value(v["answer"]["witness"].clone())
        .unwrap_or_else(|_| panic!("witness as a list of letters: {v}"));
    assert!(accepts(&has_a, &w) && !accepts(&ends_ab, &w), "{w:?}");
    let (_, v) = post(
        server(),
        "nfa",
        json!({"a": has_a, "b": ends_ab, "question": "equiv"}),
    );
    assert_eq!(v["answer"]["verdict"], "false", "{v}");
    let w: Vec<String> = serde_json::from_value(v["answer"]["witness"].clone()).unwrap();
    assert_ne!(accepts(&has_a, &w), accepts(&ends_ab, &w), "{w:?}");
    let (status, v) = post(
        server(),
        "nfa",
        json!({"a": has_a, "b": has_a, "question": "nope"}),
    );
    assert_eq!((status, v["kind"].as_str()), (400, Some("usage")));
    assert!(v["error"].as_str().unwrap().contains("univ"), "{v}");
}

#[test]
fn nfa_universality_with_replayed_witness() {
    let has_a = demo("nfa/has-a.mata");
    let (status, v) = post(server(), "nfa", json!({"a": has_a, "question": "univ"}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["answer"]["verdict"], "false", "{v}");
    let w: Vec<String> = serde_json::from_value(v["answer"]["witness"].clone()).unwrap();
    assert!(!accepts(&has_a, &w), "the witness {w:?} must be rejected");
    let all = "@NFA-explicit\n%Initial q0\n%Final q0\nq0 a q0\nq0 b q0\n";
    let (status, v) = post(server(), "nfa", json!({"a": all, "question": "univ"}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["answer"]["verdict"], "true", "{v}");
}

#[test]
fn prism_values() {
    let model = "dtmc\nmodule coin\n  s : [0..2] init 0;\n  [] s=0 -> 0.25 : (s'=1) + 0.75 : (s'=2);\n  [] s>0 -> (s'=s);\nendmodule\n";
    let (status, v) = post(
        server(),
        "prism",
        json!({"model": model, "properties": "P=? [ F s=1 ]"}),
    );
    assert_eq!(status, 200, "{v}");
    let text = v.to_string();
    assert!(text.contains("0.25"), "{v}");
    // One property of several, by number and by name.
    let props = "P=? [ F s=1 ]\n\"tails\": P=? [ F s=2 ]\n";
    for sel in ["2", "tails"] {
        let (status, v) = post(
            server(),
            "prism",
            json!({"model": model, "properties": props, "property": sel}),
        );
        assert_eq!(status, 200, "{v}");
        let text = v["text"].as_str().unwrap();
        assert!(
            text.contains("0.75") && !text.contains("0.25"),
            "{sel}: {text}"
        );
    }
    let (status, v) = post(
        server(),
        "prism",
        json!({"model": model, "properties": props, "property": "7"}),
    );
    assert_eq!(status, 400, "{v}");
    let (status, v) = post(
        server(),
        "prism",
        json!({"model": demo("prism/die.prism"), "properties": demo("prism/die.props"), "constants": "k=3"}),
    );
    assert_eq!(status, 200, "{v}");
    // P(die shows k) = 1/6.
    assert!(v.to_string().contains("0.1666"), "{v}");
}

/// One synchronous step of SETTA'17 Example 5 (`demo/bn/example5.bnet`), written out here.
fn example5_step(x: [bool; 8]) -> [bool; 8] {
    let [x1, x2, x3, x4, x5, x6, x7, x8] = x;
    [
        x1 && x2,
        x1 || !x2,
        !x4 && x3,
        x1 || x3,
        x2 && x6,
        x5 && x6,
        (x1 || x6) && x8,
        x7 || x8,
    ]
}

fn bits(s: &str) -> [bool; 8] {
    let v: Vec<bool> = s.chars().map(|c| c == '1').collect();
    v.try_into().unwrap()
}

#[test]
fn bn_attractors_and_fixed_points() {
    let net = demo("bn/example5.bnet");
    let (status, v) = post(server(), "bn", json!({ "network": net }));
    assert_eq!(status, 200, "{v}");
    // SETTA'17 Example 5: six attractors, four of them fixed points; each cycle replayed.
    let a = &v["answer"];
    assert_eq!(a["attractor_count"], 6, "{v}");
    assert_eq!(a["fixed_point_count"], 4, "{v}");
    let cycles = a["attractors"].as_array().unwrap();
    assert_eq!(cycles.len(), 6);
    for c in cycles {
        let states: Vec<[bool; 8]> = c
            .as_array()
            .unwrap()
            .iter()
            .map(|s| bits(s.as_str().unwrap()))
            .collect();
        for (k, s) in states.iter().enumerate() {
            assert_eq!(example5_step(*s), states[(k + 1) % states.len()], "{c}");
        }
    }
    let net = "targets, factors\nx, x & y\ny, y\n";
    let (status, v) = post(
        server(),
        "bn",
        json!({"network": net, "question": "fixed-points"}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["answer"]["fixed_points"],
        json!(["00", "01", "11"]),
        "{v}"
    );
}

#[test]
fn hard_input_times_out_promptly() {
    // 1 s per request: a PRISM chain of ten million states cannot be built in time.
    let model = "dtmc\nconst int N = 10000000;\nmodule m\n  x : [0..N] init 0;\n  [] x<N -> 0.5 : (x'=x+1) + 0.5 : (x'=0);\n  [] x=N -> true;\nendmodule\n";
    let t = std::time::Instant::now();
    let (status, v) = post(
        server(),
        "prism",
        json!({"model": model, "properties": "P=? [ F x=N ]"}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["answer"]["verdict"], "timeout", "{v}");
    // Generous: the deadline plus the grace period, on a loaded machine.
    assert!(t.elapsed() < Duration::from_secs(60));
    assert_eq!(request(server(), "GET", "/health", b"").0, 200);
}

#[test]
fn limits_and_usage_errors() {
    let addr = server();
    let big = json!({ "formula": "a".repeat(100 * 1024) }).to_string();
    assert_eq!(request(addr, "POST", "/api/ltl", big.as_bytes()).0, 413);
    let (status, v) = post(addr, "nope", json!({}));
    assert_eq!((status, v["kind"].as_str()), (404, Some("usage")));
    let (status, body) = request(addr, "POST", "/api/ltl", b"{not json");
    assert_eq!(status, 400, "{body}");
    let (status, v) = post(addr, "ltl", json!({"formula": "a", "extra": 1}));
    assert_eq!(status, 400, "{v}");
    let (status, _) = post(addr, "smt", json!({}));
    assert_eq!(status, 400);
}

#[test]
fn load_test_hundreds_of_concurrent_requests() {
    let addr = server();
    let formulas = [
        "G(a -> F b)",
        "a U b",
        "GFa & GFb",
        "F(a & X b)",
        "G!a | F b",
    ];
    let handles: Vec<_> = (0..300)
        .map(|i| {
            std::thread::spawn(move || {
                match i % 3 {
                    0 => {
                        let f = formulas[i % formulas.len()];
                        let (status, v) = post(addr, "ltl", json!({ "formula": f }));
                        assert_eq!(status, 200, "{v}");
                        assert!(v["answer"]["svg"].as_str().unwrap().starts_with("<svg"));
                        assert_eq!(v["answer"]["formula"], f, "{v}");
                    }
                    1 => {
                        let s = format!("(set-logic QF_LIA)\n(declare-const x Int)\n(assert (= (* 2 x) {}))\n(check-sat)\n", i);
                        let (status, v) = post(addr, "smt", json!({ "script": s }));
                        assert_eq!(status, 200, "{v}");
                        let want = if i % 2 == 0 { "true" } else { "false" };
                        assert_eq!(v["answer"]["verdict"], want, "{i}: {v}");
                    }
                    _ => {
                        let (status, v) = post(addr, "ltl", json!({ "formula": format!("G(a{i} -> ") }));
                        assert_eq!(status, 400, "{v}");
                        assert!(v["error"].as_str().unwrap().contains("<formula>:1:"));
                    }
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("a request failed");
    }
    assert_eq!(request(addr, "GET", "/health", b""), (200, "ok".into()));
    let (status, _) = post(addr, "ltl", json!({"formula": "F a"}));
    assert_eq!(status, 200);
}
