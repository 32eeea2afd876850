#![cfg(feature = "mc")]
//! `verikit mc` end to end: verdicts, JSON shape, witnesses, located errors, exit codes, timeout
//! and memory limit.

use std::time::Instant;

mod common;
use common::verikit;

const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/mc/peterson2.dve");

/// `verikit --json ARGS…`, which must exit 0: its JSON answer.
fn json_ok(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let (code, v, err) = verikit(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    v
}

/// BEEM's (states, transitions, deadlocks) of bakery.1.
const BAKERY1: (u64, u64, u64) = (1506, 2697, 4);

/// The (states, transitions, deadlocks) of an `mc info` answer.
fn counts(v: &serde_json::Value) -> (u64, u64, u64) {
    let k = |key: &str| v["stats"][key].as_u64().unwrap_or(u64::MAX);
    (k("states"), k("transitions"), k("deadlocks"))
}

fn beem(rel: &str) -> Option<String> {
    verikit_testkit::shared_path(&format!("beem/{rel}")).map(|p| p.display().to_string())
}

#[test]
fn demo_model_deadlock_free_mutex_holds_liveness_fails_with_lasso() {
    let v = json_ok(&["mc", "check", DEMO, "--deadlock"]);
    assert_eq!(v["verdict"], "true");
    assert_eq!(v["result"], "deadlock-free");
    let v = json_ok(&[
        "mc",
        "check",
        DEMO,
        "--ltl",
        "G!(cs0 && cs1)",
        "--ap",
        "cs0=P_0.cs",
        "--ap",
        "cs1=P_1.cs",
    ]);
    assert_eq!(v["verdict"], "true", "{v}");
    let v = json_ok(&[
        "mc",
        "check",
        DEMO,
        "--ltl",
        "G(\"P_0.idle\" -> F \"P_0.cs\")",
    ]);
    assert_eq!(v["verdict"], "false");
    assert_eq!(v["result"], "violated");
    assert!(!v["witness"]["cycle"].as_array().unwrap().is_empty());
}

#[test]
fn info_counts_equal_beem_and_deadlock_trace_is_shortest() {
    let Some(m) = beem("bakery/bakery.1.dve") else {
        return;
    };
    assert_eq!(counts(&json_ok(&["mc", "info", &m])), BAKERY1);
    let v = json_ok(&["mc", "check", &m, "--deadlock"]);
    assert_eq!(v["verdict"], "false");
    assert_eq!(v["result"], "deadlock");
    let trace = v["witness"]["trace"].as_array().unwrap();
    assert!(trace.len() > 1);
    assert!(trace[1]["transition"].is_string());
    // the reduced search's trace (the default) is as short as the unreduced breadth-first one,
    // which is a shortest path to a deadlock
    let full = json_ok(&["-x", "mc.por=off", "mc", "check", &m, "--deadlock"]);
    assert_eq!(full["result"], "deadlock");
    assert_eq!(
        trace.len(),
        full["witness"]["trace"].as_array().unwrap().len()
    );
    // default question of a .prop file: its property process
    let Some(p) = beem("bakery/bakery.1.prop2.dve") else {
        return;
    };
    let v = json_ok(&["mc", "check", &p]);
    assert_eq!(v["verdict"], "false", "BEEM: G(wait0 -> F cs0) is violated");
}

#[test]
fn tree_store_counts_like_the_hash_table() {
    let Some(m) = beem("bakery/bakery.1.dve") else {
        return;
    };
    for t in ["1", "2"] {
        let v = json_ok(&["-x", "mc.store=tree", "mc", "info", &m, "--threads", t]);
        assert_eq!(
            (counts(&v), &v["store"]),
            (BAKERY1, &"tree".into()),
            "{t} threads"
        );
    }
    let v = json_ok(&["-x", "mc.store=tree", "mc", "check", &m, "--deadlock"]);
    assert_eq!(
        (&v["result"], &v["store"]),
        (&"deadlock".into(), &"tree".into())
    );
    let (code, _, err) = verikit(&["-x", "mc.store=tree", "mc", "info", &m, "--workers", "2"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("mc.store=tree"), "{err}");
}

#[test]
fn divine_error_handling_gives_beem_counts_on_anderson1() {
    let Some(m) = beem("anderson/anderson.1.dve") else {
        return;
    };
    // Default: an erroneous transition has no successor; 3 states have only failing ones.
    let v = json_ok(&["mc", "info", &m]);
    assert_eq!(counts(&v), (347_036, 692_508, 3));
    assert_eq!(v["stats"]["error_dead_ends"], 3);
    assert_eq!(v["stats"]["evaluation_errors"], 538);
    // the first error is named although a deadlock was met before it, on 1 and 2 threads
    for threads in ["1", "2"] {
        let v = json_ok(&["mc", "info", &m, "--threads", threads]);
        let e = v["evaluation_error"].as_str().unwrap_or_default();
        assert!(e.starts_with("538 evaluation error(s); the first: "), "{v}");
    }
    // DiVinE's: the 538 erroneous transitions lead to one error state, from which P_1 takes
    // two more steps; BEEM publishes 347039 states.
    for threads in ["1", "2"] {
        let v = json_ok(&[
            "-x",
            "mc.errors=divine",
            "mc",
            "info",
            &m,
            "--threads",
            threads,
        ]);
        assert_eq!(counts(&v), (347_039, 693_048, 1), "--threads {threads}");
        assert_eq!(v["stats"]["error_dead_ends"], 0);
    }
    let (code, _, err) = verikit(&["-x", "mc.errors=divine", "mc", "check", &m, "--deadlock"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("mc.errors=divine") && err.contains("mc info"),
        "{err}"
    );
}

/// `verikit mc info` on a file `name` holding `text`: exit 2 and stderr containing each of
/// `expected`.
fn refused(name: &str, text: &str, expected: &[&str]) {
    let dir = std::env::temp_dir().join(format!("verikit-mc-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(name);
    std::fs::write(&f, text).unwrap();
    let (code, _, err) = verikit(&["mc", "info", f.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 2, "{err}");
    for e in expected {
        assert!(err.contains(e), "{name}: `{e}` not in {err}");
    }
}

#[test]
fn bad_input_is_located() {
    let cases: [(&str, &str, &[&str]); 3] = [
        (
            "bad.dve",
            "byte x;\nprocess P { state s; init s;\n trans s -> s { effect y = 1; }; }\nsystem async;\n",
            &["bad.dve:3:", "unknown variable `y`"],
        ),
        (
            "bad.dve",
            "byte x;\ntypedef t;\n",
            &["bad.dve:2:1", "unsupported construct `typedef`"],
        ),
        (
            "bad.pm",
            "byte x;\nactive proctype P() {\n  x = 1;\n  printf(\"hi\") }\n",
            &["bad.pm:4:3", "`printf` is not supported"],
        ),
    ];
    for (name, text, expected) in cases {
        refused(name, text, expected);
    }
    let (code, _, err) = verikit(&["mc", "check", DEMO, "--ltl", "G(\"P_9.cs\")"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown process `P_9`"), "{err}");
}

#[test]
fn timeout_and_memory_limit_exit_3_with_counts() {
    let Some(m) = beem("anderson/anderson.3.dve") else {
        return;
    };
    // Sequential and multi-threaded: `timeout` with the counts reached, within the watchdog's
    // grace (no "computed so far" fallback answer without counts).
    for engine in [&[][..], &["--threads", "2"]] {
        let t = Instant::now();
        let mut args = vec!["--json", "--timeout", "1", "mc", "info", &m];
        args.extend_from_slice(engine);
        let (code, v, err) = verikit(&args);
        assert_eq!(code, 3, "{engine:?}: {err}");
        assert_eq!(v["verdict"], "timeout", "{engine:?}");
        assert!(
            v["stats"]["states"].as_u64().unwrap() > 0,
            "{engine:?}: {v}"
        );
        assert_eq!(v["complete"], false, "{engine:?}: {v}");
        assert!(
            t.elapsed().as_secs() < 30,
            "{engine:?}: the timeout was not honoured promptly"
        );
    }
    let (code, v, err) = verikit(&["--json", "mc", "info", &m, "--max-memory", "8"]);
    assert_eq!(code, 3, "{err}");
    assert_eq!(v["verdict"], "resource-limit");
    assert!(v["error"].as_str().unwrap().contains("states"), "{v}");
}

#[test]
fn promela_models_are_checked_like_dve() {
    let Some(m) = beem("phils/phils.1.pm") else {
        return;
    };
    // SPIN-CHECK.tsv: 80 states, 213 transitions (SPIN counts the initial state once more).
    let v = json_ok(&["mc", "info", &m]);
    assert_eq!(v["stats"]["states"], 80);
    assert_eq!(v["stats"]["transitions"], 212);
    let v = json_ok(&["mc", "check", &m, "--deadlock"]);
    assert_eq!(v["verdict"], "false");
    assert!(v["witness"]["trace"].as_array().unwrap().len() > 1);
    // Process states of a Promela model are its labels.
    let v = json_ok(&[
        "mc",
        "check",
        &m,
        "--ltl",
        "G !(\"phil_0.eat\" && \"phil_1.eat\")",
    ]);
    assert_eq!(v["verdict"], "true", "{v}");
}

#[test]
fn promela_dataflow_reset_is_switchable_and_keeps_verdicts() {
    let Some(m) = beem("peterson/peterson.1.pm") else {
        return;
    };
    let run = |df: &str, q: &[&str]| {
        let x = format!("mc.dataflow={df}");
        let head = [
            "-x",
            x.as_str(),
            "-x",
            "mc.por=off",
            "mc",
            "check",
            m.as_str(),
        ];
        json_ok(&[&head[..], q].concat())
    };
    // Without the reset the .pm has BEEM's 12498 states; with it, the dead counters of the
    // filter loop are reset and fewer states remain, with the same answers.
    // `on` = `spin`: SPIN's rule, SPIN's 11760 states (SPIN-CHECK.tsv); `all` resets more.
    let off = run("off", &["--deadlock"]);
    let on = run("on", &["--deadlock"]);
    let all = run("all", &["--deadlock"]);
    assert_eq!(off["stats"]["states"], 12498, "{off}");
    assert_eq!(on["stats"]["states"], 11760, "{on}");
    assert!(all["stats"]["states"].as_u64().unwrap() < 11760, "{all}");
    assert_eq!(
        (
            off["verdict"].clone(),
            on["verdict"].clone(),
            all["verdict"].clone()
        ),
        ("true".into(), "true".into(), "true".into())
    );
    // A proposition naming a variable keeps it: `j` is then never reset.
    let f = "G(\"P_0.CS\" -> \"P_0->j == 2\")";
    let a = run("on", &["--ltl", f]);
    let b = run("off", &["--ltl", f]);
    assert_eq!(a["verdict"], b["verdict"], "{a} {b}");
    let (code, _, err) = verikit(&["-x", "mc.dataflow=maybe", "mc", "info", &m]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("mc.dataflow"), "{err}");
}

#[test]
fn promela_bytes_wrap_as_in_spin() {
    // krebs.1.pm lets a byte go below 0 (a receive inside `atomic` after its guard was
    // checked); SPIN wraps it, and so does verikit's Promela: the model is explored, not
    // stopped by an evaluation error. SPIN-CHECK.tsv: 3 invalid end states.
    let Some(m) = beem("krebs/krebs.1.pm") else {
        return;
    };
    let v = json_ok(&["-x", "mc.por=off", "mc", "check", &m, "--assert"]);
    assert_eq!(v["verdict"], "true", "{v}");
    assert_eq!(v["stats"]["evaluation_errors"], 0, "{v}");
    assert_eq!(v["stats"]["deadlocks"], 3, "{v}");
}

#[test]
fn partial_order_reduction_is_switchable_and_keeps_verdicts() {
    let Some(m) = beem("peterson/peterson.1.dve") else {
        return;
    };
    let run = |por: &str, extra: &[&str]| {
        let x = format!("mc.por={por}");
        let mut args = vec!["--json", "-x", &x, "mc", "check", &m];
        args.extend_from_slice(extra);
        let (code, v, err) = verikit(&args);
        assert_eq!(code, 0, "{err}");
        v
    };
    // BEEM: 12498 states; the reduced search of a deadlock-free model visits fewer.
    let off = run("off", &["--deadlock"]);
    let on = run("on", &["--deadlock"]);
    assert_eq!(off["verdict"], "true");
    assert_eq!(on["verdict"], "true");
    assert_eq!(off["por"], "off");
    assert_eq!(on["por"], "on");
    assert_eq!(off["stats"]["states"], 12498);
    assert!(on["stats"]["states"].as_u64().unwrap() < 12498, "{on}");
    assert!(on["stats"]["reduced_states"].as_u64().unwrap() > 0, "{on}");
    // LTL: the same verdicts; `X` switches the reduction off, with the reason.
    let f = "G(\"P_0.wait\" -> F \"P_0.CS\")";
    assert_eq!(run("on", &["--ltl", f])["verdict"], "false");
    assert_eq!(run("off", &["--ltl", f])["verdict"], "false");
    let x = run("on", &["--ltl", "G(\"P_0.CS\" -> X !\"P_0.CS\")"]);
    assert!(x["por"].as_str().unwrap().starts_with("off: "), "{x}");
    let (code, _, err) = verikit(&["-x", "mc.por=maybe", "mc", "check", &m]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("mc.por"), "{err}");
}

#[test]
fn threads_and_cycle_algorithms_answer_like_the_sequential_engines() {
    let Some(m) = beem("bakery/bakery.1.dve") else {
        return;
    };
    for t in ["1", "2", "3"] {
        let v = json_ok(&["mc", "info", &m, "--threads", t]);
        assert_eq!(counts(&v), BAKERY1, "--threads {t}");
        assert_eq!(v["threads"], t.parse::<u64>().unwrap());
    }
    let v = json_ok(&["mc", "check", &m, "--deadlock", "--threads", "2"]);
    assert_eq!(v["verdict"], "false");
    assert_eq!(v["result"], "deadlock");
    assert!(v["witness"]["trace"].as_array().unwrap().len() > 1);
    let Some(p) = beem("bakery/bakery.1.prop2.dve") else {
        return;
    };
    for algo in ["ndfs", "owcty", "map"] {
        let v = json_ok(&["mc", "check", &p, "--threads", "2", "--algorithm", algo]);
        assert_eq!(
            v["verdict"], "false",
            "{algo}: BEEM: G(wait0 -> F cs0) is violated"
        );
        assert_eq!(v["algorithm"], algo);
        assert!(
            !v["witness"]["cycle"].as_array().unwrap().is_empty(),
            "{algo}"
        );
    }
    let v = json_ok(&[
        "mc",
        "check",
        DEMO,
        "--ltl",
        "G !(\"P_0.cs\" && \"P_1.cs\")",
        "--threads",
        "2",
        "--algorithm",
        "map",
    ]);
    assert_eq!(v["verdict"], "true");
    let (code, _, err) = verikit(&["mc", "info", &m, "--threads", "0"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn parallel_timeout_exits_3_promptly() {
    ltl_on_anderson3_times_out_promptly(&["--threads", "2"]);
}

/// `--timeout 1` on the LTL check of the largest complete BEEM instance with the engine flags
/// `engine`: exit 3, `timeout`, within 30 s.
fn ltl_on_anderson3_times_out_promptly(engine: &[&str]) {
    let Some(m) = beem("anderson/anderson.3.dve") else {
        return;
    };
    let t = Instant::now();
    let mut args = vec![
        "--json",
        "--timeout",
        "1",
        "mc",
        "check",
        m.as_str(),
        "--ltl",
        "GF \"P_0.CS\"",
    ];
    args.extend_from_slice(engine);
    let (code, v, err) = verikit(&args);
    assert_eq!(code, 3, "{err}");
    assert_eq!(v["verdict"], "timeout");
    assert!(
        t.elapsed().as_secs() < 30,
        "the timeout was not honoured promptly"
    );
}

#[test]
fn timely_workers_count_like_the_sequential_engine_and_time_out_promptly() {
    let Some(m) = beem("bakery/bakery.1.dve") else {
        return;
    };
    let seq = json_ok(&["mc", "info", &m]);
    for w in ["1", "3"] {
        let v = json_ok(&["mc", "info", &m, "--workers", w]);
        assert_eq!(v["engine"], "timely", "{v}");
        assert_eq!(v["workers"], w.parse::<u64>().unwrap());
        for k in ["states", "transitions", "deadlocks"] {
            assert_eq!(v["stats"][k], seq["stats"][k], "{k} on {w} workers");
        }
    }
    let Some(p) = beem("bakery/bakery.1.prop2.dve") else {
        return;
    };
    let v = json_ok(&["mc", "check", &p, "--workers", "2"]);
    assert_eq!(v["verdict"], "false", "BEEM: G(wait0 -> F cs0) is violated");
    assert_eq!(v["algorithm"], "owcty");
    assert!(!v["witness"]["cycle"].as_array().unwrap().is_empty());
    ltl_on_anderson3_times_out_promptly(&["--workers", "2"]);
}

#[test]
fn timely_workers_trace_deadlocks_and_stop_at_the_memory_limit() {
    let (Some(b), Some(a)) = (beem("bakery/bakery.1.dve"), beem("anderson/anderson.3.dve")) else {
        return;
    };
    let seq = json_ok(&["mc", "check", &b, "--deadlock", "-x", "mc.por=off"]);
    let v = json_ok(&["mc", "check", &b, "--deadlock", "--workers", "2"]);
    assert_eq!(v["verdict"], "false", "{v}");
    assert_eq!(v["witness_by"], "distributed trace-back of parent ids");
    let len = |j: &serde_json::Value| j["witness"]["trace"].as_array().map_or(0, Vec::len);
    assert_eq!(len(&v), len(&seq), "a shortest trace: {v}");
    let (code, v, err) = verikit(&[
        "--json",
        "mc",
        "info",
        &a,
        "--workers",
        "2",
        "--max-memory",
        "8",
    ]);
    assert_eq!(code, 3, "{err}");
    assert_eq!(v["verdict"], "resource-limit", "{v}");
    assert!(v["error"].as_str().unwrap().contains("states"), "{v}");
}

/// A hostfile of `n` free loopback ports in a fresh directory: (directory, hostfile).
fn loopback_hostfile(n: usize, tag: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let ports: Vec<String> = (0..n)
        .map(|_| {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            format!("127.0.0.1:{}\n", l.local_addr().unwrap().port())
        })
        .collect();
    let dir = std::env::temp_dir().join(format!("verikit-mc-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hostfile = dir.join("hosts.txt");
    std::fs::write(&hostfile, ports.concat()).unwrap();
    (dir, hostfile)
}

/// `verikit --json mc info MODEL --workers 2` as process `i` of the hostfile's cluster.
fn spawn_process(
    model: &str,
    i: &str,
    hostfile: &std::path::Path,
    extra: &[&str],
) -> std::process::Child {
    spawn_command(&["info", model], i, hostfile, extra)
}

/// `verikit --json mc COMMAND… --workers 2` as process `i` of the hostfile's cluster.
fn spawn_command(
    command: &[&str],
    i: &str,
    hostfile: &std::path::Path,
    extra: &[&str],
) -> std::process::Child {
    use std::process::{Command, Stdio};
    Command::new(env!("CARGO_BIN_EXE_verikit"))
        .args(["--json", "--timeout", "60"])
        .args(extra)
        .arg("mc")
        .args(command)
        .args(["--workers", "2"])
        .args(["--processes", "2", "--process", i, "--hostfile"])
        .arg(hostfile)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn verikit")
}

/// The outputs of the children that finished within `secs` seconds (the others are killed: a
/// process that cannot reach its peer would wait for it).
fn wait_all(children: Vec<std::process::Child>, secs: u64) -> Vec<Option<std::process::Output>> {
    let t = Instant::now();
    let mut children: Vec<_> = children.into_iter().map(Some).collect();
    let mut outs: Vec<_> = children.iter().map(|_| None).collect();
    while outs.iter().any(Option::is_none) && t.elapsed().as_secs() < secs {
        for (k, c) in children.iter_mut().enumerate() {
            if c.as_mut()
                .is_some_and(|ch| ch.try_wait().unwrap().is_some())
            {
                outs[k] = c.take().map(|ch| ch.wait_with_output().unwrap());
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    for c in children.iter_mut().flatten() {
        let _ = c.kill();
    }
    outs
}

/// The JSON object a process printed (timely may print connection retries before it).
fn json_of(out: &[u8]) -> serde_json::Value {
    let text = String::from_utf8_lossy(out);
    let at = text.find("\n{").map_or(0, |i| i + 1);
    serde_json::from_str(text.get(at..).unwrap_or("")).unwrap_or(serde_json::Value::Null)
}

#[test]
fn two_processes_on_loopback_agree_with_the_sequential_counts() {
    let Some(m) = beem("bakery/bakery.1.dve") else {
        return;
    };
    let seq = json_ok(&["mc", "info", &m]);
    let (dir, hostfile) = loopback_hostfile(2, "agree");
    let spawn = |i: &str| spawn_process(&m, i, &hostfile, &[]);
    let outs = wait_all(vec![spawn("0"), spawn("1")], 120);
    let _ = std::fs::remove_dir_all(&dir);
    for (k, o) in outs.into_iter().enumerate() {
        let o = o.unwrap_or_else(|| panic!("process {k} did not finish"));
        let v = json_of(&o.stdout);
        assert_eq!(
            o.status.code(),
            Some(0),
            "process {k}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(v["processes"], 2, "process {k}: {v}");
        assert_eq!(v["workers"], 4, "process {k}: {v}");
        for key in ["states", "transitions", "deadlocks"] {
            assert_eq!(v["stats"][key], seq["stats"][key], "process {k}: {key}");
        }
        assert!(v["stats"]["bytes_sent"].as_u64().unwrap() > 0, "{v}");
    }
}

#[test]
fn two_processes_rebuild_the_shortest_deadlock_trace_together() {
    let Some(m) = beem("bakery/bakery.1.dve") else {
        return;
    };
    let seq = json_ok(&["mc", "check", &m, "--deadlock", "-x", "mc.por=off"]);
    let (dir, hostfile) = loopback_hostfile(2, "trace");
    let spawn = |i: &str| spawn_command(&["check", &m, "--deadlock"], i, &hostfile, &[]);
    let outs = wait_all(vec![spawn("0"), spawn("1")], 120);
    let _ = std::fs::remove_dir_all(&dir);
    let mut traces = Vec::new();
    for (k, o) in outs.into_iter().enumerate() {
        let o = o.unwrap_or_else(|| panic!("process {k} did not finish"));
        let v = json_of(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "process {k}: {v}");
        assert_eq!(v["verdict"], "false", "process {k}: {v}");
        assert_eq!(v["workers"], 4, "process {k}: {v}");
        traces.push(v["witness"]["trace"].clone());
    }
    assert_eq!(traces[0], traces[1], "every process answers the same trace");
    assert_eq!(
        traces[0].as_array().map(Vec::len),
        seq["witness"]["trace"].as_array().map(Vec::len),
        "a shortest trace"
    );
}

#[test]
fn a_missing_peer_ends_with_a_clear_error_not_a_hang() {
    let Some(m) = beem("bakery/bakery.1.dve") else {
        return;
    };
    // Process 1 of 2 alone: process 0 never comes up.
    let (dir, hostfile) = loopback_hostfile(2, "missing");
    let t = Instant::now();
    let outs = wait_all(
        vec![spawn_process(
            &m,
            "1",
            &hostfile,
            &["-x", "mc.connect-timeout=1"],
        )],
        60,
    );
    let _ = std::fs::remove_dir_all(&dir);
    let o = outs
        .into_iter()
        .next()
        .flatten()
        .expect("process 1 did not end");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cluster setup") && err.contains("mc.connect-timeout"),
        "{err}"
    );
    assert!(t.elapsed().as_secs() < 60);
}
