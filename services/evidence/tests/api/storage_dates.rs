//! Storage dates against the real PostgreSQL, RabbitMQ and SeaweedFS: the sweeper announces an
//! expiry once (`FolderExpired`), an extension (`ExtendStorageDate`, `StorageDateChanged`) restores
//! access and re-arms it, a paid extension the folder has already reached is refused (so payments
//! refunds it), and after the grace period the files leave the store while the rows stay.

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use async_trait::async_trait;
use chrono::Utc;
use evidence::{
    EvidenceService,
    app::storage_dates::{ALREADY_EXTENDED_MESSAGE, PURGED_MESSAGE},
    config::Config,
    error::EXPIRED_MESSAGE,
    storage::MediaStore,
};
use evidentia_common::{
    config::{Configuration as _, ExposeSecret},
    consumer::{Consumers, EventMeta, Handler},
    grpc::Caller,
    proto::{
        events::v1::{
            FolderExpired, StorageDateChanged, StorageExtensionPaid, StorageExtensionRefused,
        },
        evidence::v1::{self as pb, evidence_service_client::EvidenceServiceClient},
    },
    service::test_config,
    testing::{self, Spawned},
    time::timestamp,
};
use sha2::{Digest, Sha256};
use sqlx::{PgConnection, PgPool};
use tokio_util::sync::CancellationToken;
use tonic::{Code, transport::Channel};
use uuid::Uuid;

const WAIT: Duration = Duration::from_secs(30);

/// Every event of type `E` the observer received.
#[derive(Clone)]
struct Recorder<E>(Arc<Mutex<Vec<E>>>);

#[async_trait]
impl<E: evidentia_common::proto::Event + Send + Sync + Clone> Handler<E> for Recorder<E> {
    async fn handle(
        &self,
        _conn: &mut PgConnection,
        event: E,
        _meta: &EventMeta,
    ) -> anyhow::Result<()> {
        self.0.lock().unwrap().push(event);
        Ok(())
    }
}

struct App {
    /// Stops the service when the test ends.
    service: Spawned,
    client: EvidenceServiceClient<Channel>,
    config: Config,
    store: MediaStore,
    expired: Arc<Mutex<Vec<FolderExpired>>>,
    changed: Arc<Mutex<Vec<StorageDateChanged>>>,
    refused: Arc<Mutex<Vec<StorageExtensionRefused>>>,
    shutdown: CancellationToken,
}

impl Drop for App {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

fn as_user(user: Uuid) -> Caller {
    Caller {
        user_id: Some(user),
        ..Caller::default()
    }
}

impl App {
    async fn start(retention_days: i64) -> Self {
        let mut config = Config::from_env().expect("config");
        config.service = test_config("evidence").await;
        config.storage.sweep_interval_seconds = 1;
        config.storage.expired_retention_days = retention_days;
        let service = Spawned::start::<EvidenceService>(config.clone()).await;
        let client = EvidenceServiceClient::new(service.channel.clone());
        let shutdown = CancellationToken::new();
        let pool = PgPool::connect(config.service.database_url.expose_secret())
            .await
            .unwrap();
        let expired = Arc::new(Mutex::new(Vec::new()));
        let changed = Arc::new(Mutex::new(Vec::new()));
        let refused = Arc::new(Mutex::new(Vec::new()));
        let observer = Consumers::new("observer", pool, config.service.amqp.clone())
            .on::<FolderExpired, _>("expired", Recorder(expired.clone()))
            .on::<StorageDateChanged, _>("changed", Recorder(changed.clone()))
            .on::<StorageExtensionRefused, _>("refused", Recorder(refused.clone()));
        tokio::spawn(observer.run(shutdown.clone()));
        let store = MediaStore::connect(&config.s3).await.unwrap();
        let app = Self {
            service,
            client,
            config,
            store,
            expired,
            changed,
            refused,
            shutdown,
        };
        app.wait_for_observer().await;
        app
    }

