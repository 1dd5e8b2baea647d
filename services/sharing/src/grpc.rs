//! The gRPC edge of sharing: proto in, domain values to the use-cases, domain results back to
//! proto. Nothing else happens here.

use chrono::Utc;
use evidentia_common::{
    contact::{Email, PhoneNumber},
    errors::FieldError,
    grpc::{Caller, caller_of, user_of},
    idempotency,
    time::timestamp,
};
use evidentia_proto::sharing::v1::{
    self as pb, sharing_service_server::SharingService as SharingRpc,
};
use futures::StreamExt;
use prost::Message;
use sha2::{Digest, Sha256};
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::{
    app::{
        access::{self, Pass},
        chat::{self, Draft, Participant},
        contribute,
        create_share::{self, NewShare},
        futuregram::{self, Action, ExecutorView, FuturegramView, NewFuturegramRequest},
        owner::{self, ItemCheck, ItemCustody, ShareView},
        packet,
        verify::{self, Lookup, Verification},
        view::{self, SharedFolder},
    },
    directory,
    domain::{CopyType, ExecutorContact, MAX_RECIPIENTS, Recipient},
    error::SharingError,
    outbound::{NewSubmission, SubmissionFacts, SubmissionUpload},
    state::AppState,
    store::{chat::ThreadSummary, custody::EntryRow},
};

pub struct SharingApi {
    pub state: AppState,
}

impl SharingApi {
    fn packet_deps(&self) -> packet::Deps<'_> {
        packet::Deps {
            pool: &self.state.pool,
            links: &self.state.links,
            evidence: self.state.evidence.clone(),
            copies: self.state.copies.clone(),
            keys: &self.state.keys,
        }
    }
}

impl From<packet::Link> for pb::PacketDownload {
    fn from(link: packet::Link) -> Self {
        Self {
            token: link.token,
            expires_at: Some(timestamp(link.expires_at)),
        }
    }
}

type PacketStream =
    std::pin::Pin<Box<dyn futures::Stream<Item = Result<pb::PacketChunk, Status>> + Send>>;

type Reply<T> = Result<Response<T>, Status>;

/// A malformed id names nobody's resource: the same answer as another user's. Only the form the
/// API gives out (lower-case, hyphenated) names one, so each resource has one address.
fn id(value: &str) -> Result<Uuid, SharingError> {
    Uuid::parse_str(value)
        .ok()
        .filter(|parsed| parsed.hyphenated().to_string() == value)
        .ok_or(SharingError::NotFound)
}

fn copy_type(value: i32) -> Result<CopyType, SharingError> {
    match pb::CopyType::try_from(value) {
        Ok(pb::CopyType::Authenticated) => Ok(CopyType::Authenticated),
        Ok(pb::CopyType::Unauthenticated) => Ok(CopyType::Unauthenticated),
        _ => Err(SharingError::invalid(
            "copy_type",
            "Choose an authenticated or an unauthenticated copy.",
        )),
    }
}

fn copy_type_pb(value: CopyType) -> i32 {
    match value {
        CopyType::Authenticated => pb::CopyType::Authenticated as i32,
        CopyType::Unauthenticated => pb::CopyType::Unauthenticated as i32,
    }
}

fn recipients(list: &[pb::Recipient]) -> Result<Vec<Recipient>, SharingError> {
    if list.is_empty() {
        return Err(SharingError::invalid(
            "recipients",
            "Add at least one e-mail address or phone number.",
        ));
    }
    if list.len() > MAX_RECIPIENTS {
        return Err(SharingError::invalid(
            "recipients",
            "Share with at most 20 recipients at a time.",
        ));
    }
    let mut errors = Vec::new();
    let mut parsed: Vec<Recipient> = Vec::with_capacity(list.len());
    for (index, recipient) in list.iter().enumerate() {
        let result = match &recipient.address {
            Some(pb::recipient::Address::Email(email)) => {
                Email::parse(&format!("recipients[{index}].email"), email).map(Recipient::Email)
            }
            Some(pb::recipient::Address::PhoneNumber(phone)) => PhoneNumber::parse(
                &format!("recipients[{index}].phone_number"),
                &phone.country_code,
                &phone.national_number,
            )
            .map(Recipient::Phone),
            None => Err(FieldError::new(
                format!("recipients[{index}]"),
                "Give an e-mail address or a phone number.",
            )),
        };
        match result {
            Ok(r) if parsed.contains(&r) => errors.push(FieldError::new(
                format!("recipients[{index}]"),
                "This recipient is already on the list.",
            )),
            Ok(r) => parsed.push(r),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(parsed)
    } else {
        Err(SharingError::Invalid(errors))
    }
}

fn link_pb(view: contribute::LinkView) -> pb::ContributionLink {
    pb::ContributionLink {
        id: view.row.id.to_string(),
        folder_id: view.row.folder_id.to_string(),
        url: view.url.unwrap_or_default(),
        channel: view.row.channel,
        sent_to: view.row.sent_to,
        expires_at: Some(timestamp(view.row.expires_at)),
        max_submissions: view.row.max_submissions,
        submissions: view.row.submissions,
        state: view.state.to_owned(),
        created_at: Some(timestamp(view.row.created_at)),
    }
}

fn submission_pb(s: SubmissionFacts) -> pb::Submission {
    pb::Submission {
        id: s.id.to_string(),
        step_id: s.step_id.map(|id| id.to_string()).unwrap_or_default(),
        name: s.name,
        media_type: s.media_type.to_owned(),
        mime_type: s.mime_type,
        file_size: s.file_size,
        sha256: s.sha256,
        status: s.status.to_owned(),
        rejection_reason: s.rejection_reason,
        captured_at: s.captured_at.map(timestamp),
        received_at: s.received_at.map(timestamp),
        verified_at: s.verified_at.map(timestamp),
    }
}

/// One recipient of a contribution link: an e-mail address or a phone number.
fn link_recipient(recipient: Option<pb::Recipient>) -> Result<Recipient, SharingError> {
    match recipient.and_then(|r| r.address) {
        Some(pb::recipient::Address::Email(email)) => {
            Ok(Recipient::Email(Email::parse("email", &email)?))
        }
        Some(pb::recipient::Address::PhoneNumber(phone)) => Ok(Recipient::Phone(
            PhoneNumber::parse("phone_number", &phone.country_code, &phone.national_number)?,
        )),
        None => Err(SharingError::invalid(
            "email",
            "Give an e-mail address or a phone number.",
        )),
    }
}

impl SharingApi {
    fn link_deps(&self) -> contribute::LinkDeps<'_> {
        contribute::LinkDeps {
            pool: &self.state.pool,
            folders: self.state.organization_folders.as_ref(),
            links: &self.state.links,
            messengers: &self.state.messengers,
        }
    }

    fn contributor_deps(&self) -> contribute::ContributorDeps<'_> {
        contribute::ContributorDeps {
            pool: &self.state.pool,
            redis: &self.state.redis,
            folders: self.state.organization_folders.as_ref(),
            messengers: &self.state.messengers,
            settings: &self.state.settings,
        }
    }
}

