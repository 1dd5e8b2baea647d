//! Uploads straight to the real S3 store with a presigned POST or presigned parts (resumable),
//! the integrity check after upload, and creates made again with the device's client ids.

use std::time::Duration;

use evidentia_common::{proto::evidence::v1 as pb, time::timestamp};
use tonic::Code;

use crate::helpers::{
    TestApp, assert_field, assert_message, at, capture, multipart, post_form, sha256, single,
};

#[tokio::test]
async fn a_small_capture_goes_up_in_one_presigned_post_and_is_verified() {
    let app = TestApp::spawn().await;
    let user = app.user();
    let folder = user.folder("Car rental").await;
    let bytes = b"\xff\xd8\xff a small JPEG stand-in".repeat(100);
    let created = user
        .create_item(capture(&folder, &bytes, "image/jpeg"))
        .await
        .unwrap();
    let post = single(&created);
    let item = created.item.clone().unwrap();
    assert_eq!(item.status, pb::ItemStatus::AwaitingUpload as i32);
    // City and address from the bundled gazetteer.
    assert_eq!(item.city, "Amsterdam");
    assert_eq!(item.country_code, "NL");

    // The policy holds the exact size: a different body is refused by the store itself.
    let refused = post_form(post, bytes[1..].to_vec(), "image/jpeg").await;
    assert!(refused.is_client_error(), "{refused}");
    let early = user.finish(&item.id).await.unwrap_err();
    assert_eq!(
        early.code(),
        Code::FailedPrecondition,
        "finishing before the bytes are there: {early:?}"
    );

    let stored = post_form(post, bytes.clone(), "image/jpeg").await;
    assert!(stored.is_success(), "{stored}");
    let finished = user.finish(&item.id).await.unwrap();
    assert!(
        finished.received_at.is_some(),
        "server receipt time recorded"
    );
    assert_eq!(
        finished.captured_at,
        Some(timestamp(at("2026-01-15T10:00:00Z"))),
        "device capture time kept"
    );

    let verified = user.status_of(&item.id, pb::ItemStatus::Verified).await;
    assert_eq!(verified.file_size, i64::try_from(bytes.len()).unwrap());
    let usage = user.usage().await;
    assert_eq!(
        (usage.used_bytes, usage.file_count, usage.folder_count),
        (i64::try_from(bytes.len()).unwrap(), 1, 1)
    );
    let listed = user.get_folder(&folder).await.unwrap();
    assert_eq!(listed.file_count, 1);
    assert!(!listed.expired);
}

#[tokio::test]
async fn a_file_whose_hash_does_not_match_is_rejected_with_the_reason() {
    let app = TestApp::spawn().await;
    let user = app.user();
    let folder = user.folder("Hotel room").await;
    let bytes = vec![7u8; 4096];
    let created = user
        .create_item(pb::CreateItemRequest {
            sha256: sha256(b"something else"),
            ..capture(&folder, &bytes, "image/png")
        })
        .await
        .unwrap();
    let item = created.item.clone().unwrap().id;
    assert!(
        post_form(single(&created), bytes, "image/png")
            .await
            .is_success()
    );
    user.finish(&item).await.unwrap();
    let rejected = user.status_of(&item, pb::ItemStatus::Rejected).await;
    assert!(
        rejected.rejection_reason.contains("SHA-256"),
        "{rejected:?}"
    );
    assert_eq!(
        user.usage().await.file_count,
        0,
        "a rejected file is not counted"
    );
}

#[tokio::test]
async fn a_large_capture_goes_up_in_parts_and_resumes_without_resending_finished_parts() {
    let app = TestApp::spawn_with(|config| {
        config.uploads.single_upload_max_bytes = 1024 * 1024;
        config.uploads.part_size_bytes = 5 * 1024 * 1024;
    })
    .await;
    let user = app.user();
    let folder = user.folder("Long video").await;
    let bytes: Vec<u8> = (0..(11 * 1024 * 1024))
        .map(|i: u32| (i % 251) as u8)
        .collect();
    let created = user
        .create_item(capture(&folder, &bytes, "video/webm"))
        .await
        .unwrap();
    let upload = multipart(&created);
    let part_size = usize::try_from(upload.part_size).unwrap();
    assert_eq!(upload.part_count, 3, "{upload:?}");
    let item = created.item.clone().unwrap().id;
    let part_urls = |part_numbers: Vec<i32>| {
        let mut client = user.client();
        let request = user.req(pb::GetPartUrlsRequest {
            item_id: item.clone(),
            part_numbers,
        });
        async move {
            client
                .get_part_urls(request)
                .await
                .map(tonic::Response::into_inner)
        }
    };
    let put = |url: String, chunk: Vec<u8>| async move {
        reqwest::Client::new()
            .put(url)
            .body(chunk)
            .send()
            .await
            .expect("put part")
            .status()
    };

    // Part 1 goes up, then the page is "reloaded": the client asks again and learns part 1 is done.
    let first = part_urls(vec![1]).await.unwrap();
    assert!(
        put(first.urls[0].url.clone(), bytes[..part_size].to_vec())
            .await
            .is_success()
    );
    let resumed = part_urls(vec![2, 3]).await.unwrap();
    assert_eq!(resumed.completed_parts, [1]);
    let missing = user.finish(&item).await.unwrap_err();
    assert_eq!(
        missing.code(),
        Code::FailedPrecondition,
        "parts are missing: {missing:?}"
    );
    for url in &resumed.urls {
        let number = usize::try_from(url.part_number).unwrap();
        let chunk = bytes[(number - 1) * part_size..(number * part_size).min(bytes.len())].to_vec();
        assert!(put(url.url.clone(), chunk).await.is_success());
    }
    user.finish(&item).await.unwrap();
    user.status_of(&item, pb::ItemStatus::Verified).await;

    let finished = part_urls(vec![1]).await.unwrap_err();
    assert_eq!(
        finished.code(),
        Code::FailedPrecondition,
        "a finished upload has no parts to send: {finished:?}"
    );
}

