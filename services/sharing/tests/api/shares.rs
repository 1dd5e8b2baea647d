//! Shares against the real components: a share bought once with its idempotency key, copies of
//! an image, a video and an audio file rendered with the watermark burned in (read back by OCR),
//! the recipient's code and token, revocation, verification, the custody log and its check,
//! every other user's or other share's id answering NOT_FOUND, and what creates no share.

use std::{process::Command, time::Duration};

use evidentia_common::{
    proto::{
        evidence::v1 as evidence_pb,
        sharing::v1::{self as pb, verify_request::By},
    },
    testing::{self, DECLINED_OFF_SESSION, fetch, field_errors, jpeg, reason, sha256, test_video},
};
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{TestApp, User, c2pa_of, email, unique};

/// Waits until every recipient of the folder's newest share has all its copies.
async fn until_ready(app: &TestApp, owner: &User, folder: &str) -> pb::FolderShares {
    testing::eventually("every copy ready", Duration::from_secs(180), || async {
        let details = app.shares(owner, folder).await.ok()?;
        let recipients = &details.shares.first()?.recipients;
        recipients
            .iter()
            .all(|r| r.copies_ready == r.copies_total && r.copies_total != 0)
            .then_some(details)
    })
    .await
}

fn share_of(
    folder: &str,
    copy_type: pb::CopyType,
    items: &[&str],
    to: &str,
    key: &str,
) -> pb::CreateShareRequest {
    pb::CreateShareRequest {
        folder_id: folder.into(),
        copy_type: copy_type as i32,
        item_ids: items.iter().map(|&i| i.to_owned()).collect(),
        recipients: vec![email(to)],
        pay_with: "card".into(),
        idempotency_key: key.into(),
    }
}

/// A wrong code: any six digits but `code`.
fn other_than(code: &str) -> &'static str {
    if code == "000000" { "111111" } else { "000000" }
}

