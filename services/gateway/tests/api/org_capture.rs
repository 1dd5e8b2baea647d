//! Organization capture through the gateway against the real components: capture templates and
//! the role matrix, folders made from them with participants capturing into steps, and anonymous
//! contributors (a link by e-mail, a proven address, both upload paths, a failed finish marking
//! the file rejected and a retry, content sniffing, expiry, revocation, a used-up link) whose
//! files a participant accepts or declines; another organization's ids are 404.

use std::time::Duration;

use crate::support::{SignedUp, Stack, capture, jpeg, post_form, read_code, read_message, sha256};
use evidentia_common::testing;
use reqwest::Method;
use serde_json::{Value, json};
use uuid::Uuid;

fn unique(prefix: &str) -> String {
    format!("{prefix}-{}@example.com", Uuid::now_v7().simple())
}

fn first(body: &Value) -> (String, String) {
    let error = &body["errors"][0];
    (
        error["code"].as_str().unwrap_or_default().to_owned(),
        error["message"].as_str().unwrap_or_default().to_owned(),
    )
}

fn fields(body: &Value) -> Vec<String> {
    body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Invites `role` by e-mail and joins with the code from the mail sink; returns the access token.
async fn join(stack: &Stack, owner: &SignedUp, role: &str) -> String {
    let invited = unique("participant");
    let (status, invite) = stack
        .post_auth(
            "accounts/organization/invites/",
            &owner.access,
            json!({ "email": invited, "role": role }),
        )
        .await;
    assert_eq!(status, 201, "{invite}");
    let mail = read_message(&invited, "/join-organization/", &[]).await;
    let at = mail.find("/join-organization/").unwrap() + "/join-organization/".len();
    let code = mail[at..at + 8].to_owned();
    let name = Uuid::new_v4().simple().to_string();
    let national = format!(
        "7{}",
        &format!("{:010}", u64::from_str_radix(&name[..8], 16).unwrap())[..9]
    );
    let (status, joined) = stack
        .post(
            "accounts/organization/join/",
            json!({
                "code": code, "username": format!("p{}", &name[..12]), "email": invited,
                "phone_number": { "country_code": "+44", "national_number": national },
                "password": "Secret12#",
            }),
        )
        .await;
    assert_eq!(status, 201, "{joined}");
    joined["access"].as_str().unwrap().to_owned()
}

fn claim_template() -> Value {
    json!({
        "name": "Vehicle damage claim",
        "description": "What we need to assess the damage.",
        "steps": [
            { "name": "Front", "instructions": "The whole front, plate readable.", "media_types": ["image"], "min_files": 1, "max_files": 2 },
            { "name": "Walk-around", "instructions": "30 seconds around the car.", "media_types": ["video"], "min_files": 1, "max_files": 1 },
            { "name": "Damage close up", "media_types": ["image", "video"], "min_files": 0, "max_files": 5 },
        ],
    })
}

async fn template(stack: &Stack, access: &str) -> Value {
    let (status, made) = stack
        .post_auth(
            "organizations/capture-templates/create/",
            access,
            claim_template(),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    made
}

async fn org_folder(stack: &Stack, access: &str, template_id: &str) -> Value {
    let (status, made) = stack
        .post_auth(
            "organizations/folders/create/",
            access,
            json!({ "template_id": template_id, "name": "Claim 1043" }),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    made
}

#[tokio::test]
async fn templates_follow_the_role_matrix_and_stay_within_their_organization() {
    let stack = Stack::start().await;
    let owner = stack.sign_up_organization("Harbour Insurance").await;
    let member = join(&stack, &owner, "member").await;
    let admin = join(&stack, &owner, "admin").await;
    let outsider = stack.sign_up_organization("Other Insurer").await;
    let individual = stack.sign_up().await;

    let made = template(&stack, &owner.access).await;
    let id = made["id"].as_str().unwrap().to_owned();
    let names: Vec<&str> = made["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Front", "Walk-around", "Damage close up"]);
    assert_eq!(made["steps"][2]["media_types"], json!(["image", "video"]));

    // Members read and use templates; they cannot change them.
    let (status, listed) = stack
        .get_auth("organizations/capture-templates/", &member)
        .await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed["templates"][0]["id"], made["id"]);
    let (status, refused) = stack
        .post_auth(
            "organizations/capture-templates/create/",
            &member,
            claim_template(),
        )
        .await;
    assert_eq!(status, 403, "{refused}");
    assert_eq!(
        first(&refused).1,
        "Only the organization's owner and admins can do this."
    );
    let (status, _) = stack
        .send_auth(
            Method::PUT,
            &format!("organizations/capture-templates/{id}/update/"),
            &member,
            Some(claim_template()),
        )
        .await;
    assert_eq!(status, 403);
    let (status, _) = stack
        .post_auth(
            &format!("organizations/capture-templates/{id}/archive/"),
            &member,
            json!({ "archived": true }),
        )
        .await;
    assert_eq!(status, 403);

    // An admin reorders: the steps keep their ids in the new order; a removed one is gone.
    let steps = made["steps"].as_array().unwrap();
    let reordered = json!({
        "name": "Vehicle damage claim v2",
        "steps": [
            { "id": steps[1]["id"], "name": "Walk-around", "media_types": ["video"], "min_files": 1, "max_files": 1 },
            { "id": steps[0]["id"], "name": "Front", "media_types": ["image"], "min_files": 1, "max_files": 3 },
            { "name": "Voice statement", "media_types": ["audio"], "min_files": 1, "max_files": 1 },
        ],
    });
    let (status, changed) = stack
        .send_auth(
            Method::PUT,
            &format!("organizations/capture-templates/{id}/update/"),
            &admin,
            Some(reordered),
        )
        .await;
    assert_eq!(status, 200, "{changed}");
    assert_eq!(changed["steps"][0]["id"], steps[1]["id"]);
    assert_eq!(changed["steps"][1]["id"], steps[0]["id"]);
    assert_eq!(changed["steps"][1]["max_files"], 3);
    assert_eq!(changed["steps"][2]["name"], "Voice statement");
    assert_eq!(changed["steps"].as_array().unwrap().len(), 3);

    // Bad steps are field errors, nothing is written.
    let (status, bad) = stack
        .send_auth(
            Method::PUT,
            &format!("organizations/capture-templates/{id}/update/"),
            &admin,
            Some(json!({ "name": "x", "steps": [
                { "name": "Front", "media_types": ["image"], "min_files": 3, "max_files": 2 },
            ] })),
        )
        .await;
    assert_eq!(status, 400, "{bad}");
    assert_eq!(fields(&bad), ["name", "steps[0].min_files"]);
    let (_, unchanged) = stack
        .get_auth(&format!("organizations/capture-templates/{id}/"), &member)
        .await;
    assert_eq!(unchanged["name"], "Vehicle damage claim v2");

    // Another organization, or an individual, does not see it.
    for access in [&outsider.access, &individual.access] {
        let (status, _) = stack
            .get_auth(&format!("organizations/capture-templates/{id}/"), access)
            .await;
        assert_eq!(status, 404);
    }
    let (status, _) = stack
        .get_auth("organizations/capture-templates/", &individual.access)
        .await;
    assert_eq!(status, 404);

    // Archived: listed apart, and no new folder from it.
    let (status, archived) = stack
        .post_auth(
            &format!("organizations/capture-templates/{id}/archive/"),
            &owner.access,
            json!({ "archived": true }),
        )
        .await;
    assert_eq!((status, &archived["archived"]), (200, &json!(true)));
    let (_, active) = stack
        .get_auth("organizations/capture-templates/", &member)
        .await;
    assert_eq!(active["templates"], json!([]));
    let (_, old) = stack
        .get_auth("organizations/capture-templates/?archived=true", &member)
        .await;
    assert_eq!(old["templates"][0]["id"], made["id"]);
    let (status, refused) = stack
        .post_auth(
            "organizations/folders/create/",
            &member,
            json!({ "template_id": id, "name": "Claim 1" }),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(fields(&refused), ["template_id"]);
}

#[tokio::test]
async fn participants_capture_into_the_steps_of_an_organization_folder() {
    let stack = Stack::start().await;
    let owner = stack.sign_up_organization("Harbour Property").await;
    let member = join(&stack, &owner, "member").await;
    let outsider = stack.sign_up_organization("Elsewhere").await;
    let made = template(&stack, &owner.access).await;
    let folder = org_folder(&stack, &member, made["id"].as_str().unwrap()).await;
    let folder_id = folder["id"].as_str().unwrap().to_owned();
    assert_eq!(folder["template_name"], "Vehicle damage claim");
    assert_eq!(
        (
            folder["step_count"].clone(),
            folder["steps_complete"].clone()
        ),
        (json!(3), json!(1))
    );
    let front = folder["steps"][0]["id"].as_str().unwrap().to_owned();
    let walk = folder["steps"][1]["id"].as_str().unwrap().to_owned();

    // A file needs a step of this folder that takes its medium.
    let photo = jpeg(320, 240, 10);
    let create = |extra: Value| {
        let stack = &stack;
        let member = member.clone();
        let folder_id = folder_id.clone();
        let body = capture(&photo, "image/jpeg", extra);
        async move {
            stack
                .post_auth(
                    &format!("evidence/folders/{folder_id}/items/create/"),
                    &member,
                    body,
                )
                .await
        }
    };
    let (status, missing) = create(json!({})).await;
    assert_eq!(
        (status, fields(&missing)),
        (400, vec!["step_id".to_owned()])
    );
    let (status, wrong) = create(json!({ "step_id": walk })).await;
    assert_eq!(
        (status, fields(&wrong)),
        (400, vec!["media_type".to_owned()])
    );
    let (status, created) = create(json!({ "step_id": front })).await;
    assert_eq!(status, 201, "{created}");
    let item = crate::support::upload_and_verify(&stack, &member, &created, photo.clone()).await;
    assert_eq!(item["step_id"], json!(front));
    assert_eq!(item["review_state"], Value::Null);

    // The owner sees what the member captured; the step is complete; it is not in the owner's
    // own files.
    let (status, seen) = stack
        .get_auth(
            &format!("organizations/folders/{folder_id}/"),
            &owner.access,
        )
        .await;
    assert_eq!(status, 200, "{seen}");
    assert_eq!(seen["steps"][0]["complete"], true);
    assert_eq!(seen["steps"][0]["items"][0]["id"], item["id"]);
    assert_eq!(seen["steps_complete"], 2);
    let (_, mine) = stack.get_auth("evidence/folders/", &owner.access).await;
    assert!(
        !mine["folders"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["id"] == json!(folder_id)),
        "{mine}"
    );
    let (_, listed) = stack.get_auth("organizations/folders/", &member).await;
    assert_eq!(listed["folders"][0]["id"], json!(folder_id));

    // Its storage is the owner's: a participant is refused before any price or payment.
    let (status, refused) = stack
        .post_auth(
            "payments/storage-price-prolong/calculate/",
            &member,
            json!({ "folder_id": folder_id, "months": 3 }),
        )
        .await;
    assert_eq!(status, 403, "{refused}");
    assert_eq!(
        first(&refused).1,
        "Only the organization's owner can extend this folder's storage date."
    );
    let (status, priced) = stack
        .post_auth(
            "payments/storage-price-prolong/calculate/",
            &owner.access,
            json!({ "folder_id": folder_id, "months": 3 }),
        )
        .await;
    assert_eq!(status, 200, "{priced}");

    // A member may not delete in an organization folder; the owner may. Another organization
    // sees none of it.
    let item_id = item["id"].as_str().unwrap();
    let (status, _) = stack
        .send_auth(
            Method::DELETE,
            &format!("evidence/items/{item_id}/delete/"),
            &member,
            None,
        )
        .await;
    assert_eq!(status, 403);
    for path in [
        format!("organizations/folders/{folder_id}/"),
        format!("evidence/folders/{folder_id}/"),
        format!("evidence/items/{item_id}/"),
    ] {
        let (status, _) = stack.get_auth(&path, &outsider.access).await;
        assert_eq!(status, 404, "{path}");
    }
    let (status, _) = stack
        .send_auth(
            Method::DELETE,
            &format!("evidence/items/{item_id}/delete/"),
            &owner.access,
            None,
        )
        .await;
    assert_eq!(status, 204);
}

/// The link token in the message the contributor received (quoted-printable keeps `=` as `=3D`).
fn link_token(mail: &str) -> String {
    let at = mail.find("?link=").expect("a link") + "?link=".len();
    let rest = mail[at..].strip_prefix("3D").unwrap_or(&mail[at..]);
    rest.chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect()
}

/// Proves `email` for the link and answers the contribution token.
async fn prove(stack: &Stack, link: &str, email: &str) -> String {
    let (status, sent) = stack
        .post(
            "sharing/anonymous/verification/send/",
            json!({ "link": link, "email": email }),
        )
        .await;
    assert_eq!(status, 200, "{sent}");
    let code = read_code(email).await;
    let code_id = sent["code_id"].as_str().unwrap();
    let (status, wrong) = stack
        .post(
            &format!("sharing/anonymous/verification/{code_id}/check/"),
            json!({ "confirmation_code": if code == "000000" { "111111" } else { "000000" } }),
        )
        .await;
    assert_eq!(status, 400);
    assert!(first(&wrong).1.contains("incorrect"), "{wrong}");
    let (status, granted) = stack
        .post(
            &format!("sharing/anonymous/verification/{code_id}/check/"),
            json!({ "confirmation_code": code }),
        )
        .await;
    assert_eq!(status, 200, "{granted}");
    granted["contribution_token"].as_str().unwrap().to_owned()
}

async fn as_contributor(
    stack: &Stack,
    method: Method,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = stack
        .http
        .request(method, stack.url(path))
        .header("X-Contribution-Token", token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

async fn contents(stack: &Stack, folder_id: &str, token: &str) -> Value {
    let (status, body) = as_contributor(
        stack,
        Method::GET,
        &format!("sharing/folder/{folder_id}/contents/"),
        token,
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    body
}

async fn submission_status(
    stack: &Stack,
    folder_id: &str,
    token: &str,
    id: &str,
    want: &str,
) -> Value {
    testing::eventually(
        &format!("submission {want}"),
        Duration::from_secs(20),
        || async {
            let body = contents(stack, folder_id, token).await;
            body["steps"]
                .as_array()?
                .iter()
                .flat_map(|s| s["submissions"].as_array().cloned().unwrap_or_default())
                .find(|s| s["id"] == json!(id) && s["status"] == json!(want))
        },
    )
    .await
}

#[tokio::test]
async fn anonymous_contributors_send_files_that_participants_accept_or_decline() {
    let stack = Stack::start_with(|evidence| {
        // Small enough that a test photo goes in parts; declined files go at the next sweep.
        evidence.contributions.single_upload_max_bytes = 64 * 1024;
        evidence.uploads.part_size_bytes = 5 * 1024 * 1024;
        evidence.contributions.declined_retention_seconds = 1;
        evidence.storage.sweep_interval_seconds = 1;
    })
    .await;
    let owner = stack.sign_up_organization("Harbour Rentals").await;
    let member = join(&stack, &owner, "member").await;
    let outsider = stack.sign_up_organization("Not Us").await;
    let made = template(&stack, &owner.access).await;
    let folder = org_folder(&stack, &member, made["id"].as_str().unwrap()).await;
    let folder_id = folder["id"].as_str().unwrap().to_owned();
    let front = folder["steps"][0]["id"].as_str().unwrap().to_owned();
    let close_up = folder["steps"][2]["id"].as_str().unwrap().to_owned();

    // Another organization cannot open a link for this folder.
    let customer = unique("customer");
    let link_body = json!({ "folder_id": folder_id, "email": customer, "expires_in_days": 7, "max_submissions": 4 });
    let (status, _) = stack
        .post_auth(
            "sharing/contribution-links/create/",
            &outsider.access,
            link_body.clone(),
        )
        .await;
    assert_eq!(status, 404);
    let (status, link) = stack
        .post_auth("sharing/contribution-links/create/", &member, link_body)
        .await;
    assert_eq!(status, 201, "{link}");
    assert_eq!(
        (&link["state"], &link["channel"]),
        (&json!("active"), &json!("email"))
    );
    let mail = read_message(&customer, "/organization-sharing/verification/", &[]).await;
    assert!(mail.contains("Harbour Rentals"), "{mail}");
    let token_in_link = link_token(&mail);
    let token = prove(&stack, &token_in_link, &customer).await;

    // The folder as the contributor sees it: its steps, nothing of anyone else's.
    let (status, details) = as_contributor(
        &stack,
        Method::GET,
        &format!("sharing/folder/{folder_id}/details/"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 200, "{details}");
    assert_eq!(
        (
            &details["organization_name"],
            &details["email"],
            &details["submissions_left"]
        ),
        (&json!("Harbour Rentals"), &json!(customer), &json!(4))
    );

    // The single path: create, the presigned POST, finish; verified by content and hash.
    let small = jpeg(64, 48, 200);
    let client_a = Uuid::new_v4().to_string();
    let proof = |client_id: &str, step: &str, bytes: &[u8], mime: &str| {
        let mut body = capture(
            bytes,
            mime,
            json!({ "captured_at": "2026-11-20T10:00:00Z", "latitude": 52.37, "longitude": 4.89 }),
        );
        body["client_id"] = json!(client_id);
        (
            format!("sharing/anonymous/proofs/{folder_id}/{step}/create/"),
            body,
        )
    };
    let (path, body) = proof(&client_a, &front, &small, "image/jpeg");
    let (status, created) = as_contributor(&stack, Method::POST, &path, &token, Some(body)).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["upload"], "single");
    let a = created["evidence"]["id"].as_str().unwrap().to_owned();
    let (status, post) = as_contributor(
        &stack,
        Method::POST,
        &format!("sharing/anonymous/proofs/proofs/{a}/single-upload-url/create/"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 200, "{post}");
    assert!(
        post_form(&post["presigned_upload_url"], small.clone(), "image/jpeg")
            .await
            .is_success()
    );
    let (status, finished) = as_contributor(
        &stack,
        Method::POST,
        &format!("sharing/anonymous/proofs/{a}/multipart-upload/finish/"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 200, "{finished}");
    submission_status(&stack, &folder_id, &token, &a, "verified").await;

    // The receipt lists the file with its SHA-256.
    let receipt = read_message(&customer, "Receipt", &[]).await;
    assert!(receipt.contains(&sha256(&small)), "{receipt}");

    // The multipart path: a finish before the parts are up marks the file rejected; the same
    // client id starts it over, and then it arrives.
    let large = jpeg(1200, 900, 40);
    assert!(large.len() > 64 * 1024);
    let client_b = Uuid::new_v4().to_string();
    let (path, body) = proof(&client_b, &close_up, &large, "image/jpeg");
    let (status, created) =
        as_contributor(&stack, Method::POST, &path, &token, Some(body.clone())).await;
    assert_eq!(
        (status, &created["upload"]),
        (201, &json!("multipart")),
        "{created}"
    );
    let b = created["evidence"]["id"].as_str().unwrap().to_owned();
    let (status, failed) = as_contributor(
        &stack,
        Method::POST,
        &format!("sharing/anonymous/proofs/{b}/multipart-upload/finish/"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 400, "{failed}");
    assert_eq!(first(&failed).0, "rejected");
    submission_status(&stack, &folder_id, &token, &b, "rejected").await;
    let (status, again) = as_contributor(&stack, Method::POST, &path, &token, Some(body)).await;
    assert_eq!(status, 201, "{again}");
    assert_eq!(
        (&again["evidence"]["id"], &again["evidence"]["status"]),
        (&json!(b), &json!("awaiting_upload"))
    );
    let (status, parts) = as_contributor(
        &stack,
        Method::POST,
        &format!("sharing/anonymous/proofs/{b}/multipart-upload/start/"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 200, "{parts}");
    assert!(!parts["upload_id"].as_str().unwrap().is_empty());
    let size = usize::try_from(parts["part_size"].as_i64().unwrap()).unwrap();
    for (i, part) in parts["presigned_urls"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let chunk = large[i * size..large.len().min((i + 1) * size)].to_vec();
        let put = reqwest::Client::new()
            .put(part["url"].as_str().unwrap())
            .body(chunk)
            .send()
            .await
            .unwrap();
        assert!(put.status().is_success());
    }
    let (status, finished) = as_contributor(
        &stack,
        Method::POST,
        &format!("sharing/anonymous/proofs/{b}/multipart-upload/finish/"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 200, "{finished}");
    submission_status(&stack, &folder_id, &token, &b, "verified").await;

    // Content, not the Content-Type: text sent as a photo is rejected once checked.
    let text = b"this is not a photograph at all".to_vec();
    let client_c = Uuid::new_v4().to_string();
    let (path, body) = proof(&client_c, &close_up, &text, "image/jpeg");
    let (_, created) = as_contributor(&stack, Method::POST, &path, &token, Some(body)).await;
    let c = created["evidence"]["id"].as_str().unwrap().to_owned();
    let (_, post) = as_contributor(
        &stack,
        Method::POST,
        &format!("sharing/anonymous/proofs/proofs/{c}/single-upload-url/create/"),
        &token,
        None,
    )
    .await;
    assert!(
        post_form(&post["presigned_upload_url"], text, "image/jpeg")
            .await
            .is_success()
    );
    as_contributor(
        &stack,
        Method::POST,
        &format!("sharing/anonymous/proofs/{c}/multipart-upload/finish/"),
        &token,
        None,
    )
    .await;
    let refused = submission_status(&stack, &folder_id, &token, &c, "rejected").await;
    assert_eq!(
        refused["rejection_reason"],
        "The file's content is not the kind of file it was sent as."
    );

    // A second contributor on the same link sees none of the first one's files.
    let other = unique("neighbour");
    let other_token = prove(&stack, &token_in_link, &other).await;
    let theirs = contents(&stack, &folder_id, &other_token).await;
    assert!(
        theirs["steps"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["submissions"] == json!([])),
        "{theirs}"
    );
    let (status, _) = as_contributor(
        &stack,
        Method::POST,
        &format!("sharing/anonymous/proofs/{a}/multipart-upload/finish/"),
        &other_token,
        None,
    )
    .await;
    assert_eq!(status, 404);
    // The token reaches its own folder only.
    let other_folder = org_folder(&stack, &member, made["id"].as_str().unwrap()).await;
    let (status, _) = as_contributor(
        &stack,
        Method::GET,
        &format!(
            "sharing/folder/{}/contents/",
            other_folder["id"].as_str().unwrap()
        ),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 404);

    // Triage: both arrived files are pending; one accepted, one declined (and then deleted).
    let (_, seen) = stack
        .get_auth(&format!("organizations/folders/{folder_id}/"), &member)
        .await;
    assert_eq!(seen["pending_count"], 2, "{seen}");
    assert_eq!(seen["steps"][0]["items"][0]["review_state"], "pending");
    assert_eq!(
        seen["steps"][0]["items"][0]["contributor_email"],
        json!(customer)
    );
    assert_eq!(
        seen["steps"][0]["complete"], false,
        "pending files do not count yet"
    );
    let review = |item: String, decision: &'static str| {
        let stack = &stack;
        let member = member.clone();
        async move {
            stack
                .post_auth(
                    &format!("organizations/items/{item}/review/"),
                    &member,
                    json!({ "decision": decision }),
                )
                .await
        }
    };
    let (status, accepted) = review(a.clone(), "accepted").await;
    assert_eq!(
        (status, &accepted["review_state"]),
        (200, &json!("accepted")),
        "{accepted}"
    );
    let (status, again) = review(a.clone(), "declined").await;
    assert_eq!(status, 400, "{again}");
    let (status, _) = stack
        .post_auth(
            &format!("organizations/items/{b}/review/"),
            &outsider.access,
            json!({ "decision": "declined" }),
        )
        .await;
    assert_eq!(status, 404);
    let (status, declined) = review(b.clone(), "declined").await;
    assert_eq!(
        (status, &declined["review_state"]),
        (200, &json!("declined"))
    );
    let (_, seen) = stack
        .get_auth(&format!("organizations/folders/{folder_id}/"), &member)
        .await;
    assert_eq!(
        (&seen["pending_count"], &seen["steps"][0]["complete"]),
        (&json!(0), &json!(true))
    );
    testing::eventually(
        "the declined file deleted",
        Duration::from_secs(20),
        || async {
            let (status, _) = stack
                .get_auth(&format!("evidence/items/{b}/"), &owner.access)
                .await;
            (status == 404).then_some(())
        },
    )
    .await;

    // The custody log says who sent the accepted file.
    let (status, custody) = stack
        .get_auth(
            &format!("sharing/folder/{folder_id}/contents/"),
            &owner.access,
        )
        .await;
    assert_eq!(status, 200, "{custody}");
    let entry = custody["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["item_id"] == json!(a))
        .map(|i| i["custody"][1]["detail"].clone())
        .unwrap_or(Value::Null);
    assert!(
        entry
            .as_str()
            .is_some_and(|d| d.contains("anonymous contributor") && d.contains(&customer)),
        "{custody}"
    );

    // A used-up link says so: four submissions were taken (a, b, c), one more fits, then none.
    let client_d = Uuid::new_v4().to_string();
    let (path, body) = proof(&client_d, &front, &small, "image/jpeg");
    let (status, _) = as_contributor(&stack, Method::POST, &path, &other_token, Some(body)).await;
    assert_eq!(status, 201);
    let (path, body) = proof(&Uuid::new_v4().to_string(), &front, &small, "image/jpeg");
    let (status, used_up) =
        as_contributor(&stack, Method::POST, &path, &other_token, Some(body)).await;
    assert_eq!(status, 400, "{used_up}");
    assert_eq!(
        first(&used_up),
        (
            "link_used_up".into(),
            "This link has reached its number of submissions.".into()
        )
    );

    // Revoked: no new code, and the tokens stop at once.
    let (status, revoked) = stack
        .post_auth(
            &format!(
                "sharing/contribution-links/{}/revoke/",
                link["id"].as_str().unwrap()
            ),
            &member,
            json!({}),
        )
        .await;
    assert_eq!((status, &revoked["state"]), (200, &json!("revoked")));
    let (status, refused) = stack
        .post(
            "sharing/anonymous/verification/send/",
            json!({ "link": token_in_link, "email": customer }),
        )
        .await;
    assert_eq!(
        (status, first(&refused)),
        (
            400,
            ("link_revoked".into(), "This link was revoked.".into())
        )
    );
    let (status, _) = as_contributor(
        &stack,
        Method::GET,
        &format!("sharing/folder/{folder_id}/contents/"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 400);

    // Expired: a second link, moved past its expiry, says so.
    let late = unique("late");
    let (_, second) = stack
        .post_auth(
            "sharing/contribution-links/create/",
            &member,
            json!({ "folder_id": folder_id, "email": late, "expires_in_days": 1, "max_submissions": 1 }),
        )
        .await;
    let late_token =
        link_token(&read_message(&late, "/organization-sharing/verification/", &[]).await);
    let mut conn = testing::connect(&stack.sharing_db).await;
    sqlx::query!(
        "UPDATE contribution_links SET expires_at = now() - interval '1 second' WHERE id = $1",
        Uuid::parse_str(second["id"].as_str().unwrap()).unwrap()
    )
    .execute(&mut conn)
    .await
    .unwrap();
    let (status, expired) = stack
        .post(
            "sharing/anonymous/verification/send/",
            json!({ "link": late_token, "email": late }),
        )
        .await;
    assert_eq!(
        (status, first(&expired)),
        (
            400,
            ("link_expired".into(), "This link has expired.".into())
        )
    );
    let (_, links) = stack
        .get_auth(
            &format!("sharing/contribution-links/?folder_id={folder_id}"),
            &member,
        )
        .await;
    let states: Vec<&str> = links["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["expired", "revoked"]);

    // By SMS: the link goes to the number, and reads the same.
    let national = format!("7{}", &Uuid::new_v4().as_u128().to_string()[..9]);
    let (status, by_sms) = stack
        .post_auth(
            "sharing/contribution-links/create/",
            &member,
            json!({
                "folder_id": folder_id,
                "phone_number": { "country_code": "+44", "national_number": national },
                "expires_in_days": 3, "max_submissions": 2,
            }),
        )
        .await;
    assert_eq!(status, 201, "{by_sms}");
    assert_eq!(
        (&by_sms["channel"], &by_sms["sent_to"]),
        (&json!("sms"), &json!(format!("+44 {national}")))
    );
    let sms = read_message(
        &format!("+44{national}"),
        "/organization-sharing/verification/",
        &[],
    )
    .await;
    assert!(
        sms.contains(&folder_id) && sms.contains("Harbour Rentals"),
        "{sms}"
    );
    let (status, bad) = stack
        .post_auth(
            "sharing/contribution-links/create/",
            &member,
            json!({ "folder_id": folder_id, "email": "not an address", "expires_in_days": 0, "max_submissions": 101 }),
        )
        .await;
    assert_eq!(status, 400, "{bad}");
    let (status, _) = stack
        .post(
            "sharing/anonymous/verification/send/",
            json!({ "link": "unknownlinktoken", "email": late }),
        )
        .await;
    assert_eq!(status, 404);
}
