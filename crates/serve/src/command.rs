//! `verikit serve` as a library call: bind, say where on stderr, serve until the process is
//! stopped; the exit code if the server cannot start or fails.

use crate::server::{bind, ServeOptions};
use verikit_diag::{EXIT_INPUT, EXIT_INTERNAL, EXIT_OK};

/// Serves until the process is stopped; returns the exit code if the server cannot start
/// (bad address: 2) or fails (1).
pub fn serve(opts: &ServeOptions) -> i32 {
    let server = match bind(opts) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot listen on {}: {e}", opts.addr);
            return EXIT_INPUT;
        }
    };
    match server.local_addr() {
        Ok(a) => eprintln!(
            "verikit playground on http://{a}/ (each request: {} s)",
            opts.timeout_s
        ),
        Err(e) => eprintln!("warning: bound address unknown: {e}"),
    }
    match server.run() {
        Ok(()) => EXIT_OK,
        Err(e) => {
            eprintln!("internal error: the server stopped: {e}");
            EXIT_INTERNAL
        }
    }
}
