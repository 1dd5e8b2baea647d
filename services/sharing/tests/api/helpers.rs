//! Sharing spawned for a test with the services it calls, evidence and payments, its scheduler's
//! clock the test's; a user announced to sharing as accounts would, their files uploaded to
//! evidence and their card saved at payments; a recipient's way in.

use std::time::Duration;

use evidentia_common::{
    config::{Configuration as _, SecretString},
    grpc::Caller,
    proto::{
        events::v1::AccountCreated,
        evidence::v1::{
            self as evidence_pb, create_item_response::Upload,
            evidence_service_client::EvidenceServiceClient,
        },
        payments::v1::{self as payments_pb, payments_service_client::PaymentsServiceClient},
        sharing::v1::{self as pb, sharing_service_client::SharingServiceClient},
    },
    service::test_config,
    testing::{self, Spawned, WAIT},
};
use sharing::{SharingService, config::Config, state::Clock};
use tonic::{Request, Status, transport::Channel};
use uuid::Uuid;

pub struct TestApp {
    /// `None` while stopped ([`TestApp::stop_sharing`]).
    sharing: Option<Spawned>,
    /// More sharing processes on the same database, as other replicas would be.
    replicas: Vec<Spawned>,
    pub evidence: Spawned,
    pub payments: Spawned,
    /// Only for organization folders ([`TestApp::spawn_with_accounts`]).
    pub accounts: Option<testing::Accounts>,
    config: Config,
}

impl TestApp {
    pub async fn spawn() -> Self {
        Self::start(None, |_| {}).await
    }

    /// Spawns evidence with its configuration adjusted by `adjust`.
    pub async fn spawn_with(adjust: impl FnOnce(&mut evidence::config::Config)) -> Self {
        Self::start(None, adjust).await
    }

    /// Spawns accounts too, for organization folders (evidence asks it who belongs to which
    /// organization), and evidence with its configuration adjusted by `adjust`.
    pub async fn spawn_with_accounts(adjust: impl FnOnce(&mut evidence::config::Config)) -> Self {
        let mut config = accounts::config::Config::from_env().unwrap();
        config.service = test_config("accounts").await;
        // The ceiling on all messages is shared by every test run on this Redis.
        config.limits.code_sends_total = u32::MAX;
        let accounts = testing::Accounts {
            jwt_secret: config.sessions.jwt_secret.clone(),
            service: Spawned::start::<accounts::AccountsService>(config).await,
        };
        Self::start(Some(accounts), adjust).await
    }

    async fn start(
        accounts: Option<testing::Accounts>,
        adjust: impl FnOnce(&mut evidence::config::Config),
    ) -> Self {
        // Each service has an exchange of its own: an event published to sharing is bound to
        // reach sharing's queues, not only another service's.
        let mut payments_config = payments::config::Config::from_env().unwrap();
        payments_config.service = test_config("payments").await;
        let payments = Spawned::start::<payments::PaymentsService>(payments_config).await;

        let mut evidence_config = evidence::config::Config::from_env().unwrap();
        evidence_config.service = test_config("evidence").await;
        // Organization membership is asked of accounts, which most of these tests do not run.
        evidence_config.accounts_url = accounts
            .as_ref()
            .map_or_else(|| "http://127.0.0.1:9".to_owned(), testing::Accounts::url);
        adjust(&mut evidence_config);
        let evidence_exchange = evidence_config.service.amqp.clone();
        let evidence = Spawned::start::<evidence::EvidenceService>(evidence_config).await;

        let mut config = Config::from_env().unwrap();
        config.service = test_config("sharing").await;
        if accounts.is_some() {
            // A contribution's receipt and custody follow evidence's ItemVerified: sharing hears
            // evidence's events as it does when deployed.
            config.service.amqp = evidence_exchange;
        }
        config.evidence_url = endpoint(&evidence);
        config.payments_url = endpoint(&payments);
        config.sms = evidentia_common::sms::SmsConfig::Files {
            dir: testing::sms_dir().display().to_string(),
        };
        // Every test of a run is one client address.
        config.settings.code_sends_per_client = 100_000;
        config.settings.verifications_per_client = 100_000;
        // A reader counts as away after two seconds, so the chat notice comes within a test.
        config.settings.chat_away_after = Duration::from_secs(2);
        config.settings.chat_notify_every = Duration::from_millis(500);
        // The futuregram scheduler looks for work often; its clock is the test's.
        config.settings.futuregram_tick = Duration::from_millis(200);
        config.settings.futuregram_view_ttl = Duration::from_secs(7 * 86_400);
        config.settings.clock = Clock::system();
        // Custody-log heads are signed every second, so a test sees the signer's work.
        config.settings.custody_head_every = Duration::from_secs(1);
        let sharing = Spawned::start::<SharingService>(config.clone()).await;
        Self {
            sharing: Some(sharing),
            replicas: Vec::new(),
            evidence,
            payments,
            accounts,
            config,
        }
    }

