//! What the video and audio copies share: probing the input with ffprobe, a scratch folder per
//! render, the banner as drawbox + drawtext filters, running ffmpeg, and moving the result into
//! place.

use std::{
    ffi::OsString,
    fs, io,
    path::{Path, PathBuf},
    process::Stdio,
};

use anyhow::{Context, bail};
use tokio::process::Command;
use uuid::Uuid;

use super::{
    Rendered, bold_font_file, describe, font_file,
    layout::{BAND_ALPHA, Layout},
};

/// The first real video stream (cover art excluded) and the first audio stream of a file.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Probe {
    pub video: Option<VideoStream>,
    pub audio_codec: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct VideoStream {
    pub width: u32,
    pub height: u32,
    /// Degrees, from the display matrix: ffmpeg turns the frames upright before our filters.
    pub rotation: i64,
}

impl VideoStream {
    /// The size of the frames our filters see, after ffmpeg's autorotation.
    pub fn upright_size(&self) -> (u32, u32) {
        if self.rotation.rem_euclid(180) == 90 {
            (self.height, self.width)
        } else {
            (self.width, self.height)
        }
    }
}

/// ffprobe beside the given ffmpeg ("/usr/bin/ffmpeg" -> "/usr/bin/ffprobe", "ffmpeg" ->
/// "ffprobe"): both come from one package, so one configured path names both.
pub(crate) fn ffprobe_beside(ffmpeg: &Path) -> PathBuf {
    ffmpeg.with_file_name("ffprobe")
}

pub(crate) async fn probe(ffprobe: &Path, input: &Path) -> anyhow::Result<Probe> {
    let mut command = Command::new(ffprobe);
    command
        .args(["-v", "error", "-of", "json", "-show_entries"])
        .arg(
            "stream=codec_type,codec_name,width,height:stream_disposition=attached_pic:\
             stream_side_data=rotation:stream_tags=rotate",
        )
        .arg(input);
    let stdout = output(command, "ffprobe").await?;
    parse_probe(&stdout).with_context(|| format!("reading ffprobe's answer on {}", input.display()))
}

fn parse_probe(json: &[u8]) -> anyhow::Result<Probe> {
    let answer: serde_json::Value = serde_json::from_slice(json)?;
    let mut probe = Probe::default();
    let streams = answer["streams"].as_array().cloned().unwrap_or_default();
    for stream in streams {
        match stream["codec_type"].as_str() {
            Some("video") if probe.video.is_none() => {
                if stream["disposition"]["attached_pic"].as_i64() == Some(1) {
                    continue;
                }
                let size = |key: &str| stream[key].as_u64().and_then(|v| u32::try_from(v).ok());
                let (Some(width), Some(height)) = (size("width"), size("height")) else {
                    continue;
                };
                let side_data = stream["side_data_list"].as_array();
                let rotation = side_data
                    .into_iter()
                    .flatten()
                    .find_map(|d| d["rotation"].as_i64())
                    // Files written by older muxers carry it as a tag instead.
                    .or_else(|| stream["tags"]["rotate"].as_str()?.parse().ok())
                    .unwrap_or(0);
                probe.video = Some(VideoStream {
                    width,
                    height,
                    rotation,
                });
            }
            Some("audio") if probe.audio_codec.is_none() => {
                probe.audio_codec = Some(stream["codec_name"].as_str().unwrap_or("").to_owned());
            }
            _ => {}
        }
    }
    Ok(probe)
}

/// Runs a command to the end and returns its stdout; a failure carries the end of its stderr.
/// The child dies with the future, so a caller's timeout really stops it.
pub(crate) async fn output(mut command: Command, name: &str) -> anyhow::Result<Vec<u8>> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let out = command
        .spawn()
        .with_context(|| format!("cannot run {name} ({command:?})"))?
        .wait_with_output()
        .await?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        // The cause is at the end; ffmpeg can print a lot before it.
        let tail: String = {
            let chars: Vec<char> = stderr.trim().chars().collect();
            chars[chars.len().saturating_sub(2000)..].iter().collect()
        };
        bail!("{name} failed ({}): {tail}", out.status);
    }
    Ok(out.stdout)
}

/// ffmpeg with the options every render uses, working in `cwd` (where the filter's relative
/// file names point).
pub(crate) fn ffmpeg_command(ffmpeg: &Path, cwd: &Path) -> Command {
    let mut command = Command::new(ffmpeg);
    command
        .current_dir(cwd)
        .args(["-hide_banner", "-nostdin", "-loglevel", "error", "-y"]);
    command
}

/// The output options shared by video and audio copies: H.264 in yuv420p, the audio in AAC
/// (copied when it already is), no metadata carried over (an image copy carries no EXIF either:
/// the original's location and device stay with the original), the index up front so a browser
/// starts playing before the download ends.
pub(crate) fn mp4_output_args(audio_codec: Option<&str>, partial: &Path) -> Vec<OsString> {
    let mut args: Vec<OsString> = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "23"]
        .into_iter()
        .map(OsString::from)
        .collect();
    let audio: &[&str] = match audio_codec {
        None => &[],
        Some("aac") => &["-c:a", "copy"],
        Some(_) => &["-c:a", "aac", "-b:a", "160k"],
    };
    args.extend(audio.iter().map(OsString::from));
    args.extend(
        [
            "-pix_fmt",
            "yuv420p",
            "-map_metadata",
            "-1",
            "-map_chapters",
            "-1",
            // Copied audio next to slow filtered video can outrun ffmpeg's default queue.
            "-max_muxing_queue_size",
            "4096",
            "-movflags",
            "+faststart",
            "-f",
            "mp4",
        ]
        .map(OsString::from),
    );
    args.push(partial.as_os_str().to_owned());
    args
}

