//! Organizations' capture: templates and the role matrix (owners and admins change them,
//! participants read and use them), folders made from a template whose steps participants capture
//! into, and another organization's ids answered as not found. Memberships are accounts': these
//! tests spawn it and make organizations there.

use evidentia_common::{
    proto::evidence::v1::{self as pb, MediaType},
    testing,
};
use tonic::{Code, Status};

use crate::helpers::{TestApp, User, capture, jpeg, spawn_accounts};

/// Evidence asking a spawned accounts about memberships.
async fn spawn() -> (TestApp, testing::Accounts) {
    let accounts = spawn_accounts().await;
    let app = TestApp::spawn_with(|config| config.accounts_url = accounts.url()).await;
    (app, accounts)
}

fn step(id: &str, name: &str, media: &[MediaType], min: i32, max: i32) -> pb::TemplateStep {
    pb::TemplateStep {
        id: id.into(),
        name: name.into(),
        instructions: String::new(),
        media_types: media.iter().map(|m| *m as i32).collect(),
        min_files: min,
        max_files: max,
    }
}

fn claim_template() -> pb::TemplateInput {
    let instructed = |mut step: pb::TemplateStep, instructions: &str| {
        step.instructions = instructions.into();
        step
    };
    pb::TemplateInput {
        name: "Vehicle damage claim".into(),
        description: "What we need to assess the damage.".into(),
        steps: vec![
            instructed(
                step("", "Front", &[MediaType::Image], 1, 2),
                "The whole front, plate readable.",
            ),
            instructed(
                step("", "Walk-around", &[MediaType::Video], 1, 1),
                "30 seconds around the car.",
            ),
            step(
                "",
                "Damage close up",
                &[MediaType::Image, MediaType::Video],
                0,
                5,
            ),
        ],
    }
}

/// The fields of a field error, in order.
fn fields(status: &Status) -> Vec<String> {
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    testing::field_errors(status)
        .into_iter()
        .map(|(field, _)| field)
        .collect()
}

#[track_caller]
fn assert_forbidden(status: &Status) {
    assert_eq!(status.code(), Code::PermissionDenied, "{status:?}");
    assert_eq!(testing::reason(status).as_deref(), Some("forbidden"));
    assert_eq!(
        status.message(),
        "Only the organization's owner and admins can do this."
    );
}

impl User {
    async fn create_template(&self, input: pb::TemplateInput) -> Result<pb::Template, Status> {
        self.client()
            .create_template(self.req(input))
            .await
            .map(tonic::Response::into_inner)
    }

    async fn update_template(
        &self,
        id: &str,
        input: pb::TemplateInput,
    ) -> Result<pb::Template, Status> {
        self.client()
            .update_template(self.req(pb::UpdateTemplateRequest {
                template_id: id.into(),
                template: Some(input),
            }))
            .await
            .map(tonic::Response::into_inner)
    }

    async fn archive_template(&self, id: &str, archived: bool) -> Result<pb::Template, Status> {
        self.client()
            .archive_template(self.req(pb::ArchiveTemplateRequest {
                template_id: id.into(),
                archived,
            }))
            .await
            .map(tonic::Response::into_inner)
    }

    async fn template(&self, id: &str) -> Result<pb::Template, Status> {
        self.client()
            .get_template(self.req(pb::GetTemplateRequest {
                template_id: id.into(),
            }))
            .await
            .map(tonic::Response::into_inner)
    }

    async fn templates(&self, archived: bool) -> Result<Vec<pb::Template>, Status> {
        self.client()
            .list_templates(self.req(pb::ListTemplatesRequest { archived }))
            .await
            .map(|r| r.into_inner().templates)
    }

    async fn create_org_folder(
        &self,
        template: &str,
        name: &str,
    ) -> Result<pb::OrganizationFolder, Status> {
        self.client()
            .create_organization_folder(self.req(pb::CreateOrganizationFolderRequest {
                template_id: template.into(),
                name: name.into(),
                client_id: None,
            }))
            .await
            .map(tonic::Response::into_inner)
    }

    async fn org_folder(&self, folder: &str) -> Result<pb::OrganizationFolder, Status> {
        self.client()
            .get_organization_folder(self.req(pb::GetOrganizationFolderRequest {
                folder_id: folder.into(),
            }))
            .await
            .map(tonic::Response::into_inner)
    }

    async fn list_organization_folders(&self) -> Vec<pb::OrganizationFolder> {
        self.client()
            .list_organization_folders(self.req(pb::ListOrganizationFoldersRequest {}))
            .await
            .unwrap()
            .into_inner()
            .folders
    }

    async fn delete_item(&self, item: &str) -> Result<(), Status> {
        self.client()
            .delete_item(self.req(pb::DeleteItemRequest {
                item_id: item.into(),
            }))
            .await
            .map(|_| ())
    }
}

