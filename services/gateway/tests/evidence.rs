//! Evidence through the gateway against the real SeaweedFS: folders, uploads straight to S3 with
//! a presigned POST or presigned parts (resumable), integrity checked after upload, storage dates
//! and ownership.

#![allow(
    clippy::expect_used,
    reason = "test code: a failure should stop the test"
)]

mod support;

use std::time::Duration;

use evidentia_common::testing;
use reqwest::Method;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use support::Stack;

fn sha256(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

async fn folder(stack: &Stack, access: &str, name: &str) -> String {
    let (status, folder) = stack
        .post_auth("evidence/folders/create/", access, json!({ "name": name }))
        .await;
    assert_eq!(status, 201, "{folder}");
    folder["id"].as_str().expect("id").to_owned()
}

async fn create_item(
    stack: &Stack,
    access: &str,
    folder: &str,
    bytes: &[u8],
    declared_sha: &str,
    mime: &str,
) -> (u16, Value) {
    let media = mime.split('/').next().expect("media");
    stack
        .post_auth(
            &format!("evidence/folders/{folder}/items/create/"),
            access,
            json!({
                "name": "Front left",
                "media_type": media,
                "mime_type": mime,
                "file_size": bytes.len(),
                "sha256": declared_sha,
                "captured_at": "2026-01-15T10:00:00Z",
                "latitude": 52.37,
                "longitude": 4.89,
            }),
        )
        .await
}

/// Posts the file with the presigned POST's fields, as a browser form would.
async fn post_form(upload: &Value, bytes: Vec<u8>, mime: &str) -> reqwest::StatusCode {
    let mut form = reqwest::multipart::Form::new();
    for (key, value) in upload["fields"].as_object().expect("fields") {
        form = form.text(key.clone(), value.as_str().expect("field").to_owned());
    }
    let part = reqwest::multipart::Part::bytes(bytes)
        .file_name("capture")
        .mime_str(mime)
        .expect("mime");
    form = form.part("file", part);
    reqwest::Client::new()
        .post(upload["url"].as_str().expect("url"))
        .multipart(form)
        .send()
        .await
        .expect("post to S3")
        .status()
}

async fn status_of(stack: &Stack, access: &str, item: &str, want: &str) -> Value {
    testing::eventually(
        &format!("item status {want}"),
        Duration::from_secs(20),
        || async {
            let (_, item) = stack
                .get_auth(&format!("evidence/items/{item}/"), access)
                .await;
            (item["status"] == want).then_some(item)
        },
    )
    .await
}

#[tokio::test]
async fn a_small_capture_goes_up_in_one_presigned_post_and_is_verified() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;
    let folder = folder(&stack, &user.access, "Car rental").await;
    let bytes = b"\xff\xd8\xff a small JPEG stand-in".repeat(100);
    let (status, created) = create_item(
        &stack,
        &user.access,
        &folder,
        &bytes,
        &sha256(&bytes),
        "image/jpeg",
    )
    .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["upload"]["kind"], "single");
    assert_eq!(created["item"]["status"], "awaiting_upload");
    // City and address from the bundled gazetteer.
    assert_eq!(created["item"]["city"], "Amsterdam");
    assert_eq!(created["item"]["country_code"], "NL");
    let item = created["item"]["id"].as_str().expect("id").to_owned();

    // The policy holds the exact size: a different body is refused by the store itself.
    let refused = post_form(&created["upload"], bytes[1..].to_vec(), "image/jpeg").await;
    assert!(refused.is_client_error(), "{refused}");
    let (status, body) = stack
        .post_auth(
            &format!("evidence/items/{item}/upload/finish/"),
            &user.access,
            json!({}),
        )
        .await;
    assert_eq!(status, 400, "finishing before the bytes are there: {body}");

    let stored = post_form(&created["upload"], bytes.clone(), "image/jpeg").await;
    assert!(stored.is_success(), "{stored}");
    let (status, finished) = stack
        .post_auth(
            &format!("evidence/items/{item}/upload/finish/"),
            &user.access,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{finished}");
    assert_eq!(finished["uploaded"], true);
    assert!(
        finished["uploaded_at"].is_string(),
        "server receipt time recorded"
    );
    assert_eq!(
        finished["captured_at"], "2026-01-15T10:00:00.000Z",
        "device capture time kept"
    );

    let verified = status_of(&stack, &user.access, &item, "verified").await;
    assert_eq!(verified["file_size"], bytes.len());
    let (_, usage) = stack
        .get_auth("evidence/storage-usage/", &user.access)
        .await;
    assert_eq!(
        usage,
        json!({ "used_bytes": bytes.len(), "file_count": 1, "folder_count": 1 })
    );
    let (_, listed) = stack
        .get_auth(&format!("evidence/folders/{folder}/"), &user.access)
        .await;
    assert_eq!(listed["file_count"], 1);
    assert_eq!(listed["expired"], false);
}

