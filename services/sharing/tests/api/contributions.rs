//! Contribution links: a participant of an organization sends a link for an organization folder
//! by e-mail or SMS; an anonymous contributor proves an address and sends files into its steps
//! (both upload paths, a failed finish marking the file rejected and a retry, content sniffing),
//! seeing only their own; a participant accepts or declines them; expired, revoked and used-up
//! links say so. Organizations are accounts': evidence asks it who belongs to one.

use evidentia_common::{
    proto::{
        evidence::v1::{self as evidence_pb, MediaType},
        sharing::v1::{self as pb, recipient::Address},
    },
    testing::{self, WAIT, jpeg, read_message, sha256},
};
use tonic::{Code, Status};
use uuid::Uuid;

use crate::helpers::{TestApp, User, email, unique};

const ORGANIZATION: &str = "Harbour Rentals";

/// A template whose first step takes photos and whose third takes photos or videos.
fn template() -> evidence_pb::TemplateInput {
    let step = |name: &str, media: &[MediaType], min_files, max_files| evidence_pb::TemplateStep {
        name: name.into(),
        media_types: media.iter().map(|m| *m as i32).collect(),
        min_files,
        max_files,
        ..Default::default()
    };
    evidence_pb::TemplateInput {
        name: "Vehicle damage claim".into(),
        description: String::new(),
        steps: vec![
            step("Front", &[MediaType::Image], 1, 2),
            step("Walk-around", &[MediaType::Video], 1, 1),
            step(
                "Damage close up",
                &[MediaType::Image, MediaType::Video],
                0,
                5,
            ),
        ],
    }
}

/// A new folder of the organization made from `template` by `user`.
async fn org_folder(app: &TestApp, user: &User, template: &str) -> evidence_pb::OrganizationFolder {
    app.evidence()
        .create_organization_folder(user.req(evidence_pb::CreateOrganizationFolderRequest {
            template_id: template.into(),
            name: "Claim 1043".into(),
            client_id: None,
        }))
        .await
        .unwrap()
        .into_inner()
}

#[track_caller]
fn assert_closed(status: &Status, reason: &str, message: &str) {
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    assert_eq!(
        testing::reason(status).as_deref(),
        Some(reason),
        "{status:?}"
    );
    assert_eq!(status.message(), message);
}

/// Sends a code for the link to `address` (the verification message only).
async fn send_code(
    app: &TestApp,
    link: &str,
    address: &str,
) -> Result<pb::ContributorCodeSent, Status> {
    app.sharing()
        .send_contributor_code(pb::SendContributorCodeRequest {
            link: link.into(),
            email: address.into(),
            client_ip: String::new(),
        })
        .await
        .map(tonic::Response::into_inner)
}

/// Proves `address` for the link (a wrong code first) and answers the contribution token.
async fn prove(app: &TestApp, link: &str, address: &str) -> String {
    let sent = send_code(app, link, address).await.unwrap();
    let code = testing::code_in(&read_message(address, "confirmation code is ", &[]).await);
    let check = async |code: String| {
        app.sharing()
            .check_contributor_code(pb::CheckContributorCodeRequest {
                code_id: sent.code_id.clone(),
                confirmation_code: code,
            })
            .await
    };
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let refused = check(wrong.into()).await.unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    assert!(
        testing::field_errors(&refused)
            .iter()
            .any(|(_, message)| message.contains("incorrect")),
        "{refused:?}"
    );
    check(code).await.unwrap().into_inner().contribution_token
}

/// The folder as the contributor of `token` sees it.
async fn contents(
    app: &TestApp,
    folder: &str,
    token: &str,
) -> Result<pb::ContributorFolder, Status> {
    app.sharing()
        .get_contributor_folder(pb::GetContributorFolderRequest {
            token: token.into(),
            folder_id: folder.into(),
            step_id: None,
        })
        .await
        .map(tonic::Response::into_inner)
}

/// Waits until the contributor's submission `id` is `want`; answers it.
async fn submission_status(
    app: &TestApp,
    folder: &str,
    token: &str,
    id: &str,
    want: &str,
) -> pb::Submission {
    testing::eventually(&format!("submission {want}"), WAIT, || async {
        contents(app, folder, token)
            .await
            .ok()?
            .steps
            .into_iter()
            .flat_map(|s| s.submissions)
            .find(|s| s.id == id && s.status == want)
    })
    .await
}

/// A contributor's calls by their token.
struct Contributor<'a> {
    app: &'a TestApp,
    token: String,
    folder: String,
}

