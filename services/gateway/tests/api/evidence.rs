//! Evidence through the gateway against the real SeaweedFS: folders, uploads straight to S3 with
//! a presigned POST or presigned parts (resumable), integrity checked after upload, storage dates
//! and ownership.

use std::time::Duration;

use evidentia_common::testing;
use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{
    Stack, capture, fetch, folder, jpeg, post_form, sha256, status_of, test_video,
    upload_and_verify,
};

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

#[tokio::test]
async fn creating_again_with_a_client_id_answers_the_same_folder_and_item_and_resumes_the_upload() {
    let stack = Stack::start_with(|config| {
        config.uploads.single_upload_max_bytes = 1024 * 1024;
        config.uploads.part_size_bytes = 5 * 1024 * 1024;
    })
    .await;
    let user = stack.sign_up().await;
    let other = stack.sign_up().await;
    let client_id = uuid::Uuid::new_v4().to_string();
    let body = json!({ "name": "Offline folder", "client_id": client_id });
    let (status, first) = stack
        .post_auth("evidence/folders/create/", &user.access, body.clone())
        .await;
    assert_eq!(status, 201, "{first}");
    let (status, again) = stack
        .post_auth("evidence/folders/create/", &user.access, body.clone())
        .await;
    assert_eq!(status, 201, "the same status as the first create");
    assert_eq!(again["id"], first["id"]);
    let (_, listed) = stack.get_auth("evidence/folders/", &user.access).await;
    assert_eq!(listed["folders"].as_array().expect("folders").len(), 1);
    let (_, usage) = stack
        .get_auth("evidence/storage-usage/", &user.access)
        .await;
    assert_eq!(usage["folder_count"], 1);
    // Another user's client ids are theirs.
    let (status, theirs) = stack
        .post_auth("evidence/folders/create/", &other.access, body)
        .await;
    assert_eq!(status, 201);
    assert_ne!(theirs["id"], first["id"]);
    let (status, bad) = stack
        .post_auth(
            "evidence/folders/create/",
            &user.access,
            json!({ "name": "Bad id", "client_id": "not-a-uuid" }),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(bad["errors"][0]["field"], "client_id");
    let folder = first["id"].as_str().expect("id").to_owned();
    let create_path = format!("evidence/folders/{folder}/items/create/");

    // A small capture: the same item, and a fresh presigned POST for the same key.
    let bytes = b"offline capture".repeat(40);
    let item_client_id = uuid::Uuid::new_v4().to_string();
    let new = capture(&bytes, "image/jpeg", json!({ "client_id": item_client_id }));
    let (status, created) = stack
        .post_auth(&create_path, &user.access, new.clone())
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["item"]["client_id"], item_client_id.as_str());
    let (status, resumed) = stack
        .post_auth(&create_path, &user.access, new.clone())
        .await;
    assert_eq!(status, 201, "{resumed}");
    assert_eq!(resumed["item"]["id"], created["item"]["id"]);
    assert_eq!(resumed["upload"]["kind"], "single");
    assert_eq!(
        resumed["upload"]["fields"]["key"],
        created["upload"]["fields"]["key"]
    );
    let item = created["item"]["id"].as_str().expect("id").to_owned();
    assert!(
        post_form(&resumed["upload"], bytes.clone(), "image/jpeg")
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
    status_of(&stack, &user.access, &item, "verified").await;
    let (status, done) = stack.post_auth(&create_path, &user.access, new).await;
    assert_eq!(status, 201);
    assert_eq!(done["item"]["id"], item.as_str());
    assert!(done["upload"].is_null(), "nothing left to upload: {done}");

    // A large capture: the same multipart upload, so finished parts are not sent again.
    let large = vec![9u8; 6 * 1024 * 1024];
    let new = capture(
        &large,
        "video/webm",
        json!({ "client_id": uuid::Uuid::new_v4().to_string() }),
    );
    let (_, first) = stack
        .post_auth(&create_path, &user.access, new.clone())
        .await;
    assert_eq!(first["upload"]["kind"], "multipart", "{first}");
    let (_, again) = stack.post_auth(&create_path, &user.access, new).await;
    assert_eq!(again["item"]["id"], first["item"]["id"]);
    assert_eq!(again["upload"]["upload_id"], first["upload"]["upload_id"]);
    assert_eq!(again["upload"]["part_size"], first["upload"]["part_size"]);
    assert_eq!(again["upload"]["part_count"], first["upload"]["part_count"]);
    let (_, items) = stack
        .get_auth(&format!("evidence/folders/{folder}/items/"), &user.access)
        .await;
    assert_eq!(items["items"].as_array().expect("items").len(), 2);
}

#[tokio::test]
async fn rental_folders_validate_their_kind_vehicle_pickup_and_sections() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;
    let other = stack.sign_up().await;
    let create = |access: String, body: Value| {
        let stack = &stack;
        async move {
            stack
                .post_auth("evidence/folders/create/", &access, body)
                .await
        }
    };
    let (status, pickup) = create(
        user.access.clone(),
        json!({ "name": "Car pick-up", "rental": { "kind": "vehicle", "vehicle_type": "suv", "moment": "pickup" } }),
    )
    .await;
    assert_eq!(status, 201, "{pickup}");
    assert_eq!(
        pickup["rental"],
        json!({ "kind": "vehicle", "vehicle_type": "suv", "moment": "pickup" })
    );
    let pickup_id = pickup["id"].as_str().expect("id").to_owned();
    let (_, plain) = create(user.access.clone(), json!({ "name": "Plain" })).await;
    assert!(plain["rental"].is_null());

    for (rental, field) in [
        (
            json!({ "kind": "vehicle", "vehicle_type": "bicycle", "moment": "pickup" }),
            "rental.vehicle_type",
        ),
        (
            json!({ "kind": "vehicle", "moment": "pickup" }),
            "rental.vehicle_type",
        ),
        (
            json!({ "kind": "hotel", "vehicle_type": "car", "moment": "pickup" }),
            "rental.vehicle_type",
        ),
        (
            json!({ "kind": "hotel", "moment": "checkout" }),
            "rental.moment",
        ),
        (
            json!({ "kind": "vehicle", "vehicle_type": "car", "moment": "pickup", "pickup_folder_id": pickup_id }),
            "rental.pickup_folder_id",
        ),
        // A hotel return cannot point at a vehicle pick-up.
        (
            json!({ "kind": "hotel", "moment": "return", "pickup_folder_id": pickup_id }),
            "rental.pickup_folder_id",
        ),
        // Nor at a folder that is not a pick-up.
        (
            json!({ "kind": "vehicle", "vehicle_type": "car", "moment": "return", "pickup_folder_id": plain["id"] }),
            "rental.pickup_folder_id",
        ),
    ] {
        let (status, body) = create(
            user.access.clone(),
            json!({ "name": "Rental", "rental": rental }),
        )
        .await;
        assert_eq!(status, 400, "{rental}: {body}");
        assert_eq!(body["errors"][0]["field"], field, "{rental}: {body}");
    }
    // Another user's pick-up folder is refused like a missing one.
    let (status, body) = create(
        other.access.clone(),
        json!({ "name": "Not mine", "rental": { "kind": "vehicle", "vehicle_type": "suv", "moment": "return", "pickup_folder_id": pickup_id } }),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(body["errors"][0]["field"], "rental.pickup_folder_id");

    let (status, returned) = create(
        user.access.clone(),
        json!({ "name": "Car return", "rental": { "kind": "vehicle", "vehicle_type": "suv", "moment": "return", "pickup_folder_id": pickup_id } }),
    )
    .await;
    assert_eq!(status, 201, "{returned}");
    assert_eq!(returned["rental"]["pickup_folder_id"], pickup_id.as_str());
    let (status, returns) = stack
        .get_auth(
            &format!("evidence/folders/?pickup_folder_id={pickup_id}"),
            &user.access,
        )
        .await;
    assert_eq!(status, 200);
    let ids: Vec<&Value> = returns["folders"]
        .as_array()
        .expect("folders")
        .iter()
        .map(|f| &f["id"])
        .collect();
    assert_eq!(ids, [&returned["id"]]);
    let (status, _) = stack
        .get_auth(
            &format!("evidence/folders/?pickup_folder_id={pickup_id}"),
            &other.access,
        )
        .await;
    assert_eq!(status, 404);

    // Sections: the rental kind's only, and none outside a rental folder.
    let bytes = vec![1u8; 256];
    let in_pickup = format!("evidence/folders/{pickup_id}/items/create/");
    for section in [json!("bathroom"), Value::Null] {
        let (status, body) = stack
            .post_auth(
                &in_pickup,
                &user.access,
                capture(&bytes, "image/jpeg", json!({ "section": section })),
            )
            .await;
        assert_eq!(status, 400, "{section}: {body}");
        assert_eq!(body["errors"][0]["field"], "section");
    }
    let (status, fuel) = stack
        .post_auth(
            &in_pickup,
            &user.access,
            capture(&bytes, "video/webm", json!({ "section": "fuel" })),
        )
        .await;
    assert_eq!(status, 201, "{fuel}");
    assert_eq!(fuel["item"]["section"], "fuel");
    assert_eq!(fuel["item"]["can_retake"], true);
    let (status, body) = stack
        .post_auth(
            &format!(
                "evidence/folders/{}/items/create/",
                plain["id"].as_str().expect("id")
            ),
            &user.access,
            capture(&bytes, "image/jpeg", json!({ "section": "body" })),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["errors"][0]["field"], "section");
}

#[tokio::test]
async fn a_retake_replaces_the_file_once_verified_and_the_previous_one_opens_until_then() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;
    let other = stack.sign_up().await;
    let folder = folder(&stack, &user.access, "Retakes").await;
    let first = jpeg(640, 480, 10);
    let (_, created) = create_item(
        &stack,
        &user.access,
        &folder,
        &first,
        &sha256(&first),
        "image/jpeg",
    )
    .await;
    let item = created["item"]["id"].as_str().expect("id").to_owned();
    upload_and_verify(&stack, &user.access, &created, first.clone()).await;
    let before = testing::eventually("the thumbnail", Duration::from_secs(30), || async {
        let (_, item) = stack
            .get_auth(&format!("evidence/items/{item}/"), &user.access)
            .await;
        item["thumbnail"].is_string().then_some(item)
    })
    .await;
    assert_eq!(before["can_retake"], true);

    let second = jpeg(800, 600, 200);
    let retake_path = format!("evidence/items/{item}/retake/");
    let retake = |bytes: &[u8], mime: &str| {
        json!({
            "mime_type": mime,
            "file_size": bytes.len(),
            "sha256": sha256(bytes),
            "captured_at": "2026-01-16T09:00:00Z",
        })
    };
    let (status, body) = stack
        .post_auth(&retake_path, &user.access, retake(&second, "video/webm"))
        .await;
    assert_eq!(status, 400, "a photo is retaken as a photo: {body}");
    assert_eq!(body["errors"][0]["field"], "mime_type");
    let (status, _) = stack
        .post_auth(&retake_path, &other.access, retake(&second, "image/jpeg"))
        .await;
    assert_eq!(status, 404);

    let (status, retaken) = stack
        .post_auth(&retake_path, &user.access, retake(&second, "image/jpeg"))
        .await;
    assert_eq!(status, 200, "{retaken}");
    assert_eq!(retaken["item"]["id"], item.as_str());
    assert_eq!(retaken["item"]["name"], "Front left");
    assert_eq!(retaken["item"]["status"], "awaiting_upload");
    assert_eq!(retaken["upload"]["kind"], "single");
    // Until the new file is verified, the previous one opens and downloads.
    let (status, old) = fetch(&retaken["item"]["temporary_file_url"]).await;
    assert_eq!((status, sha256(&old)), (200, sha256(&first)));
    let (_, download) = stack
        .get_auth(&format!("evidence/items/{item}/download/"), &user.access)
        .await;
    let (_, downloaded) = fetch(&download["url"]).await;
    assert_eq!(sha256(&downloaded), sha256(&first));
    let (_, usage) = stack
        .get_auth("evidence/storage-usage/", &user.access)
        .await;
    assert_eq!(usage["file_count"], 1);
    assert_eq!(usage["used_bytes"], first.len());

    upload_and_verify(&stack, &user.access, &retaken, second.clone()).await;
    let after = testing::eventually("the new thumbnail", Duration::from_secs(30), || async {
        let (_, item) = stack
            .get_auth(&format!("evidence/items/{item}/"), &user.access)
            .await;
        item["thumbnail"].is_string().then_some(item)
    })
    .await;
    let (_, new) = fetch(&after["temporary_file_url"]).await;
    assert_eq!(sha256(&new), sha256(&second));
    let (_, thumbnail) = fetch(&after["thumbnail"]).await;
    let small = image::load_from_memory(&thumbnail).expect("a JPEG");
    assert_eq!((small.width(), small.height()), (320, 240));
    // The previous file and its thumbnail left the store.
    assert_eq!(fetch(&before["temporary_file_url"]).await.0, 404);
    assert_eq!(fetch(&before["thumbnail"]).await.0, 404);
    let (_, usage) = stack
        .get_auth("evidence/storage-usage/", &user.access)
        .await;
    assert_eq!(usage["file_count"], 1);
    assert_eq!(usage["used_bytes"], second.len());
    let (_, listed) = stack
        .get_auth(&format!("evidence/folders/{folder}/"), &user.access)
        .await;
    assert_eq!(listed["used_bytes"], second.len());
}