fn share_pb(view: ShareView) -> pb::Share {
    pb::Share {
        id: view.share.id.to_string(),
        folder_id: view.share.folder_id.to_string(),
        copy_type: copy_type_pb(CopyType::from_db(&view.share.copy_type)),
        created_at: Some(timestamp(view.share.created_at)),
        revoked_at: view.share.revoked_at.map(timestamp),
        item_count: view.item_count,
        payment_transaction_number: view.share.payment_transaction_number.unwrap_or_default(),
        public_link: view
            .public_link
            .map(|(url, active)| pb::PublicLink { url, active }),
        recipients: view
            .recipients
            .into_iter()
            .map(|r| pb::Delivery {
                id: r.delivery.id.to_string(),
                sent_to: r.delivery.sent_to,
                channel: r.delivery.channel,
                transaction_number: r.delivery.transaction_number,
                state: r.delivery.state,
                copies_ready: r.copies_ready,
                copies_total: r.copies_total,
            })
            .collect(),
    }
}

fn entry_pb(e: EntryRow) -> pb::CustodyEntry {
    pb::CustodyEntry {
        seq: e.seq,
        kind: e.kind,
        at: Some(timestamp(e.at)),
        detail: e.detail,
        hash: e.hash,
        prev_hash: e.prev_hash,
    }
}

fn custody_pb(item: ItemCustody) -> pb::ItemCustody {
    pb::ItemCustody {
        item_id: item.item_id.to_string(),
        name: item.name,
        media_type: item.media_type.to_owned(),
        shared_counter: item.shared_counter,
        sharing_available_counter: item.sharing_available_counter,
        custody: item.entries.into_iter().map(entry_pb).collect(),
    }
}

fn check_pb(item: ItemCheck) -> pb::ItemCheck {
    pb::ItemCheck {
        item_id: item.item_id.to_string(),
        entries: item.entries,
        intact: item.first_broken.is_none(),
        first_broken: item.first_broken.map(entry_pb),
    }
}

fn folder_pb(folder: SharedFolder) -> pb::SharedFolder {
    let copy_type = copy_type_pb(folder.watermark.copy_type);
    pb::SharedFolder {
        share_id: folder.share_id.to_string(),
        folder_name: folder.folder_name,
        copy_type,
        watermark: Some(pb::Watermark {
            copy_type,
            generated_for: folder.watermark.generated_for,
            sent_to: folder.watermark.sent_to,
            generated_on: Some(timestamp(folder.watermark.generated_on)),
            transaction_number: folder.watermark.transaction_number,
        }),
        items: folder
            .items
            .into_iter()
            .map(|c| pb::SharedCopy {
                id: c.id.to_string(),
                name: c.name,
                media_type: c.media_type,
                state: c.state.to_owned(),
                url: c.url,
                download_url: c.download_url,
                sha256: c.sha256,
                size_bytes: c.size_bytes,
                duration: c.duration,
            })
            .collect(),
    }
}

fn verification_pb(v: Verification) -> pb::Verification {
    pb::Verification {
        transaction_number: v.transaction_number,
        copy_type: copy_type_pb(v.copy_type),
        generated_for: v.generated_for,
        sent_to: v.sent_to_masked,
        generated_on: Some(timestamp(v.generated_on)),
        revoked: v.revoked,
        matched_item_index: v.matched_item_index,
        items: v
            .items
            .into_iter()
            .map(|i| pb::VerifiedItem {
                name: i.name,
                media_type: i.media_type,
                copy_sha256: i.copy_sha256,
                original_sha256: i.original_sha256,
                captured_at: Some(timestamp(i.captured_at)),
                latitude: i.latitude,
                longitude: i.longitude,
                city: i.city,
                address: i.address,
                received_at: i.received_at.map(timestamp),
                receipt: i.receipt.map(|r| evidentia_proto::evidence::v1::Receipt {
                    payload: r.payload,
                    signature: r.signature,
                    key_id: r.key_id,
                    ..Default::default()
                }),
            })
            .collect(),
    }
}

