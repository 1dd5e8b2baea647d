//! The gateway process: the REST API under `/api/` and the web app.

/// mimalloc: glibc's malloc and free were a sixth of the gateway's CPU on the read path
/// (docs/benchmarks.md, "Where the read path's time goes").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let _telemetry = evidentia_common::telemetry::init("gateway")?;
        let config = gateway::config::Config::from_env()?;
        let listener = tokio::net::TcpListener::bind(config.http_listen_addr).await?;
        gateway::startup::run(config, listener, evidentia_common::shutdown::on_signal()).await
    })
}
