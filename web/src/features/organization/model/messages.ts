//! The organization screens' own messages (the spec gives none for them: docs decisions).
export const FAILED_MESSAGE = 'Something went wrong. Please try again.';
export const inviteSentMessage = (sentTo: string) => `Invite sent to ${sentTo}.`;
export const INVITE_REVOKED = 'Invite was revoked.';
export const PARTICIPANT_REMOVED = 'Participant was removed.';
export const roleChangedMessage = (name: string, role: string) => `${name} is now ${role}.`;
export const NOT_AN_ORGANIZATION = 'This is for organization accounts.';
export const NO_CAPTURES = 'No organization captures yet.';
