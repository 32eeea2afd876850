//! The HTTP server: static pages, `POST /api/<engine>` with a JSON body, `GET /health`.
//!
//! Every request gets its own [`Budget`] (the deadline and the memory limit of the options) and
//! runs on tokio's blocking pool (at most `threads` at once, the rest queued), so the async
//! executor only moves bytes. A request whose engine does not stop at its deadline (a loop that
//! polls the budget too rarely) is answered `timeout` after a grace period and its budget
//! cancelled; a panic in an engine is answered as an internal error. Bodies are limited in size.

use crate::assets;
use crate::playground::{self, Refused, Request, ENGINES};
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use verikit_diag::Failure;
use verikit_diag::{Answer, Budget, Verdict};

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Where to listen (`127.0.0.1:8080` by default: only this machine can connect).
    pub addr: SocketAddr,
    /// Seconds each request may run.
    pub timeout_s: f64,
    /// Memory limit of each request, in MiB (the engines' estimate, as `--max-memory` elsewhere).
    pub max_memory_mb: usize,
    /// Requests computed at the same time (the rest wait in a queue).
    pub threads: usize,
    /// Largest request body, in bytes.
    pub max_body_bytes: usize,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            timeout_s: 10.0,
            max_memory_mb: 1024,
            threads: 4,
            max_body_bytes: 1 << 20,
        }
    }
}

/// Extra time after the deadline before a request that has not stopped is answered anyway.
const GRACE: Duration = Duration::from_secs(2);

struct Shared {
    timeout: Duration,
    memory_bytes: usize,
}

/// A bound, not yet running server.
pub struct Server {
    runtime: tokio::runtime::Runtime,
    listener: tokio::net::TcpListener,
    app: Router,
}

/// Binds the address (port 0 picks a free one) and prepares the server.
pub fn bind(opts: &ServeOptions) -> std::io::Result<Server> {
    let invalid = |m: &str| std::io::Error::new(std::io::ErrorKind::InvalidInput, m.to_string());
    if !(opts.timeout_s.is_finite() && opts.timeout_s > 0.0) {
        return Err(invalid("the timeout must be a positive number of seconds"));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(opts.threads.max(1))
        .enable_io()
        .enable_time()
        .build()?;
    let listener = runtime.block_on(tokio::net::TcpListener::bind(opts.addr))?;
    let shared = Arc::new(Shared {
        timeout: Duration::from_secs_f64(opts.timeout_s.min(86_400.0)),
        memory_bytes: opts.max_memory_mb.saturating_mul(1 << 20),
    });
    let page = || get(|| async { html(assets::INDEX_HTML) });
    let mut app = Router::new().route("/", page());
    for e in ENGINES {
        app = app.route(&format!("/{e}"), page());
    }
    let app = app
        .route("/app.js", get(|| async { js(assets::APP_JS) }))
        .route("/style.css", get(|| async { css(assets::STYLE_CSS) }))
        .route("/health", get(|| async { "ok" }))
        .route("/api/{engine}", post(api))
        .layer(DefaultBodyLimit::max(opts.max_body_bytes))
        .with_state(shared);
    Ok(Server {
        runtime,
        listener,
        app,
    })
}

impl Server {
    /// The address actually bound.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until the process ends (or the listener fails).
    pub fn run(self) -> std::io::Result<()> {
        let Server {
            runtime,
            listener,
            app,
        } = self;
        runtime.block_on(async move { axum::serve(listener, app).await })
    }
}

fn html(s: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], s).into_response()
}

fn js(s: &'static str) -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        s,
    )
        .into_response()
}

fn css(s: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], s).into_response()
}

fn reply(status: StatusCode, body: Value) -> Response {
    (status, axum::Json(body)).into_response()
}

fn error(status: StatusCode, kind: &str, text: &str) -> Response {
    reply(status, json!({ "kind": kind, "error": text }))
}

fn answered(a: &Answer) -> Response {
    reply(
        StatusCode::OK,
        json!({ "answer": a.to_json(), "text": a.text }),
    )
}

fn timed_out(reason: &str) -> Response {
    let a = Answer::decision(Verdict::Timeout)
        .detail("reason", reason)
        .line(format!("timeout: {reason}"));
    answered(&a)
}

async fn api(State(st): State<Arc<Shared>>, Path(engine): Path<String>, body: Bytes) -> Response {
    if !ENGINES.contains(&engine.as_str()) {
        let m = format!(
            "error: no engine `{engine}` (one of {})\n",
            ENGINES.join(", ")
        );
        return error(StatusCode::NOT_FOUND, "usage", &m);
    }
    // The engine comes from the path: the body holds the page's fields.
    let mut fields: Value = match serde_json::from_slice(&body) {
        Ok(v @ Value::Object(_)) => v,
        Ok(_) => {
            return error(
                StatusCode::BAD_REQUEST,
                "usage",
                "error: expected a JSON object\n",
            )
        }
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                "usage",
                &format!("error: bad JSON: {e}\n"),
            )
        }
    };
    if let Some(m) = fields.as_object_mut() {
        m.insert("engine".into(), Value::String(engine));
    }
    let req: Request = match serde_json::from_value(fields) {
        Ok(r) => r,
        Err(e) => return error(StatusCode::BAD_REQUEST, "usage", &format!("error: {e}\n")),
    };
    let budget = Budget::with_timeout(st.timeout).with_memory_limit(st.memory_bytes);
    let watched = budget.clone();
    let job = tokio::task::spawn_blocking(move || playground::answer(req, &budget));
    match tokio::time::timeout(st.timeout + GRACE, job).await {
        Err(_) => {
            watched.cancel();
            timed_out("the request did not stop within its time limit")
        }
        Ok(Err(join)) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            &format!("internal error (please report): {join}\n"),
        ),
        Ok(Ok(Ok(a))) => answered(&a),
        Ok(Ok(Err(Refused {
            failure: Failure::Limit(m),
            ..
        }))) => timed_out(&m),
        Ok(Ok(Err(Refused { printed, failure }))) => {
            let status = match failure {
                Failure::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
                _ => StatusCode::BAD_REQUEST,
            };
            error(status, failure.kind(), &(printed + &failure.render()))
        }
    }
}
