#![cfg(feature = "serve")]
//! `verikit serve` end to end: the binary starts on a free loopback port (printed on stderr),
//! answers a translation, answers `timeout` promptly under `--timeout 1` on a hard input, and keeps
//! serving; a bad address is a usage error (exit 2). The server's own tests are in
//! `crates/serve/tests/`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Killed(Child);
impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn post(addr: &str, path: &str, body: &str) -> (u16, serde_json::Value) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    let status = raw.split(' ').nth(1).unwrap().parse().unwrap();
    let (a, b) = (raw.find('{').unwrap(), raw.rfind('}').unwrap());
    (status, serde_json::from_str(&raw[a..=b]).unwrap())
}

#[test]
fn serve_answers_and_times_out_promptly() {
    let child = Command::new(env!("CARGO_BIN_EXE_verikit"))
        .args([
            "--timeout",
            "1",
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--threads",
            "2",
        ])
        .stderr(Stdio::piped())
        .spawn()
        .expect("start verikit serve");
    let mut child = Killed(child);
    let mut line = String::new();
    BufReader::new(child.0.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    let (status, v) = post(&addr, "/api/ltl", r#"{"formula": "F(a & X b)"}"#);
    assert_eq!(status, 200, "{v}");
    assert!(v["answer"]["svg"]
        .as_str()
        .unwrap()
        .contains("<g class=\"node\""));
    // A chain of ten million states: the build cannot finish within 1 s.
    let model = "dtmc\\nconst int N = 10000000;\\nmodule m\\n  x : [0..N] init 0;\\n  [] x<N -> 0.5 : (x'=x+1) + 0.5 : (x'=0);\\n  [] x=N -> true;\\nendmodule\\n";
    let t = Instant::now();
    let body = format!(r#"{{"model": "{model}", "properties": "P=? [ F x=N ]"}}"#);
    let (status, v) = post(&addr, "/api/prism", &body);
    assert_eq!(
        (status, v["answer"]["verdict"].as_str()),
        (200, Some("timeout")),
        "{v}"
    );
    assert!(t.elapsed() < Duration::from_secs(30));
    let (status, v) = post(&addr, "/api/ltl", r#"{"formula": "G("}"#);
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("<formula>:1:"), "{v}");
}

#[test]
fn bad_address_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_verikit"))
        .args(["serve", "--addr", "not-an-address"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