    fn spawned(&self) -> &Spawned {
        self.sharing.as_ref().expect("sharing is running")
    }

    /// Sharing's client.
    pub fn sharing(&self) -> SharingServiceClient<Channel> {
        SharingServiceClient::new(self.spawned().channel.clone())
    }

    pub fn evidence(&self) -> EvidenceServiceClient<Channel> {
        EvidenceServiceClient::new(self.evidence.channel.clone())
    }

    pub fn payments(&self) -> PaymentsServiceClient<Channel> {
        PaymentsServiceClient::new(self.payments.channel.clone())
    }

    /// The user's purchases of shares and futuregrams, as payments lists them.
    pub async fn sharing_purchases(&self, user: &User) -> Vec<payments_pb::Transaction> {
        let listed = self
            .payments()
            .list_transactions(user.req(payments_pb::ListTransactionsRequest {}))
            .await
            .unwrap()
            .into_inner()
            .transactions;
        listed.into_iter().filter(|t| t.kind == "sharing").collect()
    }

    /// The scheduler's clock, shared by every sharing process: tests move it forward.
    pub fn clock(&self) -> &Clock {
        &self.config.settings.clock
    }

    pub fn sharing_db(&self) -> &SecretString {
        &self.config.service.database_url
    }

    /// Another sharing process on the same database and clock, as a second replica would be.
    pub async fn spawn_sharing_replica(&mut self) {
        let replica = Spawned::start::<SharingService>(self.config.clone()).await;
        self.replicas.push(replica);
    }

    /// Stops sharing (and its replicas); evidence and payments stay up.
    pub async fn stop_sharing(&mut self) {
        for spawned in self
            .sharing
            .take()
            .into_iter()
            .chain(self.replicas.drain(..))
        {
            spawned.stop().await;
        }
    }

    /// Starts sharing again on the same database, as after an outage.
    pub async fn start_sharing(&mut self) {
        self.sharing = Some(Spawned::start::<SharingService>(self.config.clone()).await);
    }

    /// Publishes `event` as accounts would, and waits until sharing processed it.
    pub async fn publish<E: evidentia_common::proto::Event>(&self, event: &E) {
        let id = Uuid::now_v7();
        self.spawned().publish(event, id).await;
        self.spawned().wait_processed(id).await;
    }

    /// Accounts, for a test spawned with it.
    pub fn accounts(&self) -> &testing::Accounts {
        self.accounts.as_ref().expect("spawned with accounts")
    }

    /// A new user, announced by accounts as signed up without a name.
    pub async fn sign_up(&self) -> User {
        self.announce(Uuid::now_v7()).await
    }

    /// The user `id` (a new one, or one accounts made), announced as signed up without a name.
    pub async fn announce(&self, id: Uuid) -> User {
        let simple = id.simple().to_string();
        let user = User {
            id,
            username: format!("u{}", &simple[20..]),
            email: format!("sharer-{}@example.com", &simple[20..]),
        };
        self.publish(&AccountCreated {
            user_id: id.to_string(),
            username: user.username.clone(),
            email: user.email.clone(),
            account_type: "individual".to_owned(),
            ..AccountCreated::default()
        })
        .await;
        user
    }

    /// A new user whose default card pays.
    pub async fn sharer(&self) -> User {
        let user = self.sign_up().await;
        self.with_default_card(&user, testing::OK_CARD).await;
        user
    }

