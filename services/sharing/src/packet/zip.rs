//! A ZIP written as a stream: each file is stored (not compressed: photos, video and audio are
//! compressed already) with its CRC-32 and sizes in a data descriptor after its bytes, so nothing
//! is held back or written to disk; the central directory follows the last file. Files or
//! archives past 4 GiB use ZIP64 (APPNOTE 6.3, sections 4.3.9 and 4.5.3).

use std::io;

use bytes::Bytes;
use chrono::{DateTime, Datelike, Timelike, Utc};
use futures::{Stream, StreamExt};
use tokio::io::{AsyncWrite, AsyncWriteExt};

const LOCAL_HEADER: u32 = 0x0403_4b50;
const DATA_DESCRIPTOR: u32 = 0x0807_4b50;
const CENTRAL_HEADER: u32 = 0x0201_4b50;
const ZIP64_END: u32 = 0x0606_4b50;
const ZIP64_LOCATOR: u32 = 0x0706_4b50;
const END: u32 = 0x0605_4b50;
/// Sizes follow in a data descriptor; names are UTF-8.
const FLAGS: u16 = 0x0008 | 0x0800;
const VERSION_ZIP: u16 = 20;
const VERSION_ZIP64: u16 = 45;
/// "Made by" Unix, so the external attributes carry file modes (`verify.sh` stays executable).
const MADE_BY_UNIX: u16 = 3 << 8;
const MAX32: u64 = 0xFFFF_FFFF;

/// A regular file's mode, and an executable's.
pub const MODE_FILE: u32 = 0o100_644;
pub const MODE_EXECUTABLE: u32 = 0o100_755;

struct Entry {
    name: String,
    mode: u32,
    crc: u32,
    size: u64,
    offset: u64,
    zip64: bool,
}

/// Writes a ZIP into `out` file by file.
pub struct ZipStream<W> {
    out: W,
    offset: u64,
    entries: Vec<Entry>,
    /// Every file's MS-DOS time and date.
    dos: (u16, u16),
}

/// What was written of one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    pub crc: u32,
    pub size: u64,
}

impl<W: AsyncWrite + Unpin> ZipStream<W> {
    /// Files are dated `at` (the packet's time).
    pub fn new(out: W, at: DateTime<Utc>) -> Self {
        Self {
            out,
            offset: 0,
            entries: Vec::new(),
            dos: dos_time(at),
        }
    }

    /// Adds a file held in memory.
    pub async fn add_bytes(&mut self, name: &str, mode: u32, bytes: &[u8]) -> io::Result<Written> {
        let data =
            futures::stream::once(async { Ok::<_, io::Error>(Bytes::copy_from_slice(bytes)) });
        self.add(name, mode, bytes.len() as u64, data).await
    }

    /// Adds a file whose bytes come from `data`; `expected_size` (what the file should hold)
    /// decides whether its header makes room for ZIP64 sizes. A stream that fails leaves the
    /// archive unfinished: the error is returned and nothing more should be written.
    pub async fn add<S, E>(
        &mut self,
        name: &str,
        mode: u32,
        expected_size: u64,
        data: S,
    ) -> io::Result<Written>
    where
        S: Stream<Item = Result<Bytes, E>>,
        E: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let zip64 = expected_size >= MAX32;
        let offset = self.offset;
        let mut header = Vec::with_capacity(30 + name.len() + 20);
        put32(&mut header, LOCAL_HEADER);
        put16(&mut header, if zip64 { VERSION_ZIP64 } else { VERSION_ZIP });
        put16(&mut header, FLAGS);
        put16(&mut header, 0); // stored
        put16(&mut header, self.dos.0);
        put16(&mut header, self.dos.1);
        put32(&mut header, 0); // CRC-32, in the descriptor
        let unknown = if zip64 { u32::MAX } else { 0 };
        put32(&mut header, unknown);
        put32(&mut header, unknown);
        put16(&mut header, name_len(name)?);
        put16(&mut header, if zip64 { 20 } else { 0 });
        header.extend_from_slice(name.as_bytes());
        if zip64 {
            put16(&mut header, 0x0001);
            put16(&mut header, 16);
            put64(&mut header, 0);
            put64(&mut header, 0);
        }
        self.write(&header).await?;

