//! The account's history (`action-logs/history/`): what is recorded (every sign-in, failed
//! sign-in, change, code sent, deletion and recovery), from where, and how it is queried.

use chrono::{DateTime, NaiveDate, Utc};
use evidentia_common::errors::FieldError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    SignUp,
    SignIn,
    SignInFailed,
    CodeSent,
    PasswordVerified,
    PasswordReset,
    PasswordChanged,
    NamesChanged,
    UsernameChanged,
    EmailChanged,
    PhoneChanged,
    AddressChanged,
    CommunicationMethodChanged,
    AccountDeleted,
    AccountRecovered,
    OrganizationCreated,
    ParticipantInvited,
    InviteRevoked,
    OrganizationJoined,
    ParticipantRemoved,
    ParticipantRoleChanged,
}

impl Action {
    pub const ALL: [Self; 21] = [
        Self::SignUp,
        Self::SignIn,
        Self::SignInFailed,
        Self::CodeSent,
        Self::PasswordVerified,
        Self::PasswordReset,
        Self::PasswordChanged,
        Self::NamesChanged,
        Self::UsernameChanged,
        Self::EmailChanged,
        Self::PhoneChanged,
        Self::AddressChanged,
        Self::CommunicationMethodChanged,
        Self::AccountDeleted,
        Self::AccountRecovered,
        Self::OrganizationCreated,
        Self::ParticipantInvited,
        Self::InviteRevoked,
        Self::OrganizationJoined,
        Self::ParticipantRemoved,
        Self::ParticipantRoleChanged,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::SignUp => "sign_up",
            Self::SignIn => "sign_in",
            Self::SignInFailed => "sign_in_failed",
            Self::CodeSent => "code_sent",
            Self::PasswordVerified => "password_verified",
            Self::PasswordReset => "password_reset",
            Self::PasswordChanged => "password_changed",
            Self::NamesChanged => "names_changed",
            Self::UsernameChanged => "username_changed",
            Self::EmailChanged => "email_changed",
            Self::PhoneChanged => "phone_changed",
            Self::AddressChanged => "address_changed",
            Self::CommunicationMethodChanged => "communication_method_changed",
            Self::AccountDeleted => "account_deleted",
            Self::AccountRecovered => "account_recovered",
            Self::OrganizationCreated => "organization_created",
            Self::ParticipantInvited => "participant_invited",
            Self::InviteRevoked => "invite_revoked",
            Self::OrganizationJoined => "organization_joined",
            Self::ParticipantRemoved => "participant_removed",
            Self::ParticipantRoleChanged => "participant_role_changed",
        }
    }

    /// What the history screen says.
    pub fn description(self) -> &'static str {
        match self {
            Self::SignUp => "Account created",
            Self::SignIn => "Signed in",
            Self::SignInFailed => "Failed sign-in",
            Self::CodeSent => "Confirmation code sent",
            Self::PasswordVerified => "Password confirmed",
            Self::PasswordReset => "Password reset",
            Self::PasswordChanged => "Password changed",
            Self::NamesChanged => "Name changed",
            Self::UsernameChanged => "Username changed",
            Self::EmailChanged => "Email changed",
            Self::PhoneChanged => "Phone number changed",
            Self::AddressChanged => "Address changed",
            Self::CommunicationMethodChanged => "Communication method changed",
            Self::AccountDeleted => "Account deleted",
            Self::AccountRecovered => "Account recovered",
            Self::OrganizationCreated => "Organization created",
            Self::ParticipantInvited => "Participant invited",
            Self::InviteRevoked => "Invite revoked",
            Self::OrganizationJoined => "Joined the organization",
            Self::ParticipantRemoved => "Participant removed",
            Self::ParticipantRoleChanged => "Participant role changed",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.as_str() == value)
    }
}

/// Where a request came from, as the gateway saw it.
#[derive(Debug, Clone, Default)]
pub struct Seen {
    pub ip: String,
    pub user_agent: String,
}

/// A validated history query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    pub page: u32,
    pub page_size: u32,
    pub action: Option<Action>,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
}

pub const DEFAULT_PAGE_SIZE: u32 = 20;
pub const MAX_PAGE_SIZE: u32 = 100;

impl Query {
    pub fn parse(
        page: u32,
        page_size: u32,
        action: &str,
        date_from: &str,
        date_to: &str,
    ) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let page = page.max(1);
        let page_size = match page_size {
            0 => DEFAULT_PAGE_SIZE,
            n if n > MAX_PAGE_SIZE => {
                errors.push(FieldError::new("page_size", "Maximum 100 per page"));
                MAX_PAGE_SIZE
            }
            n => n,
        };
        let action = match action.trim() {
            "" => None,
            value => {
                let parsed = Action::parse(value);
                if parsed.is_none() {
                    errors.push(FieldError::new("action", "Unknown action."));
                }
                parsed
            }
        };
        let mut date = |field: &str, value: &str| match value.trim() {
            "" => None,
            value => NaiveDate::parse_from_str(value, "%Y-%m-%d")
                .map_err(|_| errors.push(FieldError::new(field, "Enter a date as YYYY-MM-DD.")))
                .ok(),
        };
        let from = date("date_from", date_from);
        let to = date("date_to", date_to);
        if let (Some(from), Some(to)) = (from, to)
            && from > to
        {
            errors.push(FieldError::new(
                "date_to",
                "The end date must not be before the start date.",
            ));
        }
        if errors.is_empty() {
            Ok(Self {
                page,
                page_size,
                action,
                from,
                to,
            })
        } else {
            Err(errors)
        }
    }

    /// The first instant the query covers (midnight UTC of its first day).
    pub fn since(&self) -> Option<DateTime<Utc>> {
        self.from
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .map(|d| d.and_utc())
    }

    /// The first instant after the query (midnight UTC after its last day).
    pub fn before(&self) -> Option<DateTime<Utc>> {
        self.to
            .and_then(|d| d.succ_opt())
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .map(|d| d.and_utc())
    }

    /// How many entries the pages before this one hold.
    pub fn offset(&self) -> i64 {
        i64::from(self.page - 1) * i64::from(self.page_size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_parses_back() {
        for action in Action::ALL {
            assert_eq!(Action::parse(action.as_str()), Some(action));
        }
    }

    #[test]
    fn queries_default_and_reject_bad_values() {
        let q = Query::parse(0, 0, "", "", "").expect("defaults");
        assert_eq!(
            (q.page, q.page_size, q.action),
            (1, DEFAULT_PAGE_SIZE, None)
        );
        let errors = Query::parse(1, 500, "dance", "2026-13-01", "").expect_err("bad");
        let fields: Vec<_> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["page_size", "action", "date_from"]);
        let errors = Query::parse(1, 10, "sign_in", "2026-11-21", "2026-11-01").expect_err("order");
        assert_eq!(errors[0].field, "date_to");
    }
}