/// A recipient's pass: the access token, else the public link.
fn pass<'a>(access_token: &'a str, link: &'a str) -> Result<Pass<'a>, SharingError> {
    if !access_token.is_empty() {
        Ok(Pass::Token(access_token))
    } else if !link.is_empty() {
        Ok(Pass::Link(link))
    } else {
        Err(SharingError::AccessEnded)
    }
}

fn message_pb(m: chat::Message) -> pb::ChatMessage {
    pb::ChatMessage {
        id: m.id.to_string(),
        seq: m.seq,
        author_name: m.author_name,
        from_owner: m.from_owner,
        mine: m.mine,
        client_message_id: m.client_message_id,
        content: m.content,
        created_at: Some(timestamp(m.created_at)),
    }
}

fn summary_pb(t: ThreadSummary) -> pb::ChatSummary {
    pb::ChatSummary {
        share_id: t.share_id.to_string(),
        folder_id: t.folder_id.to_string(),
        folder_name: t.folder_name,
        revoked: t.share_state == "revoked",
        last_seq: t.last_seq,
        last_message_at: t.last_message_at.map(timestamp),
        last_author_name: t.last_author_name.unwrap_or_default(),
        last_content: t.last_content.unwrap_or_default(),
        unread: t.unread,
    }
}

fn executors(list: &[pb::Executor]) -> Result<Vec<ExecutorContact>, SharingError> {
    futuregram::check_executor_count(list.len())?;
    let mut errors = Vec::new();
    let mut parsed: Vec<ExecutorContact> = Vec::with_capacity(list.len());
    for (index, executor) in list.iter().enumerate() {
        let email = Email::parse(&format!("executors[{index}].email"), &executor.email);
        let phone = executor
            .phone_number
            .as_ref()
            .filter(|p| !(p.country_code.is_empty() && p.national_number.is_empty()))
            .map(|p| {
                PhoneNumber::parse(
                    &format!("executors[{index}].phone_number"),
                    &p.country_code,
                    &p.national_number,
                )
            })
            .transpose();
        match (email, phone) {
            (Ok(email), Ok(phone)) => {
                if parsed.iter().any(|e| e.email == email) {
                    errors.push(FieldError::new(
                        format!("executors[{index}].email"),
                        "This executor is already on the list.",
                    ));
                } else {
                    parsed.push(ExecutorContact { email, phone });
                }
            }
            (email, phone) => {
                errors.extend(email.err());
                errors.extend(phone.err());
            }
        }
    }
    if errors.is_empty() {
        Ok(parsed)
    } else {
        Err(SharingError::Invalid(errors))
    }
}

fn item_ids(list: &[String]) -> Result<Vec<Uuid>, SharingError> {
    list.iter()
        .map(|i| {
            Uuid::parse_str(i)
                .map_err(|_| SharingError::invalid("item_ids", "Choose files from this folder."))
        })
        .collect()
}

fn futuregram_pb(f: FuturegramView) -> pb::Futuregram {
    pb::Futuregram {
        share_id: f.row.share_id.to_string(),
        situation_id: f.row.situation_id.to_string(),
        folder_id: f.folder_id.to_string(),
        folder_name: f.folder_name,
        copy_type: copy_type_pb(CopyType::from_db(&f.copy_type)),
        release_at: f.row.release_at.map(timestamp),
        state: f.row.state,
        due_at: f.row.due_at.map(timestamp),
        released_at: f.row.released_at.map(timestamp),
        created_at: Some(timestamp(f.row.created_at)),
        items: f
            .items
            .into_iter()
            .map(|(id, name, media_type)| pb::FuturegramItem {
                id: id.to_string(),
                name,
                media_type,
            })
            .collect(),
        recipients: f
            .recipients
            .into_iter()
            .map(|(sent_to, channel)| pb::FuturegramRecipient { sent_to, channel })
            .collect(),
        executors: f
            .executors
            .into_iter()
            .map(|e| pb::FuturegramExecutor {
                id: e.id.to_string(),
                email: e.email,
                phone: e.phone.unwrap_or_default(),
                state: e.state,
                release_requested: e.release_requested_at.is_some(),
                vetoed: e.vetoed_at.is_some(),
                responded_at: e.responded_at.map(timestamp),
            })
            .collect(),
        recipients_paid: f.row.recipients_paid,
        payment_transaction_number: f.payment_transaction_number.unwrap_or_default(),
    }
}

fn standing_pb(v: ExecutorView) -> pb::ExecutorStanding {
    pb::ExecutorStanding {
        state: v.state,
        owner_name: v.owner_name,
        folder_name: v.folder_name,
        release_at: v.release_at.map(timestamp),
        futuregram_state: v.futuregram_state,
        due_at: v.due_at.map(timestamp),
        release_requested: v.release_requested,
        can_request_release: v.can_request_release,
        can_veto: v.can_veto,
    }
}

