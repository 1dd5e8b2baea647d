//! Organization capture's routes through the gateway: the REST shapes and statuses of capture
//! templates, organization folders, reviews and contribution links, the anonymous contributor's
//! token header, and what the gateway composes (the organization's name in a link, the owner
//! alone pricing a folder's storage). The behaviour behind them is evidence's and sharing's,
//! tested next to them (services/evidence/tests/api/organizations.rs,
//! services/sharing/tests/api/contributions.rs).

use crate::support::{SignedUp, Stack, capture, read_code, read_message};
use evidentia_common::testing;
use reqwest::Method;
use serde_json::{Value, json};
use uuid::Uuid;

fn unique(prefix: &str) -> String {
    format!("{prefix}-{}@example.com", Uuid::now_v7().simple())
}

/// The first error's `code` and `message`.
fn first(body: &Value) -> (&str, &str) {
    let error = &body["errors"][0];
    (
        error["code"].as_str().unwrap_or_default(),
        error["message"].as_str().unwrap_or_default(),
    )
}

fn fields(body: &Value) -> Vec<&str> {
    body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap_or_default())
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
    let (code, _) = testing::token_after(&invited, "/join-organization/", &[]).await;
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

/// A call with the anonymous contributor's token header.
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
    crate::support::send(request).await
}

