//! The gRPC and event contracts of Evidentia, generated from `proto/evidentia/**.proto` at build time.

pub mod accounts {
    pub mod v1 {
        tonic::include_proto!("evidentia.accounts.v1");
    }
}

pub mod payments {
    pub mod v1 {
        tonic::include_proto!("evidentia.payments.v1");
    }
}

pub mod evidence {
    pub mod v1 {
        tonic::include_proto!("evidentia.evidence.v1");
    }
}

pub mod sharing {
    pub mod v1 {
        tonic::include_proto!("evidentia.sharing.v1");
    }
}

pub mod referrals {
    pub mod v1 {
        tonic::include_proto!("evidentia.referrals.v1");
    }
}

pub mod events {
    pub mod v1 {
        tonic::include_proto!("evidentia.events.v1");
    }
}

/// A domain event: its protobuf message plus the routing key it is published under.
pub trait Event: prost::Message + Default + 'static {
    /// `<service>.<event>`, e.g. `accounts.account_created`.
    const ROUTING_KEY: &'static str;
    /// The full protobuf name, carried as the AMQP `type` property.
    const TYPE_NAME: &'static str;
}

impl Event for events::v1::AccountCreated {
    const ROUTING_KEY: &'static str = "accounts.account_created";
    const TYPE_NAME: &'static str = "evidentia.events.v1.AccountCreated";
}

impl Event for events::v1::FolderCreated {
    const ROUTING_KEY: &'static str = "evidence.folder_created";
    const TYPE_NAME: &'static str = "evidentia.events.v1.FolderCreated";
}

impl Event for events::v1::ItemUploaded {
    const ROUTING_KEY: &'static str = "evidence.item_uploaded";
    const TYPE_NAME: &'static str = "evidentia.events.v1.ItemUploaded";
}

impl Event for events::v1::ItemVerified {
    const ROUTING_KEY: &'static str = "evidence.item_verified";
    const TYPE_NAME: &'static str = "evidentia.events.v1.ItemVerified";
}

impl Event for events::v1::ItemRejected {
    const ROUTING_KEY: &'static str = "evidence.item_rejected";
    const TYPE_NAME: &'static str = "evidentia.events.v1.ItemRejected";
}

impl Event for events::v1::ItemRetaken {
    const ROUTING_KEY: &'static str = "evidence.item_retaken";
    const TYPE_NAME: &'static str = "evidentia.events.v1.ItemRetaken";
}

impl Event for events::v1::StorageDateChanged {
    const ROUTING_KEY: &'static str = "evidence.storage_date_changed";
    const TYPE_NAME: &'static str = "evidentia.events.v1.StorageDateChanged";
}

impl Event for events::v1::FolderExpired {
    const ROUTING_KEY: &'static str = "evidence.folder_expired";
    const TYPE_NAME: &'static str = "evidentia.events.v1.FolderExpired";
}

impl Event for events::v1::StorageExtensionPaid {
    const ROUTING_KEY: &'static str = "payments.storage_extension_paid";
    const TYPE_NAME: &'static str = "evidentia.events.v1.StorageExtensionPaid";
}

impl Event for events::v1::PromoCodeRedeemed {
    const ROUTING_KEY: &'static str = "referrals.promo_code_redeemed";
    const TYPE_NAME: &'static str = "evidentia.events.v1.PromoCodeRedeemed";
}

impl Event for events::v1::ReferralRecorded {
    const ROUTING_KEY: &'static str = "referrals.referral_recorded";
    const TYPE_NAME: &'static str = "evidentia.events.v1.ReferralRecorded";
}

impl Event for events::v1::ReferralRewardSettled {
    const ROUTING_KEY: &'static str = "payments.referral_reward_settled";
    const TYPE_NAME: &'static str = "evidentia.events.v1.ReferralRewardSettled";
}

impl Event for events::v1::StorageExtensionRefused {
    const ROUTING_KEY: &'static str = "evidence.storage_extension_refused";
    const TYPE_NAME: &'static str = "evidentia.events.v1.StorageExtensionRefused";
}

impl Event for events::v1::AccountDeleted {
    const ROUTING_KEY: &'static str = "accounts.account_deleted";
    const TYPE_NAME: &'static str = "evidentia.events.v1.AccountDeleted";
}

impl Event for events::v1::AccountRecovered {
    const ROUTING_KEY: &'static str = "accounts.account_recovered";
    const TYPE_NAME: &'static str = "evidentia.events.v1.AccountRecovered";
}

impl Event for events::v1::AccountPurged {
    const ROUTING_KEY: &'static str = "accounts.account_purged";
    const TYPE_NAME: &'static str = "evidentia.events.v1.AccountPurged";
}