/// A link token as it can be: short URL-safe text. Anything else names nothing.
fn link_token(value: &str) -> Result<&str, SharingError> {
    if !value.is_empty() && value.len() <= 128 && value.bytes().all(|b| b.is_ascii_alphanumeric()) {
        Ok(value)
    } else {
        Err(SharingError::NotFound)
    }
}

impl SharingApi {
    /// A recipient when an access token comes, else the signed-in owner.
    async fn participant(
        &self,
        caller: &Caller,
        access_token: &str,
        share_id: &str,
    ) -> Result<Participant, Status> {
        let share_id = id(share_id)?;
        if access_token.is_empty() {
            let owner = caller.require_user()?;
            Ok(chat::as_owner(&self.state.pool, owner, share_id).await?)
        } else {
            Ok(
                chat::as_recipient(&self.state.pool, &self.state.links, access_token, share_id)
                    .await?,
            )
        }
    }

    fn futuregram_deps(&self) -> futuregram::Deps<'_> {
        futuregram::Deps {
            pool: &self.state.pool,
            evidence: self.state.evidence.as_ref(),
            payments: self.state.payments.as_ref(),
            links: &self.state.links,
            settings: &self.state.settings,
        }
    }

    fn access_deps(&self) -> access::Deps<'_> {
        access::Deps {
            pool: &self.state.pool,
            redis: &self.state.redis,
            links: &self.state.links,
            messengers: &self.state.messengers,
            settings: &self.state.settings,
        }
    }
}

#[tonic::async_trait]
impl SharingRpc for SharingApi {
    type DownloadPacketStream = PacketStream;

    async fn get_sharer_identity(
        &self,
        request: Request<pb::GetSharerIdentityRequest>,
    ) -> Reply<pb::SharerIdentity> {
        let user_id = user_of(&request)?;
        let mut conn = self
            .state
            .pool
            .acquire()
            .await
            .map_err(SharingError::from)?;
        let entry = directory::find(&mut conn, user_id)
            .await
            .map_err(SharingError::from)?
            .ok_or(SharingError::NotFound)?;
        Ok(Response::new(pb::SharerIdentity {
            display_name: entry.display_name(),
            email: entry.email,
        }))
    }

    async fn create_share(
        &self,
        request: Request<pb::CreateShareRequest>,
    ) -> Reply<pb::CreateShareResponse> {
        let owner = user_of(&request)?;
        let req = request.into_inner();
        idempotency::parse_key(&req.idempotency_key).map_err(SharingError::from)?;
        let request_hash = hex::encode(Sha256::digest(
            pb::CreateShareRequest {
                idempotency_key: String::new(),
                ..req.clone()
            }
            .encode_to_vec(),
        ));
        let new = NewShare {
            folder_id: id(&req.folder_id)?,
            copy_type: copy_type(req.copy_type)?,
            item_ids: req
                .item_ids
                .iter()
                .map(|i| {
                    Uuid::parse_str(i).map_err(|_| {
                        SharingError::invalid("item_ids", "Choose files from this folder.")
                    })
                })
                .collect::<Result<_, _>>()?,
            recipients: recipients(&req.recipients)?,
            pay_with: req.pay_with,
            idempotency_key: req.idempotency_key,
            request_hash,
        };
        let deps = create_share::Deps {
            pool: &self.state.pool,
            evidence: self.state.evidence.as_ref(),
            payments: self.state.payments.as_ref(),
            links: &self.state.links,
        };
        let created = create_share::create_share(&deps, owner, new).await?;
        self.state.work.notify_waiters();
        Ok(Response::new(pb::CreateShareResponse {
            share: Some(share_pb(created.share)),
            payment: Some(created.payment),
        }))
    }

    async fn list_folder_shares(
        &self,
        request: Request<pb::ListFolderSharesRequest>,
    ) -> Reply<pb::FolderShares> {
        let owner = user_of(&request)?;
        let folder_id = id(&request.into_inner().folder_id)?;
        let views = owner::folder_shares(
            &self.state.pool,
            self.state.evidence.as_ref(),
            &self.state.links,
            owner,
            folder_id,
        )
        .await?;
        Ok(Response::new(pb::FolderShares {
            folder_id: folder_id.to_string(),
            shares: views.into_iter().map(share_pb).collect(),
        }))
    }

    async fn revoke_share(&self, request: Request<pb::RevokeShareRequest>) -> Reply<pb::Share> {
        let owner = user_of(&request)?;
        let share_id = id(&request.into_inner().share_id)?;
        let view = owner::revoke(
            &self.state.pool,
            self.state.copies.as_ref(),
            &self.state.links,
            owner,
            share_id,
        )
        .await?;
        Ok(Response::new(share_pb(view)))
    }

    async fn set_public_link(
        &self,
        request: Request<pb::SetPublicLinkRequest>,
    ) -> Reply<pb::PublicLink> {
        let owner = user_of(&request)?;
        let req = request.into_inner();
        let (url, active) = owner::set_public_link(
            &self.state.pool,
            &self.state.links,
            owner,
            id(&req.share_id)?,
            req.active,
        )
        .await?;
        self.state.work.notify_waiters();
        Ok(Response::new(pb::PublicLink { url, active }))
    }

