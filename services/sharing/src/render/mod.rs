//! Watermarked copies of shared items: a banner naming the copy's recipient burned into the
//! pixels of an image, the frames of a video, or a waveform video made from an audio file.
//!
//! Pure file work: a path in, a path out, no database, store or network. Images are drawn in
//! Rust (`image`, `imageproc`, `jpeg-encoder`); videos and audio go through ffmpeg, whose path
//! the caller passes. Image and video share one layout ([`layout`]) and one embedded font, so a
//! banner looks the same on both.

pub mod audio;
pub mod image;
mod jpeg;
mod layout;
mod process;
pub mod provenance;
pub mod video;

use std::{
    fs,
    io::{self, Read},
    path::{Path, PathBuf},
};

use sha2::{Digest, Sha256};

/// DejaVu Sans (license in `assets/fonts/LICENSE-DejaVu.txt`), embedded so the service needs no
/// font installed and every machine draws the same banner.
const FONT_REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
/// The badge ("Authenticated Copy") is set in the bold cut.
const FONT_BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// Whether the recipient proved who they are before opening the share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyType {
    Authenticated,
    Unauthenticated,
}

/// What the watermark says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Banner {
    pub copy_type: CopyType,
    /// The owner's name; shown on authenticated copies only.
    pub generated_for: Option<String>,
    /// The recipient's address ("jane@example.com", "+1 555 123 4567") or "Anyone with the link".
    pub sent_to: String,
    /// Formatted by the caller, in the owner's time zone: "Nov 24, 2026 · 14:05".
    pub generated_on: String,
    /// "EVD-7K3Q-9XTM".
    pub transaction_number: String,
}

impl Banner {
    /// The badge, in the spec's wording.
    pub fn badge(&self) -> &'static str {
        match self.copy_type {
            CopyType::Authenticated => "Authenticated Copy",
            CopyType::Unauthenticated => "Unauthenticated Copy",
        }
    }

    /// The banner's lines, top to bottom: the badge first (drawn bold), then the details.
    /// "Generated for" appears on authenticated copies only, even if a name was given.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![self.badge().to_owned()];
        if let (CopyType::Authenticated, Some(name)) = (self.copy_type, &self.generated_for) {
            lines.push(format!("Generated for: {name}"));
        }
        lines.push(format!("Sent To: {}", self.sent_to));
        lines.push(format!("Generated On: {}", self.generated_on));
        lines.push(format!("Transaction Number: {}", self.transaction_number));
        lines
    }
}

/// The copy that was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// SHA-256 of the output file, lower-case hex.
    pub sha256: String,
    pub size_bytes: u64,
    pub content_type: &'static str,
}

/// The regular font as a file in `dir` (ffmpeg's drawtext reads fonts from a path), written
/// once: a file already there with the right size is reused.
pub fn font_file(dir: &Path) -> io::Result<PathBuf> {
    write_once(dir, "DejaVuSans.ttf", FONT_REGULAR)
}

/// The bold font as a file in `dir`, like [`font_file`].
pub fn bold_font_file(dir: &Path) -> io::Result<PathBuf> {
    write_once(dir, "DejaVuSans-Bold.ttf", FONT_BOLD)
}

fn write_once(dir: &Path, name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
    let path = dir.join(name);
    if fs::metadata(&path).is_ok_and(|m| m.len() == bytes.len() as u64) {
        return Ok(path);
    }
    // Written aside under a name of its own and renamed, so a concurrent render never reads
    // half a font and two renders writing it at once do not write into one file.
    let partial = dir.join(format!("{name}.{}.partial", uuid::Uuid::new_v4()));
    fs::write(&partial, bytes)?;
    fs::rename(&partial, &path)?;
    Ok(path)
}

/// Size and SHA-256 of a finished output file, streamed (a video copy can be gigabytes).
pub fn describe(path: &Path, content_type: &'static str) -> io::Result<Rendered> {
    let mut file = fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0; 256 * 1024];
    let mut size_bytes = 0u64;
    loop {
        let read = file.read(&mut buffer)?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
        size_bytes += read as u64;
    }
    Ok(Rendered {
        sha256: hex::encode(hasher.finalize()),
        size_bytes,
        content_type,
    })
}

