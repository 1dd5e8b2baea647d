//! Where the banner goes on a frame of a given size: the font size, the band, and the lines
//! wrapped to the frame's width, measured with the embedded font. Images draw it with
//! `imageproc`; videos hand the same numbers to ffmpeg's drawbox and drawtext.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use anyhow::Context;
use imageproc::drawing::text_size;

use super::{Banner, FONT_BOLD, FONT_REGULAR};

/// How dark the band is: black at this opacity (0..=255) over the picture. Dark enough that
/// white text reads over a white wall, light enough that the picture shows through.
pub(crate) const BAND_ALPHA: u8 = 160;

/// The font's em size is the frame's shorter side divided by this: about 83 px on a 12 MP photo,
/// 30 px on 1080p video.
const EM_PER_SHORT_SIDE: u32 = 36;
/// Below this the text is hard to read (and to OCR) on a phone screen.
const MIN_EM: u32 = 16;
/// The band may cover at most this share of the frame's height; beyond it the text shrinks.
const MAX_BAND_SHARE: f32 = 0.5;
/// Never smaller than this, even when the band then covers more than `MAX_BAND_SHARE`.
const FLOOR_EM: u32 = 8;

/// The two cuts of the embedded font, parsed (cheap: tables are read lazily).
pub(crate) struct Fonts {
    pub regular: FontRef<'static>,
    pub bold: FontRef<'static>,
}

impl Fonts {
    pub fn load() -> anyhow::Result<Self> {
        Ok(Self {
            regular: FontRef::try_from_slice(FONT_REGULAR).context("the embedded regular font")?,
            bold: FontRef::try_from_slice(FONT_BOLD).context("the embedded bold font")?,
        })
    }

    pub fn get(&self, bold: bool) -> &FontRef<'static> {
        if bold { &self.bold } else { &self.regular }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Line {
    pub text: String,
    pub bold: bool,
    pub x: u32,
    /// The baseline, in frame coordinates.
    pub baseline: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Layout {
    /// The em size in pixels: FreeType's (ffmpeg's `fontsize`) size.
    pub em_px: u32,
    /// ab_glyph's scale for the same size (it scales the ascent-to-descent height, not the em).
    pub scale: PxScale,
    /// Distance from the top of a line box to its baseline, at `scale`.
    pub ascent: f32,
    pub band_top: u32,
    pub band_height: u32,
    pub lines: Vec<Line>,
}

/// The banner laid out for a `width` x `height` frame, across its bottom.
pub(crate) fn layout(
    banner: &Banner,
    fonts: &Fonts,
    width: u32,
    height: u32,
) -> anyhow::Result<Layout> {
    let regular = &fonts.regular;
    let upem = regular
        .units_per_em()
        .context("the embedded font has no units per em")?;
    // Both cuts share these metrics, so one line height fits both.
    let px_per_em = regular.height_unscaled() / upem;

    let mut em_px = (width.min(height) / EM_PER_SHORT_SIDE).max(MIN_EM);
    loop {
        let scale = PxScale::from(em_px as f32 * px_per_em);
        let scaled = regular.as_scaled(scale);
        let line_height = (scaled.height() + scaled.line_gap()).max(em_px as f32 * 1.2);
        let padding = (em_px as f32 * 0.6).round() as u32;
        let margin = (em_px as f32).max(width as f32 * 0.02).round() as u32;
        let max_width = width.saturating_sub(2 * margin).max(1);

        let mut wrapped = Vec::new();
        for (i, text) in banner.lines().iter().enumerate() {
            let bold = i == 0;
            for piece in wrap(text, max_width, |s| text_size(scale, fonts.get(bold), s).0) {
                wrapped.push((piece, bold));
            }
        }
        let band_height = 2 * padding + (wrapped.len() as f32 * line_height).ceil() as u32;
        if band_height as f32 > height as f32 * MAX_BAND_SHARE && em_px > FLOOR_EM {
            em_px = (em_px * 7 / 8).max(FLOOR_EM);
            continue;
        }
        let band_height = band_height.min(height);
        let band_top = height - band_height;
        let ascent = scaled.ascent();
        let lines = wrapped
            .into_iter()
            .enumerate()
            .map(|(i, (text, bold))| Line {
                text,
                bold,
                x: margin,
                baseline: band_top + padding + (i as f32 * line_height + ascent).round() as u32,
            })
            .collect();
        return Ok(Layout {
            em_px,
            scale,
            ascent,
            band_top,
            band_height,
            lines,
        });
    }
}

/// `text` broken into pieces no wider than `max_width` as measured by `width_of`: at spaces
/// where it can, inside a word (an e-mail address has none) where it must.
fn wrap(text: &str, max_width: u32, width_of: impl Fn(&str) -> u32) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut current = String::new();
    for word in text.split(' ') {
        let candidate = if current.is_empty() {
            word.to_owned()
        } else {
            format!("{current} {word}")
        };
        if width_of(&candidate) <= max_width {
            current = candidate;
            continue;
        }
        if !current.is_empty() {
            pieces.push(std::mem::take(&mut current));
        }
        // The word alone on a new line; cut it where it still does not fit.
        for c in word.chars() {
            current.push(c);
            if width_of(&current) > max_width && current.chars().count() > 1 {
                current.pop();
                pieces.push(std::mem::take(&mut current));
                current.push(c);
            }
        }
    }
    if !current.is_empty() || pieces.is_empty() {
        pieces.push(current);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{CopyType, testing};

    fn laid_out(width: u32, height: u32) -> Layout {
        let fonts = Fonts::load().unwrap();
        layout(
            &testing::banner(CopyType::Authenticated),
            &fonts,
            width,
            height,
        )
        .unwrap()
    }

    #[test]
    fn words_wrap_at_spaces_and_long_words_are_cut() {
        let by_chars = |s: &str| s.chars().count() as u32;
        assert_eq!(wrap("Sent To: a b", 20, by_chars), ["Sent To: a b"]);
        assert_eq!(
            wrap("Sent To: someone", 8, by_chars),
            ["Sent To:", "someone"]
        );
        assert_eq!(
            wrap("To: abcdefghij", 4, by_chars),
            ["To:", "abcd", "efgh", "ij"]
        );
        assert_eq!(wrap("", 4, by_chars), [""]);
    }

    #[test]
    fn the_text_scales_with_the_frame_and_stays_within_it() {
        let photo = laid_out(4000, 3000);
        let small = laid_out(640, 480);
        assert!(photo.em_px >= 80, "{}", photo.em_px);
        assert!(small.em_px >= MIN_EM);
        let fonts = Fonts::load().unwrap();
        for (layout, width, height) in [(photo, 4000, 3000), (small, 640, 480)] {
            assert_eq!(layout.band_top + layout.band_height, height);
            assert!(layout.band_height as f32 <= height as f32 * MAX_BAND_SHARE);
            for line in &layout.lines {
                let w = text_size(layout.scale, fonts.get(line.bold), &line.text).0;
                assert!(line.x + w <= width, "{line:?} is {w} px wide");
                assert!(line.baseline > layout.band_top && line.baseline < height);
            }
        }
    }

    #[test]
    fn a_narrow_frame_wraps_the_lines_instead_of_cutting_them_off() {
        let narrow = laid_out(320, 900);
        assert!(narrow.lines.len() > 5);
        let joined: String = narrow.lines.iter().map(|l| l.text.as_str()).collect();
        assert!(joined.contains("EVD-7K3Q-9XTM"));
    }
}