#[tokio::test]
async fn an_authenticated_share_is_paid_once_rendered_with_the_banner_and_opened_with_a_code() {
    let app = TestApp::spawn().await;
    let owner = app.sharer().await;
    let folder = app.folder(&owner, "Flat handover").await;
    let photo = jpeg(1600, 1200, 90);
    let image = app
        .upload(&owner, &folder, photo.clone(), "image/jpeg")
        .await;
    let video = app.upload(&owner, &folder, test_video(), "video/mp4").await;
    let audio = app.upload(&owner, &folder, test_audio(), "audio/wav").await;
    let recipient = unique("lawyer");
    let request = share_of(
        &folder,
        pb::CopyType::Authenticated,
        &[],
        &recipient,
        "share-1",
    );

    // One share and one charge, whatever the retries.
    let first = app.share(&owner, request.clone()).await.unwrap();
    let paid = first.payment.clone().unwrap().transaction.unwrap();
    assert_eq!(paid.kind, "sharing");
    assert!(paid.charged_to_card > 0, "{paid:?}");
    let again = app.share(&owner, request.clone()).await.unwrap();
    assert_eq!(again.share.unwrap().id, first.share.clone().unwrap().id);
    assert_eq!(again.payment.unwrap().transaction.unwrap().id, paid.id);
    let other = pb::CreateShareRequest {
        copy_type: pb::CopyType::Unauthenticated as i32,
        ..request.clone()
    };
    let reused = app.share(&owner, other).await.unwrap_err();
    assert_eq!(
        reused.code(),
        Code::AlreadyExists,
        "a key reused for another request: {reused:?}"
    );
    let purchases = app.sharing_purchases(&owner).await;
    assert_eq!(purchases.len(), 1, "one purchase: {purchases:?}");

    let details = until_ready(&app, &owner, &folder).await;
    let shared = &details.shares[0];
    assert_eq!(shared.item_count, 3);
    let number = shared.recipients[0].transaction_number.clone();
    assert!(number.starts_with("EVD-") && number.len() == 13, "{number}");

    // The link alone opens nothing; a code sent to the recipient's own address does.
    let (t1, t2) = testing::share_link(&recipient).await;
    let forged = app
        .sharing()
        .send_access_code(pb::SendAccessCodeRequest {
            t1: t1.clone(),
            t2: "forged".into(),
            client_ip: String::new(),
        })
        .await
        .unwrap_err();
    assert_eq!(forged.code(), Code::NotFound, "{forged:?}");
    let (code_id, code, message) = app.code_for(&recipient, &t1, &t2, &[]).await;
    let refused = app
        .check_code(&code_id, other_than(&code))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    assert_eq!(field_errors(&refused)[0].0, "confirmation_code");
    let token = app
        .check_code(&code_id, &code)
        .await
        .unwrap()
        .access_folder_token;
    let spent = app.check_code(&code_id, &code).await.unwrap_err();
    assert_eq!(
        reason(&spent).as_deref(),
        Some("code_expired"),
        "a code works once: {spent:?}"
    );

    // Five wrong tries end a code.
    let (second_id, second_code, _) = app.code_for(&recipient, &t1, &t2, &[message]).await;
    for _ in 0..5 {
        let _ = app.check_code(&second_id, other_than(&second_code)).await;
    }
    let ended = app.check_code(&second_id, &second_code).await.unwrap_err();
    assert_eq!(reason(&ended).as_deref(), Some("code_expired"), "{ended:?}");

    // The copies, watermarked; no original is named anywhere the recipient can read.
    let view = app.view(&token, pb::CopyType::Authenticated).await.unwrap();
    let watermark = view.watermark.clone().unwrap();
    assert_eq!(watermark.transaction_number, number);
    assert_eq!(watermark.sent_to, recipient);
    assert_eq!(
        watermark.generated_for.as_deref(),
        Some(owner.username.as_str())
    );
    let text = format!("{view:?}");
    for original in [&image, &video, &audio] {
        assert!(!text.contains(&original.id), "an original's id in {text}");
        let url = original.file_url.as_deref().unwrap();
        let key = url.split('?').next().unwrap().rsplit('/').next().unwrap();
        assert!(!text.contains(key), "an original's key in {text}");
    }
    let unauthenticated = app
        .view(&token, pb::CopyType::Unauthenticated)
        .await
        .unwrap_err();
    assert_eq!(
        unauthenticated.code(),
        Code::NotFound,
        "an authenticated share has no unauthenticated view"
    );
    let items = &view.items;
    assert_eq!(items.len(), 3);

    let (status, copy) = fetch(items[0].url.as_deref().unwrap()).await;
    assert_eq!(status, 200);
    assert_ne!(copy, photo);
    assert_eq!(items[0].sha256.as_deref(), Some(sha256(&copy).as_str()));
    let decoded = image::load_from_memory(&copy).expect("a JPEG");
    assert_eq!((decoded.width(), decoded.height()), (1600, 1200));
    let read = ocr(&copy);
    assert!(
        reads_as(&ocr_fold(&read), &ocr_fold(&number)),
        "OCR read {read:?}, wanted {number}"
    );
    assert!(
        ocr_fold(&read).contains(&ocr_fold("Authenticated Copy")),
        "{read:?}"
    );

    let (_, video_copy) = fetch(items[1].url.as_deref().unwrap()).await;
    assert!(
        streams(&video_copy).contains(&"video:h264".to_owned()),
        "{:?}",
        streams(&video_copy)
    );
    let (_, audio_copy) = fetch(items[2].url.as_deref().unwrap()).await;
    let audio_streams = streams(&audio_copy);
    assert!(
        audio_streams.contains(&"video:h264".to_owned()),
        "{audio_streams:?}"
    );
    assert!(
        audio_streams.iter().any(|s| s.starts_with("audio:")),
        "{audio_streams:?}"
    );
    // Each copy carries a C2PA manifest trusted under our root: an edit of the original, for
    // this transaction.
    for (bytes, mime, original) in [
        (&copy, "image/jpeg", &image),
        (&video_copy, "video/mp4", &video),
        (&audio_copy, "video/mp4", &audio),
    ] {
        let (state, json) = c2pa_of(bytes, mime);
        assert_eq!(state, c2pa::ValidationState::Trusted, "{json}");
        for expected in [
            "c2pa.edited",
            "com.evidentia.copy",
            &number,
            &original.sha256,
        ] {
            assert!(json.contains(expected), "{expected} in {json}");
        }
    }
    let mut changed = copy.clone();
    let near_end = changed.len() - 20;
    changed[near_end] ^= 0xFF;
    assert_eq!(
        c2pa_of(&changed, "image/jpeg").0,
        c2pa::ValidationState::Invalid,
        "one changed byte"
    );

    let copy_event = |copy_id: String, kind: &str| pb::RecordCopyEventRequest {
        access_token: token.clone(),
        copy_id,
        kind: kind.into(),
        ..Default::default()
    };
    app.sharing()
        .record_copy_event(copy_event(items[0].id.clone(), "downloaded"))
        .await
        .unwrap();

    // Anyone can check a number or a file; the recipient's address is masked.
    let checked = app
        .verify(By::TransactionNumber(number.to_lowercase()))
        .await
        .unwrap();
    assert_eq!(checked.copy_type, pb::CopyType::Authenticated as i32);
    assert!(checked.sent_to.contains("***@example.com"), "{checked:?}");
    assert_eq!(checked.items[0].original_sha256, image.sha256);
    // The original's signed receipt as evidence signed it, for anyone to check.
    let receipt = checked.items[0]
        .receipt
        .as_ref()
        .expect("the original's receipt");
    assert_eq!(
        Some(receipt.payload.clone()),
        image.receipt.as_ref().map(|r| r.payload.clone())
    );
    assert!(receipt.payload.contains(&image.sha256), "{receipt:?}");
    assert!(!receipt.signature.is_empty() && !receipt.key_id.is_empty());
    let matched = app.verify(By::Sha256(sha256(&copy))).await.unwrap();
    assert_eq!(matched.matched_item_index, Some(0));
    let original = app.verify(By::Sha256(sha256(&photo))).await.unwrap_err();
    assert_eq!(
        original.code(),
        Code::NotFound,
        "an original is not a copy we issued"
    );
    let unknown = app
        .verify(By::TransactionNumber("EVD-2222-2222".into()))
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), Code::NotFound);

    // The custody log holds the story, and the check finds a changed entry.
    let contents = app.custody(&owner, &folder).await;
    let first = contents
        .items
        .iter()
        .find(|i| i.item_id == image.id)
        .unwrap();
    let kinds: Vec<&str> = first.custody.iter().map(|e| e.kind.as_str()).collect();
    for kind in [
        "captured",
        "uploaded",
        "verified",
        "shared",
        "copy_generated",
        "code_sent",
        "code_checked",
        "downloaded",
    ] {
        assert!(kinds.contains(&kind), "{kind} in {kinds:?}");
    }
    assert_eq!(first.shared_counter, 1);
    assert_eq!(first.sharing_available_counter, 1);
    let intact = app.check_custody(&owner, &folder).await;
    assert!(intact.items.iter().all(|i| i.intact), "{intact:?}");
    let image_id = Uuid::parse_str(&image.id).unwrap();
    let mut db = testing::connect(app.sharing_db()).await;
    sqlx::query!("ALTER TABLE custody_entries DISABLE TRIGGER custody_entries_no_update")
        .execute(&mut db)
        .await
        .unwrap();
    sqlx::query!(
        "UPDATE custody_entries SET detail = 'somewhere else' WHERE item_id = $1 AND seq = 4",
        image_id
    )
    .execute(&mut db)
    .await
    .unwrap();
    let broken = app.check_custody(&owner, &folder).await;
    let item = broken.items.iter().find(|i| i.item_id == image.id).unwrap();
    assert!(!item.intact, "{broken:?}");
    assert_eq!(item.first_broken.as_ref().map(|e| e.seq), Some(4));

    // Another user reaches none of it.
    let stranger = app.sign_up().await;
    let share_id = shared.id.clone();
    let mut sharing = app.sharing();
    let refusals = [
        app.shares(&stranger, &folder).await.map(drop),
        sharing
            .get_folder_custody(stranger.req(pb::GetFolderCustodyRequest {
                folder_id: folder.clone(),
            }))
            .await
            .map(drop),
        sharing
            .revoke_share(stranger.req(pb::RevokeShareRequest {
                share_id: share_id.clone(),
            }))
            .await
            .map(drop),
        app.share(
            &stranger,
            share_of(&folder, pb::CopyType::Authenticated, &[], &recipient, "s"),
        )
        .await
        .map(drop),
    ];
    for refused in refusals {
        assert_eq!(
            refused.as_ref().map_err(tonic::Status::code),
            Err(Code::NotFound),
            "{refused:?}"
        );
    }

    // Another share's copy is NOT_FOUND with this share's token.
    let other_share = app
        .share(
            &owner,
            share_of(
                &folder,
                pb::CopyType::Unauthenticated,
                &[&image.id],
                &unique("insurer"),
                "share-2",
            ),
        )
        .await
        .unwrap();
    let foreign = sqlx::query_scalar!(
        "SELECT id FROM copies WHERE share_id = $1",
        Uuid::parse_str(&other_share.share.unwrap().id).unwrap()
    )
    .fetch_one(&mut db)
    .await
    .unwrap();
    let refused = sharing
        .record_copy_event(copy_event(foreign.to_string(), "viewed"))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");

    // Once the folder's storage date passes, the recipient's copies are expired, without links.
    app.expire_storage(&folder).await;
    let expired = app.view(&token, pb::CopyType::Authenticated).await.unwrap();
    for item in &expired.items {
        assert_eq!(item.state, "expired", "{item:?}");
        assert!(
            item.url.is_none() && item.download_url.is_none(),
            "{item:?}"
        );
    }
    app.extend_storage(&folder).await;

    // Revoked: the token fails at once, the link opens nothing, and verification says so.
    let revoked = sharing
        .revoke_share(owner.req(pb::RevokeShareRequest {
            share_id: share_id.clone(),
        }))
        .await
        .unwrap()
        .into_inner();
    assert!(revoked.revoked_at.is_some(), "{revoked:?}");
    let refused = app
        .view(&token, pb::CopyType::Authenticated)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    assert_eq!(reason(&refused).as_deref(), Some("folder_token_invalid"));
    let closed = sharing
        .send_access_code(pb::SendAccessCodeRequest {
            t1,
            t2,
            client_ip: String::new(),
        })
        .await
        .unwrap_err();
    assert_eq!(closed.code(), Code::NotFound);
    let after = app.verify(By::TransactionNumber(number)).await.unwrap();
    assert!(after.revoked);
    let (status, _) = fetch(items[0].url.as_deref().unwrap()).await;
    assert_ne!(status, 200, "a revoked share's copies are deleted");

    // A purged account leaves no share and no custody log behind.
    app.publish(&evidentia_common::proto::events::v1::AccountPurged {
        user_id: owner.id.to_string(),
        ..Default::default()
    })
    .await;
    testing::eventually("the purge done", Duration::from_secs(30), || async {
        let mut db = testing::connect(app.sharing_db()).await;
        let left = sqlx::query_scalar!(
            r#"SELECT (SELECT count(*) FROM shares WHERE id = $1)
                    + (SELECT count(*) FROM custody_entries WHERE item_id = $2) AS "left!""#,
            Uuid::parse_str(&share_id).unwrap(),
            image_id
        )
        .fetch_one(&mut db)
        .await
        .unwrap();
        (left == 0).then_some(())
    })
    .await;
}