    async fn get_folder_custody(
        &self,
        request: Request<pb::GetFolderCustodyRequest>,
    ) -> Reply<pb::FolderCustody> {
        let owner = user_of(&request)?;
        let folder_id = id(&request.into_inner().folder_id)?;
        let items = owner::folder_custody(
            &self.state.pool,
            self.state.evidence.as_ref(),
            owner,
            folder_id,
        )
        .await?;
        Ok(Response::new(pb::FolderCustody {
            items: items.into_iter().map(custody_pb).collect(),
        }))
    }

    async fn create_packet_download(
        &self,
        request: Request<pb::CreatePacketDownloadRequest>,
    ) -> Reply<pb::PacketDownload> {
        let owner = user_of(&request)?;
        let request = request.into_inner();
        let folder_id = id(&request.folder_id)?;
        let chosen = request
            .item_ids
            .iter()
            .map(|item| id(item))
            .collect::<Result<Vec<_>, _>>()?;
        let link = packet::create(
            &self.packet_deps(),
            owner,
            folder_id,
            &chosen,
            self.state.settings.packet_link_ttl,
            Utc::now(),
        )
        .await?;
        Ok(Response::new(link.into()))
    }

    async fn create_recipient_packet_download(
        &self,
        request: Request<pb::CreateRecipientPacketDownloadRequest>,
    ) -> Reply<pb::PacketDownload> {
        let token = request.into_inner().access_token;
        let link = packet::create_for_recipient(
            &self.packet_deps(),
            &token,
            self.state.settings.packet_link_ttl,
            Utc::now(),
        )
        .await?;
        Ok(Response::new(link.into()))
    }

    async fn download_packet(
        &self,
        request: Request<pb::DownloadPacketRequest>,
    ) -> Reply<PacketStream> {
        let token = request.into_inner().token;
        let streamed = packet::open(&self.packet_deps(), &token, Utc::now()).await?;
        let first = pb::PacketChunk {
            file_name: streamed.file_name,
            data: Vec::new(),
        };
        let chunks = futures::stream::once(futures::future::ready(Ok(first))).chain(
            streamed.bytes.map(|chunk| {
                chunk
                    .map(|data| pb::PacketChunk {
                        file_name: String::new(),
                        data: data.to_vec(),
                    })
                    .map_err(Status::from)
            }),
        );
        Ok(Response::new(Box::pin(chunks)))
    }

    async fn check_folder_custody(
        &self,
        request: Request<pb::CheckFolderCustodyRequest>,
    ) -> Reply<pb::CustodyCheck> {
        let owner = user_of(&request)?;
        let folder_id = id(&request.into_inner().folder_id)?;
        let items = owner::check_folder_custody(
            &self.state.pool,
            self.state.evidence.as_ref(),
            owner,
            folder_id,
        )
        .await?;
        Ok(Response::new(pb::CustodyCheck {
            items: items.into_iter().map(check_pb).collect(),
        }))
    }

    async fn send_access_code(
        &self,
        request: Request<pb::SendAccessCodeRequest>,
    ) -> Reply<pb::AccessCodeSent> {
        let req = request.into_inner();
        let sent = access::send_code(&self.access_deps(), &req.t1, &req.t2, &req.client_ip).await?;
        Ok(Response::new(pb::AccessCodeSent {
            code_id: sent.code_id.to_string(),
            sent_to: sent.sent_to_masked,
            copy_type: copy_type_pb(sent.copy_type),
            expires_in: sent.expires_in_secs,
        }))
    }

    async fn check_access_code(
        &self,
        request: Request<pb::CheckAccessCodeRequest>,
    ) -> Reply<pb::AccessGranted> {
        let req = request.into_inner();
        let granted = access::check_code(
            &self.access_deps(),
            id(&req.code_id)?,
            &req.confirmation_code,
        )
        .await?;
        Ok(Response::new(pb::AccessGranted {
            access_folder_token: granted.token,
            copy_type: copy_type_pb(granted.copy_type),
            expires_at: Some(timestamp(granted.expires_at)),
        }))
    }

    async fn view_shared(
        &self,
        request: Request<pb::ViewSharedRequest>,
    ) -> Reply<pb::SharedFolder> {
        let req = request.into_inner();
        let deps = view::Deps {
            pool: &self.state.pool,
            links: &self.state.links,
            evidence: self.state.evidence.as_ref(),
            copies: self.state.copies.as_ref(),
        };
        let folder = view::view(
            &deps,
            &pass(&req.access_token, &req.link)?,
            Some(copy_type(req.copy_type)?),
        )
        .await?;
        Ok(Response::new(folder_pb(folder)))
    }

    async fn record_copy_event(
        &self,
        request: Request<pb::RecordCopyEventRequest>,
    ) -> Reply<pb::RecordCopyEventResponse> {
        let req = request.into_inner();
        let pass = if req.futuregram_token.is_empty() {
            pass(&req.access_token, &req.link)?
        } else {
            Pass::Delivery(
                futuregram::open_view(
                    &self.state.pool,
                    &self.state.settings,
                    &req.futuregram_token,
                )
                .await?,
            )
        };
        view::record_event(
            &self.state.pool,
            &self.state.links,
            &pass,
            id(&req.copy_id)?,
            &req.kind,
        )
        .await?;
        Ok(Response::new(pb::RecordCopyEventResponse {}))
    }

