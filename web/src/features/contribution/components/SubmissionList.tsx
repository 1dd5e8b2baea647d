//! A step's submissions of the contributor: name, size, state (awaiting upload, uploaded and
//! being checked, verified, rejected with the reason), and Rename for a file that was not rejected
//! (the organization's review, which the contributor does not see, may still refuse it).
import { formatFileSize, truncateName } from '../../../lib/format/format';
import type { Contribution } from '../api/contributionApi';
import { NO_SUBMISSIONS, statusLabel } from '../model/messages';

export function SubmissionList({ submissions, onRename }: { submissions: readonly Contribution[]; onRename?: (submission: Contribution) => void }) {
  if (submissions.length === 0) return <p className="muted contribution__none">{NO_SUBMISSIONS}</p>;
  return (
    <ul className="contribution-list" aria-label="Your submissions">
      {submissions.map((submission) => (
        <li key={submission.id} className="contribution-item" data-testid="submission" data-status={submission.status}>
          <span className={`contribution-item__icon contribution-item__icon--${submission.mediaType}`} aria-hidden="true" />
          <div className="contribution-item__body">
            <span className="contribution-item__name" title={submission.name}>
              {truncateName(submission.name)}
            </span>
            <span className="muted contribution-item__meta">{formatFileSize(submission.fileSize)}</span>
            {submission.status === 'rejected' && submission.rejectionReason && (
              <span className="contribution-item__reason">{submission.rejectionReason}</span>
            )}
          </div>
          <span className={`contribution-badge contribution-badge--${submission.status}`}>{statusLabel(submission.status)}</span>
          {onRename && submission.status !== 'rejected' && (
            <button type="button" className="link contribution-item__rename" aria-label={`Rename ${submission.name}`} onClick={() => onRename(submission)}>
              Rename
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