#[tokio::test]
async fn an_expired_folder_refuses_a_retake() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;
    let folder = folder(&stack, &user.access, "Expired retake").await;
    let bytes = vec![4u8; 300];
    let (_, created) = create_item(
        &stack,
        &user.access,
        &folder,
        &bytes,
        &sha256(&bytes),
        "audio/webm",
    )
    .await;
    let item = created["item"]["id"].as_str().expect("id").to_owned();
    let mut conn = testing::connect(&stack.evidence_db).await;
    sqlx::query("UPDATE folders SET storage_expires_at = now() - interval '1 minute'")
        .execute(&mut conn)
        .await
        .expect("expire");
    let (_, found) = stack
        .get_auth(&format!("evidence/items/{item}/"), &user.access)
        .await;
    assert_eq!(found["can_retake"], false);
    let (status, body) = stack
        .post_auth(
            &format!("evidence/items/{item}/retake/"),
            &user.access,
            json!({ "mime_type": "audio/webm", "file_size": 10, "sha256": sha256(&[0u8; 10]) }),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(
        body["errors"][0]["message"],
        "Please extend your Storage Date for this file."
    );
    assert_eq!(body["errors"][0]["code"], "storage_expired");
}

#[tokio::test]
async fn a_video_gets_a_jpeg_poster_frame_as_its_thumbnail() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;
    let folder = folder(&stack, &user.access, "Videos").await;
    let video = test_video();
    let (status, created) = create_item(
        &stack,
        &user.access,
        &folder,
        &video,
        &sha256(&video),
        "video/mp4",
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let item = created["item"]["id"].as_str().expect("id").to_owned();
    upload_and_verify(&stack, &user.access, &created, video).await;
    let ready = testing::eventually("the poster frame", Duration::from_secs(30), || async {
        let (_, item) = stack
            .get_auth(&format!("evidence/items/{item}/"), &user.access)
            .await;
        item["thumbnail"].is_string().then_some(item)
    })
    .await;
    let (status, poster) = fetch(&ready["thumbnail"]).await;
    assert_eq!(status, 200);
    assert_eq!(
        image::guess_format(&poster).expect("format"),
        image::ImageFormat::Jpeg
    );
    let poster = image::load_from_memory(&poster).expect("a JPEG");
    assert_eq!((poster.width(), poster.height()), (320, 180));
}