impl Contributor<'_> {
    /// A new file of `bytes` as `mime` for `step`, registered under `client_id`.
    async fn create(
        &self,
        client_id: &str,
        step: &str,
        bytes: &[u8],
        mime: &str,
    ) -> Result<pb::SubmissionCreated, Status> {
        let capture = testing::capture(&self.folder, bytes, mime);
        self.app
            .sharing()
            .create_submission(pb::CreateSubmissionRequest {
                token: self.token.clone(),
                folder_id: self.folder.clone(),
                step_id: step.into(),
                client_ip: String::new(),
                client_id: client_id.into(),
                name: capture.name,
                media_type: "image".into(),
                mime_type: capture.mime_type,
                file_size: capture.file_size,
                sha256: capture.sha256,
                captured_at: capture.captured_at,
                latitude: capture.latitude,
                longitude: capture.longitude,
                duration_seconds: None,
            })
            .await
            .map(tonic::Response::into_inner)
    }

    fn submission(&self, id: &str) -> pb::SubmissionRequest {
        pb::SubmissionRequest {
            token: self.token.clone(),
            submission_id: id.into(),
            client_ip: String::new(),
        }
    }

    /// Posts `bytes` by the single path's presigned POST.
    async fn post(&self, id: &str, bytes: Vec<u8>, mime: &str) {
        let post = self
            .app
            .sharing()
            .submission_single_upload(self.submission(id))
            .await
            .unwrap()
            .into_inner();
        let upload = evidence_pb::SingleUpload {
            url: post.url,
            fields: post.fields,
            expires_at: None,
        };
        assert!(testing::post_form(&upload, bytes, mime).await.is_success());
    }

    async fn finish(&self, id: &str) -> Result<pb::Submission, Status> {
        self.app
            .sharing()
            .finish_submission(self.submission(id))
            .await
            .map(tonic::Response::into_inner)
    }
}

