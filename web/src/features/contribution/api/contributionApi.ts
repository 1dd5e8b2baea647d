//! The anonymous contributor's calls (spec §7 "Sharing": the verification of the contributor's
//! e-mail, the folder's details and contents, a step's submissions, the upload of a submission,
//! and renaming one while the organization has not reviewed it). No bearer: after the e-mail is proven every call carries the contribution token
//! in the header X-Contribution-Token. The types are written by hand in the contract's shapes
//! until the gateway's OpenAPI document has them (`npm run gen:api`).
import { api } from '../../../lib/api/api';
import type { ContributionStatus } from '../../../lib/upload/contribution';

export const CONTRIBUTION_TOKEN_HEADER = 'X-Contribution-Token';

export type MediaKind = 'image' | 'video' | 'audio';

/** One submission of the contributor (camelCase, as the API gives it). */
export interface Contribution {
  id: string;
  stepId: string;
  name: string;
  mediaType: MediaKind | string;
  mimeType: string;
  fileSize: number;
  sha256: string;
  status: ContributionStatus | string;
  rejectionReason?: string | null;
  capturedAt?: string | null;
  receivedAt?: string | null;
  verifiedAt?: string | null;
}

export interface ContributionStep {
  id: string;
  name: string;
  instructions: string;
  mediaTypes: (MediaKind | string)[];
  minFiles: number;
  maxFiles: number;
}

export interface ContributionCodeSent {
  codeId: string;
  sentTo: string;
  expiresIn: number;
}

export interface ContributionCodeChecked {
  contributionToken: string;
  folderId: string;
  expiresAt: string;
}

export interface ContributionFolderDetails {
  folderId: string;
  folderName: string;
  organizationName: string;
  email: string;
  expiresAt: string;
  submissionsLeft: number;
}

export interface ContributionFolderContents {
  steps: (ContributionStep & { submissions: Contribution[] })[];
}

export interface ContributionStepContents {
  step: ContributionStep;
  submissions: Contribution[];
}

export interface ContributionCreated {
  evidence: Contribution;
  upload: 'single' | 'multipart';
}

export interface ContributionPresignedPost {
  presignedUploadUrl: { url: string; fields: Record<string, string> };
}

export interface ContributionMultipart {
  uploadId: string;
  partSize: number;
  partCount: number;
  presignedUrls: { partNumber: number; url: string }[];
  completedParts: number[];
}

export interface ContributionCreateRequest {
  client_id: string;
  name: string;
  media_type: string;
  mime_type: string;
  file_size: number;
  sha256: string;
  captured_at: string;
  latitude?: number;
  longitude?: number;
  duration?: number;
}

/** A call made with the contribution token. */
interface WithToken {
  token: string;
}

const q = encodeURIComponent;
const carry = (token: string) => ({ [CONTRIBUTION_TOKEN_HEADER]: token });

const contributionTags = api.enhanceEndpoints({ addTagTypes: ['Contribution'] });

export const contributionApi = contributionTags.injectEndpoints({
  endpoints: (build) => ({
    sendContributionCode: build.mutation<ContributionCodeSent, { link: string; email: string }>({
      query: (body) => ({ url: 'sharing/anonymous/verification/send/', method: 'POST', body }),
    }),
    checkContributionCode: build.mutation<ContributionCodeChecked, { codeId: string; confirmationCode: string }>({
      query: ({ codeId, confirmationCode }) => ({
        url: `sharing/anonymous/verification/${q(codeId)}/check/`,
        method: 'POST',
        body: { confirmation_code: confirmationCode },
      }),
    }),
    contributionDetails: build.query<ContributionFolderDetails, WithToken & { folderId: string }>({
      query: ({ folderId, token }) => ({ url: `sharing/folder/${q(folderId)}/details/`, headers: carry(token) }),
      providesTags: (_r, _e, { folderId }) => [{ type: 'Contribution', id: `details:${folderId}` }],
    }),
    contributionContents: build.query<ContributionFolderContents, WithToken & { folderId: string }>({
      query: ({ folderId, token }) => ({ url: `sharing/folder/${q(folderId)}/contents/`, headers: carry(token) }),
      providesTags: (_r, _e, { folderId }) => [{ type: 'Contribution', id: `folder:${folderId}` }],
    }),
    contributionStep: build.query<ContributionStepContents, WithToken & { folderId: string; stepId: string }>({
      query: ({ folderId, stepId, token }) => ({ url: `sharing/evidence/${q(folderId)}/${q(stepId)}/`, headers: carry(token) }),
      providesTags: (_r, _e, { folderId }) => [{ type: 'Contribution', id: `folder:${folderId}` }],
    }),
    createContribution: build.mutation<ContributionCreated, WithToken & { folderId: string; stepId: string; body: ContributionCreateRequest }>({
      query: ({ folderId, stepId, token, body }) => ({
        url: `sharing/anonymous/proofs/${q(folderId)}/${q(stepId)}/create/`,
        method: 'POST',
        body,
        headers: carry(token),
      }),
    }),
    contributionUploadUrl: build.mutation<ContributionPresignedPost, WithToken & { evidenceId: string }>({
      // The path's doubled 'proofs' is the spec's (§7).
      query: ({ evidenceId, token }) => ({
        url: `sharing/anonymous/proofs/proofs/${q(evidenceId)}/single-upload-url/create/`,
        method: 'POST',
        headers: carry(token),
      }),
    }),
    startContributionMultipart: build.mutation<ContributionMultipart, WithToken & { evidenceId: string }>({
      query: ({ evidenceId, token }) => ({
        url: `sharing/anonymous/proofs/${q(evidenceId)}/multipart-upload/start/`,
        method: 'POST',
        headers: carry(token),
      }),
    }),
    renameContribution: build.mutation<Contribution, WithToken & { evidenceId: string; folderId: string; name: string }>({
      query: ({ evidenceId, token, name }) => ({
        url: `sharing/anonymous/proofs/${q(evidenceId)}/update/`,
        method: 'PUT',
        body: { name },
        headers: carry(token),
      }),
      invalidatesTags: (_r, _e, { folderId }) => [{ type: 'Contribution', id: `folder:${folderId}` }],
    }),
    finishContribution: build.mutation<Contribution, WithToken & { evidenceId: string; folderId: string }>({
      query: ({ evidenceId, token }) => ({
        url: `sharing/anonymous/proofs/${q(evidenceId)}/multipart-upload/finish/`,
        method: 'POST',
        headers: carry(token),
      }),
      invalidatesTags: (_r, _e, { folderId }) => [
        { type: 'Contribution', id: `folder:${folderId}` },
        { type: 'Contribution', id: `details:${folderId}` },
      ],
    }),
  }),
});

export const {
  useSendContributionCodeMutation,
  useCheckContributionCodeMutation,
  useContributionDetailsQuery,
  useContributionContentsQuery,
  useContributionStepQuery,
  useRenameContributionMutation,
} = contributionApi;
