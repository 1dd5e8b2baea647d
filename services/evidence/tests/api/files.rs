//! A stored file: its thumbnail or poster frame, short-lived links until its folder expires,
//! rename, download and delete by its owner only, and a retake that replaces it once verified.

use evidence::error::EXPIRED_MESSAGE;
use evidentia_common::{proto::evidence::v1 as pb, testing, time::timestamp};
use tonic::Code;

use crate::helpers::{
    TestApp, User, assert_field, assert_message, at, capture, fetch, jpeg, post_form, sha256,
    single, test_video,
};

#[tokio::test]
async fn a_photo_gets_a_thumbnail_and_short_lived_links_until_its_folder_expires() {
    let app = TestApp::spawn().await;
    let user = app.user();
    let folder = user.folder("Photos").await;
    let bytes = jpeg(1200, 900, 90);
    let created = user
        .create_item(capture(&folder, &bytes, "image/jpeg"))
        .await
        .unwrap();
    let item = created.item.clone().unwrap();
    assert!(item.file_url.is_none(), "nothing to open before the upload");
    assert!(
        post_form(single(&created), bytes.clone(), "image/jpeg")
            .await
            .is_success()
    );
    user.finish(&item.id).await.unwrap();

    let ready = user.with_thumbnail(&item.id).await;
    let (_, thumbnail) = fetch(ready.thumbnail_url.as_deref().unwrap()).await;
    let small = image::load_from_memory(&thumbnail).expect("a JPEG");
    assert_eq!((small.width(), small.height()), (320, 240));
    let (_, original) = fetch(ready.file_url.as_deref().unwrap()).await;
    assert_eq!(sha256(&original), sha256(&bytes));
    assert!(!ready.expired);

    // Once the storage date has passed the file cannot be opened.
    app.expire_now(&folder).await;
    let expired = user.item(&item.id).await.unwrap();
    assert!(expired.expired);
    assert!(
        expired.file_url.is_none() && expired.thumbnail_url.is_none(),
        "{expired:?}"
    );
    let refused = user.download(&item.id).await.unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(refused.message(), EXPIRED_MESSAGE);
}

#[tokio::test]
async fn a_file_is_renamed_downloaded_and_deleted_by_its_owner_only() {
    let app = TestApp::spawn().await;
    let owner = app.user();
    let other = app.user();
    let folder = owner.folder("Files").await;
    let bytes = b"evidence bytes".repeat(50);
    let created = owner
        .create_item(capture(&folder, &bytes, "audio/webm"))
        .await
        .unwrap();
    let item = created.item.clone().unwrap().id;
    let early = owner.download(&item).await.unwrap_err();
    assert_eq!(
        early.code(),
        Code::FailedPrecondition,
        "nothing to download before the upload"
    );
    owner.upload_and_verify(&created, bytes.clone()).await;

    let rename = |user: &User, name: &str| {
        let mut client = user.client();
        let request = user.req(pb::RenameItemRequest {
            item_id: item.clone(),
            name: name.into(),
        });
        async move {
            client
                .rename_item(request)
                .await
                .map(tonic::Response::into_inner)
        }
    };
    // spec §5 File name
    let refused = rename(&owner, "a").await.unwrap_err();
    assert_message(&refused, "Must be 2 characters or more");
    let stolen = rename(&other, "Stolen").await.unwrap_err();
    assert_eq!(stolen.code(), Code::NotFound);
    let renamed = rename(&owner, "Interview, part 1").await.unwrap();
    assert_eq!(renamed.name, "Interview, part 1");

    assert_eq!(
        other.download(&item).await.unwrap_err().code(),
        Code::NotFound
    );
    let url = owner.download(&item).await.unwrap();
    let (_, fetched) = fetch(&url).await;
    assert_eq!(fetched, bytes);

    let delete = |user: &User| {
        let mut client = user.client();
        let request = user.req(pb::DeleteItemRequest {
            item_id: item.clone(),
        });
        async move { client.delete_item(request).await.map(drop) }
    };
    assert_eq!(delete(&other).await.unwrap_err().code(), Code::NotFound);
    delete(&owner).await.unwrap();
    let usage = owner.usage().await;
    assert_eq!((usage.file_count, usage.used_bytes), (0, 0));
    assert_eq!(
        fetch(&url).await.0,
        404,
        "the object left the store with the item"
    );
}

fn retake(item: &str, bytes: &[u8], mime: &str) -> pb::RetakeItemRequest {
    pb::RetakeItemRequest {
        item_id: item.into(),
        mime_type: mime.into(),
        file_size: i64::try_from(bytes.len()).unwrap(),
        sha256: sha256(bytes),
        captured_at: Some(timestamp(at("2026-01-16T09:00:00Z"))),
        ..Default::default()
    }
}

