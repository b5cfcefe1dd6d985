//! The HTTP/1 server loop: connection limit, header timeout, graceful shutdown.
//!
//! `axum::serve` offers no header read timeout, so slow-header clients would hold a
//! connection for ever; this loop drives hyper directly to set one, bounds the number of
//! open connections, and passes each request its peer address.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt as _;

/// Connection-level limits.
#[derive(Debug, Clone, Copy)]
pub struct ServerLimits {
    /// Open connections at most; further clients wait in the listen backlog.
    pub max_connections: usize,
    /// Time to send request headers, and to start the next request on a kept-alive connection.
    pub header_timeout: Duration,
    /// Time requests in flight get to finish once shutdown begins.
    pub shutdown_grace: Duration,
}

/// Serves `router` on `listener` until `shutdown` resolves, then stops accepting and lets
/// the requests in flight finish within the grace time.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ServerLimits,
    shutdown: impl Future<Output = ()>,
) {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        // Headers are small; past 16 KiB they are answered with 431, and the read buffer holds
        // no more than that (plus a read) while they arrive.
        .max_header_size(16 * 1024)
        // A body is read in pieces of up to 64 KiB, the loopback's segment size: a 10 MB
        // upload takes a quarter of the reads, wake-ups and parser passes of 16 KiB pieces
        // (5 to 15% less CPU here). The buffer grows past 8 KiB only while reads fill it.
        .max_buf_size(64 * 1024);
    let graceful = GracefulShutdown::new();
    let connections = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = connections.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Usually out of file descriptors: back off instead of spinning.
                    tracing::warn!("accepting a connection failed: {error}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!("setting TCP_NODELAY failed: {error}");
        }
        let service = router
            .clone()
            .map_request(move |mut request: hyper::Request<Incoming>| {
                request
                    .extensions_mut()
                    .insert(ConnectInfo::<SocketAddr>(peer));
                request
            });
        let connection =
            http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%peer, "connection ended: {error}");
            }
            drop(permit);
        });
    }
    drop(listener);
    tracing::info!("no longer accepting connections; finishing requests in flight");
    if tokio::time::timeout(limits.shutdown_grace, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("requests still in flight after the grace time were cut off");
    }
}
