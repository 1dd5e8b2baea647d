//! Evidence packets: the owner's, and a recipient's of the copies they received, asked for,
//! streamed, unpacked and checked by their own `verify.sh` (sha256sum and openssl only) as a third
//! party would, then tampered with; the custody-log heads signed in the background; and who may
//! have a packet of what.

use std::{path::Path, process::Command, time::Duration};

use evidentia_common::{
    proto::{evidence::v1 as evidence_pb, sharing::v1 as pb},
    testing::{self, WAIT, jpeg},
};
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{TestApp, User, email, unique};

async fn packet_link(
    app: &TestApp,
    owner: &User,
    folder: &str,
    items: &[&str],
) -> Result<pb::PacketDownload, tonic::Status> {
    app.sharing()
        .create_packet_download(owner.req(pb::CreatePacketDownloadRequest {
            folder_id: folder.into(),
            item_ids: items.iter().map(|&i| i.to_owned()).collect(),
        }))
        .await
        .map(tonic::Response::into_inner)
}

/// The packet a link opens: its file name and bytes.
async fn download(app: &TestApp, token: &str) -> Result<(String, Vec<u8>), tonic::Status> {
    let mut stream = app
        .sharing()
        .download_packet(pb::DownloadPacketRequest {
            token: token.into(),
        })
        .await?
        .into_inner();
    let first = stream.message().await?.unwrap_or_default();
    let mut bytes = Vec::new();
    let mut chunks = 0;
    while let Some(chunk) = stream.message().await? {
        bytes.extend_from_slice(&chunk.data);
        chunks += 1;
    }
    assert!(chunks > 1, "the packet streams in chunks");
    Ok((first.file_name, bytes))
}

fn unpack(zip: &[u8], dir: &Path) {
    let path = dir.join("packet.zip");
    std::fs::write(&path, zip).unwrap();
    let status = Command::new("unzip")
        .args(["-q", "-d"])
        .arg(dir.join("packet"))
        .arg(&path)
        .status()
        .unwrap();
    assert!(status.success());
}

