//! The process's one TLS crypto provider. Both of rustls' providers are compiled in (lettre and
//! the AWS SDK bring aws-lc-rs, reqwest brings ring), and with two of them rustls cannot pick a
//! default by itself. A process installs one as it starts: `service::main` for the binaries,
//! `service::test_config` for the tests that run services in-process.

/// Installs aws-lc-rs as the process-wide default provider, once; later calls change nothing.
pub fn install_crypto_provider() {
    // An error means a provider is already installed, which is what is wanted.
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
}