#[tokio::test]
async fn expired_folders_declined_cards_and_bad_input_create_no_share() {
    let app = TestApp::spawn().await;
    let owner = app.sign_up().await;
    app.with_default_card(&owner, DECLINED_OFF_SESSION).await;
    let folder = app.folder(&owner, "Deposit").await;
    let photo = app
        .upload(&owner, &folder, jpeg(320, 240, 10), "image/jpeg")
        .await;
    let good = share_of(
        &folder,
        pb::CopyType::Unauthenticated,
        &[&photo.id],
        "insurer@example.com",
        "k1",
    );
    let declined = app.share(&owner, good.clone()).await.unwrap_err();
    assert_eq!(
        reason(&declined).as_deref(),
        Some("card_declined"),
        "{declined:?}"
    );
    let details = app.shares(&owner, &folder).await.unwrap();
    assert!(details.shares.is_empty(), "a declined card creates nothing");

    let to = |address: &str| vec![email(address)];
    for (recipients, item_ids, field, message) in [
        (
            vec![],
            vec![],
            "recipients",
            "Add at least one e-mail address or phone number.",
        ),
        (
            to("nope"),
            vec![],
            "recipients[0].email",
            "Please enter a valid email address",
        ),
        (
            to(""),
            vec![],
            "recipients[0].email",
            "This field is required",
        ),
        (
            to("a@example.com"),
            vec![Uuid::now_v7().to_string()],
            "item_ids",
            "Choose files from this folder.",
        ),
    ] {
        let refused = app
            .share(
                &owner,
                pb::CreateShareRequest {
                    recipients,
                    item_ids,
                    idempotency_key: "k2".into(),
                    ..good.clone()
                },
            )
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
        assert_eq!(
            field_errors(&refused).first(),
            Some(&(field.to_owned(), message.to_owned())),
            "{refused:?}"
        );
    }

    // No idempotency key (none, or not a key) is refused like a bad field: two requests without
    // one are never taken for a retry of each other.
    for key in ["", "two words"] {
        let refused = app
            .share(
                &owner,
                pb::CreateShareRequest {
                    idempotency_key: key.into(),
                    ..good.clone()
                },
            )
            .await
            .unwrap_err();
        assert_eq!(
            field_errors(&refused).first(),
            Some(&(
                "idempotency_key".to_owned(),
                "An Idempotency-Key header (1 to 255 visible characters) is required.".to_owned()
            )),
            "{key:?}: {refused:?}"
        );
    }

    app.expire_storage(&folder).await;
    let expired = app
        .share(
            &owner,
            pb::CreateShareRequest {
                idempotency_key: "k3".into(),
                ..good
            },
        )
        .await
        .unwrap_err();
    // spec §4, §8
    assert_eq!(reason(&expired).as_deref(), Some("storage_expired"));
    assert_eq!(
        expired.message(),
        "Please extend your Storage Date for this file."
    );
}

