//! The thumbnail makers: images are scaled down with the `image` crate, videos get a poster
//! frame from the `ffmpeg` program (`app::make_thumbnail` runs them on `ItemUploaded`).

use std::{io::Cursor, process::Stdio, time::Duration};

use async_trait::async_trait;
use image::{ImageFormat, imageops::FilterType};

/// The longest side of a thumbnail, in pixels.
pub const THUMBNAIL_SIZE: u32 = 320;
/// Images larger than this are not decoded for a thumbnail (they keep the generic icon).
pub const MAX_IMAGE_BYTES: i64 = 64 * 1024 * 1024;

/// A JPEG thumbnail of `bytes`, or `None` when they are not an image we can decode.
pub fn thumbnail(bytes: &[u8]) -> anyhow::Result<Option<Vec<u8>>> {
    let Ok(decoded) = image::load_from_memory(bytes) else {
        return Ok(None);
    };
    let small = decoded
        .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, FilterType::Triangle)
        .to_rgb8();
    let mut out = Cursor::new(Vec::new());
    small.write_to(&mut out, ImageFormat::Jpeg)?;
    Ok(Some(out.into_inner()))
}

/// A poster frame of a video: a JPEG `THUMBNAIL_SIZE` pixels wide from near its start, or
/// `None` when the input is not a video it can decode.
#[async_trait]
pub trait PosterFrames: Send + Sync + 'static {
    /// `input` is a URL (a presigned GET) or a local path.
    async fn poster(&self, input: &str) -> anyhow::Result<Option<Vec<u8>>>;
}

/// The `ffmpeg` program.
#[derive(Debug, Clone)]
pub struct Ffmpeg {
    pub program: String,
    pub timeout: Duration,
}

impl Ffmpeg {
    /// One frame at `seek` seconds (if the video is that long) as a JPEG on stdout.
    async fn frame(&self, input: &str, seek: Option<&str>) -> anyhow::Result<Option<Vec<u8>>> {
        let mut command = tokio::process::Command::new(&self.program);
        command.args(["-hide_banner", "-loglevel", "error", "-nostdin"]);
        if let Some(seek) = seek {
            command.args(["-ss", seek]);
        }
        let scale = format!("scale={THUMBNAIL_SIZE}:-2");
        command
            .args(["-i", input, "-frames:v", "1", "-vf", &scale])
            .args(["-f", "image2pipe", "-c:v", "mjpeg", "-q:v", "4", "pipe:1"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        let child = command.spawn().map_err(|e| {
            anyhow::anyhow!("cannot run {} (video poster frames): {e}", self.program)
        })?;
        let output = tokio::time::timeout(self.timeout, child.wait_with_output())
            .await
            .map_err(|_| anyhow::anyhow!("ffmpeg took longer than {:?}", self.timeout))??;
        if !output.status.success() {
            tracing::info!(
                stderr = %String::from_utf8_lossy(&output.stderr),
                "ffmpeg could not make a poster frame"
            );
            return Ok(None);
        }
        Ok((!output.stdout.is_empty()).then_some(output.stdout))
    }
}

#[async_trait]
impl PosterFrames for Ffmpeg {
    async fn poster(&self, input: &str) -> anyhow::Result<Option<Vec<u8>>> {
        // Half a second in skips a black first frame; a shorter video gets its first frame.
        match self.frame(input, Some("0.5")).await? {
            Some(jpeg) => Ok(Some(jpeg)),
            None => self.frame(input, None).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use uuid::Uuid;

    use super::*;

    #[test]
    fn a_large_image_becomes_a_small_jpeg_and_other_bytes_none() {
        let big = image::RgbImage::from_pixel(1600, 1200, image::Rgb([200, 30, 30]));
        let mut png = Cursor::new(Vec::new());
        big.write_to(&mut png, ImageFormat::Png).unwrap();
        let jpeg = thumbnail(png.get_ref()).unwrap().expect("a thumbnail");
        let back = image::load_from_memory(&jpeg).unwrap();
        assert_eq!((back.width(), back.height()), (320, 240));
        assert_eq!(thumbnail(b"not an image").unwrap(), None);
    }

    #[tokio::test]
    async fn ffmpeg_makes_a_320_pixel_wide_jpeg_poster_of_a_video_and_none_of_other_bytes() {
        let dir = std::env::temp_dir().join(format!("poster-{}", Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        let video = dir.join("clip.mp4");
        let made = std::process::Command::new("ffmpeg")
            .args(["-hide_banner", "-loglevel", "error", "-f", "lavfi"])
            .args(["-i", "testsrc=size=640x360:rate=10", "-t", "1"])
            .args(["-pix_fmt", "yuv420p", "-c:v", "mpeg4"])
            .arg(&video)
            .status()
            .expect("ffmpeg is installed (deploy/local/apt-packages.txt)");
        assert!(made.success());
        let ffmpeg = Ffmpeg {
            program: "ffmpeg".into(),
            timeout: Duration::from_secs(30),
        };
        let jpeg = ffmpeg
            .poster(video.to_str().unwrap())
            .await
            .unwrap()
            .expect("a poster");
        assert_eq!(image::guess_format(&jpeg).unwrap(), ImageFormat::Jpeg);
        let poster = image::load_from_memory(&jpeg).unwrap();
        assert_eq!((poster.width(), poster.height()), (320, 180));
        let text = dir.join("not-a-video.mp4");
        std::fs::write(&text, b"not a video").unwrap();
        assert_eq!(ffmpeg.poster(text.to_str().unwrap()).await.unwrap(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