fn verify(dir: &Path) -> (bool, String) {
    let out = Command::new("sh")
        .arg(dir.join("verify.sh"))
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[tokio::test]
async fn a_folders_packet_checks_out_offline_and_names_each_tampering() {
    let app = TestApp::spawn().await;
    let owner = app.sharer().await;
    let folder = app.folder(&owner, "Flat 3 move-out").await;
    let photo = jpeg(800, 600, 30);
    let shared = app
        .upload(&owner, &folder, photo.clone(), "image/jpeg")
        .await;
    let kept = app
        .upload(&owner, &folder, jpeg(640, 480, 200), "image/jpeg")
        .await;
    // One file has a story before the packet: it was shared.
    let request = pb::CreateShareRequest {
        folder_id: folder.clone(),
        copy_type: pb::CopyType::Authenticated as i32,
        item_ids: vec![shared.id.clone()],
        recipients: vec![email(&unique("lawyer"))],
        pay_with: "card".into(),
        idempotency_key: "packet-share".into(),
    };
    app.share(&owner, request).await.unwrap();

    let link = packet_link(&app, &owner, &folder, &[]).await.unwrap();
    assert!(link.token.len() >= 40);
    let (name, zip) = download(&app, &link.token).await.unwrap();
    assert!(
        name.starts_with("evidence-packet-Flat-3-move-out-") && name.ends_with(".zip"),
        "{name}"
    );
    let dir = tempfile::tempdir().unwrap();
    unpack(&zip, dir.path());
    let root = dir.path().join("packet");

    // Everything checks out, with the receipts evidence signed and the heads sharing signed.
    let (passed, out) = verify(&root);
    assert!(passed, "{out}");
    for line in [
        "OK      manifest.json: signed by key",
        "OK      files/01-",
        "OK      files/02-",
        "SHA-256 matches the manifest and its signed receipt",
    ] {
        assert!(out.contains(line), "{line} in {out}");
    }
    let manifest = std::fs::read_to_string(root.join("manifest.json")).unwrap();
    assert!(manifest.contains(&shared.sha256) && manifest.contains(&kept.sha256));
    let shared_path = std::fs::read_dir(root.join("files"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| std::fs::read(p).unwrap() == photo)
        .expect("the shared original, byte for byte");
    let log = root.join(format!("custody/{}.jsonl", shared.id));
    let story = std::fs::read_to_string(&log).unwrap();
    for kind in ["captured", "verified", "shared", "packet_exported"] {
        assert!(
            story.contains(&format!("\"kind\":\"{kind}\"")),
            "{kind} in {story}"
        );
    }
    // The file never shared starts its log with the packet.
    let kept_log =
        std::fs::read_to_string(root.join(format!("custody/{}.jsonl", kept.id))).unwrap();
    assert!(kept_log.lines().last().unwrap().contains("packet_exported"));
    assert!(
        std::fs::read_dir(root.join("heads")).unwrap().count() >= 4,
        "a signed head (and its signature) per file"
    );

    // One byte of a file.
    let mut changed = photo.clone();
    changed[1000] ^= 0x01;
    std::fs::write(&shared_path, &changed).unwrap();
    let (passed, out) = verify(&root);
    assert!(!passed);
    let shown = shared_path
        .strip_prefix(&root)
        .unwrap()
        .display()
        .to_string();
    assert!(
        out.contains(&format!("FAILED  {shown}: its SHA-256 is")),
        "{out}"
    );
    std::fs::write(&shared_path, &photo).unwrap();

    // One manifest entry.
    let forged = manifest.replace(&kept.sha256, &shared.sha256);
    std::fs::write(root.join("manifest.json"), &forged).unwrap();
    let (passed, out) = verify(&root);
    assert!(!passed);
    assert!(
        out.contains("FAILED  manifest.json: the signature does not match"),
        "{out}"
    );
    std::fs::write(root.join("manifest.json"), &manifest).unwrap();

    // One custody line.
    let lines: Vec<&str> = story.lines().collect();
    let removed: String = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 1)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    std::fs::write(&log, removed).unwrap();
    let (passed, out) = verify(&root);
    assert!(!passed);
    assert!(
        out.contains(&format!(
            "FAILED  custody/{}.jsonl: entry 2 is missing (the next line is entry 3)",
            shared.id
        )),
        "{out}"
    );
    std::fs::write(&log, &story).unwrap();
    assert!(verify(&root).0, "whole again");

    // A link opens once (one seen again in a log opens nothing); an unknown one, nothing.
    let again = download(&app, &link.token).await.unwrap_err();
    assert_eq!(again.code(), Code::NotFound);
    let bogus = download(&app, "not-a-link").await.unwrap_err();
    assert_eq!(bogus.code(), Code::NotFound);
}

#[tokio::test]
async fn chosen_files_make_the_packet_and_only_an_owner_of_verified_live_files_gets_one() {
    let app = TestApp::spawn().await;
    let owner = app.sign_up().await;
    let folder = app.folder(&owner, "Car").await;
    let first = app
        .upload(&owner, &folder, jpeg(320, 240, 10), "image/jpeg")
        .await;
    let second = app
        .upload(&owner, &folder, jpeg(320, 240, 99), "image/jpeg")
        .await;

    let link = packet_link(&app, &owner, &folder, &[&second.id])
        .await
        .unwrap();
    let (_, zip) = download(&app, &link.token).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    unpack(&zip, dir.path());
    let manifest = std::fs::read_to_string(dir.path().join("packet/manifest.json")).unwrap();
    assert!(manifest.contains(&second.id) && !manifest.contains(&first.id));
    assert!(verify(&dir.path().join("packet")).0);

    // Another user's folder or file, a malformed id, a file not yet verified, an empty folder.
    let stranger = app.sign_up().await;
    let theirs = packet_link(&app, &stranger, &folder, &[])
        .await
        .unwrap_err();
    assert_eq!(theirs.code(), Code::NotFound);
    let own_folder = app.folder(&stranger, "Mine").await;
    let not_in_it = packet_link(&app, &stranger, &own_folder, &[&first.id])
        .await
        .unwrap_err();
    assert_eq!(not_in_it.code(), Code::NotFound);
    let empty = packet_link(&app, &stranger, &own_folder, &[])
        .await
        .unwrap_err();
    assert_eq!(empty.code(), Code::InvalidArgument);
    assert!(empty.message().contains("no verified files"), "{empty:?}");
    let malformed = packet_link(&app, &owner, &folder, &["nope"])
        .await
        .unwrap_err();
    assert_eq!(malformed.code(), Code::NotFound);
    let pending = app
        .evidence()
        .create_item(owner.req(testing::capture(&folder, &jpeg(10, 10, 1), "image/jpeg")))
        .await
        .unwrap()
        .into_inner()
        .item
        .unwrap();
    assert_ne!(pending.status, evidence_pb::ItemStatus::Verified as i32);
    let unverified = packet_link(&app, &owner, &folder, &[&pending.id])
        .await
        .unwrap_err();
    assert_eq!(unverified.code(), Code::InvalidArgument);

    // Once the storage date has passed, no packet: not asked for, nor from a link made before.
    let before = packet_link(&app, &owner, &folder, &[]).await.unwrap();
    app.expire_storage(&folder).await;
    let expired = packet_link(&app, &owner, &folder, &[]).await.unwrap_err();
    assert_eq!(expired.code(), Code::FailedPrecondition, "{expired:?}");
    let late = download(&app, &before.token).await.unwrap_err();
    assert_eq!(late.code(), Code::FailedPrecondition);
}

async fn recipient_packet_link(
    app: &TestApp,
    token: &str,
) -> Result<pb::PacketDownload, tonic::Status> {
    app.sharing()
        .create_recipient_packet_download(pb::CreateRecipientPacketDownloadRequest {
            access_token: token.into(),
        })
        .await
        .map(tonic::Response::into_inner)
}

/// Every text file of an unpacked packet, concatenated (the files/ are binary copies).
fn texts(root: &Path) -> String {
    let mut all = String::new();
    for dir in ["", "custody", "heads", "receipts"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                all += &String::from_utf8_lossy(&std::fs::read(&path).unwrap());
            }
        }
    }
    all
}

