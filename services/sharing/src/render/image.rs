//! The watermarked copy of an image: decoded once, turned upright by its EXIF orientation, the
//! banner drawn in place over the bottom band, encoded as a JPEG (quality 88) without metadata.
//!
//! Memory stays near one RGB buffer of the picture (36 MB for 12 MP) plus the encoded copy: the
//! pixels are darkened and written on where they lie, and the encoder reads them row by row, in
//! stripes on every core ([`super::jpeg`]). Two exceptions cost one more transient buffer: an
//! orientation that turns the picture by 90 degrees, and an input that is not 8-bit RGB already
//! (grey, with alpha, 16-bit).

use std::{fs, path::Path};

use ::image::{
    DynamicImage, ImageDecoder, ImageReader, Rgb, RgbImage, RgbaImage, metadata::Orientation,
};
use anyhow::{Context, bail};
use imageproc::drawing::draw_text_mut;

use super::{
    Banner, Rendered, describe,
    jpeg::encode_rgb,
    layout::{BAND_ALPHA, Fonts, layout},
    partial_path,
};

/// The copy's JPEG quality: no visible loss on a photo at about a third of quality 100's size.
pub const JPEG_QUALITY: u8 = 88;
pub const CONTENT_TYPE: &str = "image/jpeg";

/// Writes the watermarked copy of the image at `input` (JPEG, PNG or WebP) to `output` as a
/// JPEG. Blocking and CPU-bound (a fraction of a second for 12 MP): call it from
/// `spawn_blocking`.
pub fn render_image(input: &Path, output: &Path, banner: &Banner) -> anyhow::Result<Rendered> {
    let mut rgb = with_room(decode_upright(input)?);
    let (width, height) = rgb.dimensions();
    let (Ok(w16), Ok(h16)) = (u16::try_from(width), u16::try_from(height)) else {
        bail!("{width}x{height} is larger than a JPEG can be");
    };

    let fonts = Fonts::load()?;
    let layout = layout(banner, &fonts, width, height)?;
    darken_rows(&mut rgb, layout.band_top);
    for line in &layout.lines {
        let top = (line.baseline as f32 - layout.ascent).round() as i32;
        draw_text_mut(
            &mut rgb,
            Rgb([255, 255, 255]),
            line.x as i32,
            top,
            layout.scale,
            fonts.get(line.bold),
            &line.text,
        );
    }

    let jpeg = encode_rgb(rgb.as_raw(), w16, h16, JPEG_QUALITY)?;
    drop(rgb);
    let partial = partial_path(output);
    if let Err(e) = fs::write(&partial, &jpeg) {
        let _ = fs::remove_file(&partial);
        return Err(anyhow::Error::new(e).context(format!("writing {}", partial.display())));
    }
    if let Err(e) = fs::rename(&partial, output) {
        let _ = fs::remove_file(&partial);
        return Err(
            anyhow::Error::new(e).context(format!("moving the copy to {}", output.display()))
        );
    }
    Ok(describe(output, CONTENT_TYPE)?)
}

/// The smallest picture a legible banner fits on.
pub const MIN_WIDTH: u32 = 640;
pub const MIN_HEIGHT: u32 = 480;

/// A picture too small for a legible banner (a thumbnail, a one-pixel frame) is set in the
/// middle of a dark canvas of at least 640 x 480, so every copy carries its banner.
fn with_room(rgb: RgbImage) -> RgbImage {
    let (width, height) = rgb.dimensions();
    if width >= MIN_WIDTH && height >= MIN_HEIGHT {
        return rgb;
    }
    let (canvas_width, canvas_height) = (width.max(MIN_WIDTH), height.max(MIN_HEIGHT));
    let mut canvas = RgbImage::from_pixel(canvas_width, canvas_height, Rgb([32, 32, 32]));
    ::image::imageops::replace(
        &mut canvas,
        &rgb,
        i64::from((canvas_width - width) / 2),
        i64::from((canvas_height - height) / 2),
    );
    canvas
}

/// The picture as 8-bit RGB, rotated or flipped as its EXIF orientation says.
fn decode_upright(input: &Path) -> anyhow::Result<RgbImage> {
    let mut decoder = ImageReader::open(input)
        .with_context(|| format!("opening {}", input.display()))?
        .with_guessed_format()?
        .into_decoder()
        .with_context(|| format!("{} is not an image we can read", input.display()))?;
    // A missing or unreadable orientation is the common case, not an error: upright as stored.
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut picture = DynamicImage::from_decoder(decoder)
        .with_context(|| format!("decoding {}", input.display()))?;
    picture.apply_orientation(orientation);
    Ok(match picture {
        DynamicImage::ImageRgb8(rgb) => rgb,
        other if other.has_alpha() => over_white(&other.into_rgba8()),
        other => other.into_rgb8(),
    })
}

