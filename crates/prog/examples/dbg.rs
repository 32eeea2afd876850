fn main() {
    let a: Vec<String> = std::env::args().collect();
    let p = std::path::Path::new(&a[1]);
    let mut o =
        verikit_prog::VerifyOptions::from_params(verikit_prog::Engine::Bmc, &Default::default())
            .unwrap();
    o.replay_dir = Some(std::path::PathBuf::from("/tmp/vkreplay"));
    let b = verikit_diag::Budget::with_timeout(std::time::Duration::from_secs(5));
    println!("{}", verikit_prog::verify(p, &o, &b).unwrap().to_json());
    if a.len() > 2 {
        println!("{}", verikit_prog::dump_cfa(p, false).unwrap());
    }
}
