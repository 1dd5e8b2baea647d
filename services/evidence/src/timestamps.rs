//! RFC 3161 timestamps on receipts, when an authority is configured (`EVIDENCE_TSA_URL`): the
//! SHA-256 of a receipt's signature is sent to the time-stamping authority, whose signed token
//! says the signature (so the receipt) existed at that time, on a clock that is not ours.
//!
//! The request and the parts of the answer read here are DER, written and walked by hand: a
//! request is one fixed shape, and the answer is only checked for what a misconfigured or wrong
//! authority would get wrong (its status, our hash, our nonce) and read for its time. The token's
//! signature is the authority's business to make and the reader's to check: `verify.sh` in an
//! evidence packet checks it with `openssl ts -verify` against the authority's certificate.

use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use chrono::{DateTime, NaiveDateTime, Utc};

/// A time-stamping authority over HTTP (RFC 3161 §3.4).
#[derive(Debug, Clone)]
pub struct Tsa {
    client: reqwest::Client,
    url: String,
    /// The authority's CA certificate (PEM), published beside the receipt keys so a packet can
    /// check its tokens.
    pub ca_pem: String,
}

/// A token and the time it states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    /// The DER `TimeStampToken` (`openssl ts -verify -token_in`).
    pub token: Vec<u8>,
    pub at: DateTime<Utc>,
}

impl Tsa {
    pub fn new(url: String, ca_pem: String, timeout: Duration) -> anyhow::Result<Self> {
        Ok(Self {
            client: reqwest::Client::builder().timeout(timeout).build()?,
            url,
            ca_pem,
        })
    }

    /// A token for `digest` (a SHA-256), checked to be for it.
    pub async fn stamp(&self, digest: &[u8; 32]) -> anyhow::Result<Stamp> {
        let nonce = rand::random::<u64>() >> 1;
        let response = self
            .client
            .post(&self.url)
            .header("content-type", "application/timestamp-query")
            .body(request(digest, nonce))
            .send()
            .await
            .context("the time-stamping authority could not be reached")?;
        if !response.status().is_success() {
            bail!("the time-stamping authority answered {}", response.status());
        }
        let body = response.bytes().await?;
        read_response(&body, digest, nonce)
    }
}

/// The DER of a `TimeStampReq` for a SHA-256 `digest`, asking for the authority's certificate in
/// the token (so the token checks out with only the authority's CA).
pub fn request(digest: &[u8; 32], nonce: u64) -> Vec<u8> {
    let mut imprint = Vec::new();
    imprint.extend(SHA256_ALGORITHM);
    imprint.extend(tlv(OCTET_STRING, digest));
    let mut body = tlv(INTEGER, &[1]); // version 1
    body.extend(tlv(SEQUENCE, &imprint));
    body.extend(tlv(INTEGER, &unsigned(nonce)));
    body.extend(tlv(BOOLEAN, &[0xff])); // certReq
    tlv(SEQUENCE, &body)
}

/// The token of a `TimeStampResp`, once its status says granted and its `TSTInfo` names our
/// digest and nonce; with the time it states.
pub fn read_response(der: &[u8], digest: &[u8; 32], nonce: u64) -> anyhow::Result<Stamp> {
    let bad = || anyhow!("the time-stamping authority's answer is not a TimeStampResp");
    let (resp, _) = expect(der, SEQUENCE).ok_or_else(bad)?;
    let (status_info, rest) = expect(resp, SEQUENCE).ok_or_else(bad)?;
    let (status, _) = expect(status_info, INTEGER).ok_or_else(bad)?;
    // 0 granted, 1 granted with modifications; anything else is a refusal.
    if !matches!(status, [0] | [1]) {
        bail!("the time-stamping authority refused the request (status {status:?})");
    }
    // The token is the next element whole, tag and length included.
    let (_, _, after) = element(rest).ok_or_else(bad)?;
    let token = &rest[..rest.len() - after.len()];
    let at = read_token(token, digest, nonce)?;
    Ok(Stamp {
        token: token.to_vec(),
        at,
    })
}

