//! `verikit serve`: the web playground on a local address. The server is `verikit_serve`'s; this
//! file reads the options. It runs outside the watchdog: the global `--timeout` is the limit of
//! each request, not of the command.

use verikit_serve::ServeOptions;

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (port 0: any free port; the address is printed on stderr).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: std::net::SocketAddr,
    /// Memory limit of each request in MiB (the engines' estimate).
    #[arg(long, default_value_t = 1024)]
    max_memory: usize,
    /// Requests computed at the same time (the others wait).
    #[arg(long, default_value_t = 4)]
    threads: usize,
    /// Largest request body in KiB.
    #[arg(long, default_value_t = 1024)]
    max_body: usize,
}

/// Serves until the process is stopped; returns the exit code if the server cannot start or fails.
pub fn run(args: &ServeArgs, timeout: Option<f64>) -> i32 {
    let opts = ServeOptions {
        addr: args.addr,
        timeout_s: timeout.unwrap_or(10.0),
        max_memory_mb: args.max_memory,
        threads: args.threads,
        max_body_bytes: args.max_body.saturating_mul(1024),
    };
    verikit_serve::serve(&opts)
}
