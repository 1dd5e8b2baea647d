//! Baseline JPEG encoding of an RGB picture on several cores: horizontal stripes are encoded
//! at once by `jpeg-encoder` and joined with restart markers into one standard JPEG.
//!
//! Why: encoding is half of an image copy's time and `jpeg-encoder` uses one core. A restart
//! marker resets the entropy coder's state (DC predictions, bit buffer), so a stripe that starts
//! on a restart boundary encodes to the same bytes whoever encodes it. With the restart interval
//! set to one stripe's MCUs, the joined file is byte for byte what a single encoder with that
//! interval writes (tested below), and every decoder reads it.

use anyhow::{Context, bail};
use jpeg_encoder::{ColorType, Encoder, SamplingFactor};

/// 4:2:0, as `jpeg-encoder` picks below quality 90: a 16x16 MCU. Fixed here because the
/// stripes must be whole MCU rows.
const SAMPLING: SamplingFactor = SamplingFactor::F_2_2;
const MCU: usize = 16;
/// More stripes than this gain little: the picture's decoding stays on one core anyway.
const MAX_STRIPES: usize = 4;

/// `rgb` (8-bit RGB rows, `width` x `height`) as a JPEG of `quality`.
pub(crate) fn encode_rgb(
    rgb: &[u8],
    width: u16,
    height: u16,
    quality: u8,
) -> anyhow::Result<Vec<u8>> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    encode_in_stripes(rgb, width, height, quality, cores.min(MAX_STRIPES))
}

fn encode_in_stripes(
    rgb: &[u8],
    width: u16,
    height: u16,
    quality: u8,
    stripes: usize,
) -> anyhow::Result<Vec<u8>> {
    let (w, h) = (usize::from(width), usize::from(height));
    let mcu_cols = w.div_ceil(MCU);
    let mcu_rows = h.div_ceil(MCU);
    // The restart interval counts MCUs in a u16: a stripe holds at most 65,535 of them.
    let rows_per_stripe = mcu_rows
        .div_ceil(stripes.max(1))
        .min(usize::from(u16::MAX) / mcu_cols.max(1))
        .max(1);
    if rows_per_stripe >= mcu_rows {
        return encode(rgb, width, height, quality, None);
    }
    let interval = u16::try_from(mcu_cols * rows_per_stripe)
        .context("a stripe's MCUs exceed a restart interval")?;
    let stripe_bytes = rows_per_stripe * MCU * w * 3;

    let parts = std::thread::scope(|scope| {
        let workers: Vec<_> = rgb[..w * h * 3]
            .chunks(stripe_bytes)
            .map(|stripe| {
                let rows = (stripe.len() / (w * 3)) as u16;
                scope.spawn(move || encode(stripe, width, rows, quality, Some(interval)))
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| match worker.join() {
                Ok(part) => part,
                Err(_) => bail!("a JPEG encoding thread panicked"),
            })
            .collect::<anyhow::Result<Vec<_>>>()
    })?;

    let mut joined = Vec::with_capacity(parts.iter().map(Vec::len).sum());
    for (i, part) in parts.iter().enumerate() {
        let layout = scan_layout(part)?;
        let entropy_end = part.len() - 2; // the EOI marker
        if i == 0 {
            joined.extend_from_slice(&part[..entropy_end]);
            // The first stripe's header describes the whole picture but for its height.
            joined[layout.height_at..layout.height_at + 2].copy_from_slice(&height.to_be_bytes());
        } else {
            joined.extend_from_slice(&[0xFF, 0xD0 + ((i - 1) % 8) as u8]);
            joined.extend_from_slice(&part[layout.entropy_start..entropy_end]);
        }
    }
    joined.extend_from_slice(&[0xFF, 0xD9]);
    Ok(joined)
}

fn encode(
    rgb: &[u8],
    width: u16,
    height: u16,
    quality: u8,
    restart_interval: Option<u16>,
) -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(rgb.len() / 8);
    let mut encoder = Encoder::new(&mut out, quality);
    encoder.set_sampling_factor(SAMPLING);
    if let Some(interval) = restart_interval {
        encoder.set_restart_interval(interval);
    }
    encoder.encode(rgb, width, height, ColorType::Rgb)?;
    Ok(out)
}

/// Where, in a JPEG that `encode` wrote, the frame's height lies and the entropy-coded data
/// begins.
struct ScanLayout {
    height_at: usize,
    entropy_start: usize,
}

/// Walks the header's segments (their lengths, not a byte search: tables may hold 0xFF).
fn scan_layout(jpeg: &[u8]) -> anyhow::Result<ScanLayout> {
    let mut at = 2; // SOI
    let mut height_at = None;
    while at + 4 <= jpeg.len() {
        if jpeg[at] != 0xFF {
            bail!("no JPEG marker at byte {at}");
        }
        let marker = jpeg[at + 1];
        let length = usize::from(u16::from_be_bytes([jpeg[at + 2], jpeg[at + 3]]));
        match marker {
            // SOF0: length, precision, then the height.
            0xC0 => height_at = Some(at + 5),
            0xDA => {
                return Ok(ScanLayout {
                    height_at: height_at.context("a scan before the frame header")?,
                    entropy_start: at + 2 + length,
                });
            }
            _ => {}
        }
        at += 2 + length;
    }
    bail!("a JPEG without a scan")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(width: usize, height: usize) -> Vec<u8> {
        let mut seed = 0x9e37_79b9_u32;
        (0..width * height * 3)
            .map(|i| {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                ((i / 3 % width) as u32 / 7 + (seed % 32)) as u8
            })
            .collect()
    }

    #[test]
    fn stripes_join_into_what_one_encoder_with_restart_markers_writes() {
        // 1200 rows: 75 MCU rows, so stripes of 38 and 37, and of 25 each.
        for (width, height, stripes) in [(1600, 1200, 2), (1600, 1200, 3), (1001, 333, 2)] {
            let rgb = picture(width, height);
            let (w, h) = (width as u16, height as u16);
            let joined = encode_in_stripes(&rgb, w, h, 88, stripes).unwrap();

            let rows = (height.div_ceil(MCU)).div_ceil(stripes);
            let interval = (width.div_ceil(MCU) * rows) as u16;
            let single = encode(&rgb, w, h, 88, Some(interval)).unwrap();
            assert!(
                joined == single,
                "{width}x{height} in {stripes} stripes differs"
            );

            let decoded = ::image::load_from_memory(&joined).unwrap();
            assert_eq!((decoded.width(), decoded.height()), (w.into(), h.into()));
        }
    }

    #[test]
    fn a_picture_of_one_mcu_row_is_encoded_whole() {
        let rgb = picture(640, 16);
        assert!(
            encode_in_stripes(&rgb, 640, 16, 88, 2).unwrap()
                == encode(&rgb, 640, 16, 88, None).unwrap()
        );
    }
}
