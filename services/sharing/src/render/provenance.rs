//! C2PA manifests on authenticated copies: a copy says, in the standard any C2PA reader checks,
//! that it was made from the original (a `c2pa.edited` action whose ingredient is the original,
//! named by its SHA-256) and for whom (`com.evidentia.copy`: transaction number, generated for,
//! sent to, generated on). The manifest is signed with the service's certificate; its chain comes
//! from configuration (locally `./dev` makes a root and a leaf: C2PA refuses a self-signed
//! signer).

use std::{fs::OpenOptions, path::Path, sync::Arc};

use c2pa::{Builder, Context, SigningAlg, create_signer};
use chrono::{DateTime, SecondsFormat, Utc};
use evidentia_common::config::{ConfigError, env_or};
use serde_json::json;

/// The label of our own assertion.
pub const COPY_ASSERTION: &str = "com.evidentia.copy";

/// The signing certificate chain (leaf first, PEM) and its private key (PKCS#8 PEM).
#[derive(Clone)]
pub struct Provenance {
    chain: Arc<Vec<u8>>,
    key: Arc<Vec<u8>>,
    alg: SigningAlg,
}

impl std::fmt::Debug for Provenance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Provenance")
            .field("alg", &self.alg)
            .finish_non_exhaustive()
    }
}

/// What a copy's manifest states.
#[derive(Debug, Clone)]
pub struct CopyFacts {
    pub transaction_number: String,
    pub generated_for: Option<String>,
    pub sent_to: String,
    pub generated_on: DateTime<Utc>,
    pub original_name: String,
    pub original_sha256: String,
}

impl Provenance {
    /// A chain and key that sign: checked once here, so a bad configuration stops the start.
    pub fn new(chain_pem: &[u8], key_pem: &[u8], alg: SigningAlg) -> anyhow::Result<Self> {
        create_signer::from_keys(chain_pem, key_pem, alg, None)
            .map_err(|e| anyhow::anyhow!("the C2PA certificate chain and key do not sign: {e}"))?;
        Ok(Self {
            chain: Arc::new(chain_pem.to_vec()),
            key: Arc::new(key_pem.to_vec()),
            alg,
        })
    }

    /// `SHARING_C2PA_CERT_CHAIN` (PEM, leaf first; in Kubernetes from a Secret) or the file
    /// `SHARING_C2PA_CERT_CHAIN_FILE`, the same for `SHARING_C2PA_KEY`, and the algorithm of the
    /// key, `SHARING_C2PA_ALG` (`ed25519`, `es256`, `es384`, `ps256`, ...).
    pub fn from_env() -> Result<Self, ConfigError> {
        let chain = pem_setting("SHARING_C2PA_CERT_CHAIN")?;
        let key = pem_setting("SHARING_C2PA_KEY")?;
        let alg: String = env_or("SHARING_C2PA_ALG", "ed25519")?;
        let parsed: SigningAlg = alg.parse().map_err(|_| ConfigError {
            name: "SHARING_C2PA_ALG".into(),
            value: alg.clone(),
            reason: "is not a C2PA signing algorithm (ed25519, es256, es384, es512, ps256, ps384, ps512)"
                .into(),
        })?;
        Self::new(chain.as_bytes(), key.as_bytes(), parsed).map_err(|e| ConfigError {
            name: "SHARING_C2PA_KEY".into(),
            value: "(not shown)".into(),
            reason: e.to_string(),
        })
    }

    /// Writes `input` with its manifest to `output` (`mime`: `image/jpeg` or `video/mp4`).
    pub fn sign(
        &self,
        input: &Path,
        output: &Path,
        mime: &str,
        facts: &CopyFacts,
    ) -> anyhow::Result<()> {
        let signer = create_signer::from_keys(&self.chain, &self.key, self.alg, None)?;
        let mut builder = Builder::from_context(Context::new()).with_definition(
            json!({
                "title": format!("{} ({})", facts.original_name, facts.transaction_number),
                "format": mime,
                "claim_generator_info": [{
                    "name": "Evidentia",
                    "version": env!("CARGO_PKG_VERSION"),
                }],
            })
            .to_string()
            .as_str(),
        )?;
        let ingredient = c2pa::Ingredient::from_json(
            &json!({
                "title": facts.original_name,
                "format": "application/octet-stream",
                "relationship": "parentOf",
                "label": "original",
                "instance_id": format!("urn:sha256:{}", facts.original_sha256),
                "description": format!("The original, SHA-256 {}", facts.original_sha256),
            })
            .to_string(),
        )?;
        builder.add_ingredient(ingredient);
        // C2PA asks that a manifest with a parent begin by opening it.
        builder.add_action(json!({
            "action": "c2pa.opened",
            "parameters": { "ingredientIds": ["original"] },
        }))?;
        builder.add_action(json!({
            "action": "c2pa.edited",
            "description": "Watermarked copy of the original for its recipient",
            "parameters": { "ingredientIds": ["original"] },
        }))?;
        builder.add_assertion(
            COPY_ASSERTION,
            &json!({
                "transaction_number": facts.transaction_number,
                "generated_for": facts.generated_for,
                "sent_to": facts.sent_to,
                "generated_on": facts.generated_on.to_rfc3339_opts(SecondsFormat::Secs, true),
                "original_sha256": facts.original_sha256,
            }),
        )?;
        let mut source = std::fs::File::open(input)?;
        let mut dest = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(output)?;
        builder.sign(signer.as_ref(), mime, &mut source, &mut dest)?;
        Ok(())
    }
}