/// Requests sent together with one key (a double tap, or a retry while the first is still in
/// flight) make one share and one charge, and each of them is answered with that share.
#[tokio::test]
async fn requests_sent_together_with_one_key_make_one_share_and_one_charge() {
    let app = TestApp::spawn().await;
    let owner = app.sharer().await;
    let folder = app.folder(&owner, "Deposit").await;
    let photo = app
        .upload(&owner, &folder, jpeg(320, 240, 10), "image/jpeg")
        .await;
    let request = share_of(
        &folder,
        pb::CopyType::Unauthenticated,
        &[&photo.id],
        "insurer@example.com",
        "together",
    );
    let answers =
        futures::future::join_all((0..4).map(|_| app.share(&owner, request.clone()))).await;
    let ids: Vec<String> = answers
        .into_iter()
        .map(|answer| answer.expect("every request is answered").share.unwrap().id)
        .collect();
    assert!(ids.iter().all(|id| *id == ids[0]), "one share: {ids:?}");
    let details = app.shares(&owner, &folder).await.unwrap();
    assert_eq!(details.shares.len(), 1, "{details:?}");
    let purchases = app.sharing_purchases(&owner).await;
    assert_eq!(purchases.len(), 1, "one purchase: {purchases:?}");
}

/// A folder deleted at the moment it is shared never leaves a paid share whose copies cannot be
/// made: either the delete comes first and the share is refused (nothing paid), or the share's
/// files are held and the delete is refused ('held') until its copies are made; then the folder
/// can go, and the copies made stay the recipient's.
#[tokio::test]
async fn a_folder_deleted_while_it_is_shared_is_refused_until_the_copies_are_made() {
    let app = TestApp::spawn().await;
    let owner = app.sharer().await;
    let mut paid = 0;
    for round in 0..4 {
        let folder = app.folder(&owner, &format!("Lease {round}")).await;
        let photo = app
            .upload(&owner, &folder, jpeg(320, 240, 10), "image/jpeg")
            .await;
        let request = share_of(
            &folder,
            pb::CopyType::Unauthenticated,
            &[&photo.id],
            "insurer@example.com",
            &format!("delete-race-{round}"),
        );
        let delete = || {
            owner.req(evidence_pb::DeleteFolderRequest {
                folder_id: folder.clone(),
            })
        };
        let mut evidence = app.evidence();
        let (shared, deleted) =
            tokio::join!(app.share(&owner, request), evidence.delete_folder(delete()));
        match (&shared, &deleted) {
            (Ok(_), Err(refused)) => {
                paid += 1;
                assert_eq!(
                    testing::reason(refused).as_deref(),
                    Some("held"),
                    "round {round}: {refused:?}"
                );
                testing::eventually(
                    "the folder deleted once its copy is made",
                    Duration::from_secs(60),
                    || async { app.evidence().delete_folder(delete()).await.ok() },
                )
                .await;
            }
            // The folder or its files were gone by the time the share looked (404, or 400 'Choose
            // files from this folder.').
            (Err(refused), Ok(_)) => assert!(
                matches!(refused.code(), Code::NotFound | Code::InvalidArgument),
                "round {round}: {refused:?}"
            ),
            _ => panic!("round {round}: shared {shared:?}, deleted {deleted:?}"),
        }
        assert_eq!(
            app.sharing_purchases(&owner).await.len(),
            paid,
            "round {round}: a purchase only for a share that was made"
        );
    }
}