/// A folder of its own inside the caller's work dir, for one render's text files and partial
/// output; removed when dropped, also when the render's future is dropped half-way.
pub(crate) struct Scratch {
    pub path: PathBuf,
    /// Its name relative to the work dir: ffmpeg runs there, so filters name files by it.
    pub relative: String,
}

impl Scratch {
    pub fn new(work_dir: &Path) -> io::Result<Self> {
        let relative = format!("render-{}", Uuid::new_v4());
        let path = work_dir.join(&relative);
        fs::create_dir_all(&path)?;
        Ok(Self { path, relative })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Err(e) = fs::remove_dir_all(&self.path) {
            tracing::warn!(path = %self.path.display(), error = %e, "cannot remove a render's scratch folder");
        }
    }
}

/// The banner as ffmpeg filters: a drawbox band, then one drawtext per line reading its text
/// from a file (no escaping of ':' or quotes in names and addresses), with the fonts written
/// into the work dir. Names in the filter are relative to the work dir and made only of
/// letters, digits, '-', '.' and '/', so they need no filter escaping either.
pub(crate) fn banner_filters(
    layout: &Layout,
    work_dir: &Path,
    scratch: &Scratch,
) -> anyhow::Result<String> {
    let regular = file_name(&font_file(work_dir)?)?;
    let bold = file_name(&bold_font_file(work_dir)?)?;
    let mut filters = vec![format!(
        "drawbox=x=0:y={}:w=iw:h={}:color=black@{:.3}:t=fill",
        layout.band_top,
        layout.band_height,
        f32::from(BAND_ALPHA) / 255.0
    )];
    for (i, line) in layout.lines.iter().enumerate() {
        let name = format!("line-{i}.txt");
        fs::write(scratch.path.join(&name), &line.text)?;
        let font = if line.bold { &bold } else { &regular };
        // `y` is the top of drawtext's box and `ascent` its distance to the baseline, so this
        // puts the baseline where the layout says, whatever letters the line holds.
        filters.push(format!(
            "drawtext=fontfile={font}:textfile={}/{name}:expansion=none:fontsize={}:\
             fontcolor=white:x={}:y={}-ascent",
            scratch.relative, layout.em_px, line.x, line.baseline
        ));
    }
    Ok(filters.join(","))
}

fn file_name(path: &Path) -> anyhow::Result<String> {
    path.file_name()
        .and_then(|n| n.to_str())
        .map(str::to_owned)
        .context("a font file without a name")
}

/// Runs the ffmpeg `command` that writes an MP4 copy to `partial` (inside `scratch`), then moves
/// it to `output_path` and describes it. `what` names the work in an error.
pub(crate) async fn finish_mp4(
    command: Command,
    what: &str,
    scratch: Scratch,
    partial: &Path,
    output_path: PathBuf,
) -> anyhow::Result<Rendered> {
    output(command, "ffmpeg").await.context(what.to_owned())?;
    move_into_place(partial, &output_path).await?;
    drop(scratch);
    Ok(
        tokio::task::spawn_blocking(move || describe(&output_path, super::video::CONTENT_TYPE))
            .await??,
    )
}

/// Moves the finished copy into place: a rename, or a copy when `output` is on another file
/// system than the work dir.
pub(crate) async fn move_into_place(partial: &Path, output: &Path) -> anyhow::Result<()> {
    if tokio::fs::rename(partial, output).await.is_ok() {
        return Ok(());
    }
    tokio::fs::copy(partial, output)
        .await
        .with_context(|| format!("writing the copy to {}", output.display()))?;
    tokio::fs::remove_file(partial).await?;
    Ok(())
}

/// An absolute version of `path`: ffmpeg runs in the work dir, so relative names would move.
pub(crate) fn absolute(path: &Path) -> io::Result<PathBuf> {
    std::path::absolute(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_finds_the_picture_stream_past_cover_art_and_its_rotation() {
        let json = br#"{"streams": [
            {"codec_type": "video", "codec_name": "mjpeg", "width": 600, "height": 600,
             "disposition": {"attached_pic": 1}},
            {"codec_type": "audio", "codec_name": "aac", "disposition": {"attached_pic": 0}},
            {"codec_type": "video", "codec_name": "h264", "width": 1920, "height": 1080,
             "disposition": {"attached_pic": 0},
             "side_data_list": [{"side_data_type": "Display Matrix", "rotation": -90}]}
        ]}"#;
        let probe = parse_probe(json).unwrap();
        let video = probe.video.unwrap();
        assert_eq!(
            (video.width, video.height, video.rotation),
            (1920, 1080, -90)
        );
        assert_eq!(video.upright_size(), (1080, 1920));
        assert_eq!(probe.audio_codec.as_deref(), Some("aac"));
    }

    #[test]
    fn a_file_without_streams_probes_empty() {
        assert_eq!(parse_probe(br#"{}"#).unwrap(), Probe::default());
    }
}
