//! Renders one watermarked copy, for the benchmark (deploy/local/bench_watermark.sh) and for
//! looking at a banner by eye:
//!
//! ```text
//! cargo run --release -p sharing --example watermark -- image|video|audio IN OUT \
//!     [--for NAME] [--to ADDRESS] [--on "Nov 24, 2026 · 14:05"] [--tx EVD-7K3Q-9XTM] \
//!     [--ffmpeg PATH] [--work DIR]
//! ```
//!
//! `--for` makes an authenticated copy; without it the copy is unauthenticated.

use std::path::PathBuf;

use anyhow::{Context, bail};
use sharing::render::{Banner, CopyType, audio, image, video};

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: watermark image|video|audio IN OUT [--for NAME] [--to ADDRESS] \
                 [--on DATE] [--tx NUMBER] [--ffmpeg PATH] [--work DIR]";
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
            _ => bail!(usage),
        }
    }

    let rendered = match kind.as_str() {
        "image" => {
            tokio::task::spawn_blocking(move || image::render_image(&input, &output, &banner))
                .await??
        }
        "video" => video::render_video(&ffmpeg, &input, &output, &banner, &work).await?,
        "audio" => audio::render_audio(&ffmpeg, &input, &output, &banner, &work).await?,
        _ => bail!(usage),
    };
    println!(
        "{} {} bytes sha256 {}",
        rendered.content_type, rendered.size_bytes, rendered.sha256
    );
    Ok(())
}