    async fn verify(&self, request: Request<pb::VerifyRequest>) -> Reply<pb::Verification> {
        let req = request.into_inner();
        let lookup = match req.by {
            Some(pb::verify_request::By::TransactionNumber(n)) => Lookup::Number(n),
            Some(pb::verify_request::By::Sha256(s)) => Lookup::Sha256(s),
            None => {
                return Err(SharingError::invalid(
                    "transaction_number",
                    "Enter a transaction number.",
                )
                .into());
            }
        };
        let found = verify::verify(
            &self.state.pool,
            &self.state.redis,
            self.state.settings.verifications_per_client,
            &req.client_ip,
            lookup,
        )
        .await?;
        Ok(Response::new(verification_pb(found)))
    }

    async fn get_chat(&self, request: Request<pb::GetChatRequest>) -> Reply<pb::Chat> {
        let caller = caller_of(&request);
        let req = request.into_inner();
        let who = self
            .participant(&caller, &req.access_token, &req.share_id)
            .await?;
        let found = chat::read(&self.state.pool, &who, req.after).await?;
        Ok(Response::new(pb::Chat {
            share_id: found.share_id.to_string(),
            folder_name: found.folder_name,
            read_only: found.read_only,
            last_seq: found.last_seq,
            messages: found.messages.into_iter().map(message_pb).collect(),
        }))
    }

    async fn post_chat_message(
        &self,
        request: Request<pb::PostChatMessageRequest>,
    ) -> Reply<pb::ChatMessage> {
        let caller = caller_of(&request);
        let req = request.into_inner();
        let who = self
            .participant(&caller, &req.access_token, &req.share_id)
            .await?;
        let draft = Draft::parse(&req.client_message_id, &req.content)?;
        let deps = chat::PostDeps {
            pool: &self.state.pool,
            redis: &self.state.redis,
            settings: &self.state.settings,
        };
        let token = (!req.access_token.is_empty()).then_some(req.access_token.as_str());
        let sent = chat::post(&deps, &who, token, draft).await?;
        Ok(Response::new(message_pb(sent)))
    }

    async fn archive_chat(
        &self,
        request: Request<pb::ArchiveChatRequest>,
    ) -> Reply<pb::ArchiveChatResponse> {
        let caller = caller_of(&request);
        let req = request.into_inner();
        let who = self.participant(&caller, "", &req.share_id).await?;
        chat::archive(&self.state.pool, &who, req.confirm).await?;
        Ok(Response::new(pb::ArchiveChatResponse {}))
    }

    async fn list_chats(&self, request: Request<pb::ListChatsRequest>) -> Reply<pb::ChatList> {
        let owner = user_of(&request)?;
        let chats = chat::list(&self.state.pool, owner).await?;
        Ok(Response::new(pb::ChatList {
            chats: chats.into_iter().map(summary_pb).collect(),
        }))
    }

    async fn create_futuregram(
        &self,
        request: Request<pb::CreateFuturegramRequest>,
    ) -> Reply<pb::CreateFuturegramResponse> {
        let owner = user_of(&request)?;
        let req = request.into_inner();
        idempotency::parse_key(&req.idempotency_key).map_err(SharingError::from)?;
        let request_hash = hex::encode(Sha256::digest(
            pb::CreateFuturegramRequest {
                idempotency_key: String::new(),
                ..req.clone()
            }
            .encode_to_vec(),
        ));
        let situation_id = Uuid::parse_str(&req.situation_id).map_err(|_| {
            SharingError::invalid("situation_id", "Open the futuregram from a capture.")
        })?;
        let release_at = match req.release_at.as_ref() {
            None => None,
            Some(ts) => Some(evidentia_common::time::datetime(ts).ok_or_else(|| {
                SharingError::invalid("release_at", "Choose a release date and time.")
            })?),
        };
        let new = NewFuturegramRequest {
            situation_id,
            share: NewShare {
                folder_id: id(&req.folder_id)?,
                copy_type: copy_type(req.copy_type)?,
                item_ids: item_ids(&req.item_ids)?,
                recipients: recipients(&req.recipients)?,
                pay_with: req.pay_with,
                idempotency_key: req.idempotency_key,
                request_hash,
            },
            executors: executors(&req.executors)?,
            release_at,
        };
        let created = futuregram::create(&self.futuregram_deps(), owner, new).await?;
        self.state.work.notify_waiters();
        Ok(Response::new(pb::CreateFuturegramResponse {
            futuregram: Some(futuregram_pb(created.futuregram)),
            payment: Some(created.payment),
        }))
    }

    async fn list_situation_futuregrams(
        &self,
        request: Request<pb::ListSituationFuturegramsRequest>,
    ) -> Reply<pb::SituationFuturegrams> {
        let owner = user_of(&request)?;
        let situation = id(&request.into_inner().situation_id)?;
        let views = futuregram::for_situation(&self.state.pool, owner, situation).await?;
        Ok(Response::new(pb::SituationFuturegrams {
            situation_id: situation.to_string(),
            futuregrams: views.into_iter().map(futuregram_pb).collect(),
        }))
    }

    async fn update_futuregram_recipients(
        &self,
        request: Request<pb::UpdateFuturegramRecipientsRequest>,
    ) -> Reply<pb::Futuregram> {
        let owner = user_of(&request)?;
        let req = request.into_inner();
        let share_id = id(&req.share_id)?;
        let list = recipients(&req.recipients)?;
        let view = futuregram::update_recipients(&self.state.pool, owner, share_id, &list).await?;
        Ok(Response::new(futuregram_pb(view)))
    }

