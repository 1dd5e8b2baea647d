//! Writes an evidence packet of the files in a folder on disk, as the service streams one, for
//! the packet benchmark (deploy/local/bench_packet.sh):
//!
//! ```text
//! cargo run --release -p sharing --example packet -- DIR OUT.zip
//! ```
//!
//! Each file is read in chunks and passes through the ZIP writer and CRC-32 into OUT as the
//! service's stream would; custody logs and receipts are left empty (their size is negligible
//! beside the files), and the manifest's hashes are placeholders (the service has them from
//! evidence; computing them here would time something the service does not do).

use std::path::PathBuf;

use anyhow::bail;
use chrono::Utc;
use evidentia_common::signing::SigningKeys;
use futures::{StreamExt, TryStreamExt};
use sharing::packet::{self, Contents, PacketFile};
use tokio_util::io::ReaderStream;
use uuid::Uuid;

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let (Some(dir), Some(out)) = (args.next(), args.next()) else {
        bail!("usage: packet DIR OUT.zip");
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    paths.sort();
    let files: Vec<(PacketFile, PathBuf)> = paths
        .into_iter()
        .filter(|p| p.is_file())
        .map(|path| {
            let size = i64::try_from(std::fs::metadata(&path)?.len())?;
            let file = PacketFile {
                item_id: Uuid::now_v7(),
                name: path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
                sha256: "0".repeat(64),
                size,
                original_sha256: None,
                receipt: None,
                custody: Vec::new(),
                withheld: Default::default(),
                heads: Vec::new(),
            };
            Ok((file, path))
        })
        .collect::<anyhow::Result<_>>()?;
    let keys = SigningKeys::generate();
    let contents = Contents {
        folder_name: "benchmark".into(),
        generated_at: Utc::now(),
        recipient: None,
        files: files.iter().map(|(f, _)| f.clone()).collect(),
        keys: keys.public_keys(),
        timestamp_authority_pem: None,
    };
    let started = std::time::Instant::now();
    let output = tokio::fs::File::create(&out).await?;
    let written = packet::write(output, &contents, &keys, |id| {
        let path = files
            .iter()
            .find(|(f, _)| f.item_id == id)
            .map(|(_, p)| p.clone())
            .unwrap_or_default();
        futures::stream::once(async move { tokio::fs::File::open(path).await })
            .map_ok(|file| ReaderStream::with_capacity(file, 256 * 1024))
            .try_flatten()
            .boxed()
    })
    .await?;
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "packet: {written} bytes in {seconds:.2} s = {:.0} MiB/s",
        written as f64 / seconds / 1_048_576.0
    );
    Ok(())
}