#[tokio::test]
async fn a_recipients_packet_holds_their_copies_and_withholds_the_other_recipients() {
    let app = TestApp::spawn().await;
    let owner = app.sharer().await;
    let folder = app.folder(&owner, "Flat 9").await;
    let photo = app
        .upload(&owner, &folder, jpeg(800, 600, 70), "image/jpeg")
        .await;
    let (alice, bob) = (unique("alice"), unique("bob"));
    let shared = app
        .share(
            &owner,
            pb::CreateShareRequest {
                folder_id: folder.clone(),
                copy_type: pb::CopyType::Authenticated as i32,
                item_ids: vec![photo.id.clone()],
                recipients: vec![email(&alice), email(&bob)],
                pay_with: "card".into(),
                idempotency_key: "recipient-packet".into(),
            },
        )
        .await
        .unwrap()
        .share
        .unwrap();
    let alice_token = app.access_token(&alice).await;
    let bob_token = app.access_token(&bob).await;
    let copy = testing::eventually("bob's copy ready", Duration::from_secs(180), || async {
        let view = app
            .view(&bob_token, pb::CopyType::Authenticated)
            .await
            .ok()?;
        view.items.into_iter().find(|c| c.state == "ready")
    })
    .await;
    // Alice's copy is made too, so her story is in the log before Bob's packet.
    testing::eventually("alice's copy ready", Duration::from_secs(180), || async {
        let view = app
            .view(&alice_token, pb::CopyType::Authenticated)
            .await
            .ok()?;
        view.items.iter().any(|c| c.state == "ready").then_some(())
    })
    .await;

    let link = recipient_packet_link(&app, &bob_token).await.unwrap();
    let (name, zip) = download(&app, &link.token).await.unwrap();
    assert!(name.starts_with("evidence-packet-copies-Flat-9-"), "{name}");
    let dir = tempfile::tempdir().unwrap();
    unpack(&zip, dir.path());
    let root = dir.path().join("packet");
    let (passed, out) = verify(&root);
    assert!(passed, "{out}");
    assert!(
        out.contains(
            "it is the copy the custody log says was made from the original of the signed receipt"
        ),
        "{out}"
    );
    assert!(out.contains("about other recipients withheld"), "{out}");

    // The file is Bob's copy (not the original), the receipt the original's; Alice is nowhere.
    let files: Vec<_> = std::fs::read_dir(root.join("files"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1);
    let bytes = std::fs::read(&files[0]).unwrap();
    assert_eq!(
        hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&bytes)),
        copy.sha256.clone().unwrap()
    );
    assert_ne!(copy.sha256.as_deref(), Some(photo.sha256.as_str()));
    let manifest = std::fs::read_to_string(root.join("manifest.json")).unwrap();
    assert!(manifest.contains(&format!("\"original_sha256\":\"{}\"", photo.sha256)));
    let all = texts(&root);
    assert!(!all.contains(&alice), "Alice's address is withheld: {all}");
    assert!(all.contains(&bob));
    let log = std::fs::read_to_string(root.join(format!("custody/{}.jsonl", photo.id))).unwrap();
    assert!(log.contains("\"withheld\":true"), "{log}");
    assert!(log.contains("\"kind\":\"verified\""), "{log}");
    assert!(
        log.lines()
            .last()
            .unwrap()
            .contains("copies exported in an evidence packet by")
    );

    // One byte of the copy.
    let mut changed = bytes.clone();
    changed[2000] ^= 0x01;
    std::fs::write(&files[0], &changed).unwrap();
    let (passed, out) = verify(&root);
    assert!(!passed);
    assert!(out.contains("its SHA-256 is"), "{out}");

    // The owner's log holds everything, Bob's export included.
    let custody = app.custody(&owner, &folder).await;
    let details: Vec<&str> = custody.items[0]
        .custody
        .iter()
        .map(|e| e.detail.as_str())
        .collect();
    assert!(details.iter().any(|d| d.contains(&alice)), "{details:?}");
    assert!(
        details
            .iter()
            .any(|d| d.starts_with("copies exported in an evidence packet by"))
    );

    // No token, a link of a revoked share (asked before), an owner's packet of it afterwards.
    let none = recipient_packet_link(&app, "not-a-token")
        .await
        .unwrap_err();
    assert_eq!(none.code(), Code::Unauthenticated);
    let before = recipient_packet_link(&app, &bob_token).await.unwrap();
    app.sharing()
        .revoke_share(owner.req(pb::RevokeShareRequest {
            share_id: shared.id.clone(),
        }))
        .await
        .unwrap();
    let late = download(&app, &before.token).await.unwrap_err();
    assert_eq!(late.code(), Code::NotFound, "{late:?}");
    let after = recipient_packet_link(&app, &bob_token).await.unwrap_err();
    assert_eq!(after.code(), Code::Unauthenticated, "{after:?}");
}

