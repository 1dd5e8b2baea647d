//! What a file is by its first bytes (its "magic numbers"), not by what the client said: an
//! anonymous contributor's Content-Type and file name are theirs to choose.

use crate::domain::MediaType;

/// How many leading bytes [`media_of`] needs.
pub const HEAD_BYTES: u64 = 16;

/// The media a file's leading bytes show it can be: none for an unknown format. Containers that
/// carry video or sound alike (MP4/QuickTime, Matroska/WebM, Ogg) count as both.
pub fn media_of(head: &[u8]) -> &'static [MediaType] {
    const IMAGE: &[MediaType] = &[MediaType::Image];
    const AUDIO: &[MediaType] = &[MediaType::Audio];
    const AV: &[MediaType] = &[MediaType::Video, MediaType::Audio];
    let at = |offset: usize, magic: &[u8]| head.get(offset..offset + magic.len()) == Some(magic);
    if at(0, b"\xFF\xD8\xFF")
        || at(0, b"\x89PNG\r\n\x1A\n")
        || at(0, b"GIF87a")
        || at(0, b"GIF89a")
        || (at(0, b"RIFF") && at(8, b"WEBP"))
    {
        return IMAGE;
    }
    if at(4, b"ftyp") {
        let brand = head.get(8..12).unwrap_or_default();
        return match brand {
            b"heic" | b"heix" | b"hevc" | b"heim" | b"heis" | b"mif1" | b"msf1" | b"avif" => IMAGE,
            b"M4A " | b"M4B " => AUDIO,
            _ => AV,
        };
    }
    if at(0, b"\x1A\x45\xDF\xA3") || at(0, b"OggS") {
        return AV;
    }
    if (at(0, b"RIFF") && at(8, b"WAVE"))
        || at(0, b"ID3")
        || at(0, b"fLaC")
        || (head.len() >= 2 && head[0] == 0xFF && head[1] & 0xE0 == 0xE0)
    {
        return AUDIO;
    }
    &[]
}

/// True when the bytes are a file of the declared medium.
pub fn is(media: MediaType, head: &[u8]) -> bool {
    media_of(head).contains(&media)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_known_by_their_first_bytes() {
        assert!(is(MediaType::Image, b"\xFF\xD8\xFF\xE0\0\x10JFIF\0"));
        assert!(is(MediaType::Image, b"\x89PNG\r\n\x1A\n\0\0\0\x0DIHDR"));
        assert!(is(MediaType::Image, b"\0\0\0\x18ftypheic\0\0\0\0"));
        assert!(is(MediaType::Video, b"\0\0\0\x20ftypisom\0\0\x02\0"));
        assert!(is(MediaType::Video, b"\x1A\x45\xDF\xA3\x9F\x42\x86\x81"));
        assert!(is(MediaType::Audio, b"\x1A\x45\xDF\xA3\x9F\x42\x86\x81"));
        assert!(is(MediaType::Audio, b"RIFF\x24\x08\0\0WAVEfmt "));
        assert!(is(MediaType::Audio, b"ID3\x04\0\0\0\0\0\0"));
        assert!(!is(MediaType::Video, b"\0\0\0\x20ftypM4A \0\0\0\0"));
        // A text file called photo.jpg, sent as image/jpeg, is none of them.
        assert!(media_of(b"hello, this is text").is_empty());
        assert!(!is(MediaType::Image, b"\0\0\0\x20ftypisom"));
        assert!(!is(MediaType::Video, b"\xFF\xD8\xFF\xE0"));
        assert!(media_of(b"").is_empty());
    }
}