#[tokio::test]
async fn a_presigned_url_is_refused_once_it_has_expired() {
    let app = TestApp::spawn_with(|config| config.uploads.presign_ttl_seconds = 1).await;
    let user = app.user();
    let folder = user.folder("Expiring").await;
    let bytes = vec![1u8; 2048];
    let created = user
        .create_item(capture(&folder, &bytes, "audio/webm"))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(2100)).await; // the URL's own lifetime, not a wait for work
    let status = post_form(single(&created), bytes, "audio/webm").await;
    assert!(status.is_client_error(), "{status}");
}

#[tokio::test]
async fn creating_again_with_a_client_id_answers_the_same_folder_and_item_and_resumes_the_upload() {
    let app = TestApp::spawn_with(|config| {
        config.uploads.single_upload_max_bytes = 1024 * 1024;
        config.uploads.part_size_bytes = 5 * 1024 * 1024;
    })
    .await;
    let user = app.user();
    let other = app.user();
    let new_folder = pb::CreateFolderRequest {
        name: "Offline folder".into(),
        client_id: Some(uuid::Uuid::new_v4().to_string()),
        ..Default::default()
    };
    let first = user.create_folder(new_folder.clone()).await.unwrap();
    let again = user.create_folder(new_folder.clone()).await.unwrap();
    assert_eq!(again.id, first.id);
    assert_eq!(user.list_folders(None).await.unwrap().len(), 1);
    assert_eq!(user.usage().await.folder_count, 1);
    // Another user's client ids are theirs.
    let theirs = other.create_folder(new_folder).await.unwrap();
    assert_ne!(theirs.id, first.id);
    let bad = user
        .create_folder(pb::CreateFolderRequest {
            name: "Bad id".into(),
            client_id: Some("not-a-uuid".into()),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_field(&bad, "client_id");
    let folder = first.id;

    // A small capture: the same item, and a fresh presigned POST for the same key.
    let bytes = b"offline capture".repeat(40);
    let item_client_id = uuid::Uuid::new_v4().to_string();
    let new = pb::CreateItemRequest {
        client_id: Some(item_client_id.clone()),
        ..capture(&folder, &bytes, "image/jpeg")
    };
    let created = user.create_item(new.clone()).await.unwrap();
    let item = created.item.clone().unwrap();
    assert_eq!(item.client_id.as_deref(), Some(item_client_id.as_str()));
    let resumed = user.create_item(new.clone()).await.unwrap();
    assert_eq!(resumed.item.as_ref().unwrap().id, item.id);
    assert_eq!(
        single(&resumed).fields.get("key"),
        single(&created).fields.get("key")
    );
    assert!(
        post_form(single(&resumed), bytes.clone(), "image/jpeg")
            .await
            .is_success()
    );
    user.finish(&item.id).await.unwrap();
    user.status_of(&item.id, pb::ItemStatus::Verified).await;
    let done = user.create_item(new).await.unwrap();
    assert_eq!(done.item.as_ref().unwrap().id, item.id);
    assert!(done.upload.is_none(), "nothing left to upload: {done:?}");

    // A large capture: the same multipart upload, so finished parts are not sent again.
    let large = vec![9u8; 6 * 1024 * 1024];
    let new = pb::CreateItemRequest {
        client_id: Some(uuid::Uuid::new_v4().to_string()),
        ..capture(&folder, &large, "video/webm")
    };
    let first = user.create_item(new.clone()).await.unwrap();
    let again = user.create_item(new).await.unwrap();
    assert_eq!(
        again.item.as_ref().unwrap().id,
        first.item.as_ref().unwrap().id
    );
    assert_eq!(multipart(&again), multipart(&first));
    assert_eq!(user.list_items(&folder).await.unwrap().len(), 2);
}

/// An item's duration is a finite number of seconds up to 24 hours (docs/decisions.md: every
/// number a client sends has a range; past it is a field error, never an overflow or a panic).
#[tokio::test]
async fn a_duration_past_24_hours_or_below_zero_is_a_field_error() {
    let app = TestApp::spawn().await;
    let user = app.user();
    let folder = user.folder("Walkaround").await;
    let item = |duration: f64| pb::CreateItemRequest {
        folder_id: folder.clone(),
        name: "Walkaround".into(),
        media_type: pb::MediaType::Video as i32,
        mime_type: "video/mp4".into(),
        file_size: 1000,
        sha256: "0".repeat(64),
        duration_seconds: Some(duration),
        ..Default::default()
    };
    for duration in [1e308, 86_400.5, -1.0, f64::NAN, f64::INFINITY] {
        let refused = user.create_item(item(duration)).await.unwrap_err();
        assert_field(&refused, "duration");
    }
    let refused = user.create_item(item(1e308)).await.unwrap_err();
    assert_message(
        &refused,
        "The duration can be at most 24 hours (86400 seconds).",
    );
    user.create_item(item(86_400.0))
        .await
        .expect("a day long is accepted");
}