    async fn update_futuregram_executors(
        &self,
        request: Request<pb::UpdateFuturegramExecutorsRequest>,
    ) -> Reply<pb::Futuregram> {
        let owner = user_of(&request)?;
        let req = request.into_inner();
        let share_id = id(&req.share_id)?;
        let list = executors(&req.executors)?;
        let view = futuregram::update_executors(
            &self.state.pool,
            &self.state.links,
            owner,
            share_id,
            &list,
        )
        .await?;
        Ok(Response::new(futuregram_pb(view)))
    }

    async fn cancel_futuregram_release(
        &self,
        request: Request<pb::CancelFuturegramReleaseRequest>,
    ) -> Reply<pb::Futuregram> {
        let owner = user_of(&request)?;
        let share_id = id(&request.into_inner().share_id)?;
        let view = futuregram::cancel_release(&self.state.pool, owner, share_id).await?;
        Ok(Response::new(futuregram_pb(view)))
    }

    async fn respond_as_executor(
        &self,
        request: Request<pb::RespondAsExecutorRequest>,
    ) -> Reply<pb::ExecutorStanding> {
        let req = request.into_inner();
        let token = link_token(&req.token)?;
        let email = Email::parse("email", &req.email).map_err(SharingError::from)?;
        let action = Action::parse(&req.action)?;
        let deps = futuregram::RespondDeps {
            pool: &self.state.pool,
            settings: &self.state.settings,
            links: &self.state.links,
        };
        let standing = futuregram::respond(&deps, token, &email, action).await?;
        Ok(Response::new(standing_pb(standing)))
    }

    async fn view_futuregram(
        &self,
        request: Request<pb::ViewFuturegramRequest>,
    ) -> Reply<pb::SharedFolder> {
        let req = request.into_inner();
        let token = link_token(&req.token)?;
        let delivery = futuregram::open_view(&self.state.pool, &self.state.settings, token).await?;
        let deps = view::Deps {
            pool: &self.state.pool,
            links: &self.state.links,
            evidence: self.state.evidence.as_ref(),
            copies: self.state.copies.as_ref(),
        };
        let folder = view::view(&deps, &Pass::Delivery(delivery), None).await?;
        Ok(Response::new(folder_pb(folder)))
    }

    async fn refresh_futuregram_link(
        &self,
        request: Request<pb::RefreshFuturegramLinkRequest>,
    ) -> Reply<pb::FuturegramLinkSent> {
        let req = request.into_inner();
        let token = link_token(&req.token)?;
        let deps = futuregram::RefreshDeps {
            pool: &self.state.pool,
            redis: &self.state.redis,
            links: &self.state.links,
            messengers: &self.state.messengers,
            settings: &self.state.settings,
        };
        let masked = futuregram::refresh(&deps, token, &req.client_ip).await?;
        Ok(Response::new(pb::FuturegramLinkSent {
            sent_to_masked: masked,
        }))
    }

    async fn create_contribution_link(
        &self,
        request: Request<pb::CreateContributionLinkRequest>,
    ) -> Reply<pb::ContributionLink> {
        let member = user_of(&request)?;
        let req = request.into_inner();
        let folder_id = id(&req.folder_id)?;
        let recipient = link_recipient(req.recipient)?;
        let made = contribute::create_link(
            &self.link_deps(),
            member,
            contribute::NewLinkRequest {
                folder_id,
                organization_name: req.organization_name,
                recipient,
                expires_in_days: req.expires_in_days,
                max_submissions: req.max_submissions,
            },
        )
        .await?;
        Ok(Response::new(link_pb(made)))
    }

    async fn list_contribution_links(
        &self,
        request: Request<pb::ListContributionLinksRequest>,
    ) -> Reply<pb::ListContributionLinksResponse> {
        let member = user_of(&request)?;
        let folder_id = id(&request.into_inner().folder_id)?;
        let links = contribute::list_links(&self.link_deps(), member, folder_id).await?;
        Ok(Response::new(pb::ListContributionLinksResponse {
            links: links.into_iter().map(link_pb).collect(),
        }))
    }

    async fn revoke_contribution_link(
        &self,
        request: Request<pb::RevokeContributionLinkRequest>,
    ) -> Reply<pb::ContributionLink> {
        let member = user_of(&request)?;
        let link_id = id(&request.into_inner().link_id)?;
        let link = contribute::revoke_link(&self.link_deps(), member, link_id).await?;
        Ok(Response::new(link_pb(link)))
    }

    async fn send_contributor_code(
        &self,
        request: Request<pb::SendContributorCodeRequest>,
    ) -> Reply<pb::ContributorCodeSent> {
        let req = request.into_inner();
        let email = Email::parse("email", &req.email).map_err(SharingError::from)?;
        let sent =
            contribute::send_code(&self.contributor_deps(), &req.link, &email, &req.client_ip)
                .await?;
        Ok(Response::new(pb::ContributorCodeSent {
            code_id: sent.code_id.to_string(),
            sent_to: sent.sent_to,
            expires_in: sent.expires_in_secs,
        }))
    }

