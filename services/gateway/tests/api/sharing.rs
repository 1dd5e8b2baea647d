//! Sharing through the gateway against the real components: a share bought once with its key,
//! copies of an image, a video and an audio file rendered with the watermark burned in (read back
//! by OCR), the recipient's code and token, revocation, verification, the custody log and its
//! check, and every other user's or other share's id answering 404.

use std::{process::Command, time::Duration};

use crate::support::{
    DECLINED_OFF_SESSION, OK_CARD, Stack, code_for, fetch, folder, jpeg, link_to, sha256, share,
    test_video, upload, with_default_card, with_token,
};
use evidentia_common::testing;
use serde_json::{Value, json};

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

async fn until_ready(stack: &Stack, access: &str, folder: &str) -> Value {
    testing::eventually("every copy ready", Duration::from_secs(180), || async {
        let (_, details) = stack
            .get_auth(&format!("sharing/folder/{folder}/details/"), access)
            .await;
        let recipients = details["shares"][0]["recipients"].as_array()?.clone();
        recipients
            .iter()
            .all(|r| r["copies_ready"] == r["copies_total"] && r["copies_total"] != 0)
            .then_some(details)
    })
    .await
}

#[tokio::test]
async fn an_authenticated_share_is_paid_once_rendered_with_the_banner_and_opened_with_a_code() {
    let stack = Stack::start().await;
    let owner = stack.sign_up().await;
    with_default_card(&stack, &owner, OK_CARD).await;
    let folder = folder(&stack, &owner.access, "Flat handover").await;
    let photo = jpeg(1600, 1200, 90);
    let image = upload(&stack, &owner.access, &folder, photo.clone(), "image/jpeg").await;
    let video = upload(&stack, &owner.access, &folder, test_video(), "video/mp4").await;
    let audio = upload(&stack, &owner.access, &folder, test_audio(), "audio/wav").await;
    let recipient = format!("lawyer-{}@example.com", uuid::Uuid::new_v4().simple());
    let body = json!({
        "copy_type": "authenticated",
        "item_ids": [],
        "recipients": [{ "email": recipient }],
        "pay_with": "card",
    });

    // One share and one charge, whatever the retries.
    let (status, first) = share(&stack, &owner.access, &folder, "share-1", &body).await;
    assert_eq!(status, 201, "{first}");
    assert_eq!(first["transaction"]["kind"], "sharing");
    assert!(first["transaction"]["charged_to_card"].as_i64().unwrap() > 0);
    let (status, again) = share(&stack, &owner.access, &folder, "share-1", &body).await;
    assert_eq!(status, 201, "{again}");
    assert_eq!(again["share"]["id"], first["share"]["id"]);
    assert_eq!(again["transaction"]["id"], first["transaction"]["id"]);
    let mut other = body.clone();
    other["copy_type"] = json!("unauthenticated");
    let (status, _) = share(&stack, &owner.access, &folder, "share-1", &other).await;
    assert_eq!(status, 409, "a key reused for another request");
    let (_, movements) = stack
        .get_auth("payments/transactions/", &owner.access)
        .await;
    let purchases = movements.to_string().matches("\"sharing\"").count();
    assert!(purchases <= 1, "one purchase: {movements}");

    let details = until_ready(&stack, &owner.access, &folder).await;
    let shared = &details["shares"][0];
    assert_eq!(shared["item_count"], 3);
    let number = shared["recipients"][0]["transaction_number"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(number.starts_with("EVD-") && number.len() == 13, "{number}");

    // The link alone opens nothing; a code sent to the recipient's own address does.
    let (t1, t2) = link_to(&recipient).await;
    let (status, _) = stack
        .post("sharing/code/send/", json!({ "t1": t1, "t2": "forged" }))
        .await;
    assert_eq!(status, 404);
    let (code_id, code, message) = code_for(&stack, &recipient, &t1, &t2, &[]).await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let (status, refused) = stack
        .post(
            &format!("sharing/code/{code_id}/check/"),
            json!({ "confirmation_code": wrong }),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["errors"][0]["field"], "confirmation_code");
    let (status, granted) = stack
        .post(
            &format!("sharing/code/{code_id}/check/"),
            json!({ "confirmation_code": code }),
        )
        .await;
    assert_eq!(status, 200, "{granted}");
    let token = granted["access_folder_token"].as_str().unwrap().to_owned();
    let (status, spent) = stack
        .post(
            &format!("sharing/code/{code_id}/check/"),
            json!({ "confirmation_code": code }),
        )
        .await;
    assert_eq!(status, 400, "a code works once: {spent}");
    assert_eq!(spent["errors"][0]["code"], "code_expired");

    // Five wrong tries end a code.
    let (second_id, second_code, _) = code_for(&stack, &recipient, &t1, &t2, &[message]).await;
    let wrong = if second_code == "000000" {
        "111111"
    } else {
        "000000"
    };
    for _ in 0..5 {
        stack
            .post(
                &format!("sharing/code/{second_id}/check/"),
                json!({ "confirmation_code": wrong }),
            )
            .await;
    }
    let (status, ended) = stack
        .post(
            &format!("sharing/code/{second_id}/check/"),
            json!({ "confirmation_code": second_code }),
        )
        .await;
    assert_eq!(status, 400, "{ended}");
    assert_eq!(ended["errors"][0]["code"], "code_expired");

    // The copies, watermarked; no original is named anywhere the recipient can read.
    let (status, view) = with_token(&stack, "sharing/view/authenticated/", &token).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["watermark"]["transaction_number"], number.as_str());
    assert_eq!(view["watermark"]["sent_to"], recipient.as_str());
    assert_eq!(view["watermark"]["generated_for"], owner.username.as_str());
    let text = view.to_string();
    for original in [&image, &video, &audio] {
        let id = original["id"].as_str().unwrap();
        assert!(!text.contains(id), "an original's id in {text}");
        let url = original["temporary_file_url"].as_str().unwrap();
        let key = url.split('?').next().unwrap().rsplit('/').next().unwrap();
        assert!(!text.contains(key), "an original's key in {text}");
    }
    let (status, _) = with_token(&stack, "sharing/view/", &token).await;
    assert_eq!(
        status, 404,
        "an authenticated share has no unauthenticated view"
    );
    let items = view["items"].as_array().unwrap();
    assert_eq!(items.len(), 3);

    let (status, copy) = fetch(&items[0]["url"]).await;
    assert_eq!(status, 200);
    assert_ne!(copy, photo);
    assert_eq!(items[0]["sha256"], sha256(&copy).as_str());
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

    let (_, video_copy) = fetch(&items[1]["url"]).await;
    assert!(
        streams(&video_copy).contains(&"video:h264".to_owned()),
        "{:?}",
        streams(&video_copy)
    );
    let (_, audio_copy) = fetch(&items[2]["url"]).await;
    let audio_streams = streams(&audio_copy);
    assert!(
        audio_streams.contains(&"video:h264".to_owned()),
        "{audio_streams:?}"
    );
    assert!(
        audio_streams.iter().any(|s| s.starts_with("audio:")),
        "{audio_streams:?}"
    );

    let copy_id = items[0]["id"].as_str().unwrap();
    let response = stack
        .http
        .post(stack.url(&format!("sharing/copies/{copy_id}/events/")))
        .header("X-Folder-Token", &token)
        .json(&json!({ "kind": "downloaded" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 204);

    // Anyone can check a number or a file; the recipient's address is masked.
    let (status, checked) = stack
        .get(&format!("sharing/verify/{}/", number.to_lowercase()))
        .await;
    assert_eq!(status, 200, "{checked}");
    assert_eq!(checked["copy_type"], "authenticated");
    assert!(
        checked["sent_to"]
            .as_str()
            .unwrap()
            .contains("***@example.com")
    );
    assert_eq!(checked["items"][0]["original_sha256"], image["sha256"]);
    let (status, matched) = stack
        .post("sharing/verify/file/", json!({ "sha256": sha256(&copy) }))
        .await;
    assert_eq!(status, 200, "{matched}");
    assert_eq!(matched["matched_item_index"], 0);
    let (status, _) = stack
        .post("sharing/verify/file/", json!({ "sha256": sha256(&photo) }))
        .await;
    assert_eq!(status, 404, "an original is not a copy we issued");
    let (status, _) = stack.get("sharing/verify/EVD-2222-2222/").await;
    assert_eq!(status, 404);

    // The custody log holds the story, and the check finds a changed entry.
    let (status, contents) = stack
        .get_auth(&format!("sharing/folder/{folder}/contents/"), &owner.access)
        .await;
    assert_eq!(status, 200, "{contents}");
    let first = contents["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["item_id"] == image["id"])
        .unwrap()
        .clone();
    let kinds: Vec<&str> = first["custody"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
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
    assert_eq!(first["shared_counter"], 1);
    assert_eq!(first["sharing_available_counter"], 1);
    let check_path = format!("sharing/folder/{folder}/authenticate/");
    let (status, intact) = stack.post_auth(&check_path, &owner.access, json!({})).await;
    assert_eq!(status, 200, "{intact}");
    assert!(
        intact["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["intact"] == true),
        "{intact}"
    );
    let mut db = testing::connect(&stack.sharing_db).await;
    sqlx::query!("ALTER TABLE custody_entries DISABLE TRIGGER custody_entries_no_update")
        .execute(&mut db)
        .await
        .unwrap();
    sqlx::query!(
        "UPDATE custody_entries SET detail = 'somewhere else' WHERE item_id = $1 AND seq = 4",
        uuid::Uuid::parse_str(image["id"].as_str().unwrap()).unwrap()
    )
    .execute(&mut db)
    .await
    .unwrap();
    let (_, broken) = stack.post_auth(&check_path, &owner.access, json!({})).await;
    let item = broken["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["item_id"] == image["id"])
        .unwrap();
    assert_eq!(item["intact"], false, "{broken}");
    assert_eq!(item["first_broken"]["seq"], 4);

    // Another user reaches none of it.
    let stranger = stack.sign_up().await;
    let share_id = shared["id"].as_str().unwrap();
    for (status, what) in [
        stack
            .get_auth(
                &format!("sharing/folder/{folder}/details/"),
                &stranger.access,
            )
            .await,
        stack
            .get_auth(
                &format!("sharing/folder/{folder}/contents/"),
                &stranger.access,
            )
            .await,
        stack
            .post_auth(
                &format!("sharing/shares/{share_id}/revoke/"),
                &stranger.access,
                json!({}),
            )
            .await,
        share(&stack, &stranger.access, &folder, "s", &body).await,
    ] {
        assert_eq!(status, 404, "{what}");
    }

    // Another share's copy is 404 with this share's token.
    let second = json!({
        "copy_type": "unauthenticated",
        "item_ids": [image["id"]],
        "recipients": [{ "email": format!("insurer-{}@example.com", uuid::Uuid::new_v4().simple()) }],
        "pay_with": "card",
    });
    let (status, other_share) = share(&stack, &owner.access, &folder, "share-2", &second).await;
    assert_eq!(status, 201, "{other_share}");
    let mut db = testing::connect(&stack.sharing_db).await;
    let foreign = sqlx::query_scalar!(
        "SELECT id FROM copies WHERE share_id = $1",
        uuid::Uuid::parse_str(other_share["share"]["id"].as_str().unwrap()).unwrap()
    )
    .fetch_one(&mut db)
    .await
    .unwrap();
    let response = stack
        .http
        .post(stack.url(&format!("sharing/copies/{foreign}/events/")))
        .header("X-Folder-Token", &token)
        .json(&json!({ "kind": "viewed" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 404);

    // Once the folder's storage date passes, the recipient's copies are expired, without links.
    let mut evidence_db = testing::connect(&stack.evidence_db).await;
    sqlx::query!(
        "UPDATE folders SET storage_expires_at = now() - interval '1 day' WHERE id = $1",
        uuid::Uuid::parse_str(&folder).unwrap()
    )
    .execute(&mut evidence_db)
    .await
    .unwrap();
    let (status, expired) = with_token(&stack, "sharing/view/authenticated/", &token).await;
    assert_eq!(status, 200, "{expired}");
    for item in expired["items"].as_array().unwrap() {
        assert_eq!(item["state"], "expired", "{item}");
        assert!(
            item["url"].is_null() && item["download_url"].is_null(),
            "{item}"
        );
    }
    sqlx::query!(
        "UPDATE folders SET storage_expires_at = now() + interval '1 year' WHERE id = $1",
        uuid::Uuid::parse_str(&folder).unwrap()
    )
    .execute(&mut evidence_db)
    .await
    .unwrap();

    // Revoked: the token fails at once, the link opens nothing, and verification says so.
    let (status, revoked) = stack
        .post_auth(
            &format!("sharing/shares/{share_id}/revoke/"),
            &owner.access,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{revoked}");
    assert!(revoked["revoked_at"].is_string());
    let (status, refused) = with_token(&stack, "sharing/view/authenticated/", &token).await;
    assert_eq!(status, 401, "{refused}");
    assert_eq!(refused["errors"][0]["code"], "folder_token_invalid");
    let (status, _) = stack
        .post("sharing/code/send/", json!({ "t1": t1, "t2": t2 }))
        .await;
    assert_eq!(status, 404);
    let (_, after) = stack.get(&format!("sharing/verify/{number}/")).await;
    assert_eq!(after["revoked"], true);
    let (status, _) = fetch(&items[0]["url"]).await;
    assert_ne!(status, 200, "a revoked share's copies are deleted");

    // A purged account leaves no share and no custody log behind.
    let (_, token) = stack
        .post_auth(
            "accounts/password/verify/",
            &owner.access,
            json!({ "password": "Secret12#" }),
        )
        .await;
    let (status, deleted) = stack
        .post_auth(
            "accounts/delete/",
            &owner.access,
            json!({ "reason_id": "privacy", "password_token": token["password_token"] }),
        )
        .await;
    assert_eq!(status, 200, "{deleted}");
    let mut accounts = testing::connect(&stack.accounts_db).await;
    sqlx::query!(
        "UPDATE users SET recoverable_until = now() - interval '1 second' WHERE username = $1",
        &owner.username
    )
    .execute(&mut accounts)
    .await
    .unwrap();
    testing::eventually(
        "the purge reached sharing",
        Duration::from_secs(30),
        || async {
            let mut db = testing::connect(&stack.sharing_db).await;
            let left = sqlx::query_scalar!(
                r#"SELECT (SELECT count(*) FROM shares WHERE id = $1)
                    + (SELECT count(*) FROM custody_entries WHERE item_id = $2) AS "left!""#,
                uuid::Uuid::parse_str(share_id).unwrap(),
                uuid::Uuid::parse_str(image["id"].as_str().unwrap()).unwrap()
            )
            .fetch_one(&mut db)
            .await
            .unwrap();
            (left == 0).then_some(())
        },
    )
    .await;
}

#[tokio::test]
async fn expired_folders_declined_cards_and_bad_input_create_no_share() {
    let stack = Stack::start().await;
    let owner = stack.sign_up().await;
    with_default_card(&stack, &owner, DECLINED_OFF_SESSION).await;
    let folder = folder(&stack, &owner.access, "Deposit").await;
    let photo = upload(
        &stack,
        &owner.access,
        &folder,
        jpeg(320, 240, 10),
        "image/jpeg",
    )
    .await;
    let good = json!({
        "copy_type": "unauthenticated",
        "item_ids": [photo["id"]],
        "recipients": [{ "email": "insurer@example.com" }],
        "pay_with": "card",
    });
    let (status, declined) = share(&stack, &owner.access, &folder, "k1", &good).await;
    assert_eq!(status, 402, "{declined}");
    let (_, details) = stack
        .get_auth(&format!("sharing/folder/{folder}/details/"), &owner.access)
        .await;
    assert_eq!(
        details["shares"],
        json!([]),
        "a declined card creates nothing"
    );

    for (body, field, message) in [
        (
            json!({ "copy_type": "unauthenticated", "recipients": [], "pay_with": "card" }),
            "recipients",
            "Add at least one e-mail address or phone number.",
        ),
        (
            json!({ "copy_type": "unauthenticated", "recipients": [{ "email": "nope" }], "pay_with": "card" }),
            "recipients[0].email",
            "Please enter a valid email address",
        ),
        (
            json!({ "copy_type": "unauthenticated", "recipients": [{ "email": "" }], "pay_with": "card" }),
            "recipients[0].email",
            "This field is required",
        ),
        (
            json!({ "copy_type": "unauthenticated", "item_ids": [uuid::Uuid::now_v7()], "recipients": [{ "email": "a@example.com" }], "pay_with": "card" }),
            "item_ids",
            "Choose files from this folder.",
        ),
    ] {
        let (status, refused) = share(&stack, &owner.access, &folder, "k2", &body).await;
        assert_eq!(status, 400, "{refused}");
        assert_eq!(refused["errors"][0]["field"], field, "{refused}");
        assert_eq!(refused["errors"][0]["message"], message);
    }

    // No Idempotency-Key (the header absent, or not a key) is refused like a bad field: two
    // requests without one are never taken for a retry of each other.
    let no_key = stack
        .http
        .post(stack.url(&format!("sharing/folder/{folder}/share/")))
        .bearer_auth(&owner.access)
        .json(&good)
        .send()
        .await
        .unwrap();
    assert_eq!(no_key.status().as_u16(), 400);
    let body: Value = no_key.json().await.unwrap();
    assert_eq!(
        (&body["errors"][0]["field"], &body["errors"][0]["message"]),
        (
            &json!("idempotency_key"),
            &json!("An Idempotency-Key header (1 to 255 visible characters) is required.")
        )
    );
    let (status, _) = share(&stack, &owner.access, &folder, "two words", &good).await;
    assert_eq!(status, 400);

    let mut db = testing::connect(&stack.evidence_db).await;
    sqlx::query!("UPDATE folders SET storage_expires_at = now() - interval '1 day'")
        .execute(&mut db)
        .await
        .unwrap();
    let (status, expired) = share(&stack, &owner.access, &folder, "k3", &good).await;
    assert_eq!(status, 400, "{expired}");
    // spec §4, §8
    assert_eq!(
        expired["errors"][0]["message"],
        "Please extend your Storage Date for this file."
    );
}