/// Files held for a share left awaiting payment (its payment's outcome never learned, and never
/// retried) are let go after an hour, so the folder does not stay undeletable; a newer one's
/// stay held, as do a paid share's while a copy is being made.
#[tokio::test]
async fn a_share_left_awaiting_payment_for_an_hour_lets_go_of_its_files() {
    let app = TestApp::spawn().await;
    let mut db = testing::connect(app.sharing_db()).await;
    let owner = Uuid::now_v7();
    // (share, minutes since it was made, state)
    let rows = [
        (Uuid::now_v7(), 61, "awaiting_payment"),
        (Uuid::now_v7(), 5, "awaiting_payment"),
        (Uuid::now_v7(), 5, "active"),
    ];
    for (id, age, state) in rows {
        sqlx::query!(
            "INSERT INTO shares (id, owner_id, folder_id, folder_name, copy_type, state, created_at, items_held)
             VALUES ($1, $2, $3, 'Lease', 'authenticated', $4, now() - make_interval(mins => $5), true)",
            id,
            owner,
            Uuid::now_v7(),
            state,
            age
        )
        .execute(&mut db)
        .await
        .unwrap();
    }
    let due: Vec<Uuid> = sharing::store::shares::holds_to_release(&mut db, 20)
        .await
        .unwrap()
        .into_iter()
        .filter(|(_, who)| *who == owner)
        .map(|(id, _)| id)
        .collect();
    assert_eq!(
        due,
        vec![rows[0].0, rows[2].0],
        "the stale unpaid one and the paid one"
    );
}