/// The time a token states, once it is for `digest` and `nonce`.
pub fn read_token(token: &[u8], digest: &[u8; 32], nonce: u64) -> anyhow::Result<DateTime<Utc>> {
    let bad = || anyhow!("the timestamp token is not a signed TSTInfo");
    // ContentInfo { contentType, [0] EXPLICIT SignedData }
    let (content_info, _) = expect(token, SEQUENCE).ok_or_else(bad)?;
    let (_, rest) = expect(content_info, OID).ok_or_else(bad)?;
    let (explicit, _) = expect(rest, CONTEXT_0).ok_or_else(bad)?;
    // SignedData { version, digestAlgorithms, encapContentInfo, ... }
    let (signed_data, _) = expect(explicit, SEQUENCE).ok_or_else(bad)?;
    let (_, rest) = expect(signed_data, INTEGER).ok_or_else(bad)?;
    let (_, rest) = expect(rest, SET).ok_or_else(bad)?;
    // EncapsulatedContentInfo { eContentType, [0] EXPLICIT OCTET STRING }
    let (encapsulated, _) = expect(rest, SEQUENCE).ok_or_else(bad)?;
    let (_, rest) = expect(encapsulated, OID).ok_or_else(bad)?;
    let (explicit, _) = expect(rest, CONTEXT_0).ok_or_else(bad)?;
    let (tst_info, _) = expect(explicit, OCTET_STRING).ok_or_else(bad)?;
    // TSTInfo { version, policy, messageImprint, serialNumber, genTime, accuracy?, ordering?,
    //           nonce?, ... }
    let (tst, _) = expect(tst_info, SEQUENCE).ok_or_else(bad)?;
    let (_, rest) = expect(tst, INTEGER).ok_or_else(bad)?;
    let (_, rest) = expect(rest, OID).ok_or_else(bad)?;
    let (imprint, rest) = expect(rest, SEQUENCE).ok_or_else(bad)?;
    let (algorithm, hashed) = expect(imprint, SEQUENCE).ok_or_else(bad)?;
    let (hashed, _) = expect(hashed, OCTET_STRING).ok_or_else(bad)?;
    if tlv(SEQUENCE, algorithm) != SHA256_ALGORITHM && !sha256_without_null(algorithm) {
        bail!("the timestamp token is not of a SHA-256 hash");
    }
    if hashed != digest {
        bail!("the timestamp token is for another hash");
    }
    let (_, rest) = expect(rest, INTEGER).ok_or_else(bad)?;
    let (time, mut rest) = expect(rest, GENERALIZED_TIME).ok_or_else(bad)?;
    let at = generalized_time(time).ok_or_else(bad)?;
    let mut nonce_seen = None;
    while let Some((tag, value, after)) = element(rest) {
        if tag == INTEGER {
            nonce_seen = Some(value);
        }
        rest = after;
    }
    if nonce_seen != Some(unsigned(nonce).as_slice()) {
        bail!("the timestamp token does not carry this request's nonce");
    }
    Ok(at)
}

/// `AlgorithmIdentifier { id-sha256, NULL }`.
const SHA256_ALGORITHM: [u8; 15] = [
    0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00,
];

/// The same algorithm with its parameters absent, as some authorities write it.
fn sha256_without_null(algorithm: &[u8]) -> bool {
    algorithm == &SHA256_ALGORITHM[2..13]
}

const BOOLEAN: u8 = 0x01;
const INTEGER: u8 = 0x02;
const OCTET_STRING: u8 = 0x04;
const OID: u8 = 0x06;
const GENERALIZED_TIME: u8 = 0x18;
const SEQUENCE: u8 = 0x30;
const SET: u8 = 0x31;
const CONTEXT_0: u8 = 0xa0;

/// A DER element: tag, length, value.
fn tlv(tag: u8, value: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let len = value.len();
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes: Vec<u8> = len
            .to_be_bytes()
            .into_iter()
            .skip_while(|b| *b == 0)
            .collect();
        out.push(0x80 | bytes.len() as u8);
        out.extend(bytes);
    }
    out.extend(value);
    out
}

