//! Sharing's use-cases, one module each: domain values in and out, only the dependencies each
//! uses.

pub mod access;
pub mod chat;
pub mod contribute;
pub mod create_share;
pub mod custody;
pub mod futuregram;
pub mod links;
pub mod notify_chats;
pub mod owner;
pub mod packet;
pub mod purge;
pub mod release_futuregrams;
pub mod render_copies;
pub mod send_links;
pub mod verify;
pub mod view;
