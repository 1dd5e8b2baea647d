//! Signing a receipt, per item, as verification does it (canonical JSON, the owner's opaque id,
//! Ed25519): `cargo run --release -p evidence --example bench_receipts`. Prints the median and the
//! fastest of 51 rounds, in microseconds per receipt; its yardstick in the same run is
//! `openssl speed -seconds 3 ed25519` (OpenSSL's Ed25519 signatures alone, per second).

use std::{hint::black_box, time::Instant};

use chrono::Utc;
use evidence::receipts::{Facts, ReceiptKeys};
use uuid::Uuid;

const ROUNDS: usize = 51;
const PER_ROUND: u32 = 2_000;

fn main() {
    let keys = ReceiptKeys::generate();
    let facts = Facts {
        item_id: Uuid::now_v7(),
        owner_id: Uuid::now_v7(),
        sha256: "ab".repeat(32),
        size: 3_456_789,
        media_type: "image/jpeg".to_owned(),
        captured_at: Utc::now(),
        received_at: Utc::now(),
        place: Some((52.516_3, 13.377_7)),
    };
    for _ in 0..PER_ROUND {
        black_box(keys.sign(black_box(&facts)));
    }
    let mut micros: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..PER_ROUND {
                black_box(keys.sign(black_box(&facts)));
            }
            start.elapsed().as_secs_f64() * 1e6 / f64::from(PER_ROUND)
        })
        .collect();
    micros.sort_by(f64::total_cmp);
    println!(
        "receipt signing: median {:.1} us, fastest {:.1} us per receipt ({ROUNDS} rounds of {PER_ROUND})",
        micros[ROUNDS / 2],
        micros[0]
    );
}
