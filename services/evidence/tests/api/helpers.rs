//! The evidence service spawned for a test, a user's calls to it, and the store's presigned URLs
//! used as the browser uses them.

use chrono::{DateTime, Utc};
use evidence::{EvidenceService, config::Config};
use evidentia_common::{
    config::Configuration as _,
    grpc::Caller,
    proto::evidence::v1::{
        self as pb, create_item_response::Upload, evidence_service_client::EvidenceServiceClient,
    },
    service::test_config,
    testing::{self, Spawned},
};
use tonic::{Request, Status, transport::Channel};
use uuid::Uuid;

pub use evidentia_common::testing::{WAIT, capture, fetch, jpeg, post_form, sha256, test_video};

pub struct TestApp {
    pub service: Spawned,
}

impl TestApp {
    pub async fn spawn() -> Self {
        Self::spawn_with(|_| {}).await
    }

    /// Spawns the service with its configuration adjusted by `adjust`.
    pub async fn spawn_with(adjust: impl FnOnce(&mut Config)) -> Self {
        let mut config = Config::from_env().expect("config");
        config.service = test_config("evidence").await;
        adjust(&mut config);
        Self {
            service: Spawned::start::<EvidenceService>(config).await,
        }
    }

    /// A new user of the service (the gateway would send their id with every call).
    pub fn user(&self) -> User {
        self.as_user(Uuid::now_v7())
    }

    /// The user `id` (one accounts knows, for organization folders).
    pub fn as_user(&self, id: Uuid) -> User {
        User {
            caller: Caller {
                user_id: Some(id),
                ..Caller::default()
            },
            client: EvidenceServiceClient::new(self.service.channel.clone()),
        }
    }

    /// Moves the folder's storage date a minute into the past.
    pub async fn expire_now(&self, folder: &str) {
        sqlx::query!(
            "UPDATE folders SET storage_expires_at = now() - interval '1 minute' WHERE id = $1",
            Uuid::parse_str(folder).unwrap()
        )
        .execute(&mut testing::connect(&self.service.database_url).await)
        .await
        .unwrap();
    }
}

/// Accounts, spawned beside evidence when a test needs organizations: evidence asks it who
/// belongs to which organization, in which role.
pub async fn spawn_accounts() -> testing::Accounts {
    let mut config = accounts::config::Config::from_env().expect("config");
    config.service = test_config("accounts").await;
    // The ceiling on all messages is shared by every test run on this Redis.
    config.limits.code_sends_total = u32::MAX;
    testing::Accounts {
        jwt_secret: config.sessions.jwt_secret.clone(),
        service: Spawned::start::<accounts::AccountsService>(config).await,
    }
}

pub struct User {
    caller: Caller,
    client: EvidenceServiceClient<Channel>,
}

impl User {
    pub fn id(&self) -> Uuid {
        self.caller.user_id.expect("a user")
    }

    /// The service's client (calls carry no user unless made with [`User::req`]).
    pub fn client(&self) -> EvidenceServiceClient<Channel> {
        self.client.clone()
    }

    /// `message` as this user's call.
    pub fn req<T>(&self, message: T) -> Request<T> {
        self.caller.request(message)
    }

    pub async fn create_folder(
        &self,
        request: pb::CreateFolderRequest,
    ) -> Result<pb::Folder, Status> {
        self.client()
            .create_folder(self.req(request))
            .await
            .map(tonic::Response::into_inner)
    }