/// A file rejected on upload (its bytes are not what was registered) is never evidence: a share
/// of the whole folder leaves it out, and choosing it is refused with what to do.
#[tokio::test]
async fn a_file_rejected_on_upload_is_left_out_of_a_whole_folder_share() {
    let app = TestApp::spawn().await;
    let owner = app.sharer().await;
    let folder = app.folder(&owner, "Deposit").await;
    app.upload(&owner, &folder, jpeg(320, 240, 10), "image/jpeg")
        .await;
    let registered = jpeg(320, 240, 20);
    let mut sent = registered.clone();
    let last = sent.len() - 3;
    sent[last] ^= 0x55;
    let created = app
        .evidence()
        .create_item(owner.req(testing::capture(&folder, &registered, "image/jpeg")))
        .await
        .unwrap()
        .into_inner();
    let Some(evidence_pb::create_item_response::Upload::Single(post)) = &created.upload else {
        panic!("a single upload, not {:?}", created.upload);
    };
    assert!(
        testing::post_form(post, sent, "image/jpeg")
            .await
            .is_success()
    );
    let rejected = created.item.unwrap().id;
    app.evidence()
        .finish_upload(owner.req(evidence_pb::FinishUploadRequest {
            item_id: rejected.clone(),
        }))
        .await
        .ok();
    testing::eventually("the upload rejected", Duration::from_secs(60), || async {
        let found = app
            .evidence()
            .get_item(owner.req(evidence_pb::GetItemRequest {
                item_id: rejected.clone(),
            }))
            .await
            .ok()?
            .into_inner();
        (found.status == evidence_pb::ItemStatus::Rejected as i32).then_some(())
    })
    .await;

    let chosen = app
        .share(
            &owner,
            share_of(
                &folder,
                pb::CopyType::Unauthenticated,
                &[&rejected],
                "insurer@example.com",
                "rejected-chosen",
            ),
        )
        .await
        .unwrap_err();
    assert_eq!(
        field_errors(&chosen).first(),
        Some(&(
            "item_ids".to_owned(),
            "A chosen file failed its check on upload. Delete it or take it again, then share."
                .to_owned()
        )),
        "{chosen:?}"
    );
    let whole = app
        .share(
            &owner,
            share_of(
                &folder,
                pb::CopyType::Unauthenticated,
                &[],
                "insurer@example.com",
                "whole-folder",
            ),
        )
        .await
        .unwrap();
    assert_eq!(whole.share.unwrap().item_count, 1);
}

