//! Evidence's routes through the gateway: the REST shapes and statuses of folders and items. The
//! behaviour behind them is evidence's, tested next to it (services/evidence/tests/api).

use reqwest::Method;
use serde_json::json;

use crate::support::{Stack, capture, fetch, folder, post_form, status_of};

#[tokio::test]
async fn evidence_routes_answer_their_rest_shapes_and_statuses() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;
    let other = stack.sign_up().await;
    let folder = folder(&stack, &user.access, "Car rental").await;
    let bytes = b"\xff\xd8\xff a small JPEG stand-in".repeat(100);
    let create = format!("evidence/folders/{folder}/items/create/");
    let (status, created) = stack
        .post_auth(
            &create,
            &user.access,
            capture(
                &bytes,
                "image/jpeg",
                json!({ "captured_at": "2026-01-15T10:00:00Z", "latitude": 52.37, "longitude": 4.89 }),
            ),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["upload"]["kind"], "single");
    assert_eq!(created["item"]["status"], "awaiting_upload");
    assert_eq!(created["item"]["city"], "Amsterdam");
    assert!(created["item"]["temporary_file_url"].is_null());
    let item = created["item"]["id"].as_str().expect("id").to_owned();
    let finish = format!("evidence/items/{item}/upload/finish/");
    let (status, body) = stack.post_auth(&finish, &user.access, json!({})).await;
    assert_eq!(status, 400, "finishing before the bytes are there: {body}");

    // A field error, and another user's folder or item.
    let (status, body) = stack
        .send_auth(
            Method::PATCH,
            &format!("evidence/folders/{folder}/rename/"),
            &user.access,
            Some(json!({ "name": "a" })),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["errors"][0]["message"], "Must be 2 characters or more");
    for path in [
        format!("evidence/folders/{folder}/"),
        format!("evidence/items/{item}/"),
        "evidence/folders/not-a-uuid/".to_owned(),
    ] {
        let (status, _) = stack.get_auth(&path, &other.access).await;
        assert_eq!(status, 404, "{path}");
    }

    assert!(
        post_form(&created["upload"], bytes.clone(), "image/jpeg")
            .await
            .is_success()
    );
    let (status, finished) = stack.post_auth(&finish, &user.access, json!({})).await;
    assert_eq!(status, 200, "{finished}");
    assert_eq!(finished["uploaded"], true);
    assert!(finished["uploaded_at"].is_string());
    assert_eq!(finished["captured_at"], "2026-01-15T10:00:00.000Z");
    let verified = status_of(&stack, &user.access, &item, "verified").await;
    // Its signed receipt, and the published key it is checked with, open to anyone.
    let receipt = &verified["receipt"];
    assert!(
        receipt["payload"].as_str().unwrap().contains(&item),
        "{verified}"
    );
    let (status, keys) = stack.get(".well-known/receipt-keys").await;
    assert_eq!(status, 200, "{keys}");
    assert_eq!(keys["keys"][0]["id"], receipt["key_id"]);
    assert_eq!(keys["keys"][0]["algorithm"], "Ed25519");
    assert_eq!(keys["keys"][0]["current"], true);
    let (_, usage) = stack
        .get_auth("evidence/storage-usage/", &user.access)
        .await;
    assert_eq!(
        usage,
        json!({ "used_bytes": bytes.len(), "file_count": 1, "folder_count": 1 })
    );
    let (status, download) = stack
        .get_auth(&format!("evidence/items/{item}/download/"), &user.access)
        .await;
    assert_eq!(status, 200);
    assert_eq!(fetch(&download["url"]).await.1, bytes);

    // An expired folder: 400 with the reason as `code` for a new file, 403 for a retake.
    let mut conn = evidentia_common::testing::connect(&stack.evidence_db).await;
    sqlx::query!(
        "UPDATE folders SET storage_expires_at = now() - interval '1 minute' WHERE id = $1",
        uuid::Uuid::parse_str(&folder).unwrap()
    )
    .execute(&mut conn)
    .await
    .unwrap();
    let (_, listed) = stack
        .get_auth(&format!("evidence/folders/{folder}/"), &user.access)
        .await;
    assert_eq!(listed["expired"], true);
    let (status, body) = stack
        .post_auth(
            &create,
            &user.access,
            capture(&bytes, "image/jpeg", json!({})),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["errors"][0]["code"], "storage_expired");
    assert_eq!(
        body["errors"][0]["message"],
        "Please extend your Storage Date for this file."
    );
    let (status, body) = stack
        .post_auth(
            &format!("evidence/items/{item}/retake/"),
            &user.access,
            json!({ "mime_type": "image/jpeg", "file_size": 10, "sha256": "0".repeat(64) }),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["errors"][0]["code"], "storage_expired");

    let (status, _) = stack
        .send_auth(
            Method::DELETE,
            &format!("evidence/folders/{folder}/delete/"),
            &user.access,
            None,
        )
        .await;
    assert_eq!(status, 204);
}