/// A PEM setting: the value itself, or the file `{name}_FILE` names.
fn pem_setting(name: &str) -> Result<String, ConfigError> {
    let inline: String = env_or(name, "")?;
    if !inline.trim().is_empty() {
        return Ok(inline);
    }
    let file_name = format!("{name}_FILE");
    let file: String = env_or(&file_name, "")?;
    if file.is_empty() {
        return Err(ConfigError {
            name: name.into(),
            value: String::new(),
            reason: format!(
                "must hold the PEM for signing C2PA manifests, or {file_name} name its file; \
                 ./dev makes a local one"
            ),
        });
    }
    std::fs::read_to_string(&file).map_err(|e| ConfigError {
        name: file_name,
        value: file,
        reason: format!("cannot be read: {e}"),
    })
}

#[cfg(test)]
pub(crate) mod testing {
    //! A root and a leaf made with openssl, as `./dev` makes them, for tests that sign and read.

    use std::process::Command;

    use c2pa::{Reader, ValidationState, settings::Settings};

    use super::*;

    /// A fresh root certificate (PEM), and a provenance signing with a leaf it issued, made by
    /// the script `./dev` uses.
    pub fn local_chain(dir: &Path) -> (String, Provenance) {
        let script =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/local/make_c2pa_certs.sh");
        let status = Command::new("sh")
            .arg(script)
            .arg(dir)
            .arg("30")
            .status()
            .unwrap();
        assert!(status.success(), "make_c2pa_certs.sh");
        let chain = std::fs::read(dir.join("chain.pem")).unwrap();
        let key = std::fs::read(dir.join("leaf.key")).unwrap();
        let root = std::fs::read_to_string(dir.join("root.pem")).unwrap();
        (
            root,
            Provenance::new(&chain, &key, SigningAlg::Ed25519).unwrap(),
        )
    }

    /// Reads a file's manifest trusting `root`: its state and the active manifest's JSON.
    pub fn read(path: &Path, mime: &str, root: &str) -> (ValidationState, String) {
        let settings = Settings::new()
            .with_value("trust.trust_anchors", root.to_owned())
            .unwrap();
        let context = Context::new().with_settings(settings).unwrap();
        let reader = Reader::from_context(context)
            .with_stream(mime, std::fs::File::open(path).unwrap())
            .unwrap();
        (reader.validation_state(), reader.json())
    }
}

#[cfg(test)]
mod tests {
    use c2pa::ValidationState;

    use super::{testing::*, *};

    fn facts() -> CopyFacts {
        CopyFacts {
            transaction_number: "EVD-AB12-CD34".into(),
            generated_for: Some("Ada Lovelace".into()),
            sent_to: "lawyer@example.com".into(),
            generated_on: Utc::now(),
            original_name: "Front door.jpg".into(),
            original_sha256: "ab".repeat(32),
        }
    }

    #[test]
    fn a_signed_jpeg_reads_back_trusted_then_invalid_once_a_byte_changes() {
        let dir = tempfile::tempdir().unwrap();
        let (root, provenance) = local_chain(dir.path());
        let input = dir.path().join("copy.jpg");
        let image = image::RgbImage::from_pixel(64, 48, image::Rgb([200, 30, 30]));
        image.save(&input).unwrap();
        let output = dir.path().join("signed.jpg");
        provenance
            .sign(&input, &output, "image/jpeg", &facts())
            .unwrap();

        let (state, json) = read(&output, "image/jpeg", &root);
        assert_eq!(state, ValidationState::Trusted, "{json}");
        for expected in [
            "c2pa.edited",
            COPY_ASSERTION,
            "EVD-AB12-CD34",
            "lawyer@example.com",
            &"ab".repeat(32),
        ] {
            assert!(json.contains(expected), "{expected} in {json}");
        }

        // One changed byte of the picture: the manifest's hash of the content no longer holds.
        let mut bytes = std::fs::read(&output).unwrap();
        let last = bytes.len() - 10;
        bytes[last] ^= 0xFF;
        let tampered = dir.path().join("tampered.jpg");
        std::fs::write(&tampered, bytes).unwrap();
        let (state, json) = read(&tampered, "image/jpeg", &root);
        assert_eq!(state, ValidationState::Invalid, "{json}");
    }

    #[test]
    fn without_our_root_the_manifest_is_valid_but_not_trusted() {
        let dir = tempfile::tempdir().unwrap();
        let (_, provenance) = local_chain(dir.path());
        let other = tempfile::tempdir().unwrap();
        let (stranger, _) = local_chain(other.path());
        let input = dir.path().join("copy.jpg");
        image::RgbImage::from_pixel(32, 32, image::Rgb([1, 2, 3]))
            .save(&input)
            .unwrap();
        let output = dir.path().join("signed.jpg");
        provenance
            .sign(&input, &output, "image/jpeg", &facts())
            .unwrap();
        let (state, json) = read(&output, "image/jpeg", &stranger);
        assert_eq!(state, ValidationState::Valid, "{json}");
    }
}