/// A second of a 440 Hz tone, as a WAV file.
fn test_audio() -> Vec<u8> {
    let path = std::env::temp_dir().join(format!("tone-{}.wav", uuid::Uuid::new_v4()));
    let made = Command::new("ffmpeg")
        .args(["-hide_banner", "-loglevel", "error", "-f", "lavfi"])
        .args(["-i", "sine=frequency=440:duration=1"])
        .arg(&path)
        .status()
        .expect("ffmpeg is installed (deploy/local/apt-packages.txt)");
    assert!(made.success());
    let bytes = std::fs::read(&path).expect("audio");
    std::fs::remove_file(&path).expect("remove");
    bytes
}

/// The text tesseract reads in an image, spaces removed (OCR may split "EVD-7K3Q - 9XTM"). The
/// image is read with a black margin around it: the banner's last line sits near the bottom
/// edge, where tesseract often loses a line's last glyph.
fn ocr(bytes: &[u8]) -> String {
    let copy = image::load_from_memory(bytes).expect("an image").to_rgb8();
    let margin = 80;
    let mut padded = image::RgbImage::new(copy.width() + 2 * margin, copy.height() + 2 * margin);
    image::imageops::replace(&mut padded, &copy, i64::from(margin), i64::from(margin));
    let path = std::env::temp_dir().join(format!("copy-{}.png", uuid::Uuid::new_v4()));
    padded.save(&path).expect("write");
    let out = Command::new("tesseract")
        .arg(&path)
        .args(["-", "--psm", "6"])
        .output()
        .expect("tesseract is installed (deploy/local/apt-packages.txt: tesseract-ocr)");
    std::fs::remove_file(&path).expect("remove");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// A transaction number or OCR text reduced to what OCR tells apart reliably: upper case, letters
/// and digits only (dashes come back as dashes, dots or nothing), with the pairs tesseract
/// confuses in this font folded together (8/B, 5/S, 2/Z, 6/G, D/O/0/Q). A number still has to
/// appear whole, in order, among what was read. Tesseract reads this font's J as a closing
/// bracket (']', ')' or '}'; numbers hold no brackets) and now and then a C as '¢'.
fn ocr_fold(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            ']' | ')' | '}' => 'J',
            '¢' => 'C',
            other => other,
        })
        .filter(char::is_ascii_alphanumeric)
        .map(|c| match c.to_ascii_uppercase() {
            'B' => '8',
            'S' => '5',
            'Z' => '2',
            'G' => '6',
            'O' | '0' | 'Q' => 'D',
            other => other,
        })
        .collect()
}