#[tokio::test]
async fn a_file_whose_hash_does_not_match_is_rejected_with_the_reason() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;
    let folder = folder(&stack, &user.access, "Hotel room").await;
    let bytes = vec![7u8; 4096];
    let (_, created) = create_item(
        &stack,
        &user.access,
        &folder,
        &bytes,
        &sha256(b"something else"),
        "image/png",
    )
    .await;
    let item = created["item"]["id"].as_str().expect("id").to_owned();
    assert!(
        post_form(&created["upload"], bytes, "image/png")
            .await
            .is_success()
    );
    let (status, _) = stack
        .post_auth(
            &format!("evidence/items/{item}/upload/finish/"),
            &user.access,
            json!({}),
        )
        .await;
    assert_eq!(status, 200);
    let rejected = status_of(&stack, &user.access, &item, "rejected").await;
    assert!(
        rejected["rejection_reason"]
            .as_str()
            .expect("reason")
            .contains("SHA-256"),
        "{rejected}"
    );
    let (_, usage) = stack
        .get_auth("evidence/storage-usage/", &user.access)
        .await;
    assert_eq!(usage["file_count"], 0, "a rejected file is not counted");
}

#[tokio::test]
async fn a_large_capture_goes_up_in_parts_and_resumes_without_resending_finished_parts() {
    let stack = Stack::start_with(|config| {
        config.uploads.single_upload_max_bytes = 1024 * 1024;
        config.uploads.part_size_bytes = 5 * 1024 * 1024;
    })
    .await;
    let user = stack.sign_up().await;
    let folder = folder(&stack, &user.access, "Long video").await;
    let bytes: Vec<u8> = (0..(11 * 1024 * 1024))
        .map(|i: u32| (i % 251) as u8)
        .collect();
    let (status, created) = create_item(
        &stack,
        &user.access,
        &folder,
        &bytes,
        &sha256(&bytes),
        "video/webm",
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let upload = &created["upload"];
    assert_eq!(upload["kind"], "multipart");
    let part_size = upload["part_size"].as_u64().expect("part size") as usize;
    let part_count = upload["part_count"].as_i64().expect("part count");
    assert_eq!(part_count, 3, "{upload}");
    let item = created["item"]["id"].as_str().expect("id").to_owned();
    let urls_path = format!("evidence/items/{item}/multipart-upload/part-urls/");
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
    let (_, first) = stack
        .post_auth(&urls_path, &user.access, json!({ "part_numbers": [1] }))
        .await;
    assert!(
        put(
            first["urls"][0]["url"].as_str().expect("url").to_owned(),
            bytes[..part_size].to_vec()
        )
        .await
        .is_success()
    );
    let (status, resumed) = stack
        .post_auth(&urls_path, &user.access, json!({ "part_numbers": [2, 3] }))
        .await;
    assert_eq!(status, 200, "{resumed}");
    assert_eq!(resumed["completed_parts"], json!([1]));
    let (status, body) = stack
        .post_auth(
            &format!("evidence/items/{item}/upload/finish/"),
            &user.access,
            json!({}),
        )
        .await;
    assert_eq!(status, 400, "parts are missing: {body}");
    for url in resumed["urls"].as_array().expect("urls") {
        let number = url["part_number"].as_u64().expect("number") as usize;
        let chunk = bytes[(number - 1) * part_size..(number * part_size).min(bytes.len())].to_vec();
        assert!(
            put(url["url"].as_str().expect("url").to_owned(), chunk)
                .await
                .is_success()
        );
    }
    let (status, finished) = stack
        .post_auth(
            &format!("evidence/items/{item}/upload/finish/"),
            &user.access,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{finished}");
    status_of(&stack, &user.access, &item, "verified").await;

    let (status, body) = stack
        .post_auth(&urls_path, &user.access, json!({ "part_numbers": [1] }))
        .await;
    assert_eq!(
        status, 400,
        "a finished upload has no parts to send: {body}"
    );
}

#[tokio::test]
async fn a_presigned_url_is_refused_once_it_has_expired() {
    let stack = Stack::start_with(|config| config.uploads.presign_ttl_seconds = 1).await;
    let user = stack.sign_up().await;
    let folder = folder(&stack, &user.access, "Expiring").await;
    let bytes = vec![1u8; 2048];
    let (_, created) = create_item(
        &stack,
        &user.access,
        &folder,
        &bytes,
        &sha256(&bytes),
        "audio/webm",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(2100)).await; // the URL's own lifetime, not a wait for work
    let status = post_form(&created["upload"], bytes, "audio/webm").await;
    assert!(status.is_client_error(), "{status}");
}

#[tokio::test]
async fn folders_validate_names_and_another_users_folder_or_item_is_404() {
    let stack = Stack::start().await;
    let owner = stack.sign_up().await;
    let other = stack.sign_up().await;
    let folder = folder(&stack, &owner.access, "Mine").await;

    // spec §5 File name
    for (name, message) in [
        ("a", "Must be 2 characters or more"),
        (&"x".repeat(51)[..], "Must be 50 characters or less"),
        ("no/slashes", "Special characters can not be used"),
    ] {
        let (status, body) = stack
            .send_auth(
                Method::PATCH,
                &format!("evidence/folders/{folder}/rename/"),
                &owner.access,
                Some(json!({ "name": name })),
            )
            .await;
        assert_eq!(status, 400);
        assert_eq!(body["errors"][0]["message"], message);
    }
    let (status, renamed) = stack
        .send_auth(
            Method::PATCH,
            &format!("evidence/folders/{folder}/rename/"),
            &owner.access,
            Some(json!({ "name": "Renamed 1" })),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(renamed["name"], "Renamed 1");

    let bytes = vec![3u8; 100];
    let (_, created) = create_item(
        &stack,
        &owner.access,
        &folder,
        &bytes,
        &sha256(&bytes),
        "image/jpeg",
    )
    .await;
    let item = created["item"]["id"].as_str().expect("id").to_owned();
    for path in [
        format!("evidence/folders/{folder}/"),
        format!("evidence/folders/{folder}/items/"),
        format!("evidence/items/{item}/"),
    ] {
        let (status, _) = stack.get_auth(&path, &other.access).await;
        assert_eq!(status, 404, "{path}");
    }
    let (status, _) = stack
        .post_auth(
            &format!("evidence/items/{item}/upload/finish/"),
            &other.access,
            json!({}),
        )
        .await;
    assert_eq!(status, 404);
    let (status, _) = create_item(
        &stack,
        &other.access,
        &folder,
        &bytes,
        &sha256(&bytes),
        "image/jpeg",
    )
    .await;
    assert_eq!(status, 404);
    let (status, _) = stack
        .send_auth(
            Method::DELETE,
            &format!("evidence/folders/{folder}/delete/"),
            &other.access,
            None,
        )
        .await;
    assert_eq!(status, 404);
    let (status, _) = stack
        .get_auth("evidence/folders/not-a-uuid/", &owner.access)
        .await;
    assert_eq!(status, 404);

    let (_, listed) = stack.get_auth("evidence/folders/", &other.access).await;
    assert_eq!(listed["folders"], json!([]));
    let (status, _) = stack
        .send_auth(
            Method::DELETE,
            &format!("evidence/folders/{folder}/delete/"),
            &owner.access,
            None,
        )
        .await;
    assert_eq!(status, 204);
    let (status, _) = stack
        .get_auth(&format!("evidence/items/{item}/"), &owner.access)
        .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn an_expired_folder_takes_no_new_files() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;
    let folder = folder(&stack, &user.access, "Old").await;
    let mut conn = testing::connect(&stack.evidence_db).await;
    sqlx::query("UPDATE folders SET storage_expires_at = now() - interval '1 day'")
        .execute(&mut conn)
        .await
        .expect("expire");
    let (_, listed) = stack
        .get_auth(&format!("evidence/folders/{folder}/"), &user.access)
        .await;
    assert_eq!(listed["expired"], true);
    let bytes = vec![5u8; 64];
    let (status, body) = create_item(
        &stack,
        &user.access,
        &folder,
        &bytes,
        &sha256(&bytes),
        "image/jpeg",
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        body["errors"][0]["message"],
        "Please extend your Storage Date for this file."
    );
    assert_eq!(body["errors"][0]["code"], "storage_expired");
}

#[tokio::test]
async fn a_photo_gets_a_thumbnail_and_short_lived_links_until_its_folder_expires() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;
    let folder = folder(&stack, &user.access, "Photos").await;
    let photo = image::RgbImage::from_fn(1200, 900, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, 90])
    });
    let mut jpeg = std::io::Cursor::new(Vec::new());
    photo
        .write_to(&mut jpeg, image::ImageFormat::Jpeg)
        .expect("encode");
    let bytes = jpeg.into_inner();
    let (_, created) = create_item(
        &stack,
        &user.access,
        &folder,
        &bytes,
        &sha256(&bytes),
        "image/jpeg",
    )
    .await;
    let item = created["item"]["id"].as_str().expect("id").to_owned();
    assert!(
        created["item"]["temporary_file_url"].is_null(),
        "nothing to open before the upload"
    );
    assert!(
        post_form(&created["upload"], bytes.clone(), "image/jpeg")
            .await
            .is_success()
    );
    let (status, _) = stack
        .post_auth(
            &format!("evidence/items/{item}/upload/finish/"),
            &user.access,
            json!({}),
        )
        .await;
    assert_eq!(status, 200);

    let ready = testing::eventually("the thumbnail", Duration::from_secs(30), || async {
        let (_, item) = stack
            .get_auth(&format!("evidence/items/{item}/"), &user.access)
            .await;
        item["thumbnail"].is_string().then_some(item)
    })
    .await;
    let thumbnail = reqwest::get(ready["thumbnail"].as_str().expect("url"))
        .await
        .expect("get")
        .bytes()
        .await
        .expect("body");
    let small = image::load_from_memory(&thumbnail).expect("a JPEG");
    assert_eq!((small.width(), small.height()), (320, 240));
    let original = reqwest::get(ready["temporary_file_url"].as_str().expect("url"))
        .await
        .expect("get")
        .bytes()
        .await
        .expect("body");
    assert_eq!(sha256(&original), sha256(&bytes));
    assert_eq!(ready["expired"], false);

    // Once the storage date has passed the file cannot be opened.
    let mut conn = testing::connect(&stack.evidence_db).await;
    sqlx::query("UPDATE folders SET storage_expires_at = now() - interval '1 minute'")
        .execute(&mut conn)
        .await
        .expect("expire");
    let (_, expired) = stack
        .get_auth(&format!("evidence/items/{item}/"), &user.access)
        .await;
    assert_eq!(expired["expired"], true);
    assert!(
        expired["temporary_file_url"].is_null() && expired["thumbnail"].is_null(),
        "{expired}"
    );
    let (status, body) = stack
        .get_auth(&format!("evidence/items/{item}/download/"), &user.access)
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        body["errors"][0]["message"],
        "Please extend your Storage Date for this file."
    );
}

