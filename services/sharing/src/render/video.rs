//! The watermarked copy of a video: ffmpeg re-encodes it to H.264/AAC MP4 with the banner
//! drawn on every frame (drawbox + drawtext, laid out by the same code as images, in the same
//! font). ffmpeg streams file to file, so our memory stays flat whatever the video's length.

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

pub const CONTENT_TYPE: &str = "video/mp4";

/// Writes the watermarked copy of the video at `input` to `output` as an MP4. `ffmpeg` is the
/// program (ffprobe is taken from beside it); `work_dir` holds the fonts and, while it runs,
/// this render's scratch folder (removed afterwards), and should be on `output`'s file system
/// so the finished copy is renamed rather than copied. Cancel by dropping the future (a
/// `tokio::time::timeout` around it): ffmpeg is killed with it.
pub async fn render_video(
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
    let video = probed
        .video
        .with_context(|| format!("{} has no video stream", input.display()))?;
    let (width, height) = video.upright_size();
    // yuv420p needs even sides: an odd last row or column is cropped, not stretched.
    let (even_width, even_height) = (width & !1, height & !1);
    anyhow::ensure!(
        even_width > 0 && even_height > 0,
        "{} is {width}x{height}",
        input.display()
    );

    let fonts = Fonts::load()?;
    let layout = layout(banner, &fonts, even_width, even_height)?;
    let scratch = Scratch::new(work_dir)?;
    let mut filters = Vec::new();
    if (even_width, even_height) != (width, height) {
        filters.push(format!("crop={even_width}:{even_height}:0:0"));
    }
    filters.push(banner_filters(&layout, work_dir, &scratch)?);
    filters.push("format=yuv420p".to_owned());
    let partial = scratch.path.join("copy.mp4");

    let mut command = ffmpeg_command(ffmpeg, work_dir);
    command
        .arg("-i")
        .arg(&input)
        // `V`: a real video stream, never the cover art some files carry as one.
        .args(["-map", "0:V:0", "-map", "0:a:0?", "-vf", &filters.join(",")])
        .args(mp4_output_args(probed.audio_codec.as_deref(), &partial));
    let what = format!("watermarking {}", input.display());
    finish_mp4(command, &what, scratch, &partial, output_path).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{CopyType, testing};
    use std::{path::PathBuf, process::Command};

    /// ffprobe's `key=value` lines for one stream, e.g. `codec_name=h264`.
    fn stream_facts(file: &Path, select: &str) -> String {
        let out = Command::new("ffprobe")
            .args(["-v", "error", "-select_streams", select, "-show_entries"])
            .args(["stream=codec_name,width,height", "-of", "default=nw=1"])
            .arg(file)
            .output()
            .expect("ffprobe is installed (deploy/local/apt-packages.txt: ffmpeg)");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn duration(file: &Path) -> f64 {
        let out = Command::new("ffprobe")
            .args(["-v", "error", "-show_entries", "format=duration"])
            .args(["-of", "default=nw=1:nk=1"])
            .arg(file)
            .output()
            .expect("ffprobe is installed");
        String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
    }

    /// A 3 s 640x360 test pattern, with a tone unless `silent`.
    fn test_video(dir: &Path, silent: bool) -> PathBuf {
        let video = dir.join(if silent { "silent.mp4" } else { "clip.mp4" });
        let mut command = Command::new("ffmpeg");
        command
            .args(["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi"])
            .args(["-i", "testsrc2=size=640x360:rate=25:duration=3"]);
        if !silent {
            command.args(["-f", "lavfi", "-i", "sine=frequency=440:duration=3"]);
            command.args(["-c:a", "aac"]);
        }
        command
            .args([
                "-c:v",
                "libx264",
                "-preset",
                "ultrafast",
                "-pix_fmt",
                "yuv420p",
            ])
            .arg(&video);
        testing::run(&mut command);
        video
    }

    #[tokio::test]
    async fn a_video_copy_is_h264_of_the_same_size_and_length_with_the_banner_on_its_frames() {
        let dir = tempfile::tempdir().unwrap();
        let original = test_video(dir.path(), false);
        let copy = dir.path().join("copy.mp4");
        let work = dir.path().join("work");
        std::fs::create_dir(&work).unwrap();
        let banner = testing::banner(CopyType::Authenticated);

        let rendered = render_video(Path::new("ffmpeg"), &original, &copy, &banner, &work)
            .await
            .unwrap();

        let video = stream_facts(&copy, "v:0");
        assert!(video.contains("codec_name=h264"), "{video}");
        assert!(
            video.contains("width=640") && video.contains("height=360"),
            "{video}"
        );
        assert!(stream_facts(&copy, "a:0").contains("codec_name=aac"));
        assert!((duration(&copy) - duration(&original)).abs() < 0.2);
        let bytes = std::fs::read(&copy).unwrap();
        assert_ne!(bytes, std::fs::read(&original).unwrap());
        assert_eq!(rendered.size_bytes, bytes.len() as u64);
        assert_eq!(rendered.content_type, "video/mp4");
        // Only the fonts stay in the work dir; the scratch folder is gone.
        let left: Vec<_> = std::fs::read_dir(&work)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left.len(), 2, "{left:?}");

        let text = testing::read_band(&copy, &banner, 640, 360, dir.path());
        assert!(text.contains(testing::TRANSACTION), "OCR read {text:?}");
        assert!(text.contains("AuthenticatedCopy"), "OCR read {text:?}");
    }

    /// `dir` named relative to the current directory ("../../tmp/x").
    fn relative(dir: &Path) -> PathBuf {
        let cwd = std::env::current_dir().unwrap();
        let ups = cwd.components().count() - 1;
        let mut path: PathBuf = std::iter::repeat_n("..", ups).collect();
        path.push(dir.strip_prefix("/").unwrap());
        path
    }

    #[tokio::test]
    async fn a_video_without_sound_gets_a_copy_without_sound_also_with_relative_paths() {
        let dir = tempfile::tempdir().unwrap();
        let original = test_video(dir.path(), true);
        let copy = dir.path().join("copy.mp4");
        let banner = testing::banner(CopyType::Unauthenticated);

        // ffmpeg runs in the work dir, so relative names must not be read from there: a work
        // dir deeper than the current one makes them point elsewhere if they were.
        let depth = std::env::current_dir().unwrap().components().count();
        let work: PathBuf = dir
            .path()
            .join(std::iter::repeat_n("w", depth).collect::<PathBuf>());
        std::fs::create_dir_all(&work).unwrap();
        let (original_rel, copy_rel, work_rel) =
            (relative(&original), relative(&copy), relative(&work));
        render_video(
            Path::new("ffmpeg"),
            &original_rel,
            &copy_rel,
            &banner,
            &work_rel,
        )
        .await
        .unwrap();

        assert!(stream_facts(&copy, "v:0").contains("codec_name=h264"));
        assert_eq!(stream_facts(&copy, "a"), "");
        let text = testing::read_band(&copy, &banner, 640, 360, dir.path());
        assert!(text.contains("UnauthenticatedCopy"), "OCR read {text:?}");
    }

    #[tokio::test]
    async fn a_video_filmed_upright_gets_its_banner_across_the_upright_frame() {
        let dir = tempfile::tempdir().unwrap();
        let stored = test_video(dir.path(), false);
        // Stored 640x360 with a display matrix of 90 degrees, as phones record portrait video.
        let original = dir.path().join("portrait.mp4");
        testing::run(
            Command::new("ffmpeg")
                .args(["-hide_banner", "-loglevel", "error", "-y", "-i"])
                .arg(&stored)
                .args(["-c", "copy", "-metadata:s:v:0", "rotate=90"])
                .arg(&original),
        );
        let copy = dir.path().join("copy.mp4");
        let banner = testing::banner(CopyType::Authenticated);

        render_video(Path::new("ffmpeg"), &original, &copy, &banner, dir.path())
            .await
            .unwrap();

        let video = stream_facts(&copy, "v:0");
        assert!(
            video.contains("width=360") && video.contains("height=640"),
            "{video}"
        );
        let text = testing::read_band(&copy, &banner, 360, 640, dir.path());
        assert!(text.contains(testing::TRANSACTION), "OCR read {text:?}");
    }

    #[tokio::test]
    async fn a_file_that_is_no_video_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let original = dir.path().join("notes.mp4");
        std::fs::write(&original, b"not a video").unwrap();
        let copy = dir.path().join("copy.mp4");

        let error = render_video(
            Path::new("ffmpeg"),
            &original,
            &copy,
            &testing::banner(CopyType::Authenticated),
            dir.path(),
        )
        .await
        .unwrap_err();

        assert!(format!("{error:#}").contains("ffprobe failed"), "{error:#}");
        assert!(!copy.exists());
    }
}