        let mut crc = crc32fast::Hasher::new();
        let mut size = 0u64;
        futures::pin_mut!(data);
        while let Some(chunk) = data.next().await {
            let chunk = chunk.map_err(io::Error::other)?;
            crc.update(&chunk);
            size += chunk.len() as u64;
            self.write(&chunk).await?;
        }
        let crc = crc.finalize();
        if size >= MAX32 && !zip64 {
            return Err(io::Error::other(format!(
                "{name} grew past 4 GiB beyond the {expected_size} bytes it was to have"
            )));
        }

        let mut descriptor = Vec::with_capacity(24);
        put32(&mut descriptor, DATA_DESCRIPTOR);
        put32(&mut descriptor, crc);
        if zip64 {
            put64(&mut descriptor, size);
            put64(&mut descriptor, size);
        } else {
            put32(&mut descriptor, size as u32);
            put32(&mut descriptor, size as u32);
        }
        self.write(&descriptor).await?;
        self.entries.push(Entry {
            name: name.to_owned(),
            mode,
            crc,
            size,
            offset,
            zip64,
        });
        Ok(Written { crc, size })
    }

    /// Writes the central directory and the end records; answers the archive's size.
    pub async fn finish(mut self) -> io::Result<u64> {
        let directory_start = self.offset;
        let mut directory = Vec::new();
        let entries = std::mem::take(&mut self.entries);
        for entry in &entries {
            let large_size = entry.zip64 || entry.size >= MAX32;
            let large_offset = entry.offset >= MAX32;
            let mut extra = Vec::new();
            if large_size {
                put64(&mut extra, entry.size);
                put64(&mut extra, entry.size);
            }
            if large_offset {
                put64(&mut extra, entry.offset);
            }
            let zip64 = large_size || large_offset;
            let version = if zip64 { VERSION_ZIP64 } else { VERSION_ZIP };
            put32(&mut directory, CENTRAL_HEADER);
            put16(&mut directory, MADE_BY_UNIX | version);
            put16(&mut directory, version);
            put16(&mut directory, FLAGS);
            put16(&mut directory, 0);
            put16(&mut directory, self.dos.0);
            put16(&mut directory, self.dos.1);
            put32(&mut directory, entry.crc);
            let size32 = if large_size {
                u32::MAX
            } else {
                entry.size as u32
            };
            put32(&mut directory, size32);
            put32(&mut directory, size32);
            put16(&mut directory, name_len(&entry.name)?);
            put16(
                &mut directory,
                if zip64 { extra.len() as u16 + 4 } else { 0 },
            );
            put16(&mut directory, 0); // comment
            put16(&mut directory, 0); // disk
            put16(&mut directory, 0); // internal attributes
            put32(&mut directory, entry.mode << 16);
            put32(
                &mut directory,
                if large_offset {
                    u32::MAX
                } else {
                    entry.offset as u32
                },
            );
            directory.extend_from_slice(entry.name.as_bytes());
            if zip64 {
                put16(&mut directory, 0x0001);
                put16(&mut directory, extra.len() as u16);
                directory.extend_from_slice(&extra);
            }
            if directory.len() >= 64 * 1024 {
                self.write(&std::mem::take(&mut directory)).await?;
            }
        }
        self.write(&directory).await?;
        let directory_size = self.offset - directory_start;
        let count = entries.len() as u64;
        let mut end = Vec::with_capacity(98);
        if count >= 0xFFFF || directory_start >= MAX32 || directory_size >= MAX32 {
            let zip64_end = self.offset;
            put32(&mut end, ZIP64_END);
            put64(&mut end, 44);
            put16(&mut end, MADE_BY_UNIX | VERSION_ZIP64);
            put16(&mut end, VERSION_ZIP64);
            put32(&mut end, 0);
            put32(&mut end, 0);
            put64(&mut end, count);
            put64(&mut end, count);
            put64(&mut end, directory_size);
            put64(&mut end, directory_start);
            put32(&mut end, ZIP64_LOCATOR);
            put32(&mut end, 0);
            put64(&mut end, zip64_end);
            put32(&mut end, 1);
        }
        put32(&mut end, END);
        put16(&mut end, 0);
        put16(&mut end, 0);
        put16(&mut end, count.min(0xFFFF) as u16);
        put16(&mut end, count.min(0xFFFF) as u16);
        put32(&mut end, directory_size.min(MAX32) as u32);
        put32(&mut end, directory_start.min(MAX32) as u32);
        put16(&mut end, 0);
        self.write(&end).await?;
        self.out.flush().await?;
        self.out.shutdown().await?;
        Ok(self.offset)
    }

    async fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes).await?;
        self.offset += bytes.len() as u64;
        Ok(())
    }
}