#[tokio::test]
async fn anonymous_contributors_send_files_that_participants_accept_or_decline() {
    let app = TestApp::spawn_with_accounts(|evidence| {
        // Small enough that a test photo goes in parts; declined files go at the next sweep.
        evidence.contributions.single_upload_max_bytes = 64 * 1024;
        evidence.uploads.part_size_bytes = 5 * 1024 * 1024;
        evidence.contributions.declined_retention_seconds = 1;
        evidence.storage.sweep_interval_seconds = 1;
    })
    .await;
    let accounts = app.accounts();
    let owner = app
        .announce(accounts.organization(ORGANIZATION).await)
        .await;
    let member = app.announce(accounts.join(owner.id, "member").await).await;
    let outsider = app.announce(accounts.organization("Not Us").await).await;
    let made = app
        .evidence()
        .create_template(owner.req(template()))
        .await
        .unwrap()
        .into_inner();
    let folder = org_folder(&app, &member, &made.id).await;
    let folder_id = folder.folder.as_ref().unwrap().id.clone();
    let front = folder.steps[0].id.clone();
    let close_up = folder.steps[2].id.clone();

    // Another organization cannot open a link for this folder.
    let customer = unique("customer");
    let link_request = |recipient: pb::Recipient, expires_in_days, max_submissions| {
        pb::CreateContributionLinkRequest {
            folder_id: folder_id.clone(),
            organization_name: ORGANIZATION.into(),
            recipient: Some(recipient),
            expires_in_days,
            max_submissions,
        }
    };
    let refused = app
        .sharing()
        .create_contribution_link(outsider.req(link_request(email(&customer), 7, 4)))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
    let link = app
        .sharing()
        .create_contribution_link(member.req(link_request(email(&customer), 7, 4)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (link.state.as_str(), link.channel.as_str()),
        ("active", "email")
    );
    let mail = read_message(&customer, "/organization-sharing/verification/", &[]).await;
    assert!(mail.contains(ORGANIZATION), "{mail}");
    let token_in_link = testing::token_in(&mail, "?link=");
    let token = prove(&app, &token_in_link, &customer).await;
    let first = Contributor {
        app: &app,
        token: token.clone(),
        folder: folder_id.clone(),
    };

    // The folder as the contributor sees it: its steps, nothing of anyone else's.
    let details = contents(&app, &folder_id, &token).await.unwrap();
    assert_eq!(
        (
            details.organization_name.as_str(),
            details.email.as_str(),
            details.submissions_left
        ),
        (ORGANIZATION, customer.as_str(), 4)
    );

    // The single path: create, the presigned POST, finish; verified by content and hash.
    let small = jpeg(64, 48, 200);
    let created = first
        .create(&Uuid::new_v4().to_string(), &front, &small, "image/jpeg")
        .await
        .unwrap();
    assert_eq!(created.upload, "single");
    let a = created.submission.unwrap().id;
    first.post(&a, small.clone(), "image/jpeg").await;
    first.finish(&a).await.unwrap();
    submission_status(&app, &folder_id, &token, &a, "verified").await;

    // The receipt lists the file with its SHA-256.
    let receipt = read_message(&customer, "Receipt", &[]).await;
    assert!(receipt.contains(&sha256(&small)), "{receipt}");

    // The multipart path: a finish before the parts are up marks the file rejected; the same
    // client id starts it over, and then it arrives.
    let large = jpeg(1200, 900, 40);
    assert!(large.len() > 64 * 1024);
    let client_b = Uuid::new_v4().to_string();
    let created = first
        .create(&client_b, &close_up, &large, "image/jpeg")
        .await
        .unwrap();
    assert_eq!(created.upload, "multipart");
    let b = created.submission.unwrap().id;
    let failed = first.finish(&b).await.unwrap_err();
    assert_eq!(
        testing::reason(&failed).as_deref(),
        Some("rejected"),
        "{failed:?}"
    );
    submission_status(&app, &folder_id, &token, &b, "rejected").await;
    let again = first
        .create(&client_b, &close_up, &large, "image/jpeg")
        .await
        .unwrap()
        .submission
        .unwrap();
    assert_eq!(
        (again.id.as_str(), again.status.as_str()),
        (b.as_str(), "awaiting_upload")
    );
    let parts = app
        .sharing()
        .start_submission_multipart(first.submission(&b))
        .await
        .unwrap()
        .into_inner();
    assert!(!parts.upload_id.is_empty());
    let size = usize::try_from(parts.part_size).unwrap();
    for (i, part) in parts.urls.iter().enumerate() {
        let chunk = large[i * size..large.len().min((i + 1) * size)].to_vec();
        let put = reqwest::Client::new()
            .put(&part.url)
            .body(chunk)
            .send()
            .await
            .unwrap();
        assert!(put.status().is_success());
    }
    first.finish(&b).await.unwrap();
    submission_status(&app, &folder_id, &token, &b, "verified").await;

    // Content, not the Content-Type: text sent as a photo is rejected once checked.
    let text = b"this is not a photograph at all".to_vec();
    let c = first
        .create(&Uuid::new_v4().to_string(), &close_up, &text, "image/jpeg")
        .await
        .unwrap()
        .submission
        .unwrap()
        .id;
    first.post(&c, text, "image/jpeg").await;
    let _ = first.finish(&c).await;
    let refused = submission_status(&app, &folder_id, &token, &c, "rejected").await;
    assert_eq!(
        refused.rejection_reason,
        "The file's content is not the kind of file it was sent as."
    );

    // A second contributor on the same link sees none of the first one's files.
    let other_token = prove(&app, &token_in_link, &unique("neighbour")).await;
    let second = Contributor {
        app: &app,
        token: other_token.clone(),
        folder: folder_id.clone(),
    };
    let theirs = contents(&app, &folder_id, &other_token).await.unwrap();
    assert!(
        theirs.steps.iter().all(|s| s.submissions.is_empty()),
        "{theirs:?}"
    );
    assert_eq!(second.finish(&a).await.unwrap_err().code(), Code::NotFound);
    // The token reaches its own folder only.
    let other_folder = org_folder(&app, &member, &made.id).await;
    let elsewhere = contents(&app, &other_folder.folder.unwrap().id, &token)
        .await
        .unwrap_err();
    assert_eq!(elsewhere.code(), Code::NotFound);

    // Triage: both arrived files are pending; one accepted, one declined (and then deleted).
    let seen = async |user: &User| {
        app.evidence()
            .get_organization_folder(user.req(evidence_pb::GetOrganizationFolderRequest {
                folder_id: folder_id.clone(),
            }))
            .await
    };
    let pending = seen(&member).await.unwrap().into_inner();
    assert_eq!(pending.pending_count, 2, "{pending:?}");
    let first_item = &pending.steps[0].items[0];
    assert_eq!(first_item.review_state.as_deref(), Some("pending"));
    assert_eq!(
        first_item.contributor_email.as_deref(),
        Some(customer.as_str())
    );
    assert!(!pending.steps[0].complete, "pending files do not count yet");
    let review = async |user: &User, item: &str, decision: &str| {
        app.evidence()
            .review_item(user.req(evidence_pb::ReviewItemRequest {
                item_id: item.into(),
                decision: decision.into(),
            }))
            .await
    };
    let accepted = review(&member, &a, "accepted").await.unwrap().into_inner();
    assert_eq!(accepted.review_state.as_deref(), Some("accepted"));
    let again = review(&member, &a, "declined").await.unwrap_err();
    assert_eq!(again.code(), Code::FailedPrecondition, "{again:?}");
    assert_eq!(testing::reason(&again).as_deref(), Some("wrong_state"));
    let theirs = review(&outsider, &b, "declined").await.unwrap_err();
    assert_eq!(theirs.code(), Code::NotFound);
    let declined = review(&member, &b, "declined").await.unwrap().into_inner();
    assert_eq!(declined.review_state.as_deref(), Some("declined"));
    let reviewed = seen(&member).await.unwrap().into_inner();
    assert_eq!(
        (reviewed.pending_count, reviewed.steps[0].complete),
        (0, true)
    );
    testing::eventually("the declined file deleted", WAIT, || async {
        let found = app
            .evidence()
            .get_item(owner.req(evidence_pb::GetItemRequest { item_id: b.clone() }))
            .await;
        matches!(found, Err(status) if status.code() == Code::NotFound).then_some(())
    })
    .await;

    // The custody log says who sent the accepted file.
    let custody = app.custody(&owner, &folder_id).await;
    let entry = custody
        .items
        .iter()
        .find(|i| i.item_id == a)
        .and_then(|i| i.custody.get(1))
        .map(|e| e.detail.clone())
        .unwrap_or_default();
    assert!(
        entry.contains("anonymous contributor") && entry.contains(&customer),
        "{custody:?}"
    );

    // A used-up link says so: of four, three were taken (a, b, c), one more fits, then none.
    // That one is sent while eight files the service refuses (for a step of no folder) are in
    // flight: each refused file gives its submission back before the next file is counted, so
    // the good one is never refused for submissions that end up not made.
    let no_step = Uuid::new_v4().to_string();
    let clients: Vec<String> = (0..8).map(|_| Uuid::new_v4().to_string()).collect();
    let refused = futures::future::join_all(
        clients
            .iter()
            .map(|client| second.create(client, &no_step, &small, "image/jpeg")),
    );
    let good = async {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        second
            .create(&Uuid::new_v4().to_string(), &front, &small, "image/jpeg")
            .await
    };
    let (refused, good) = tokio::join!(refused, good);
    good.expect("the good file takes the last submission");
    assert!(refused.iter().all(Result::is_err), "{refused:?}");
    let used_up = second
        .create(&Uuid::new_v4().to_string(), &front, &small, "image/jpeg")
        .await
        .unwrap_err();
    assert_closed(
        &used_up,
        "link_used_up",
        "This link has reached its number of submissions.",
    );

    // Revoked: no new code, and the tokens stop at once.
    let revoked = app
        .sharing()
        .revoke_contribution_link(member.req(pb::RevokeContributionLinkRequest {
            link_id: link.id.clone(),
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(revoked.state, "revoked");
    let refused = send_code(&app, &token_in_link, &customer)
        .await
        .unwrap_err();
    assert_closed(&refused, "link_revoked", "This link was revoked.");
    let stopped = contents(&app, &folder_id, &token).await.unwrap_err();
    assert_closed(&stopped, "link_revoked", "This link was revoked.");

    // Expired: a second link, moved past its expiry, says so.
    let late = unique("late");
    let second_link = app
        .sharing()
        .create_contribution_link(member.req(link_request(email(&late), 1, 1)))
        .await
        .unwrap()
        .into_inner();
    let late_token = testing::token_in(
        &read_message(&late, "/organization-sharing/verification/", &[]).await,
        "?link=",
    );
    sqlx::query!(
        "UPDATE contribution_links SET expires_at = now() - interval '1 second' WHERE id = $1",
        Uuid::parse_str(&second_link.id).unwrap()
    )
    .execute(&mut testing::connect(app.sharing_db()).await)
    .await
    .unwrap();
    let expired = send_code(&app, &late_token, &late).await.unwrap_err();
    assert_closed(&expired, "link_expired", "This link has expired.");
    let links = app
        .sharing()
        .list_contribution_links(member.req(pb::ListContributionLinksRequest {
            folder_id: folder_id.clone(),
        }))
        .await
        .unwrap()
        .into_inner()
        .links;
    let states: Vec<&str> = links.iter().map(|l| l.state.as_str()).collect();
    assert_eq!(states, ["expired", "revoked"]);

    // By SMS: the link goes to the number, and reads the same.
    let national = format!("7{}", &Uuid::new_v4().as_u128().to_string()[..9]);
    let phone = pb::Recipient {
        address: Some(Address::PhoneNumber(pb::PhoneNumber {
            country_code: "+44".into(),
            national_number: national.clone(),
        })),
    };
    let by_sms = app
        .sharing()
        .create_contribution_link(member.req(link_request(phone, 3, 2)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (by_sms.channel.as_str(), by_sms.sent_to),
        ("sms", format!("+44 {national}"))
    );
    let sms = read_message(
        &format!("+44{national}"),
        "/organization-sharing/verification/",
        &[],
    )
    .await;
    assert!(
        sms.contains(&folder_id) && sms.contains(ORGANIZATION),
        "{sms}"
    );
    let bad = app
        .sharing()
        .create_contribution_link(member.req(link_request(email("not an address"), 0, 101)))
        .await
        .unwrap_err();
    assert_eq!(bad.code(), Code::InvalidArgument, "{bad:?}");
    let unknown = send_code(&app, "unknownlinktoken", &late)
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), Code::NotFound);
}
