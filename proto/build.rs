//! Generates the Rust code of every contract under `evidentia/` (not committed).
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let protos = [
        "evidentia/accounts/v1/accounts.proto",
        "evidentia/payments/v1/payments.proto",
        "evidentia/referrals/v1/referrals.proto",
        "evidentia/evidence/v1/evidence.proto",
        "evidentia/sharing/v1/sharing.proto",
        "evidentia/events/v1/events.proto",
    ];
    for proto in &protos {
        println!("cargo:rerun-if-changed={proto}");
    }
    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        .compile_protos(&protos, &["."])?;
    Ok(())
}
