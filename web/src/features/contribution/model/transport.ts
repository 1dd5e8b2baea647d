//! The contributor's upload transport: lib/upload's ContributionTransport over this feature's
//! RTK Query calls, with the contribution token of the folder (failures in words, as the owner's).
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { ContributionTransport } from '../../../lib/upload/contribution';
import { call } from '../../../lib/upload/transport';
import { contributionApi } from '../api/contributionApi';

type Dispatch = ThunkDispatch<unknown, unknown, UnknownAction>;

export function contributionTransport(dispatch: Dispatch, target: { folderId: string; stepId: string; token: string }): ContributionTransport {
  const e = contributionApi.endpoints;
  const { folderId, stepId, token } = target;
  return {
    create: (body) => call(dispatch(e.createContribution.initiate({ folderId, stepId, token, body }))),
    singleUploadUrl: async (evidenceId) => (await call(dispatch(e.contributionUploadUrl.initiate({ evidenceId, token })))).presignedUploadUrl,
    startMultipart: (evidenceId) => call(dispatch(e.startContributionMultipart.initiate({ evidenceId, token }))),
    finish: (evidenceId) => call(dispatch(e.finishContribution.initiate({ evidenceId, token, folderId }))),
  };
}
