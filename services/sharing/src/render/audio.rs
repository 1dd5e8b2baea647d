//! The watermarked copy of an audio recording: a 1280x720 MP4 of the sound's waveform on a dark
//! background, with the same banner as images and videos, and the sound itself in AAC.
//!
//! Why a video: a watermark has to be seen to say whose copy it is, and sound has nowhere to
//! show it. Mixing a spoken notice into the recording would alter the evidence a recipient
//! listens to; metadata tags are invisible and stripped by any re-save. A waveform video shows
//! the banner for the whole recording, plays in every browser (H.264/AAC MP4, index up front)
//! and keeps the sound untouched (AAC is copied as it is; other codecs are re-encoded to AAC).

use std::path::Path;

use anyhow::Context;

use super::{
    Banner, Rendered,
    layout::{Fonts, layout},
    process::{
        Scratch, absolute, banner_filters, ffmpeg_command, ffprobe_beside, finish_mp4,
        mp4_output_args, probe,
    },
};

/// The waveform video's size: 720p is sharp on a phone and a laptop; the picture is simple,
/// so it encodes fast and small.
pub const WIDTH: u32 = 1280;
pub const HEIGHT: u32 = 720;
/// Frames per second of the waveform: smooth enough, and half the encoding of 50.
const RATE: u32 = 25;
const BACKGROUND: &str = "0x11161c";
const WAVE_COLOUR: &str = "0x5fb3ff";

/// Writes the watermarked waveform video of the audio at `input` to `output` (MP4). Arguments
/// as for [`super::video::render_video`].
pub async fn render_audio(
    ffmpeg: &Path,
    input: &Path,
    output_path: &Path,
    banner: &Banner,
    work_dir: &Path,
) -> anyhow::Result<Rendered> {
    let input = absolute(input)?;
    let output_path = absolute(output_path)?;
    let work_dir = &absolute(work_dir)?;
    let probed = probe(&ffprobe_beside(ffmpeg), &input).await?;
    let audio_codec = probed
        .audio_codec
        .with_context(|| format!("{} has no audio stream", input.display()))?;

    let fonts = Fonts::load()?;
    let layout = layout(banner, &fonts, WIDTH, HEIGHT)?;
    let scratch = Scratch::new(work_dir)?;
    // The wave fills the picture above the band, so the banner hides none of it.
    let wave_height = (layout.band_top & !1).max(2);
    let graph = format!(
        "color=c={BACKGROUND}:s={WIDTH}x{HEIGHT}:r={RATE}[bg];\
         [0:a:0]showwaves=s={WIDTH}x{wave_height}:mode=cline:rate={RATE}:colors={WAVE_COLOUR}[wave];\
         [bg][wave]overlay=0:0:shortest=1,{},format=yuv420p[v]",
        banner_filters(&layout, work_dir, &scratch)?
    );
    let partial = scratch.path.join("copy.mp4");

    let mut command = ffmpeg_command(ffmpeg, work_dir);
    command
        .arg("-i")
        .arg(&input)
        .args(["-filter_complex", &graph, "-map", "[v]", "-map", "0:a:0"])
        .args(mp4_output_args(Some(&audio_codec), &partial));
    let what = format!("making the waveform video of {}", input.display());
    finish_mp4(command, &what, scratch, &partial, output_path).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{CopyType, testing};
    use std::process::Command;

    fn ffprobe(file: &Path, entries: &str) -> String {
        let out = Command::new("ffprobe")
            .args([
                "-v",
                "error",
                "-show_entries",
                entries,
                "-of",
                "default=nw=1",
            ])
            .arg(file)
            .output()
            .expect("ffprobe is installed (deploy/local/apt-packages.txt: ffmpeg)");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    #[tokio::test]
    async fn a_recording_becomes_a_waveform_video_with_its_sound_and_the_banner() {
        let dir = tempfile::tempdir().unwrap();
        let original = dir.path().join("memo.wav");
        testing::run(
            Command::new("ffmpeg")
                .args(["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi"])
                .args(["-i", "sine=frequency=300:duration=3"])
                .arg(&original),
        );
        let copy = dir.path().join("copy.mp4");
        let banner = testing::banner(CopyType::Authenticated);

        let rendered = render_audio(Path::new("ffmpeg"), &original, &copy, &banner, dir.path())
            .await
            .unwrap();

        let streams = ffprobe(&copy, "stream=codec_type,codec_name,width,height");
        assert!(streams.contains("codec_name=h264"), "{streams}");
        assert!(streams.contains("width=1280") && streams.contains("height=720"));
        assert!(streams.contains("codec_type=audio") && streams.contains("codec_name=aac"));
        let duration: f64 = ffprobe(&copy, "format=duration")
            .trim()
            .trim_start_matches("duration=")
            .parse()
            .unwrap();
        assert!((duration - 3.0).abs() < 0.3, "{duration}");
        assert_eq!(rendered.content_type, "video/mp4");

        let text = testing::read_band(&copy, &banner, WIDTH, HEIGHT, dir.path());
        assert!(text.contains(testing::TRANSACTION), "OCR read {text:?}");
    }

    #[tokio::test]
    async fn a_file_without_sound_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let original = dir.path().join("still.mp4");
        testing::run(
            Command::new("ffmpeg")
                .args(["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi"])
                .args([
                    "-i",
                    "testsrc2=size=320x240:duration=1",
                    "-pix_fmt",
                    "yuv420p",
                ])
                .arg(&original),
        );

        let error = render_audio(
            Path::new("ffmpeg"),
            &original,
            &dir.path().join("copy.mp4"),
            &testing::banner(CopyType::Authenticated),
            dir.path(),
        )
        .await
        .unwrap_err();

        assert!(error.to_string().contains("no audio stream"), "{error:#}");
    }
}
