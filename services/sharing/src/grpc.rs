//! The gRPC edge of sharing: proto in, domain values to the use-cases, domain results back to
//! proto. Nothing else happens here.

use evidentia_common::{
    contact::{Email, PhoneNumber},
    errors::FieldError,
    grpc::Caller,
    time::timestamp,
};
use evidentia_proto::sharing::v1::{
    self as pb, sharing_service_server::SharingService as SharingRpc,
};
use prost::Message;
use sha2::{Digest, Sha256};
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::{
    app::{
        access::{self, Pass},
        chat::{self, Draft, Participant},
        create_share::{self, NewShare},
        owner::{self, ItemCheck, ItemCustody, ShareView},
        verify::{self, Lookup, Verification},
        view::{self, SharedFolder},
    },
    directory,
    domain::{CopyType, MAX_RECIPIENTS, Recipient},
    error::SharingError,
    state::AppState,
    store::{chat::ThreadSummary, custody::EntryRow},
};

pub struct SharingApi {
    pub state: AppState,
}

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

impl SharingApi {
    /// A recipient when an access token comes, else the signed-in owner.
    async fn participant(
        &self,
        metadata: &tonic::metadata::MetadataMap,
        access_token: &str,
        share_id: &str,
    ) -> Result<Participant, Status> {
        let share_id = id(share_id)?;
        if access_token.is_empty() {
            let owner = Caller::from_metadata(metadata).require_user()?;
            Ok(chat::as_owner(&self.state.pool, owner, share_id).await?)
        } else {
            Ok(
                chat::as_recipient(&self.state.pool, &self.state.links, access_token, share_id)
                    .await?,
            )
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
    async fn get_sharer_identity(
        &self,
        request: Request<pb::GetSharerIdentityRequest>,
    ) -> Reply<pb::SharerIdentity> {
        let user_id = Caller::from_metadata(request.metadata()).require_user()?;
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
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let req = request.into_inner();
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
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
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
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
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
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
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
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
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

    async fn check_folder_custody(
        &self,
        request: Request<pb::CheckFolderCustodyRequest>,
    ) -> Reply<pb::CustodyCheck> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
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
            copy_type(req.copy_type)?,
        )
        .await?;
        Ok(Response::new(folder_pb(folder)))
    }

    async fn record_copy_event(
        &self,
        request: Request<pb::RecordCopyEventRequest>,
    ) -> Reply<pb::RecordCopyEventResponse> {
        let req = request.into_inner();
        view::record_event(
            &self.state.pool,
            &self.state.links,
            &pass(&req.access_token, &req.link)?,
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
        let (metadata, _, req) = request.into_parts();
        let who = self
            .participant(&metadata, &req.access_token, &req.share_id)
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
        let (metadata, _, req) = request.into_parts();
        let who = self
            .participant(&metadata, &req.access_token, &req.share_id)
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
        let (metadata, _, req) = request.into_parts();
        let who = self.participant(&metadata, "", &req.share_id).await?;
        chat::archive(&self.state.pool, &who, req.confirm).await?;
        Ok(Response::new(pb::ArchiveChatResponse {}))
    }

    async fn list_chats(&self, request: Request<pb::ListChatsRequest>) -> Reply<pb::ChatList> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let chats = chat::list(&self.state.pool, owner).await?;
        Ok(Response::new(pb::ChatList {
            chats: chats.into_iter().map(summary_pb).collect(),
        }))
    }
}