/// A transparent picture laid on white, as a browser shows it on the app's white page; dropping
/// the alpha instead would show whatever colour the transparent pixels happen to hold.
fn over_white(rgba: &RgbaImage) -> RgbImage {
    RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let [r, g, b, a] = rgba.get_pixel(x, y).0;
        let a = u16::from(a);
        let blend = |c: u8| ((u16::from(c) * a + 255 * (255 - a) + 127) / 255) as u8;
        Rgb([blend(r), blend(g), blend(b)])
    })
}

/// Black at `BAND_ALPHA` over every row from `top` down: the band behind the text.
fn darken_rows(rgb: &mut RgbImage, top: u32) {
    let row_bytes = rgb.width() as usize * 3;
    let keep = u16::from(255 - BAND_ALPHA);
    for v in &mut rgb.as_mut()[top as usize * row_bytes..] {
        *v = ((u16::from(*v) * keep + 127) / 255) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tiny_picture_gets_a_canvas_with_room_for_its_banner() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("dot.png");
        RgbImage::from_pixel(1, 1, Rgb([200, 10, 10]))
            .save(&input)
            .unwrap();
        let mut banner = testing::banner(CopyType::Authenticated);
        let first = render_image(&input, &dir.path().join("a.jpg"), &banner).unwrap();
        banner.transaction_number = "EVD-2345-6789".to_owned();
        let second = render_image(&input, &dir.path().join("b.jpg"), &banner).unwrap();
        assert_ne!(
            first.sha256, second.sha256,
            "each copy carries its own banner"
        );
        let copy = ::image::open(dir.path().join("a.jpg")).unwrap();
        assert_eq!((copy.width(), copy.height()), (MIN_WIDTH, MIN_HEIGHT));
    }
    use crate::render::{CopyType, testing};
    use ::image::{GenericImageView, ImageFormat, imageops};
    use jpeg_encoder::{ColorType, Encoder};
    use sha2::{Digest, Sha256};
    use std::fs::File;

    /// A photo-like picture: a colour gradient with noise, so the JPEG has real detail.
    fn photo(width: u32, height: u32) -> RgbImage {
        let mut seed = 0x2545_f491_u32;
        RgbImage::from_fn(width, height, |x, y| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let noise = (seed % 48) as i32 - 24;
            let c = |base: u32| (base as i32 + noise).clamp(0, 255) as u8;
            Rgb([
                c(x * 255 / width),
                c(y * 255 / height),
                c(128 + (x + y) % 64),
            ])
        })
    }

    fn save_jpeg(picture: &RgbImage, path: &Path) {
        picture.save_with_format(path, ImageFormat::Jpeg).unwrap();
    }

    /// The text tesseract reads in the band of a rendered copy.
    fn read_band(copy: &Path, banner: &Banner, dir: &Path) -> String {
        let picture = ::image::open(copy).unwrap();
        let fonts = Fonts::load().unwrap();
        let layout = layout(banner, &fonts, picture.width(), picture.height()).unwrap();
        let band = picture.view(0, layout.band_top, picture.width(), layout.band_height);
        let crop = dir.join("band.png");
        band.to_image().save(&crop).unwrap();
        testing::ocr(&crop)
    }

    #[test]
    fn an_authenticated_copy_carries_the_banner_in_a_jpeg_of_the_same_size() {
        let dir = tempfile::tempdir().unwrap();
        let original = dir.path().join("photo.jpg");
        save_jpeg(&photo(1600, 1200), &original);
        let copy = dir.path().join("copy.jpg");
        let banner = testing::banner(CopyType::Authenticated);

        let rendered = render_image(&original, &copy, &banner).unwrap();

        let bytes = fs::read(&copy).unwrap();
        assert_ne!(bytes, fs::read(&original).unwrap());
        assert_eq!(::image::guess_format(&bytes).unwrap(), ImageFormat::Jpeg);
        let decoded = ::image::load_from_memory(&bytes).unwrap();
        assert_eq!(decoded.dimensions(), (1600, 1200));
        assert_eq!(rendered.size_bytes, bytes.len() as u64);
        assert_eq!(rendered.content_type, "image/jpeg");
        assert_eq!(rendered.sha256, hex::encode(Sha256::digest(&bytes)));
        assert!(!dir.path().join("copy.jpg.partial").exists());

        let text = read_band(&copy, &banner, dir.path());
        assert!(text.contains(testing::TRANSACTION), "OCR read {text:?}");
        assert!(text.contains("AuthenticatedCopy"), "OCR read {text:?}");
        assert!(!text.contains("Unauthenticated"), "OCR read {text:?}");
        assert!(text.contains("Generatedfor:JaneDoe"), "OCR read {text:?}");
        assert!(
            text.contains("SentTo:jane@example.com"),
            "OCR read {text:?}"
        );
    }

    #[test]
    fn an_unauthenticated_copy_says_so_and_names_no_owner() {
        let dir = tempfile::tempdir().unwrap();
        let original = dir.path().join("photo.jpg");
        save_jpeg(&photo(1600, 1200), &original);
        let copy = dir.path().join("copy.jpg");
        let banner = testing::banner(CopyType::Unauthenticated);

        render_image(&original, &copy, &banner).unwrap();

        let text = read_band(&copy, &banner, dir.path());
        assert!(text.contains("UnauthenticatedCopy"), "OCR read {text:?}");
        assert!(text.contains(testing::TRANSACTION), "OCR read {text:?}");
        assert!(!text.contains("Generatedfor"), "OCR read {text:?}");
        assert!(!text.contains("JaneDoe"), "OCR read {text:?}");
    }

    #[test]
    fn a_small_picture_gets_a_legible_banner_too() {
        let dir = tempfile::tempdir().unwrap();
        let original = dir.path().join("small.png");
        photo(640, 480).save(&original).unwrap();
        let copy = dir.path().join("copy.jpg");
        let banner = testing::banner(CopyType::Authenticated);

        render_image(&original, &copy, &banner).unwrap();

        assert_eq!(::image::open(&copy).unwrap().dimensions(), (640, 480));
        let text = read_band(&copy, &banner, dir.path());
        assert!(text.contains(testing::TRANSACTION), "OCR read {text:?}");
    }

    #[test]
    fn a_photo_taken_sideways_is_turned_upright_by_its_exif_orientation() {
        let dir = tempfile::tempdir().unwrap();
        let original = dir.path().join("sideways.jpg");
        // Stored 1600 wide with orientation 6: a camera held upright, so the copy is 1200 wide.
        let stored = photo(1600, 1200);
        // A big-endian TIFF header and one IFD entry: Orientation (0x0112), SHORT, 1, value 6.
        let exif = [
            b'M', b'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0,
            0,
        ];
        let mut encoder = Encoder::new(File::create(&original).unwrap(), 90);
        encoder.add_exif_metadata(&exif).unwrap();
        encoder
            .encode(stored.as_raw(), 1600, 1200, ColorType::Rgb)
            .unwrap();
        let copy = dir.path().join("copy.jpg");

        render_image(&original, &copy, &testing::banner(CopyType::Authenticated)).unwrap();

        let upright = ::image::open(&copy).unwrap().into_rgb8();
        assert_eq!(upright.dimensions(), (1200, 1600));
        // The stored top-left corner (red 0, green 0) is now top-right.
        let expected = imageops::rotate90(&stored);
        let (a, b) = (upright.get_pixel(1190, 10), expected.get_pixel(1190, 10));
        assert!(
            a.0.iter().zip(b.0).all(|(x, y)| x.abs_diff(y) < 40),
            "{a:?} vs {b:?}"
        );
    }

    #[test]
    fn a_transparent_png_is_laid_on_white() {
        let dir = tempfile::tempdir().unwrap();
        let original = dir.path().join("clear.png");
        RgbaImage::from_pixel(800, 600, ::image::Rgba([0, 0, 0, 0]))
            .save(&original)
            .unwrap();
        let copy = dir.path().join("copy.jpg");

        render_image(&original, &copy, &testing::banner(CopyType::Authenticated)).unwrap();

        let top_left = *::image::open(&copy).unwrap().into_rgb8().get_pixel(5, 5);
        assert!(top_left.0.iter().all(|&c| c > 245), "{top_left:?}");
    }

    #[test]
    fn bytes_that_are_no_image_are_an_error_and_leave_no_copy() {
        let dir = tempfile::tempdir().unwrap();
        let original = dir.path().join("notes.jpg");
        fs::write(&original, b"not an image at all").unwrap();
        let copy = dir.path().join("copy.jpg");

        let error =
            render_image(&original, &copy, &testing::banner(CopyType::Authenticated)).unwrap_err();

        assert!(format!("{error:#}").contains("notes.jpg"), "{error:#}");
        assert!(!copy.exists());
    }
}