/// An unsigned number as a DER INTEGER's minimal contents.
fn unsigned(n: u64) -> Vec<u8> {
    let mut bytes: Vec<u8> = n
        .to_be_bytes()
        .into_iter()
        .skip_while(|b| *b == 0)
        .collect();
    if bytes.first().is_none_or(|b| b & 0x80 != 0) {
        bytes.insert(0, 0);
    }
    bytes
}

/// The first element of `der`: its tag, its value, and what follows it.
fn element(der: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = der.split_first()?;
    let (&first, mut rest) = rest.split_first()?;
    let len = if first < 0x80 {
        usize::from(first)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let len = rest[..n]
            .iter()
            .fold(0usize, |len, b| (len << 8) | usize::from(*b));
        rest = &rest[n..];
        len
    };
    (rest.len() >= len).then(|| (tag, &rest[..len], &rest[len..]))
}

/// The value of the first element when it has `tag`, and what follows it.
fn expect(der: &[u8], tag: u8) -> Option<(&[u8], &[u8])> {
    let (found, value, rest) = element(der)?;
    (found == tag).then_some((value, rest))
}

/// `YYYYMMDDHHMMSS[.f*]Z`.
fn generalized_time(value: &[u8]) -> Option<DateTime<Utc>> {
    let text = std::str::from_utf8(value).ok()?.strip_suffix('Z')?;
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let at = NaiveDateTime::parse_from_str(whole, "%Y%m%d%H%M%S").ok()?;
    let nanos = if fraction.is_empty() {
        0
    } else {
        let digits: String = fraction
            .chars()
            .chain(std::iter::repeat('0'))
            .take(9)
            .collect();
        digits.parse::<u32>().ok()?
    };
    Some(at.and_utc() + chrono::Duration::nanoseconds(i64::from(nanos)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_the_der_openssl_writes() {
        // `openssl ts -query -digest <64 hex> -sha256 -cert` writes the same bytes but the nonce
        // (it draws its own); this one is checked field by field.
        let digest = [7u8; 32];
        let der = request(&digest, 0x0102);
        let (body, rest) = expect(&der, SEQUENCE).unwrap();
        assert!(rest.is_empty());
        let (version, rest) = expect(body, INTEGER).unwrap();
        assert_eq!(version, [1]);
        let (imprint, rest) = expect(rest, SEQUENCE).unwrap();
        assert_eq!(&imprint[..15], SHA256_ALGORITHM);
        assert_eq!(expect(&imprint[15..], OCTET_STRING).unwrap().0, digest);
        let (nonce, rest) = expect(rest, INTEGER).unwrap();
        assert_eq!(nonce, [1, 2]);
        assert_eq!(rest, [BOOLEAN, 1, 0xff]);
    }

    #[test]
    fn integers_are_minimal_and_positive() {
        assert_eq!(unsigned(0), [0]);
        assert_eq!(unsigned(0x7f), [0x7f]);
        assert_eq!(unsigned(0x80), [0, 0x80]);
        assert_eq!(unsigned(0x0100), [1, 0]);
    }

    #[test]
    fn long_lengths_round_trip() {
        let value = vec![9u8; 300];
        let der = tlv(OCTET_STRING, &value);
        assert_eq!(&der[..4], [OCTET_STRING, 0x82, 0x01, 0x2c]);
        assert_eq!(expect(&der, OCTET_STRING).unwrap().0, value.as_slice());
        assert!(
            element(&der[..100]).is_none(),
            "a cut element is no element"
        );
    }

    #[test]
    fn generalized_times_read_with_and_without_fractions() {
        assert_eq!(
            generalized_time(b"20261127153000Z").unwrap().to_rfc3339(),
            "2026-11-27T15:30:00+00:00"
        );
        assert_eq!(
            generalized_time(b"20261127153000.25Z")
                .unwrap()
                .timestamp_subsec_millis(),
            250
        );
        assert!(generalized_time(b"20261127153000").is_none());
    }

    #[test]
    fn a_refusal_or_garbage_is_an_error() {
        let refused = tlv(SEQUENCE, &tlv(SEQUENCE, &tlv(INTEGER, &[2])));
        let err = read_response(&refused, &[0; 32], 1).unwrap_err();
        assert!(err.to_string().contains("refused"), "{err}");
        assert!(read_response(b"<html>", &[0; 32], 1).is_err());
    }
}