#[tokio::test]
async fn the_head_signer_signs_each_log_that_grew() {
    let app = TestApp::spawn().await;
    let owner = app.sharer().await;
    let folder = app.folder(&owner, "Signed heads").await;
    let item = app
        .upload(&owner, &folder, jpeg(320, 240, 50), "image/jpeg")
        .await;
    let request = pb::CreateShareRequest {
        folder_id: folder.clone(),
        copy_type: pb::CopyType::Unauthenticated as i32,
        item_ids: vec![item.id.clone()],
        recipients: vec![email(&unique("friend"))],
        pay_with: "card".into(),
        idempotency_key: "heads".into(),
    };
    app.share(&owner, request).await.unwrap();
    let item_id = Uuid::parse_str(&item.id).unwrap();
    let url = app.sharing_db().clone();
    // The log's last entry gets a signed head within a few of the signer's rounds.
    let signed = testing::eventually("the log's head signed", WAIT, || {
        let url = url.clone();
        async move {
            let mut db = testing::connect(&url).await;
            let last = sqlx::query_scalar!(
                "SELECT max(seq) FROM custody_entries WHERE item_id = $1",
                item_id
            )
            .fetch_one(&mut db)
            .await
            .ok()??;
            sqlx::query!(
                "SELECT payload, signature FROM custody_heads WHERE item_id = $1 AND seq = $2",
                item_id,
                last
            )
            .fetch_optional(&mut db)
            .await
            .ok()?
        }
    })
    .await;
    assert!(signed.payload.contains("\"type\":\"custody_head\""));
    let keys = app
        .evidence()
        .list_receipt_keys(evidence_pb::ListReceiptKeysRequest {})
        .await
        .unwrap()
        .into_inner()
        .keys;
    let key = keys.iter().find(|k| k.current).unwrap();
    let public = evidentia_common::signing::PublicKey {
        id: key.id.clone(),
        pem: key.pem.clone(),
        raw: key.raw.clone(),
        current: true,
    };
    assert!(
        evidentia_common::signing::verify(signed.payload.as_bytes(), &signed.signature, &public),
        "signed with the key evidence publishes"
    );
}