    /// A card saved by the add-card flow and made the user's default.
    pub async fn with_default_card(&self, user: &User, number: &str) {
        let (registered, confirmed) = testing::add_card(
            &self.payments.channel,
            &user.caller(),
            (&user.email, ""),
            number,
        )
        .await;
        assert!(confirmed, "{registered:?}");
        self.payments()
            .set_default_payment_method(user.req(payments_pb::PaymentMethodRef {
                payment_method_id: registered.id,
            }))
            .await
            .unwrap();
    }

    /// A new folder of the user's at evidence; answers its id.
    pub async fn folder(&self, user: &User, name: &str) -> String {
        self.evidence()
            .create_folder(user.req(evidence_pb::CreateFolderRequest {
                name: name.into(),
                ..Default::default()
            }))
            .await
            .unwrap()
            .into_inner()
            .id
    }

    /// `bytes` captured into `folder`, uploaded and verified by evidence.
    pub async fn upload(
        &self,
        user: &User,
        folder: &str,
        bytes: Vec<u8>,
        mime: &str,
    ) -> evidence_pb::Item {
        let created = self
            .evidence()
            .create_item(user.req(testing::capture(folder, &bytes, mime)))
            .await
            .unwrap()
            .into_inner();
        let Some(Upload::Single(post)) = &created.upload else {
            panic!("a single upload, not {:?}", created.upload);
        };
        assert!(testing::post_form(post, bytes, mime).await.is_success());
        let item = created.item.unwrap().id;
        self.evidence()
            .finish_upload(user.req(evidence_pb::FinishUploadRequest {
                item_id: item.clone(),
            }))
            .await
            .unwrap();
        testing::eventually("the upload verified", WAIT, || async {
            let found = self
                .evidence()
                .get_item(user.req(evidence_pb::GetItemRequest {
                    item_id: item.clone(),
                }))
                .await
                .ok()?
                .into_inner();
            (found.status == evidence_pb::ItemStatus::Verified as i32).then_some(found)
        })
        .await
    }

    /// Moves the folder's storage date a day into the past.
    pub async fn expire_storage(&self, folder: &str) {
        let mut db = testing::connect(&self.evidence.database_url).await;
        sqlx::query!(
            "UPDATE folders SET storage_expires_at = now() - interval '1 day' WHERE id = $1",
            Uuid::parse_str(folder).unwrap()
        )
        .execute(&mut db)
        .await
        .unwrap();
    }

    /// Moves the folder's storage date a year into the future.
    pub async fn extend_storage(&self, folder: &str) {
        let mut db = testing::connect(&self.evidence.database_url).await;
        sqlx::query!(
            "UPDATE folders SET storage_expires_at = now() + interval '1 year' WHERE id = $1",
            Uuid::parse_str(folder).unwrap()
        )
        .execute(&mut db)
        .await
        .unwrap();
    }

    pub async fn share(
        &self,
        user: &User,
        request: pb::CreateShareRequest,
    ) -> Result<pb::CreateShareResponse, Status> {
        self.sharing()
            .create_share(user.req(request))
            .await
            .map(tonic::Response::into_inner)
    }

    pub async fn shares(&self, user: &User, folder: &str) -> Result<pb::FolderShares, Status> {
        self.sharing()
            .list_folder_shares(user.req(pb::ListFolderSharesRequest {
                folder_id: folder.into(),
            }))
            .await
            .map(tonic::Response::into_inner)
    }

    /// Every file of the folder with its custody log, as its owner sees it.
    pub async fn custody(&self, owner: &User, folder: &str) -> pb::FolderCustody {
        self.sharing()
            .get_folder_custody(owner.req(pb::GetFolderCustodyRequest {
                folder_id: folder.into(),
            }))
            .await
            .unwrap()
            .into_inner()
    }

    /// The check of every file's custody chain in the folder.
    pub async fn check_custody(&self, owner: &User, folder: &str) -> pb::CustodyCheck {
        self.sharing()
            .check_folder_custody(owner.req(pb::CheckFolderCustodyRequest {
                folder_id: folder.into(),
            }))
            .await
            .unwrap()
            .into_inner()
    }