    /// A new ordinary folder's id.
    pub async fn folder(&self, name: &str) -> String {
        self.create_folder(pb::CreateFolderRequest {
            name: name.into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .id
    }

    pub async fn get_folder(&self, folder: &str) -> Result<pb::Folder, Status> {
        self.client()
            .get_folder(self.req(pb::GetFolderRequest {
                folder_id: folder.into(),
            }))
            .await
            .map(tonic::Response::into_inner)
    }

    pub async fn list_folders(
        &self,
        pickup_folder_id: Option<String>,
    ) -> Result<Vec<pb::Folder>, Status> {
        self.client()
            .list_folders(self.req(pb::ListFoldersRequest { pickup_folder_id }))
            .await
            .map(|r| r.into_inner().folders)
    }

    pub async fn create_item(
        &self,
        request: pb::CreateItemRequest,
    ) -> Result<pb::CreateItemResponse, Status> {
        self.client()
            .create_item(self.req(request))
            .await
            .map(tonic::Response::into_inner)
    }

    pub async fn finish(&self, item: &str) -> Result<pb::Item, Status> {
        self.client()
            .finish_upload(self.req(pb::FinishUploadRequest {
                item_id: item.into(),
            }))
            .await
            .map(tonic::Response::into_inner)
    }

    pub async fn item(&self, item: &str) -> Result<pb::Item, Status> {
        self.client()
            .get_item(self.req(pb::GetItemRequest {
                item_id: item.into(),
            }))
            .await
            .map(tonic::Response::into_inner)
    }

    pub async fn list_items(&self, folder: &str) -> Result<Vec<pb::Item>, Status> {
        self.client()
            .list_items(self.req(pb::ListItemsRequest {
                folder_id: folder.into(),
            }))
            .await
            .map(|r| r.into_inner().items)
    }

    pub async fn download(&self, item: &str) -> Result<String, Status> {
        self.client()
            .download_item(self.req(pb::DownloadItemRequest {
                item_id: item.into(),
            }))
            .await
            .map(|r| r.into_inner().url)
    }

    pub async fn usage(&self) -> pb::StorageUsage {
        self.client()
            .get_storage_usage(self.req(pb::GetStorageUsageRequest {}))
            .await
            .unwrap()
            .into_inner()
    }

    /// Waits until the item's status is `want`; answers the item.
    pub async fn status_of(&self, item: &str, want: pb::ItemStatus) -> pb::Item {
        testing::eventually(&format!("item status {want:?}"), WAIT, || async {
            let found = self.item(item).await.ok()?;
            (found.status == want as i32).then_some(found)
        })
        .await
    }

    /// Waits until the item has a thumbnail; answers the item.
    pub async fn with_thumbnail(&self, item: &str) -> pb::Item {
        testing::eventually("the thumbnail", WAIT, || async {
            let found = self.item(item).await.ok()?;
            found.thumbnail_url.is_some().then_some(found)
        })
        .await
    }

    /// Uploads `bytes` with the answer of a create or retake, finishes, and waits for `verified`.
    pub async fn upload_and_verify(
        &self,
        created: &pb::CreateItemResponse,
        bytes: Vec<u8>,
    ) -> pb::Item {
        let item = created.item.as_ref().unwrap();
        assert!(
            post_form(single(created), bytes, &item.mime_type)
                .await
                .is_success()
        );
        self.finish(&item.id).await.unwrap();
        self.status_of(&item.id, pb::ItemStatus::Verified).await
    }
}

pub fn at(rfc3339: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(rfc3339).unwrap().into()
}

/// The presigned POST of a create's answer.
pub fn single(created: &pb::CreateItemResponse) -> &pb::SingleUpload {
    match &created.upload {
        Some(Upload::Single(post)) => post,
        other => panic!("a single upload, not {other:?}"),
    }
}

/// The multipart upload of a create's answer.
pub fn multipart(created: &pb::CreateItemResponse) -> &pb::MultipartUpload {
    match &created.upload {
        Some(Upload::Multipart(upload)) => upload,
        other => panic!("a multipart upload, not {other:?}"),
    }
}

/// Asserts `status` is InvalidArgument whose first field error names `field`.
#[track_caller]
pub fn assert_field(status: &Status, field: &str) {
    assert_eq!(status.code(), tonic::Code::InvalidArgument, "{status:?}");
    let errors = testing::field_errors(status);
    assert_eq!(
        errors.first().map(|(f, _)| f.as_str()),
        Some(field),
        "{status:?}"
    );
}

/// Asserts `status` is InvalidArgument whose first field error says `message`.
#[track_caller]
pub fn assert_message(status: &Status, message: &str) {
    assert_eq!(status.code(), tonic::Code::InvalidArgument, "{status:?}");
    let errors = testing::field_errors(status);
    assert_eq!(
        errors.first().map(|(_, m)| m.as_str()),
        Some(message),
        "{status:?}"
    );
}