#[tokio::test]
async fn a_receipts_timestamp_travels_in_the_packet_and_verify_sh_checks_it() {
    let tsa = testing::LocalTsa::start();
    let authority =
        evidence::timestamps::Tsa::new(tsa.url.clone(), tsa.ca_pem.clone(), Duration::from_secs(5))
            .unwrap();
    let app = TestApp::spawn_with(|c| {
        c.timestamps = Some(authority);
        c.timestamp_interval_seconds = 1;
    })
    .await;
    let owner = app.sign_up().await;
    let folder = app.folder(&owner, "Stamped").await;
    let item = app
        .upload(&owner, &folder, jpeg(320, 240, 5), "image/jpeg")
        .await;
    testing::eventually(
        "the receipt's timestamp",
        Duration::from_secs(30),
        || async {
            let stamped = app
                .evidence()
                .get_item(owner.req(evidence_pb::GetItemRequest {
                    item_id: item.id.clone(),
                }))
                .await
                .ok()?
                .into_inner()
                .receipt?;
            (!stamped.timestamp_token.is_empty()).then_some(())
        },
    )
    .await;

    let link = packet_link(&app, &owner, &folder, &[]).await.unwrap();
    let (_, zip) = download(&app, &link.token).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    unpack(&zip, dir.path());
    let root = dir.path().join("packet");
    let (passed, out) = verify(&root);
    assert!(passed, "{out}");
    let tsr = format!("receipts/{}.tsr", item.id);
    assert!(
        out.contains(&format!(
            "OK      {tsr}: the time-stamping authority says the receipt was signed by"
        )),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("keys/tsa-ca.pem")).unwrap(),
        tsa.ca_pem
    );

    // Another authority's certificate in its place, then the token gone.
    let stranger = testing::LocalTsa::start();
    std::fs::write(root.join("keys/tsa-ca.pem"), &stranger.ca_pem).unwrap();
    let (passed, out) = verify(&root);
    assert!(!passed);
    assert!(
        out.contains(&format!(
            "FAILED  {tsr}: the timestamp is not of this receipt's signature"
        )),
        "{out}"
    );
    std::fs::write(root.join("keys/tsa-ca.pem"), &tsa.ca_pem).unwrap();
    std::fs::remove_file(root.join(&tsr)).unwrap();
    let (passed, out) = verify(&root);
    assert!(!passed);
    assert!(
        out.contains(&format!("FAILED  {tsr}: missing (the manifest names it)")),
        "{out}"
    );
}