    /// Sends a code to the recipient by the link's tokens; answers the code's id, the code read
    /// from the recipient's messages (none of `seen`) and that message.
    pub async fn code_for(
        &self,
        to: &str,
        t1: &str,
        t2: &str,
        seen: &[String],
    ) -> (String, String, String) {
        let sent = self
            .sharing()
            .send_access_code(pb::SendAccessCodeRequest {
                t1: t1.into(),
                t2: t2.into(),
                client_ip: String::new(),
            })
            .await
            .unwrap()
            .into_inner();
        let (code, message) = testing::access_code(to, seen).await;
        (sent.code_id, code, message)
    }

    pub async fn check_code(&self, code_id: &str, code: &str) -> Result<pb::AccessGranted, Status> {
        self.sharing()
            .check_access_code(pb::CheckAccessCodeRequest {
                code_id: code_id.into(),
                confirmation_code: code.into(),
            })
            .await
            .map(tonic::Response::into_inner)
    }

    /// The recipient's way in from their link: a code sent and checked; answers the access token.
    pub async fn access_token(&self, to: &str) -> String {
        let (t1, t2) = testing::share_link(to).await;
        let (code_id, code, _) = self.code_for(to, &t1, &t2, &[]).await;
        self.check_code(&code_id, &code)
            .await
            .unwrap()
            .access_folder_token
    }

    /// The copies the recipient's access token shows, as `copy_type`.
    pub async fn view(
        &self,
        token: &str,
        copy_type: pb::CopyType,
    ) -> Result<pb::SharedFolder, Status> {
        self.sharing()
            .view_shared(pb::ViewSharedRequest {
                access_token: token.into(),
                link: String::new(),
                copy_type: copy_type as i32,
            })
            .await
            .map(tonic::Response::into_inner)
    }

    pub async fn verify(&self, by: pb::verify_request::By) -> Result<pb::Verification, Status> {
        self.sharing()
            .verify(pb::VerifyRequest {
                by: Some(by),
                client_ip: String::new(),
            })
            .await
            .map(tonic::Response::into_inner)
    }
}

/// The gRPC address of a spawned service, for another service's configuration.
fn endpoint(spawned: &Spawned) -> String {
    format!("http://{}", spawned.addr)
}

/// A user as the gateway names them to the services (their id in every call's metadata).
pub struct User {
    pub id: Uuid,
    pub username: String,
    pub email: String,
}

impl User {
    pub fn caller(&self) -> Caller {
        Caller {
            user_id: Some(self.id),
            ..Caller::default()
        }
    }

    /// `message` as this user's call.
    pub fn req<T>(&self, message: T) -> Request<T> {
        self.caller().request(message)
    }
}

/// A recipient by e-mail.
pub fn email(address: &str) -> pb::Recipient {
    pb::Recipient {
        address: Some(pb::recipient::Address::Email(address.into())),
    }
}

/// A new address at example.com starting with `prefix`.
pub fn unique(prefix: &str) -> String {
    format!("{prefix}-{}@example.com", Uuid::now_v7().simple())
}

/// A file's C2PA manifest read back trusting the local root (the last certificate of the chain
/// `./dev` made): its validation state and the manifest store as JSON.
pub fn c2pa_of(bytes: &[u8], mime: &str) -> (c2pa::ValidationState, String) {
    let chain_file =
        std::env::var("SHARING_C2PA_CERT_CHAIN_FILE").expect("./dev exports the chain");
    let chain = std::fs::read_to_string(chain_file).unwrap();
    let root = &chain[chain.rfind("-----BEGIN CERTIFICATE-----").unwrap()..];
    let settings = c2pa::settings::Settings::new()
        .with_value("trust.trust_anchors", root.to_owned())
        .unwrap();
    let context = c2pa::Context::new().with_settings(settings).unwrap();
    let reader = c2pa::Reader::from_context(context)
        .with_stream(mime, std::io::Cursor::new(bytes.to_vec()))
        .unwrap();
    (reader.validation_state(), reader.json())
}
