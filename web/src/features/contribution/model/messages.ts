//! The contributor screens' own words (the spec gives none beyond §4's 'rejected': docs/web.md).
export const FAILED_MESSAGE = 'Something went wrong. Please try again.';
export const NO_LINK = 'This page needs the link from your invitation. Open the link you were sent again.';
export const PROVE_EMAIL_TITLE = 'Prove your e-mail';
export const PROVE_EMAIL_TEXT = 'Enter the e-mail address your invitation was sent to. We will send it a 6-digit code.';
export const codeSentMessage = (sentTo: string) => `We sent a code to ${sentTo}.`;
export const STATUS_LABELS: Record<string, string> = {
  awaiting_upload: 'Awaiting upload',
  uploaded: 'Uploaded, checking',
  verified: 'Verified',
  rejected: 'Rejected',
};
export const statusLabel = (status: string) => STATUS_LABELS[status] ?? status;
export const NO_SUBMISSIONS = 'Nothing sent for this step yet.';
export const REJECTED = 'Rejected';
/** A contributor's file lives in the page only: the connection's loss is told as it is. */
export const CONNECTION_LOST_HERE = 'The connection was lost. Keep this page open and press Retry once you are back online.';

/** The contributor's own files fill the step. */
/** The link's submissions are all used (the service's words for it). */
export const LINK_USED_UP = 'This link has reached its number of submissions.';
export const STEP_FULL = 'This step has all the files it takes. Thank you.';