#[tokio::test]
async fn a_file_is_renamed_downloaded_and_deleted_by_its_owner_only() {
    let stack = Stack::start().await;
    let owner = stack.sign_up().await;
    let other = stack.sign_up().await;
    let folder = folder(&stack, &owner.access, "Files").await;
    let bytes = b"evidence bytes".repeat(50);
    let (_, created) = create_item(
        &stack,
        &owner.access,
        &folder,
        &bytes,
        &sha256(&bytes),
        "audio/webm",
    )
    .await;
    let item = created["item"]["id"].as_str().expect("id").to_owned();
    let (status, _) = stack
        .get_auth(&format!("evidence/items/{item}/download/"), &owner.access)
        .await;
    assert_eq!(status, 400, "nothing to download before the upload");
    assert!(
        post_form(&created["upload"], bytes.clone(), "audio/webm")
            .await
            .is_success()
    );
    stack
        .post_auth(
            &format!("evidence/items/{item}/upload/finish/"),
            &owner.access,
            json!({}),
        )
        .await;
    status_of(&stack, &owner.access, &item, "verified").await;

    let rename_path = format!("evidence/items/{item}/rename/");
    let (status, body) = stack
        .send_auth(
            Method::PATCH,
            &rename_path,
            &owner.access,
            Some(json!({ "name": "a" })),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["errors"][0]["message"], "Must be 2 characters or more");
    let (status, _) = stack
        .send_auth(
            Method::PATCH,
            &rename_path,
            &other.access,
            Some(json!({ "name": "Stolen" })),
        )
        .await;
    assert_eq!(status, 404);
    let (status, renamed) = stack
        .send_auth(
            Method::PATCH,
            &rename_path,
            &owner.access,
            Some(json!({ "name": "Interview, part 1" })),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(renamed["name"], "Interview, part 1");

    let (status, _) = stack
        .get_auth(&format!("evidence/items/{item}/download/"), &other.access)
        .await;
    assert_eq!(status, 404);
    let (status, download) = stack
        .get_auth(&format!("evidence/items/{item}/download/"), &owner.access)
        .await;
    assert_eq!(status, 200);
    let url = download["url"].as_str().expect("url").to_owned();
    let fetched = reqwest::get(&url)
        .await
        .expect("get")
        .bytes()
        .await
        .expect("body");
    assert_eq!(fetched.as_ref(), bytes.as_slice());

    let (status, _) = stack
        .send_auth(
            Method::DELETE,
            &format!("evidence/items/{item}/delete/"),
            &other.access,
            None,
        )
        .await;
    assert_eq!(status, 404);
    let (status, _) = stack
        .send_auth(
            Method::DELETE,
            &format!("evidence/items/{item}/delete/"),
            &owner.access,
            None,
        )
        .await;
    assert_eq!(status, 204);
    let (_, usage) = stack
        .get_auth("evidence/storage-usage/", &owner.access)
        .await;
    assert_eq!(usage["file_count"], 0);
    assert_eq!(usage["used_bytes"], 0);
    let gone = reqwest::get(&url).await.expect("get").status();
    assert_eq!(gone, 404, "the object left the store with the item");
}