#[tokio::test]
async fn organization_capture_routes_answer_their_rest_shapes_and_statuses() {
    let stack = Stack::start().await;
    let owner = stack.sign_up_organization("Harbour Rentals").await;
    let member = join(&stack, &owner, "member").await;
    let outsider = stack.sign_up_organization("Not Us").await;

    // Signed-in routes need a token.
    let (status, body) = stack.get("organizations/capture-templates/").await;
    assert_eq!(status, 401, "{body}");

    // Templates: 201 with the steps as sent, 403 for a member's change, 400 naming fields.
    let template = json!({
        "name": "Vehicle damage claim",
        "description": "What we need to assess the damage.",
        "steps": [
            { "name": "Front", "instructions": "Plate readable.", "media_types": ["image"], "min_files": 1, "max_files": 2 },
            { "name": "Damage close up", "media_types": ["image", "video"], "min_files": 0, "max_files": 5 },
        ],
    });
    let (status, made) = stack
        .post_auth(
            "organizations/capture-templates/create/",
            &owner.access,
            template.clone(),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["archived"], false);
    assert_eq!(made["steps"][1]["media_types"], json!(["image", "video"]));
    assert!(made["steps"][0]["id"].is_string(), "{made}");
    let id = made["id"].as_str().unwrap().to_owned();
    let (status, refused) = stack
        .post_auth(
            "organizations/capture-templates/create/",
            &member,
            template.clone(),
        )
        .await;
    assert_eq!(status, 403, "{refused}");
    assert_eq!(
        first(&refused),
        (
            "forbidden",
            "Only the organization's owner and admins can do this."
        )
    );
    let update = format!("organizations/capture-templates/{id}/update/");
    let (status, bad) = stack
        .send_auth(
            Method::PUT,
            &update,
            &owner.access,
            Some(json!({ "name": "x", "steps": [
                { "name": "Front", "media_types": ["image"], "min_files": 3, "max_files": 2 },
            ] })),
        )
        .await;
    assert_eq!(status, 400, "{bad}");
    assert_eq!(fields(&bad), ["name", "steps[0].min_files"]);
    let (status, changed) = stack
        .send_auth(Method::PUT, &update, &owner.access, Some(template))
        .await;
    assert_eq!(status, 200, "{changed}");
    let (status, listed) = stack
        .get_auth("organizations/capture-templates/", &member)
        .await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed["templates"][0]["id"], json!(id));
    let (status, _) = stack
        .get_auth(
            &format!("organizations/capture-templates/{id}/"),
            &outsider.access,
        )
        .await;
    assert_eq!(status, 404);

    // Folders: 201 with the template's steps and counts; the list and one folder are 200.
    let (status, folder) = stack
        .post_auth(
            "organizations/folders/create/",
            &member,
            json!({ "template_id": id, "name": "Claim 1043" }),
        )
        .await;
    assert_eq!(status, 201, "{folder}");
    assert_eq!(
        (
            &folder["template_name"],
            &folder["step_count"],
            &folder["steps_complete"]
        ),
        (&json!("Vehicle damage claim"), &json!(2), &json!(1))
    );
    let folder_id = folder["id"].as_str().unwrap().to_owned();
    let front = folder["steps"][0]["id"].as_str().unwrap().to_owned();
    let (status, listed) = stack.get_auth("organizations/folders/", &member).await;
    assert_eq!(
        (status, &listed["folders"][0]["id"]),
        (200, &json!(folder_id))
    );
    let (status, seen) = stack
        .get_auth(
            &format!("organizations/folders/{folder_id}/"),
            &owner.access,
        )
        .await;
    assert_eq!(status, 200, "{seen}");
    assert_eq!(seen["pending_count"], 0);

    // The gateway prices a folder's storage for its owner only.
    let price = json!({ "folder_id": folder_id, "months": 3 });
    let (status, refused) = stack
        .post_auth(
            "payments/storage-price-prolong/calculate/",
            &member,
            price.clone(),
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
            price,
        )
        .await;
    assert_eq!(status, 200, "{priced}");

    // A file of a step: a member may not delete it (403), the owner may (204); a review of
    // another organization's file is 404.
    let (status, created) = stack
        .post_auth(
            &format!("evidence/folders/{folder_id}/items/create/"),
            &member,
            capture(b"a photo", "image/jpeg", json!({ "step_id": front })),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["item"]["step_id"], json!(front));
    let item = created["item"]["id"].as_str().unwrap().to_owned();
    let (status, _) = stack
        .post_auth(
            &format!("organizations/items/{item}/review/"),
            &outsider.access,
            json!({ "decision": "declined" }),
        )
        .await;
    assert_eq!(status, 404);
    let delete = format!("evidence/items/{item}/delete/");
    let (status, _) = stack
        .send_auth(Method::DELETE, &delete, &member, None)
        .await;
    assert_eq!(status, 403);
    let (status, _) = stack
        .send_auth(Method::DELETE, &delete, &owner.access, None)
        .await;
    assert_eq!(status, 204);

    // Contribution links: 201 with the organization's name (accounts') in the message, listed.
    // An address and a number at once are refused rather than one dropped.
    let customer = unique("customer");
    let (status, both) = stack
        .post_auth(
            "sharing/contribution-links/create/",
            &member,
            json!({ "folder_id": folder_id, "email": customer, "expires_in_days": 7, "max_submissions": 4,
                    "phone_number": { "country_code": "+1", "national_number": "5551234567" } }),
        )
        .await;
    assert_eq!(status, 400, "{both}");
    assert_eq!(
        (&both["errors"][0]["field"], &both["errors"][0]["message"]),
        (
            &json!("email"),
            &json!("Give an e-mail address or a phone number, not both.")
        )
    );
    let (status, link) = stack
        .post_auth(
            "sharing/contribution-links/create/",
            &member,
            json!({ "folder_id": folder_id, "email": customer, "expires_in_days": 7, "max_submissions": 4 }),
        )
        .await;
    assert_eq!(status, 201, "{link}");
    assert_eq!(
        (&link["state"], &link["channel"], &link["sent_to"]),
        (&json!("active"), &json!("email"), &json!(customer))
    );
    let mail = read_message(&customer, "/organization-sharing/verification/", &[]).await;
    assert!(mail.contains("Harbour Rentals"), "{mail}");
    let token_in_link = testing::token_in(&mail, "?link=");
    let (status, links) = stack
        .get_auth(
            &format!("sharing/contribution-links/?folder_id={folder_id}"),
            &member,
        )
        .await;
    assert_eq!((status, &links["links"][0]["id"]), (200, &link["id"]));

    // The contributor's way in: a code (a wrong one is 400 naming the field), then the token
    // in the X-Contribution-Token header; without it, 401.
    let send = json!({ "link": token_in_link, "email": customer });
    let (status, sent) = stack
        .post("sharing/anonymous/verification/send/", send.clone())
        .await;
    assert_eq!(status, 200, "{sent}");
    let code = read_code(&customer).await;
    let check = format!(
        "sharing/anonymous/verification/{}/check/",
        sent["code_id"].as_str().unwrap()
    );
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let (status, refused) = stack
        .post(&check, json!({ "confirmation_code": wrong }))
        .await;
    assert_eq!(
        (status, fields(&refused)),
        (400, vec!["confirmation_code"]),
        "{refused}"
    );
    let (status, granted) = stack
        .post(&check, json!({ "confirmation_code": code }))
        .await;
    assert_eq!(status, 200, "{granted}");
    let token = granted["contribution_token"].as_str().unwrap().to_owned();
    let details = format!("sharing/folder/{folder_id}/details/");
    let (status, _) = stack.get(&details).await;
    assert_eq!(status, 401);
    let (status, body) = as_contributor(&stack, Method::GET, &details, &token, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (&body["organization_name"], &body["submissions_left"]),
        (&json!("Harbour Rentals"), &json!(4))
    );
    let mut proof = capture(b"a photo", "image/jpeg", json!({}));
    proof["client_id"] = json!(Uuid::new_v4().to_string());
    let (status, created) = as_contributor(
        &stack,
        Method::POST,
        &format!("sharing/anonymous/proofs/{folder_id}/{front}/create/"),
        &token,
        Some(proof),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(
        (&created["upload"], &created["evidence"]["status"]),
        (&json!("single"), &json!("awaiting_upload"))
    );

    // Revoked: 200 with its state, then a closed link is 400 with its reason as `code`; an
    // unknown one is 404.
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
        .post("sharing/anonymous/verification/send/", send)
        .await;
    assert_eq!(
        (status, first(&refused)),
        (400, ("link_revoked", "This link was revoked."))
    );
    let (status, _) = stack
        .post(
            "sharing/anonymous/verification/send/",
            json!({ "link": "unknownlinktoken", "email": customer }),
        )
        .await;
    assert_eq!(status, 404);
}