#[tokio::test]
async fn templates_follow_the_role_matrix_and_stay_within_their_organization() {
    let (app, accounts) = spawn().await;
    let owner = app.as_user(accounts.organization("Harbour Insurance").await);
    let member = app.as_user(accounts.join(owner.id(), "member").await);
    let admin = app.as_user(accounts.join(owner.id(), "admin").await);
    let outsider = app.as_user(accounts.organization("Other Insurer").await);
    let individual = app.as_user(accounts.individual().await);

    let made = owner.create_template(claim_template()).await.unwrap();
    let id = made.id.clone();
    let names: Vec<&str> = made.steps.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Front", "Walk-around", "Damage close up"]);
    assert_eq!(
        made.steps[2].media_types,
        [MediaType::Image as i32, MediaType::Video as i32]
    );

    // Members read and use templates; they cannot change them.
    assert_eq!(member.templates(false).await.unwrap()[0].id, made.id);
    assert_forbidden(&member.create_template(claim_template()).await.unwrap_err());
    assert_forbidden(
        &member
            .update_template(&id, claim_template())
            .await
            .unwrap_err(),
    );
    assert_forbidden(&member.archive_template(&id, true).await.unwrap_err());

    // An admin reorders: the steps keep their ids in the new order; a removed one is gone.
    let steps = &made.steps;
    let changed = admin
        .update_template(
            &id,
            pb::TemplateInput {
                name: "Vehicle damage claim v2".into(),
                description: String::new(),
                steps: vec![
                    step(&steps[1].id, "Walk-around", &[MediaType::Video], 1, 1),
                    step(&steps[0].id, "Front", &[MediaType::Image], 1, 3),
                    step("", "Voice statement", &[MediaType::Audio], 1, 1),
                ],
            },
        )
        .await
        .unwrap();
    assert_eq!(changed.steps[0].id, steps[1].id);
    assert_eq!(changed.steps[1].id, steps[0].id);
    assert_eq!(changed.steps[1].max_files, 3);
    assert_eq!(changed.steps[2].name, "Voice statement");
    assert_eq!(changed.steps.len(), 3);

    // Bad steps are field errors, nothing is written.
    let bad = admin
        .update_template(
            &id,
            pb::TemplateInput {
                name: "x".into(),
                description: String::new(),
                steps: vec![step("", "Front", &[MediaType::Image], 3, 2)],
            },
        )
        .await
        .unwrap_err();
    assert_eq!(fields(&bad), ["name", "steps[0].min_files"]);
    assert_eq!(
        member.template(&id).await.unwrap().name,
        "Vehicle damage claim v2"
    );

    // Another organization, or an individual, does not see it.
    for user in [&outsider, &individual] {
        assert_eq!(user.template(&id).await.unwrap_err().code(), Code::NotFound);
    }
    assert_eq!(
        individual.templates(false).await.unwrap_err().code(),
        Code::NotFound
    );

    // Archived: listed apart, and no new folder from it.
    assert!(owner.archive_template(&id, true).await.unwrap().archived);
    assert_eq!(member.templates(false).await.unwrap(), []);
    assert_eq!(member.templates(true).await.unwrap()[0].id, made.id);
    let refused = member.create_org_folder(&id, "Claim 1").await.unwrap_err();
    assert_eq!(fields(&refused), ["template_id"]);
}

#[tokio::test]
async fn participants_capture_into_the_steps_of_an_organization_folder() {
    let (app, accounts) = spawn().await;
    let owner = app.as_user(accounts.organization("Harbour Property").await);
    let member = app.as_user(accounts.join(owner.id(), "member").await);
    let outsider = app.as_user(accounts.organization("Elsewhere").await);
    let made = owner.create_template(claim_template()).await.unwrap();
    let folder = member
        .create_org_folder(&made.id, "Claim 1043")
        .await
        .unwrap();
    let folder_id = folder.folder.as_ref().unwrap().id.clone();
    assert_eq!(folder.template_name, "Vehicle damage claim");
    // The optional close-up step is complete with no files.
    assert_eq!((folder.steps.len(), folder.steps_complete), (3, 1));
    let front = folder.steps[0].id.clone();
    let walk = folder.steps[1].id.clone();

    // A file needs a step of this folder that takes its medium.
    let photo = jpeg(320, 240, 10);
    let create = |step: Option<&str>| {
        let mut request = capture(&folder_id, &photo, "image/jpeg");
        request.step_id = step.map(str::to_owned);
        member.create_item(request)
    };
    assert_eq!(fields(&create(None).await.unwrap_err()), ["step_id"]);
    assert_eq!(
        fields(&create(Some(&walk)).await.unwrap_err()),
        ["media_type"]
    );
    let created = create(Some(&front)).await.unwrap();
    let item = member.upload_and_verify(&created, photo.clone()).await;
    assert_eq!(item.step_id.as_deref(), Some(front.as_str()));
    assert_eq!(item.review_state, None);

    // The owner sees what the member captured; the step is complete; it is not in the owner's
    // own files.
    let seen = owner.org_folder(&folder_id).await.unwrap();
    assert!(seen.steps[0].complete);
    assert_eq!(seen.steps[0].items[0].id, item.id);
    assert_eq!(seen.steps_complete, 2);
    let mine = owner.list_folders(None).await.unwrap();
    assert!(!mine.iter().any(|f| f.id == folder_id), "{mine:?}");
    let listed = member.list_organization_folders().await;
    assert_eq!(listed[0].folder.as_ref().unwrap().id, folder_id);

    // Its storage is the owner's: a participant reaches the folder without owning it (so the
    // gateway prices and takes extensions from the owner only).
    assert!(!member.get_folder(&folder_id).await.unwrap().owned_by_caller);
    assert!(owner.get_folder(&folder_id).await.unwrap().owned_by_caller);

    // A member may not delete in an organization folder; the owner may. Another organization
    // sees none of it.
    assert_forbidden(&member.delete_item(&item.id).await.unwrap_err());
    assert_eq!(
        outsider.org_folder(&folder_id).await.unwrap_err().code(),
        Code::NotFound
    );
    assert_eq!(
        outsider.get_folder(&folder_id).await.unwrap_err().code(),
        Code::NotFound
    );
    assert_eq!(
        outsider.item(&item.id).await.unwrap_err().code(),
        Code::NotFound
    );
    owner.delete_item(&item.id).await.unwrap();
    assert_eq!(
        owner.item(&item.id).await.unwrap_err().code(),
        Code::NotFound
    );
}
