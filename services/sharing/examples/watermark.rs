//! Renders one watermarked copy, for the benchmark (deploy/local/bench_watermark.sh) and for
//! looking at a banner by eye:
//!
//! ```text
//! cargo run --release -p sharing --example watermark -- image|video|audio IN OUT \
//!     [--for NAME] [--to ADDRESS] [--on "Nov 24, 2026 · 14:05"] [--tx EVD-7K3Q-9XTM] \
//!     [--ffmpeg PATH] [--work DIR] [--c2pa DIR]
//! ```
//!
//! `--for` makes an authenticated copy; without it the copy is unauthenticated. `--c2pa` signs
//! the copy's C2PA manifest with `DIR/chain.pem` and `DIR/leaf.key`
//! (deploy/local/make_c2pa_certs.sh makes them), as the service does for authenticated copies.

use std::path::PathBuf;

use anyhow::{Context, bail};
use sharing::render::{
    Banner, CopyType, audio, describe, image,
    provenance::{CopyFacts, Provenance},
    video,
};

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: watermark image|video|audio IN OUT [--for NAME] [--to ADDRESS] \
                 [--on DATE] [--tx NUMBER] [--ffmpeg PATH] [--work DIR] [--c2pa DIR]";
    let (Some(kind), Some(input), Some(output)) = (args.next(), args.next(), args.next()) else {
        bail!(usage);
    };
    let (input, output) = (PathBuf::from(input), PathBuf::from(output));
    let mut banner = Banner {
        copy_type: CopyType::Unauthenticated,
        generated_for: None,
        sent_to: "Anyone with the link".into(),
        generated_on: "Nov 24, 2026 · 14:05".into(),
        transaction_number: "EVD-7K3Q-9XTM".into(),
    };
    let mut ffmpeg = PathBuf::from("ffmpeg");
    let mut work = std::env::temp_dir();
    let mut c2pa: Option<PathBuf> = None;
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .with_context(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--for" => {
                banner.copy_type = CopyType::Authenticated;
                banner.generated_for = Some(value);
            }
            "--to" => banner.sent_to = value,
            "--on" => banner.generated_on = value,
            "--tx" => banner.transaction_number = value,
            "--ffmpeg" => ffmpeg = value.into(),
            "--work" => work = value.into(),
            "--c2pa" => c2pa = Some(value.into()),
            _ => bail!(usage),
        }
    }

    let facts = CopyFacts {
        transaction_number: banner.transaction_number.clone(),
        generated_for: banner.generated_for.clone(),
        sent_to: banner.sent_to.clone(),
        generated_on: chrono::Utc::now(),
        original_name: input.display().to_string(),
        original_sha256: "0".repeat(64),
    };
    // With --c2pa the copy is rendered beside OUT, then signed into OUT.
    let rendered_to = if c2pa.is_some() {
        output.with_extension("unsigned")
    } else {
        output.clone()
    };
    let target = rendered_to.clone();
    let mut rendered = match kind.as_str() {
        "image" => {
            tokio::task::spawn_blocking(move || image::render_image(&input, &target, &banner))
                .await??
        }
        "video" => video::render_video(&ffmpeg, &input, &target, &banner, &work).await?,
        "audio" => audio::render_audio(&ffmpeg, &input, &target, &banner, &work).await?,
        _ => bail!(usage),
    };
    if let Some(dir) = c2pa {
        let provenance = Provenance::new(
            &std::fs::read(dir.join("chain.pem"))?,
            &std::fs::read(dir.join("leaf.key"))?,
            c2pa::SigningAlg::Ed25519,
        )?;
        provenance.sign(&rendered_to, &output, rendered.content_type, &facts)?;
        std::fs::remove_file(&rendered_to)?;
        rendered = describe(&output, rendered.content_type)?;
    }
    println!(
        "{} {} bytes sha256 {}",
        rendered.content_type, rendered.size_bytes, rendered.sha256
    );
    Ok(())
}