/// Whether `wanted` appears in `read` with at most one character read wrong, dropped or added
/// (tesseract now and then adds or loses a glyph). Another number would differ in several of
/// its eight drawn characters, so one slip still proves this number is on the copy.
fn reads_as(read: &str, wanted: &str) -> bool {
    let read: Vec<char> = read.chars().collect();
    let wanted: Vec<char> = wanted.chars().collect();
    (0..read.len()).any(|start| {
        (wanted.len().saturating_sub(1)..=wanted.len() + 1)
            .any(|len| start + len <= read.len() && edits(&read[start..start + len], &wanted) <= 1)
    })
}

/// The edit distance of two short strings.
fn edits(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substituted = previous + usize::from(ca != cb);
            previous = row[j + 1];
            row[j + 1] = substituted.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

#[test]
fn one_ocr_slip_is_tolerated_and_another_number_is_not() {
    assert!(reads_as("NUMBER:EVD5K2MDV9DW", "EVD5K2MDV9W"));
    assert!(reads_as("EVD5K2MDV9W", "EVD5K2MDV9W"));
    assert!(reads_as("EVD5K2MV9W", "EVD5K2MDV9W"));
    assert!(!reads_as("EVD7K3D9XTM", "EVD5K2MDV9W"));
    assert!(!reads_as("EVD5K2MXYZW", "EVD5K2MDV9W"));
}

/// `codec_type:codec_name` of each stream of a media file.
fn streams(bytes: &[u8]) -> Vec<String> {
    let path = std::env::temp_dir().join(format!("copy-{}.mp4", uuid::Uuid::new_v4()));
    std::fs::write(&path, bytes).expect("write");
    let out = Command::new("ffprobe")
        .args([
            "-v",
            "error",
            "-show_entries",
            "stream=codec_type,codec_name",
        ])
        .args(["-of", "csv=p=0"])
        .arg(&path)
        .output()
        .expect("ffprobe");
    std::fs::remove_file(&path).expect("remove");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let mut parts: Vec<&str> = l.split(',').collect();
            parts.reverse();
            parts.join(":")
        })
        .collect()
}

/// A request whose key was taken by a concurrent request and freed again before it looked (that
/// request's payment was refused, which forgets its share) records its share afresh instead of
/// failing; a key that keeps changing hands ends in an error, not a loop.
#[tokio::test]
async fn a_key_taken_and_freed_meanwhile_is_recorded_afresh() {
    use sharing::{
        app::create_share::{NewShare, claim},
        domain::CopyType,
        error::SharingError,
    };

    let url = testing::database_url("sharing").await;
    let pool = evidentia_common::db::connect_and_migrate(&url, &sharing::startup::MIGRATIONS)
        .await
        .unwrap();
    let owner = Uuid::now_v7();
    let new = NewShare {
        folder_id: Uuid::now_v7(),
        copy_type: CopyType::Unauthenticated,
        item_ids: Vec::new(),
        recipients: Vec::new(),
        pay_with: "card".to_owned(),
        idempotency_key: unique("key"),
        request_hash: "hash".to_owned(),
    };

    let recorded = Uuid::now_v7();
    let mut tries = 0;
    let claimed = claim(&pool, owner, &new, || {
        tries += 1;
        // The first try finds the key taken; by the second nobody holds it.
        let answer = (tries > 1).then_some(recorded);
        async move { Ok(answer) }
    })
    .await
    .unwrap();
    assert_eq!(claimed, (recorded, true));
    assert_eq!(tries, 2);

    let endless = claim(&pool, owner, &new, || async { Ok(None) }).await;
    assert!(matches!(endless, Err(SharingError::Internal(_))));
}