    /// Expires probe folders until the observer receives one's `FolderExpired` (events published
    /// before its queue was bound are lost), then extends one until `StorageDateChanged` arrives.
    async fn wait_for_observer(&self) {
        let owner = Uuid::now_v7();
        testing::eventually("the observer bound", WAIT, || async {
            let probe = self.folder(owner, "Probe").await;
            self.expire_now(&probe).await;
            let deadline = tokio::time::Instant::now() + Duration::from_secs(4);
            while tokio::time::Instant::now() < deadline {
                if self.expirations(&probe) > 0 {
                    return Some(());
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            None
        })
        .await;
        testing::eventually("the observer bound", WAIT, || async {
            let probe = self.folder(owner, "Probe").await;
            self.extend(owner, &probe, 400).await.unwrap();
            let deadline = tokio::time::Instant::now() + Duration::from_secs(2);
            while tokio::time::Instant::now() < deadline {
                if self.changes(&probe) > 0 {
                    return Some(());
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            None
        })
        .await;
    }

    fn expirations(&self, folder: &str) -> usize {
        let seen = self.expired.lock().unwrap();
        seen.iter().filter(|e| e.folder_id == folder).count()
    }

    fn changes(&self, folder: &str) -> usize {
        let seen = self.changed.lock().unwrap();
        seen.iter().filter(|e| e.folder_id == folder).count()
    }

    async fn sql(&self) -> PgConnection {
        testing::connect(&self.config.service.database_url).await
    }

    /// Moves the folder's storage date a minute into the past.
    async fn expire_now(&self, folder: &str) {
        sqlx::query!(
            "UPDATE folders SET storage_expires_at = now() - interval '1 minute' WHERE id = $1",
            Uuid::parse_str(folder).unwrap()
        )
        .execute(&mut self.sql().await)
        .await
        .unwrap();
    }

    async fn folder(&self, owner: Uuid, name: &str) -> String {
        self.client
            .clone()
            .create_folder(as_user(owner).request(pb::CreateFolderRequest {
                name: name.into(),
                ..Default::default()
            }))
            .await
            .unwrap()
            .into_inner()
            .id
    }

    async fn extend(
        &self,
        owner: Uuid,
        folder: &str,
        days: i64,
    ) -> Result<pb::Folder, tonic::Status> {
        self.client
            .clone()
            .extend_storage_date(pb::ExtendStorageDateRequest {
                folder_id: folder.into(),
                owner_id: owner.to_string(),
                storage_expires_at: Some(timestamp(Utc::now() + chrono::Duration::days(days))),
            })
            .await
            .map(tonic::Response::into_inner)
    }

    async fn item(&self, owner: Uuid, item: &str) -> pb::Item {
        self.client
            .clone()
            .get_item(as_user(owner).request(pb::GetItemRequest {
                item_id: item.into(),
            }))
            .await
            .unwrap()
            .into_inner()
    }

    async fn download(&self, owner: Uuid, item: &str) -> Result<String, tonic::Status> {
        self.client
            .clone()
            .download_item(as_user(owner).request(pb::DownloadItemRequest {
                item_id: item.into(),
            }))
            .await
            .map(|r| r.into_inner().url)
    }

    /// A verified photo with its thumbnail in `folder`; returns its id.
    async fn photo(&self, owner: Uuid, folder: &str) -> String {
        let photo = image::RgbImage::from_pixel(400, 300, image::Rgb([20, 120, 220]));
        let mut jpeg = std::io::Cursor::new(Vec::new());
        photo.write_to(&mut jpeg, image::ImageFormat::Jpeg).unwrap();
        let bytes = jpeg.into_inner();
        let created = self
            .client
            .clone()
            .create_item(as_user(owner).request(pb::CreateItemRequest {
                folder_id: folder.into(),
                name: "Front door".into(),
                media_type: pb::MediaType::Image as i32,
                mime_type: "image/jpeg".into(),
                file_size: i64::try_from(bytes.len()).unwrap(),
                sha256: hex::encode(Sha256::digest(&bytes)),
                ..Default::default()
            }))
            .await
            .unwrap()
            .into_inner();
        let Some(pb::create_item_response::Upload::Single(post)) = created.upload else {
            panic!("a single upload");
        };
        let mut form = reqwest::multipart::Form::new();
        for (key, value) in post.fields {
            form = form.text(key, value);
        }
        form = form.part(
            "file",
            reqwest::multipart::Part::bytes(bytes)
                .file_name("photo")
                .mime_str("image/jpeg")
                .unwrap(),
        );
        let stored = reqwest::Client::new()
            .post(&post.url)
            .multipart(form)
            .send()
            .await
            .unwrap();
        assert!(stored.status().is_success());
        let item = created.item.unwrap().id;
        self.client
            .clone()
            .finish_upload(as_user(owner).request(pb::FinishUploadRequest {
                item_id: item.clone(),
            }))
            .await
            .unwrap();
        testing::eventually("verified with a thumbnail", WAIT, || async {
            let found = self.item(owner, &item).await;
            (found.status == pb::ItemStatus::Verified as i32 && found.thumbnail_url.is_some())
                .then_some(())
        })
        .await;
        item
    }

    /// The stored object keys of an item: file and thumbnail.
    async fn keys(&self, item: &str) -> (String, Option<String>) {
        let keys = sqlx::query!(
            "SELECT object_key, thumbnail_key FROM items WHERE id = $1",
            Uuid::parse_str(item).unwrap()
        )
        .fetch_one(&mut self.sql().await)
        .await
        .unwrap();
        (keys.object_key, keys.thumbnail_key)
    }
}

/// Two purchases quoted from the same storage date (two tabs, two devices) each pay for the same
/// new date: the first moves the folder there, the second bought nothing and is refused, so
/// payments refunds it; a redelivery of the first changes nothing and refuses nothing.
#[tokio::test]
async fn a_paid_date_the_folder_already_reached_is_refused_once() {
    let app = App::start(30).await;
    let owner = Uuid::now_v7();
    let folder = app.folder(owner, "Hotel room").await;
    let until = timestamp(Utc::now() + chrono::Duration::days(400));
    let paid = |purchase: &str| StorageExtensionPaid {
        purchase_id: purchase.to_owned(),
        folder_id: folder.clone(),
        owner_id: owner.to_string(),
        storage_expires_at: Some(until),
    };
    let (first, second) = (Uuid::now_v7().to_string(), Uuid::now_v7().to_string());
    let first_message = Uuid::now_v7();
    for (event, message) in [
        (paid(&first), first_message),
        (paid(&first), first_message),
        (paid(&second), Uuid::now_v7()),
    ] {
        app.service.publish(&event, message).await;
        app.service.wait_processed(message).await;
    }

    let stored = evidence::store::folders::get(
        &mut app.sql().await,
        owner,
        Uuid::parse_str(&folder).unwrap(),
    )
    .await
    .unwrap()
    .expect("the folder")
    .storage_expires_at;
    assert_eq!(timestamp(stored).seconds, until.seconds);
    let of_folder = || -> Vec<StorageExtensionRefused> {
        let seen = app.refused.lock().unwrap();
        seen.iter()
            .filter(|r| r.folder_id == folder)
            .cloned()
            .collect()
    };
    testing::eventually("StorageExtensionRefused", WAIT, || async {
        (!of_folder().is_empty()).then_some(())
    })
    .await;
    // Events published after the second's refusal would have arrived by now.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let refused = of_folder();
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert_eq!(refused[0].purchase_id, second);
    assert_eq!(refused[0].reason, ALREADY_EXTENDED_MESSAGE);
    assert_eq!(app.changes(&folder), 1);
}

#[tokio::test]
async fn an_expired_folder_is_announced_once_and_an_extension_restores_it_and_re_arms_the_expiry() {
    let app = App::start(30).await;
    let owner = Uuid::now_v7();
    let folder = app.folder(owner, "Rental car").await;
    let item = app.photo(owner, &folder).await;
    let (key, thumbnail) = app.keys(&item).await;

    app.expire_now(&folder).await;
    testing::eventually("FolderExpired", WAIT, || async {
        (app.expirations(&folder) > 0).then_some(())
    })
    .await;
    let event = app
        .expired
        .lock()
        .unwrap()
        .iter()
        .find(|e| e.folder_id == folder)
        .cloned()
        .unwrap();
    assert_eq!(event.owner_id, owner.to_string());
    let date = event.storage_expires_at.unwrap();
    assert_eq!(
        event.files_deleted_after.unwrap().seconds - date.seconds,
        30 * 86_400,
        "the grace period"
    );
    // Later sweeps do not announce it again: once a later probe's expiry is seen, still one.
    let probe = app.folder(owner, "Later probe").await;
    app.expire_now(&probe).await;
    testing::eventually("a later sweep", WAIT, || async {
        (app.expirations(&probe) > 0).then_some(())
    })
    .await;
    assert_eq!(app.expirations(&folder), 1);

    // Within the grace period the files are kept but cannot be opened.
    assert!(app.store.object_size(&key).await.unwrap().is_some());
    let expired = app.item(owner, &item).await;
    assert!(expired.expired && expired.file_url.is_none() && !expired.can_retake);
    let refused = app.download(owner, &item).await.unwrap_err();
    assert_eq!(refused.message(), EXPIRED_MESSAGE);

    // Only a later date, and only the owner's folder.
    let past = app.extend(owner, &folder, -1).await.unwrap_err();
    assert_eq!(past.code(), Code::InvalidArgument);
    let other = app.extend(Uuid::now_v7(), &folder, 10).await.unwrap_err();
    assert_eq!(other.code(), Code::NotFound);

    let extended = app.extend(owner, &folder, 10).await.unwrap();
    assert!(!extended.expired);
    testing::eventually("StorageDateChanged", WAIT, || async {
        (app.changes(&folder) > 0).then_some(())
    })
    .await;
    let change = app
        .changed
        .lock()
        .unwrap()
        .iter()
        .find(|e| e.folder_id == folder)
        .cloned()
        .unwrap();
    assert_eq!(change.previous_storage_expires_at, Some(date));
    assert_eq!(change.storage_expires_at, extended.storage_expires_at);
    let restored = app.item(owner, &item).await;
    assert!(restored.file_url.is_some() && restored.can_retake);
    assert!(app.download(owner, &item).await.is_ok());
    assert!(app.store.object_size(&key).await.unwrap().is_some());
    assert!(thumbnail.is_some());

    // The extension re-armed the announcement: the next expiry is published again.
    app.expire_now(&folder).await;
    testing::eventually("the second FolderExpired", WAIT, || async {
        (app.expirations(&folder) == 2).then_some(())
    })
    .await;
}

#[tokio::test]
async fn after_the_grace_period_the_files_leave_the_store_and_the_rows_stay() {
    let app = App::start(0).await;
    let owner = Uuid::now_v7();
    let folder = app.folder(owner, "Hotel room").await;
    let item = app.photo(owner, &folder).await;
    let (key, thumbnail) = app.keys(&item).await;
    let thumbnail = thumbnail.expect("a thumbnail");
    let usage = |app: &App| {
        let client = app.client.clone();
        async move {
            client
                .clone()
                .get_storage_usage(as_user(owner).request(pb::GetStorageUsageRequest {}))
                .await
                .unwrap()
                .into_inner()
        }
    };
    assert_eq!(usage(&app).await.file_count, 1);

    app.expire_now(&folder).await;
    testing::eventually("the folder purged", WAIT, || async {
        let purged: Option<chrono::DateTime<Utc>> = sqlx::query_scalar!(
            "SELECT purged_at FROM items WHERE id = $1",
            Uuid::parse_str(&item).unwrap()
        )
        .fetch_one(&mut app.sql().await)
        .await
        .unwrap();
        purged.map(|_| ())
    })
    .await;
    assert_eq!(app.store.object_size(&key).await.unwrap(), None);
    assert_eq!(app.store.object_size(&thumbnail).await.unwrap(), None);
    // What was there is still shown; it cannot be opened.
    let kept = app.item(owner, &item).await;
    assert_eq!(kept.name, "Front door");
    assert!(kept.expired && kept.file_url.is_none() && kept.thumbnail_url.is_none());
    let refused = app.download(owner, &item).await.unwrap_err();
    assert_eq!(refused.message(), EXPIRED_MESSAGE);
    let usage = usage(&app).await;
    assert_eq!((usage.file_count, usage.used_bytes), (0, 0));
    // Nothing left to extend.
    let refused = app.extend(owner, &folder, 10).await.unwrap_err();
    assert_eq!(
        (refused.code(), refused.message()),
        (Code::FailedPrecondition, PURGED_MESSAGE)
    );
    assert_eq!(app.expirations(&folder), 1);
}