async fn retake_as(
    user: &User,
    request: pb::RetakeItemRequest,
) -> Result<pb::CreateItemResponse, tonic::Status> {
    user.client()
        .retake_item(user.req(request))
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test]
async fn a_retake_replaces_the_file_once_verified_and_the_previous_one_opens_until_then() {
    let app = TestApp::spawn().await;
    let user = app.user();
    let other = app.user();
    let folder = user.folder("Retakes").await;
    let first = jpeg(640, 480, 10);
    let created = user
        .create_item(capture(&folder, &first, "image/jpeg"))
        .await
        .unwrap();
    let item = created.item.clone().unwrap().id;
    user.upload_and_verify(&created, first.clone()).await;
    let before = user.with_thumbnail(&item).await;
    assert!(before.can_retake);

    let second = jpeg(800, 600, 200);
    let refused = retake_as(&user, retake(&item, &second, "video/webm"))
        .await
        .unwrap_err();
    assert_field(&refused, "mime_type"); // a photo is retaken as a photo
    let theirs = retake_as(&other, retake(&item, &second, "image/jpeg"))
        .await
        .unwrap_err();
    assert_eq!(theirs.code(), Code::NotFound);

    let retaken = retake_as(&user, retake(&item, &second, "image/jpeg"))
        .await
        .unwrap();
    let pending = retaken.item.clone().unwrap();
    assert_eq!(pending.id, item);
    assert_eq!(pending.name, "Front left");
    assert_eq!(pending.status, pb::ItemStatus::AwaitingUpload as i32);
    single(&retaken);
    // Until the new file is verified, the previous one opens and downloads.
    let (status, old) = fetch(pending.file_url.as_deref().unwrap()).await;
    assert_eq!((status, sha256(&old)), (200, sha256(&first)));
    let (_, downloaded) = fetch(&user.download(&item).await.unwrap()).await;
    assert_eq!(sha256(&downloaded), sha256(&first));
    let usage = user.usage().await;
    assert_eq!(
        (usage.file_count, usage.used_bytes),
        (1, i64::try_from(first.len()).unwrap())
    );

    user.upload_and_verify(&retaken, second.clone()).await;
    let after = user.with_thumbnail(&item).await;
    let (_, new) = fetch(after.file_url.as_deref().unwrap()).await;
    assert_eq!(sha256(&new), sha256(&second));
    let (_, thumbnail) = fetch(after.thumbnail_url.as_deref().unwrap()).await;
    let small = image::load_from_memory(&thumbnail).expect("a JPEG");
    assert_eq!((small.width(), small.height()), (320, 240));
    // The previous file and its thumbnail left the store.
    assert_eq!(fetch(before.file_url.as_deref().unwrap()).await.0, 404);
    assert_eq!(fetch(before.thumbnail_url.as_deref().unwrap()).await.0, 404);
    let usage = user.usage().await;
    let size = i64::try_from(second.len()).unwrap();
    assert_eq!((usage.file_count, usage.used_bytes), (1, size));
    assert_eq!(user.get_folder(&folder).await.unwrap().used_bytes, size);
}

#[tokio::test]
async fn an_expired_folder_refuses_a_retake() {
    let app = TestApp::spawn().await;
    let user = app.user();
    let folder = user.folder("Expired retake").await;
    let bytes = vec![4u8; 300];
    let created = user
        .create_item(capture(&folder, &bytes, "audio/webm"))
        .await
        .unwrap();
    let item = created.item.unwrap().id;
    app.expire_now(&folder).await;
    assert!(!user.item(&item).await.unwrap().can_retake);
    let refused = retake_as(
        &user,
        pb::RetakeItemRequest {
            captured_at: None,
            ..retake(&item, &[0u8; 10], "audio/webm")
        },
    )
    .await
    .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    assert_eq!(refused.message(), EXPIRED_MESSAGE);
    assert_eq!(
        testing::reason(&refused).as_deref(),
        Some("storage_expired")
    );
}

#[tokio::test]
async fn a_video_gets_a_jpeg_poster_frame_as_its_thumbnail() {
    let app = TestApp::spawn().await;
    let user = app.user();
    let folder = user.folder("Videos").await;
    let video = test_video();
    let created = user
        .create_item(capture(&folder, &video, "video/mp4"))
        .await
        .unwrap();
    let item = created.item.clone().unwrap().id;
    user.upload_and_verify(&created, video).await;
    let ready = user.with_thumbnail(&item).await;
    let (status, poster) = fetch(ready.thumbnail_url.as_deref().unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(
        image::guess_format(&poster).expect("format"),
        image::ImageFormat::Jpeg
    );
    let poster = image::load_from_memory(&poster).expect("a JPEG");
    assert_eq!((poster.width(), poster.height()), (320, 180));
}