    async fn check_contributor_code(
        &self,
        request: Request<pb::CheckContributorCodeRequest>,
    ) -> Reply<pb::ContributorGranted> {
        let req = request.into_inner();
        let granted = contribute::check_code(
            &self.contributor_deps(),
            id(&req.code_id)?,
            &req.confirmation_code,
        )
        .await?;
        Ok(Response::new(pb::ContributorGranted {
            contribution_token: granted.token,
            folder_id: granted.folder_id.to_string(),
            expires_at: Some(timestamp(granted.expires_at)),
        }))
    }

    async fn get_contributor_folder(
        &self,
        request: Request<pb::GetContributorFolderRequest>,
    ) -> Reply<pb::ContributorFolder> {
        let req = request.into_inner();
        let step_id = req.step_id.as_deref().map(id).transpose()?;
        let found = contribute::folder_view(
            &self.contributor_deps(),
            &req.token,
            id(&req.folder_id)?,
            step_id,
        )
        .await?;
        let mut submissions = found.submissions;
        let steps = found
            .folder
            .steps
            .into_iter()
            .map(|step| {
                let (mine, rest): (Vec<SubmissionFacts>, Vec<SubmissionFacts>) = submissions
                    .drain(..)
                    .partition(|s| s.step_id == Some(step.id));
                submissions = rest;
                pb::ContributionStep {
                    id: step.id.to_string(),
                    name: step.name,
                    instructions: step.instructions,
                    media_types: step.media_types.iter().map(|m| (*m).to_owned()).collect(),
                    min_files: step.min_files,
                    max_files: step.max_files,
                    submissions: mine.into_iter().map(submission_pb).collect(),
                }
            })
            .collect();
        Ok(Response::new(pb::ContributorFolder {
            folder_id: found.folder.id.to_string(),
            folder_name: found.folder.name,
            organization_name: found.organization_name,
            email: found.email,
            expires_at: Some(timestamp(found.expires_at)),
            submissions_left: found.submissions_left,
            steps,
        }))
    }

    async fn create_submission(
        &self,
        request: Request<pb::CreateSubmissionRequest>,
    ) -> Reply<pb::SubmissionCreated> {
        let req = request.into_inner();
        let new = NewSubmission {
            folder_id: id(&req.folder_id)?,
            step_id: id(&req.step_id)?,
            client_id: req.client_id,
            name: req.name,
            media_type: req.media_type,
            mime_type: req.mime_type,
            file_size: req.file_size,
            sha256: req.sha256,
            captured_at: req.captured_at,
            latitude: req.latitude,
            longitude: req.longitude,
            duration_seconds: req.duration_seconds,
        };
        let (made, upload) = contribute::create_submission(
            &self.contributor_deps(),
            &req.token,
            &req.client_ip,
            new,
        )
        .await?;
        Ok(Response::new(pb::SubmissionCreated {
            submission: Some(submission_pb(made)),
            upload: match upload {
                Some(SubmissionUpload::Single) => "single".to_owned(),
                Some(SubmissionUpload::Multipart) => "multipart".to_owned(),
                None => String::new(),
            },
        }))
    }

    async fn submission_single_upload(
        &self,
        request: Request<pb::SubmissionRequest>,
    ) -> Reply<pb::SubmissionPost> {
        let req = request.into_inner();
        let (url, fields) = contribute::single_upload(
            &self.contributor_deps(),
            &req.token,
            &req.client_ip,
            id(&req.submission_id)?,
        )
        .await?;
        Ok(Response::new(pb::SubmissionPost {
            url,
            fields: fields.into_iter().collect(),
        }))
    }

    async fn start_submission_multipart(
        &self,
        request: Request<pb::SubmissionRequest>,
    ) -> Reply<pb::SubmissionParts> {
        let req = request.into_inner();
        let parts = contribute::start_multipart(
            &self.contributor_deps(),
            &req.token,
            &req.client_ip,
            id(&req.submission_id)?,
        )
        .await?;
        Ok(Response::new(pb::SubmissionParts {
            upload_id: parts.upload_id,
            part_size: parts.part_size,
            part_count: parts.part_count,
            urls: parts
                .urls
                .into_iter()
                .map(|(part_number, url)| pb::SubmissionPart { part_number, url })
                .collect(),
            completed_parts: parts.completed,
        }))
    }

    async fn finish_submission(
        &self,
        request: Request<pb::SubmissionRequest>,
    ) -> Reply<pb::Submission> {
        let req = request.into_inner();
        let done = contribute::finish(
            &self.contributor_deps(),
            &req.token,
            id(&req.submission_id)?,
        )
        .await?;
        Ok(Response::new(submission_pb(done)))
    }

    async fn update_submission(
        &self,
        request: Request<pb::UpdateSubmissionRequest>,
    ) -> Reply<pb::Submission> {
        let req = request.into_inner();
        let place = match (req.latitude, req.longitude) {
            (Some(lat), Some(lon)) => Some((lat, lon)),
            (None, None) => None,
            _ => {
                return Err(SharingError::invalid(
                    "latitude",
                    "Send both latitude and longitude, or neither.",
                )
                .into());
            }
        };
        let changed = contribute::update(
            &self.contributor_deps(),
            &req.token,
            id(&req.submission_id)?,
            req.name,
            place,
        )
        .await?;
        Ok(Response::new(submission_pb(changed)))
    }
}