fn name_len(name: &str) -> io::Result<u16> {
    u16::try_from(name.len()).map_err(|_| io::Error::other("a file name longer than 65535 bytes"))
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// MS-DOS time and date (two-second steps, years from 1980).
fn dos_time(at: DateTime<Utc>) -> (u16, u16) {
    let year = u16::try_from(at.year().clamp(1980, 2107) - 1980).unwrap_or(0);
    let time = (at.hour() as u16) << 11 | (at.minute() as u16) << 5 | (at.second() as u16 / 2);
    let date = year << 9 | (at.month() as u16) << 5 | at.day() as u16;
    (time, date)
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;

    async fn archive(files: &[(&str, u32, &[u8])]) -> Vec<u8> {
        let mut out = Vec::new();
        let at = DateTime::from_timestamp(1_800_000_000, 0).unwrap_or_default();
        let mut zip = ZipStream::new(&mut out, at);
        for (name, mode, bytes) in files {
            zip.add_bytes(name, *mode, bytes).await.unwrap();
        }
        zip.finish().await.unwrap();
        out
    }

    #[tokio::test]
    async fn unzip_reads_back_every_file_and_the_executable_mode() {
        let big: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let bytes = archive(&[
            ("manifest.json", MODE_FILE, b"{}\n".as_slice()),
            ("files/01 photo é.jpg", MODE_FILE, big.as_slice()),
            (
                "verify.sh",
                MODE_EXECUTABLE,
                b"#!/bin/sh\necho OK\n".as_slice(),
            ),
            ("empty", MODE_FILE, b"".as_slice()),
        ])
        .await;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.zip");
        std::fs::write(&path, &bytes).unwrap();
        let test = Command::new("unzip").arg("-t").arg(&path).output().unwrap();
        assert!(
            test.status.success(),
            "{}",
            String::from_utf8_lossy(&test.stdout)
        );
        let out = dir.path().join("out");
        let unpacked = Command::new("unzip")
            .args(["-q", "-d"])
            .arg(&out)
            .arg(&path)
            .status()
            .unwrap();
        assert!(unpacked.success());
        assert_eq!(
            std::fs::read(out.join("files/01 photo é.jpg")).unwrap(),
            big
        );
        assert_eq!(std::fs::read(out.join("manifest.json")).unwrap(), b"{}\n");
        let script = Command::new(out.join("verify.sh")).output().unwrap();
        assert_eq!(script.stdout, b"OK\n");
    }

    #[tokio::test]
    async fn a_file_expected_past_4_gib_gets_zip64_records_unzip_reads() {
        let mut out = Vec::new();
        let mut zip = ZipStream::new(&mut out, Utc::now());
        let data = futures::stream::iter([Ok::<_, io::Error>(Bytes::from_static(b"large"))]);
        zip.add("files/large.mp4", MODE_FILE, 5 << 30, data)
            .await
            .unwrap();
        zip.add_bytes("after", MODE_FILE, b"x").await.unwrap();
        zip.finish().await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.zip");
        std::fs::write(&path, &out).unwrap();
        let test = Command::new("unzip").arg("-t").arg(&path).output().unwrap();
        assert!(
            test.status.success(),
            "{}",
            String::from_utf8_lossy(&test.stdout)
        );
        let shown = Command::new("unzip")
            .arg("-p")
            .arg(&path)
            .arg("files/large.mp4")
            .output()
            .unwrap();
        assert_eq!(shown.stdout, b"large");
    }

    #[tokio::test]
    async fn a_failing_stream_stops_the_archive_with_its_error() {
        let mut out = Vec::new();
        let mut zip = ZipStream::new(&mut out, Utc::now());
        let data = futures::stream::iter([
            Ok(Bytes::from_static(b"abc")),
            Err(io::Error::other("the original could not be read")),
        ]);
        let error = zip.add("files/a", MODE_FILE, 6, data).await.unwrap_err();
        assert!(error.to_string().contains("could not be read"));
    }

    #[test]
    fn dos_times_count_from_1980_in_two_second_steps() {
        let at = DateTime::parse_from_rfc3339("2026-11-27T13:45:31Z")
            .unwrap()
            .with_timezone(&Utc);
        let (time, date) = dos_time(at);
        assert_eq!(time, 13 << 11 | 45 << 5 | 15);
        assert_eq!(date, 46 << 9 | 11 << 5 | 27);
    }
}