/// `output` with a suffix, beside it: renders write there and rename, so `output` never holds a
/// half-written copy.
fn partial_path(output: &Path) -> PathBuf {
    let mut name = output.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    output.with_file_name(name)
}

#[cfg(test)]
pub(crate) mod testing {
    //! What the render tests share: a sample banner and reading text back with tesseract.

    use super::*;
    use std::process::Command;

    pub const TRANSACTION: &str = "EVD-7K3Q-9XTM";

    pub fn banner(copy_type: CopyType) -> Banner {
        Banner {
            copy_type,
            generated_for: Some("Jane Doe".into()),
            sent_to: "jane@example.com".into(),
            generated_on: "Nov 24, 2026 · 14:05".into(),
            transaction_number: TRANSACTION.into(),
        }
    }

    /// The text tesseract reads in an image file, spaces removed (OCR splits "EVD-7K3Q - 9XTM").
    pub fn ocr(image: &Path) -> String {
        let out = Command::new("tesseract")
            .arg(image)
            .args(["-", "--psm", "6"])
            .output()
            .expect("tesseract is installed (deploy/local/apt-packages.txt: tesseract-ocr)");
        assert!(
            out.status.success(),
            "tesseract failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect()
    }

    /// The banner read back from a video copy: the band of its frame at one second, for a
    /// picture of `width` x `height`, enlarged twice (tesseract reads 16 px text poorly).
    pub fn read_band(copy: &Path, banner: &Banner, width: u32, height: u32, dir: &Path) -> String {
        let fonts = layout::Fonts::load().unwrap();
        let layout = layout::layout(banner, &fonts, width, height).unwrap();
        let frame = dir.join("frame.png");
        run(Command::new("ffmpeg")
            .args(["-hide_banner", "-loglevel", "error", "-y", "-ss", "1", "-i"])
            .arg(copy)
            .args(["-frames:v", "1", "-vf"])
            .arg(format!(
                "crop=iw:{}:0:{},scale=iw*2:-1",
                layout.band_height, layout.band_top
            ))
            .arg(&frame));
        ocr(&frame)
    }

    pub fn run(command: &mut Command) {
        let out = command
            .output()
            .unwrap_or_else(|e| panic!("cannot run {command:?} (is ffmpeg installed?): {e}"));
        assert!(
            out.status.success(),
            "{command:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_authenticated_banner_names_the_owner_and_says_authenticated_copy() {
        let lines = testing::banner(CopyType::Authenticated).lines();
        assert_eq!(
            lines,
            [
                "Authenticated Copy",
                "Generated for: Jane Doe",
                "Sent To: jane@example.com",
                "Generated On: Nov 24, 2026 · 14:05",
                "Transaction Number: EVD-7K3Q-9XTM",
            ]
        );
    }

    #[test]
    fn an_unauthenticated_banner_names_no_owner_even_when_given_one() {
        let lines = testing::banner(CopyType::Unauthenticated).lines();
        assert_eq!(lines[0], "Unauthenticated Copy");
        assert!(!lines.iter().any(|l| l.starts_with("Generated for")));
        assert_eq!(lines.len(), 4);
    }

    #[test]
    fn the_font_is_written_once_and_reused() {
        let dir = tempfile::tempdir().unwrap();
        let first = font_file(dir.path()).unwrap();
        let modified = fs::metadata(&first).unwrap().modified().unwrap();
        let again = font_file(dir.path()).unwrap();
        assert_eq!(first, again);
        assert_eq!(fs::read(&again).unwrap(), FONT_REGULAR);
        assert_eq!(fs::metadata(&again).unwrap().modified().unwrap(), modified);
        assert_eq!(
            fs::read(bold_font_file(dir.path()).unwrap()).unwrap(),
            FONT_BOLD
        );
    }
}
