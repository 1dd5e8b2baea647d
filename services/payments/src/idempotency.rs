//! Idempotency keys of money-moving calls, owned by the gRPC edge: the key and the first answer are
//! written in the same transaction as the write they guard, so a retried request returns that
//! answer and moves no money. Requests with one key are serialised by an advisory lock on it, and
//! the same key with another request is refused.

use prost::Message;
use sha2::{Digest, Sha256};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    error::PaymentsError,
    store::idempotency_keys::{self, NewKey},
};
use evidentia_proto::payments::v1 as pb;

/// An answer stored under a key. A purchase from the wallet stores its answer in the statement of
/// its debit, which alone knows the balance the debit leaves: the balance is kept in a column
/// beside the answer, and `with_balance` puts it back into the answer read.
pub trait Answer: Message + Default {
    fn with_balance(self, _balance: i64) -> Self {
        self
    }
}

impl Answer for pb::PaymentIntent {}

impl Answer for pb::PayResponse {
    fn with_balance(mut self, balance: i64) -> Self {
        if let Some(account) = self.stored_account.as_mut() {
            account.balance = balance;
        }
        self
    }
}

/// One money-moving request under its key.
#[derive(Debug, Clone)]
pub struct Idempotent {
    user_id: Uuid,
    key: String,
    operation: &'static str,
    hash: String,
}

impl Idempotent {
    /// `request` is what the key guards (the edge leaves out what may change between retries).
    pub fn new(
        user_id: Uuid,
        key: &str,
        operation: &'static str,
        request: &impl Message,
    ) -> Result<Self, PaymentsError> {
        let key = evidentia_common::idempotency::parse_key(key)?.to_owned();
        let mut hasher = Sha256::new();
        hasher.update(operation.as_bytes());
        hasher.update([0]);
        hasher.update(request.encode_to_vec());
        Ok(Self {
            user_id,
            key,
            operation,
            hash: hex::encode(hasher.finalize()),
        })
    }

    pub fn key(&self) -> &str {
        &self.key
    }

    /// Takes the key's lock for the rest of `conn`'s transaction and returns the stored answer of
    /// an earlier request with the same key, if any.
    pub async fn begin<R: Answer>(
        &self,
        conn: &mut PgConnection,
    ) -> Result<Option<R>, PaymentsError> {
        idempotency_keys::lock(conn, self.user_id, &self.key).await?;
        self.answered(conn).await
    }

    /// The stored answer of an earlier request with the same key, if any, read without the lock:
    /// a request that finds none must still `begin` (one with the key may be in flight).
    pub async fn answered<R: Answer>(
        &self,
        conn: &mut PgConnection,
    ) -> Result<Option<R>, PaymentsError> {
        match idempotency_keys::find(conn, self.user_id, &self.key).await? {
            None => Ok(None),
            Some(stored)
                if stored.operation == self.operation && stored.request_hash == self.hash =>
            {
                let answer = R::decode(stored.response.as_slice()).map_err(anyhow::Error::from)?;
                Ok(Some(match stored.balance_after {
                    Some(balance) => answer.with_balance(balance),
                    None => answer,
                }))
            }
            Some(_) => Err(PaymentsError::KeyReused),
        }
    }

    /// The key with `answer`, to store in the transaction of the write it answers.
    pub fn entry(&self, answer: &impl Message) -> NewKey<'_> {
        NewKey {
            user_id: self.user_id,
            key: &self.key,
            operation: self.operation,
            request_hash: &self.hash,
            response: answer.encode_to_vec(),
        }
    }

    /// Stores the answer, in the transaction of the write it answers.
    pub async fn finish(
        &self,
        conn: &mut PgConnection,
        answer: &impl Message,
    ) -> Result<(), PaymentsError> {
        idempotency_keys::insert(conn, &self.entry(answer)).await?;
        Ok(())
    }
}
