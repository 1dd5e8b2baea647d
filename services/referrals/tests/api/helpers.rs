//! The referrals service spawned for a test, its users' calls, and the events accounts would
//! publish about them.

use std::time::Duration;

use evidentia_common::{
    config::Configuration as _,
    grpc::Caller,
    service::test_config,
    sms::SmsConfig,
    testing::{self, Spawned},
};
use evidentia_proto::{
    events::v1::AccountCreated,
    referrals::v1::{self as pb, referrals_service_client::ReferralsServiceClient},
};
use referrals::{ReferralsService, config::Config};
use tonic::{Request, transport::Channel};
use uuid::Uuid;

pub struct TestApp {
    pub service: Spawned,
}

pub fn as_user(user_id: Uuid) -> Caller {
    Caller {
        user_id: Some(user_id),
        ..Caller::default()
    }
}

/// Accounts' announcement of a new account with its own e-mail address and phone number.
pub fn account_created(user_id: Uuid) -> AccountCreated {
    // The UUID's last digits are its random part (the first ones are its time).
    let decimal = user_id.as_u128().to_string();
    let digits = &decimal[decimal.len() - 10..];
    AccountCreated {
        user_id: user_id.to_string(),
        username: format!("u{}", &user_id.simple().to_string()[20..]),
        email: format!("{}@example.com", user_id.simple()),
        first_name: "Ann".to_owned(),
        account_type: "individual".to_owned(),
        phone_country_code: "+1".to_owned(),
        phone_national_number: digits.to_owned(),
        ..AccountCreated::default()
    }
}

impl TestApp {
    pub async fn spawn() -> Self {
        Self::spawn_with(|_| {}).await
    }

    /// Spawns the service with its configuration adjusted by `adjust`.
    pub async fn spawn_with(adjust: impl FnOnce(&mut Config)) -> Self {
        let mut config = Config::from_env().expect("config");
        config.service = test_config("referrals").await;
        config.sms = SmsConfig::Files {
            dir: testing::sms_dir().display().to_string(),
        };
        // Every test of a run is one client address.
        config.limits.checks_per_client = 100_000;
        adjust(&mut config);
        Self {
            service: Spawned::start::<ReferralsService>(config).await,
        }
    }

    pub async fn stop(self) {
        self.service.stop().await;
    }

    pub fn client(&self) -> ReferralsServiceClient<Channel> {
        ReferralsServiceClient::new(self.service.channel.clone())
    }

    /// Publishes the event and waits until the service has handled it.
    pub async fn deliver(&self, event: &AccountCreated) {
        let message_id = Uuid::now_v7();
        self.service.publish(event, message_id).await;
        self.service.wait_processed(message_id).await;
    }

    /// A user accounts told the service about.
    pub async fn user(&self) -> (Uuid, AccountCreated) {
        let id = Uuid::now_v7();
        let event = account_created(id);
        self.deliver(&event).await;
        (id, event)
    }

    /// The codes stored for `user_id` (read directly: GetReferralInfo would make one).
    pub async fn stored_codes(&self, user_id: Uuid) -> Vec<String> {
        let mut conn = testing::connect(&self.service.database_url).await;
        sqlx::query_scalar!(
            "SELECT code FROM referral_codes WHERE user_id = $1",
            user_id
        )
        .fetch_all(&mut conn)
        .await
        .unwrap()
    }

    pub async fn processed(&self, message_id: Uuid) -> bool {
        self.service.processed(message_id).await
    }

    pub async fn publish(&self, event: &AccountCreated, message_id: Uuid) {
        self.service.publish(event, message_id).await;
    }

    pub async fn info(&self, user_id: Uuid) -> pb::ReferralInfo {
        self.client()
            .get_referral_info(as_user(user_id).request(pb::GetReferralInfoRequest {}))
            .await
            .unwrap()
            .into_inner()
    }

    /// Moves every send of the user's invitations `by` into the past.
    pub async fn age_invitations(&self, user_id: Uuid, by: Duration) {
        let by = chrono::Duration::from_std(by).unwrap();
        let mut conn = testing::connect(&self.service.database_url).await;
        sqlx::query!(
            "UPDATE invitations SET last_sent_at = last_sent_at - $2::interval,
                                    created_at = created_at - $2::interval
             WHERE referrer_id = $1",
            user_id,
            sqlx::postgres::types::PgInterval::try_from(by).unwrap()
        )
        .execute(&mut conn)
        .await
        .unwrap();
    }
}

/// A request from `user_id`.
pub fn from<T>(user_id: Uuid, message: T) -> Request<T> {
    as_user(user_id).request(message)
}

/// How many e-mails to `address` are in the mail sink.
pub fn mails_to(address: &str) -> usize {
    let header = format!("to: {}", address.to_lowercase());
    std::fs::read_dir(testing::mail_dir())
        .map(|dir| {
            dir.filter_map(Result::ok)
                .filter(|entry| {
                    std::fs::read_to_string(entry.path())
                        .is_ok_and(|text| text.lines().any(|l| l.trim().to_lowercase() == header))
                })
                .count()
        })
        .unwrap_or(0)
}
